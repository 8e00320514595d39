// A lab configuration's backend that names an external engine
// ("uci:COMMAND[,KEY=VALUE...]", as a match's players are named): the lab's
// runner (lab/timing) lays out and references such configurations, the
// games product (lab/games/external_backend.h) runs them.
#pragma once

#include <string_view>

namespace xq::lab::common {

inline bool is_external_engine(std::string_view backend) { return backend.substr(0, 4) == "uci:"; }

}  // namespace xq::lab::common
