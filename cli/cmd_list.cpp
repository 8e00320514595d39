// xqlab list: names what the laboratory can run (parallel/catalog.h): hash
// schemes, backends, the valid pairs, the backend parameters and the
// engine's tunable parameters (search/tunables.h).
#include <cstdio>
#include <memory>

#include "cli/commands.h"
#include "cli/options.h"
#include "lab/records/json.h"
#include "parallel/catalog.h"

namespace xq::cli {
namespace {

void print_text(const Catalog& c) {
  for (std::size_t i = 0; i < c.sections.size(); ++i) {
    std::printf("%s%s:\n", i ? "\n" : "", c.sections[i].title.c_str());
    for (const CatalogItem& item : c.sections[i].items)
      std::printf("  %-12s %s\n", item.name.c_str(), item.summary.c_str());
  }
  std::printf("\nvalid combinations (--backend with --hash):\n");
  std::string backend, line;
  for (const auto& [b, s] : c.pairs) {
    if (b != backend && !backend.empty()) std::printf("  %-12s %s\n", backend.c_str(), line.c_str());
    if (b != backend) line.clear();
    backend = b;
    line += (line.empty() ? "" : ", ") + s;
  }
  if (!backend.empty()) std::printf("  %-12s %s\n", backend.c_str(), line.c_str());
  std::printf("\nbackend parameters (--param NAME=VALUE):\n");
  for (const CatalogParam& p : c.params) {
    std::string users;
    for (const std::string& b : p.backends) users += (users.empty() ? "" : ",") + b;
    std::printf("  %-22s %-24s default %-8s [%s] %s\n", p.name.c_str(), p.range.c_str(),
                p.default_value.c_str(), users.c_str(), p.summary.c_str());
  }
  std::printf("\ntunable parameters (engine options; match xqlab:NAME=V or tunables=FILE;"
              " evolve, spsa):\n");
  for (const CatalogTunable& t : c.tunables) {
    const std::string range = std::to_string(t.min) + ".." + std::to_string(t.max);
    std::printf("  %-22s %-9s %-10s default %-6d %s\n", t.name.c_str(), t.group.c_str(),
                range.c_str(), t.default_value, t.summary.c_str());
  }
}

}  // namespace

Command add_list(CLI::App& root) {
  auto json = std::make_shared<bool>(false);
  CLI::App* app = root.add_subcommand("list", "list hash schemes, backends, valid pairs and parameters");
  app->add_flag("--json", *json, "one JSON object on stdout");
  return {app, [json] {
            const Catalog c = catalog();
            if (*json) print_json(Json(c));
            else print_text(c);
            return 0;
          }};
}

}  // namespace xq::cli
