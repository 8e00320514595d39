// What the laboratory can run, as `xqlab list` shows it: hash schemes,
// backends, the valid (backend, scheme) pairs and the backend parameters.
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

struct Catalog {
  std::vector<CatalogSection> sections;  // hash schemes, backends
  std::vector<std::pair<std::string, std::string>> pairs;  // (backend, scheme)
  std::vector<CatalogParam> params;
};

Catalog catalog();

}  // namespace xq
