#include "parallel/catalog.h"

#include <string>

#include "hashing/schemes.h"
#include "parallel/backend.h"
#include "parallel/params.h"
#include "search/tunables.h"

namespace xq {

namespace {

// A scheme's line: its summary, its entries per MiB (what a size buys) and
// its key check when that is shorter than the key.
std::string scheme_line(std::string_view name) {
  return visit_scheme(name, [](auto tag) {
    using T = typename decltype(tag)::type;
    std::string s(T::kSummary);
    s += " [" + std::to_string((std::size_t{1} << 20) / T::kBucketBytes * T::kBucketSlots) +
         " entries/MiB";
    if (T::kKeyCheckBits < 64) s += ", " + std::to_string(T::kKeyCheckBits) + "-bit key check";
    return s + "]";
  });
}

}  // namespace

Catalog catalog() {
  Catalog c;
  CatalogSection hash{"hash", "hash schemes (--hash)", {}};
  for (std::string_view name : kSchemeNames)
    hash.items.push_back({std::string(name), scheme_line(name)});
  // Kept apart so that a script iterating "hash" never runs fault injection.
  CatalogSection test_hash{"test_hash",
                           "test only: fault injection (tests build backends with these)", {}};
  for (std::string_view name : kTestSchemeNames)
    test_hash.items.push_back({std::string(name), scheme_line(name)});
  CatalogSection back{"backends", "parallel backends (--backend)", {}};
  for (const BackendInfo& b : backends())
    back.items.push_back({std::string(b.name), std::string(b.summary) + " [default hash: " +
                                                   std::string(b.default_hash) + "]"});
  c.sections = {hash, test_hash, back};
  for (const BackendInfo& b : backends())
    for (std::string_view scheme : kSchemeNames)
      if (b.supports(scheme)) c.pairs.emplace_back(std::string(b.name), std::string(scheme));
  const BackendConfig defaults;
  for (const BackendParam& p : backend_params()) {
    CatalogParam cp{std::string(p.name), std::string(p.summary), p.range_text(),
                    p.value_text(defaults), {}};
    for (std::string_view b : p.backends) cp.backends.emplace_back(b);
    c.params.push_back(std::move(cp));
  }
  for (const TunableParam& t : tunable_params())
    c.tunables.push_back({std::string(t.name), std::string(t.group), std::string(t.help), t.min,
                          t.max, t.default_value()});
  return c;
}

}  // namespace xq
