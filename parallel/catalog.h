// What the laboratory can run, as `xqlab list` shows it: hash schemes,
// backends, the valid (backend, scheme) pairs, the backend parameters and
// the engine's tunable parameters.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace xq {

struct CatalogItem {
  std::string name;
  std::string summary;
};

struct CatalogSection {
  std::string key;    // JSON key
  std::string title;  // text heading
  std::vector<CatalogItem> items;
};

struct CatalogParam {
  std::string name, summary, range, default_value;
  std::vector<std::string> backends;
};

// A tunable parameter of the engine (search/tunables.h).
struct CatalogTunable {
  std::string name, group, summary;
  int min = 0, max = 0, default_value = 0;
};

struct Catalog {
  std::vector<CatalogSection> sections;  // hash schemes, backends
  std::vector<std::pair<std::string, std::string>> pairs;  // (backend, scheme)
  std::vector<CatalogParam> params;
  std::vector<CatalogTunable> tunables;
};

Catalog catalog();

}  // namespace xq
