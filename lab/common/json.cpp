#include "lab/common/json.h"

namespace xq::lab::common {

std::string dump_line(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace xq::lab::common
