#include "hashing/replacement.h"

#include <stdexcept>
#include <string>

namespace xq {

Replacement parse_replacement(std::string_view name) {
  if (name == "depth") return Replacement::DepthPreferred;
  if (name == "always") return Replacement::AlwaysReplace;
  if (name == "twotier") return Replacement::TwoTier;
  throw std::invalid_argument("unknown replacement policy '" + std::string(name) +
                              "' (known: depth, always, twotier)");
}

std::string_view replacement_name(Replacement r) {
  switch (r) {
    case Replacement::DepthPreferred: return "depth";
    case Replacement::AlwaysReplace: return "always";
    case Replacement::TwoTier: return "twotier";
  }
  return "?";
}

}  // namespace xq
