// The lab's JSON primitives: the document type (nlohmann::ordered_json, keys
// in insertion order) and its one-line form. The JSON form of each result
// lives beside the product that makes it (a to_json found by argument-
// dependent lookup, so `Json j = result;` works): the library's results in
// lab/records/json.h, the lab document in lab/timing/document.h, a match in
// lab/games/match.h. The report reads these documents with nothing more.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace xq {

using Json = nlohmann::ordered_json;

}  // namespace xq

namespace xq::lab::common {

// One line of text; invalid UTF-8 is replaced rather than thrown on.
std::string dump_line(const Json& j);

}  // namespace xq::lab::common
