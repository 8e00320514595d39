// The format mini-language of docs/targets.json (docs/results/targets-schema.md,
// "compute"): literal text with placeholders `{path}` or `{path:spec}` filled
// from one selected JSON element. The recorded figure texts were written with
// Python's format(); snprintf rounds the same binary value the same way, so a
// recomputed text equals the recorded one character for character.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "lab/common/json.h"

namespace xq::lab::report::targets {

// Bad input in targets.json or in a document it names: one line, no newline.
// std::invalid_argument is the library's word for bad input (exit status 2).
struct TargetError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// One value through one spec: "" (the value as text, strings unquoted),
// ".Nf", "+.Nf", ".Np" (times 100), ",d", "d". A fixed value that prints as
// -0.0... prints without its sign; "d" and ",d" round a fraction half away
// from zero. Throws TargetError for an unknown spec or a value the spec
// cannot print (a string through ".3f").
std::string format_value(const Json& value, std::string_view spec);

// What a placeholder's path names, or nullptr when it names nothing.
using PathLookup = std::function<const Json*(std::string_view path)>;

// `format` with every placeholder replaced. Throws TargetError naming the
// placeholder when it is malformed (an unclosed brace, an empty path), names
// nothing, or its spec does not apply.
std::string fill_format(std::string_view format, const PathLookup& lookup);

// The value at a dot-separated path below `root` ("elo_ci.0": key elo_ci,
// then index 0), or nullptr.
const Json* json_at_path(const Json& root, std::string_view path);

}  // namespace xq::lab::report::targets
