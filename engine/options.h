// The engine's options, as a protocol shows and sets them (UCI/UCCI "setoption
// name N value V"): each has a type, a default and a range or a list of
// choices, and maps to the backend's configuration (BackendConfig) or to the
// engine itself (Move Overhead, Clear Hash). Names are matched
// case-insensitively, as UCI asks.
//
// Backend parameters (min_split_depth, max_splits_per_thread, omp_dynamic)
// are listed here by hand, one row per BackendConfig field, until the
// parallel module describes its parameters itself.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parallel/backend.h"
#include "search/options.h"
#include "search/tunables.h"

namespace xq {

enum class OptionType : std::uint8_t { Spin, Check, Combo, Button, String };

struct OptionSpec {
  std::string name;
  OptionType type = OptionType::Spin;
  std::string default_value;
  std::int64_t min = 0, max = 0;      // Spin only
  std::vector<std::string> choices;  // Combo only
  std::string help;
};

// What applying an option asks of the engine.
enum class OptionEffect : std::uint8_t {
  None,     // nothing to do (Move Overhead)
  Rebuild,  // the backend must be rebuilt with backend_config()
  Clear,    // the backend must forget what it learnt (Clear Hash)
  Eval,     // the evaluation's weights changed: set them (one set per
            // process, board/eval.h), refresh the root position, rebuild
};

// The value of HashScheme meaning "the backend's own default scheme".
inline constexpr std::string_view kDefaultScheme = "default";

class EngineOptions {
 public:
  EngineOptions();

  // Every option, in the order a protocol should list them.
  static const std::vector<OptionSpec>& specs();

  // Validates and applies one option. Throws std::invalid_argument with one
  // line naming the option and the bad value; on error nothing changes.
  // Backend and HashScheme are checked as a pair: a backend that cannot use
  // the chosen scheme refuses it.
  OptionEffect set(std::string_view name, std::string_view value);
  // The current value as text (as set() accepts it); throws for unknown names.
  std::string get(std::string_view name) const;

  const std::string& backend() const { return backend_; }
  // The backend's configuration, HashScheme "default" resolved.
  BackendConfig backend_config() const;
  std::int64_t move_overhead_ms() const { return move_overhead_ms_; }
  // The search profile (search/options.h, profile_features): "thesis" or "modern".
  const std::string& profile() const { return profile_; }
  // The search's features: the Features option's list when it is not
  // "profile" (its default), else the Profile option's set.
  Features features() const;
  // The tunable parameters (search/tunables.h), each an option by its name.
  const Tunables& tunables() const { return tunables_; }

 private:
  std::string backend_ = "serial";
  std::string scheme_ = std::string(kDefaultScheme);
  BackendConfig config_;  // its hash field is ignored: scheme_ decides
  std::int64_t move_overhead_ms_ = 10;
  std::string profile_ = "thesis";
  std::string features_ = "profile";
  Tunables tunables_;
};

}  // namespace xq
