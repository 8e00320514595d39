// xqlab list: names what the laboratory can run (parallel/catalog.h): hash
// schemes, backends, the valid pairs, the backend parameters and the
// engine's tunable parameters (search/tunables.h).
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/options.h"
#include "lab/records/json.h"
#include "parallel/catalog.h"

namespace xq::cli {
namespace {

// printf appended to a std::string.
template <class... A>
void appendf(std::string& out, const char* format, A... args) {
  const int n = std::snprintf(nullptr, 0, format, args...);
  if (n <= 0) return;
  const std::size_t at = out.size();
  out.resize(at + static_cast<std::size_t>(n) + 1);
  std::snprintf(out.data() + at, static_cast<std::size_t>(n) + 1, format, args...);
  out.resize(at + static_cast<std::size_t>(n));
}

}  // namespace

std::string list_text() {
  const Catalog c = catalog();
  std::string out;
  for (std::size_t i = 0; i < c.sections.size(); ++i) {
    appendf(out, "%s%s:\n", i ? "\n" : "", c.sections[i].title.c_str());
    for (const CatalogItem& item : c.sections[i].items)
      appendf(out, "  %-12s %s\n", item.name.c_str(), item.summary.c_str());
  }
  appendf(out, "\nvalid combinations (--backend with --hash):\n");
  std::string backend, line;
  for (const auto& [b, s] : c.pairs) {
    if (b != backend && !backend.empty())
      appendf(out, "  %-12s %s\n", backend.c_str(), line.c_str());
    if (b != backend) line.clear();
    backend = b;
    line += (line.empty() ? "" : ", ") + s;
  }
  if (!backend.empty()) appendf(out, "  %-12s %s\n", backend.c_str(), line.c_str());
  appendf(out, "\nbackend parameters (--param NAME=VALUE):\n");
  for (const CatalogParam& p : c.params) {
    std::string users;
    for (const std::string& b : p.backends) users += (users.empty() ? "" : ",") + b;
    appendf(out, "  %-22s %-24s default %-8s [%s] %s\n", p.name.c_str(), p.range.c_str(),
            p.default_value.c_str(), users.c_str(), p.summary.c_str());
  }
  appendf(out, "\ntunable parameters (engine options; match xqlab:NAME=V or tunables=FILE;"
               " evolve, spsa):\n");
  for (const CatalogTunable& t : c.tunables) {
    const std::string range = std::to_string(t.min) + ".." + std::to_string(t.max);
    appendf(out, "  %-22s %-9s %-10s default %-6d %s\n", t.name.c_str(), t.group.c_str(),
            range.c_str(), t.default_value, t.summary.c_str());
  }
  return out;
}

Command add_list(CLI::App& root) {
  auto json = std::make_shared<bool>(false);
  CLI::App* app = root.add_subcommand("list", "list hash schemes, backends, valid pairs and parameters");
  app->add_flag("--json", *json, "one JSON object on stdout");
  return {app, [json] {
            const Catalog c = catalog();
            if (*json) print_json(Json(c));
            else std::fputs(list_text().c_str(), stdout);
            return 0;
          }};
}

}  // namespace xq::cli
