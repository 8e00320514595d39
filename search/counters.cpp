#include "search/counters.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

namespace xq {
namespace {

std::vector<DeclaredRef>& registry() {
  static std::vector<DeclaredRef> r;
  return r;
}

// Declarations run during static initialisation, where an exception would
// end the program with no message: a bad one is reported and stops it.
[[noreturn]] void refuse(const char* name, const char* why) {
  std::fprintf(stderr, "xqlab: declared counter '%s': %s\n", name, why);
  std::abort();
}

}  // namespace

template <class T>
Declared<T>::Declared(const CounterSpec& spec) : spec_(spec), slot_(0) {
  constexpr bool seconds = std::is_same_v<T, double>;
  if (*spec_.name == '\0' || *spec_.group == '\0') refuse(spec_.name, "no name or group");
  if (find_declared(spec_.name)) refuse(spec_.name, "declared twice");
  if (spec_.show == Show::Ratio && *spec_.of == '\0')
    refuse(spec_.name, "shown as a ratio of no counter");
  int used = 0;
  for (const DeclaredRef& d : registry()) used += d.seconds == seconds;
  if (used >= (seconds ? kDeclaredSecondsSlots : kDeclaredCountSlots))
    refuse(spec_.name, "no slot left (raise kDeclaredCountSlots / kDeclaredSecondsSlots)");
  slot_ = used;
  registry().push_back(DeclaredRef{&spec_, seconds, slot_});
}

template class Declared<std::uint64_t>;
template class Declared<double>;

const std::vector<DeclaredRef>& declared_counters() { return registry(); }

const DeclaredRef* find_declared(std::string_view name) {
  for (const DeclaredRef& d : registry())
    if (name == d.spec->name) return &d;
  return nullptr;
}

const char* show_name(Show s) {
  switch (s) {
    case Show::Total: return "total";
    case Show::PerSearch: return "per_search";
    case Show::PerSecond: return "per_second";
    case Show::Ratio: return "ratio";
    case Show::ThreadShare: return "thread_share";
    case Show::SerialNodesOver: return "serial_nodes_over";
  }
  return "total";
}

}  // namespace xq
