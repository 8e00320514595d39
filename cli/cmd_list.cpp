// xqlab list: names what the laboratory can run. Each kind of thing is one
// section (a JSON key holding an array of names, and a titled block of
// "name  summary" lines in text); to list something new, add a section
// function and one line in sections().
#include <cstdio>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"
#include "hashing/schemes.h"
#include "parallel/backend.h"

namespace xq::cli {
namespace {

struct ListItem {
  std::string name;
  std::string summary;
};

struct ListSection {
  std::string key;    // JSON key
  std::string title;  // text heading
  std::vector<ListItem> items;
};

ListSection hash_section() {
  ListSection s{"hash", "hash schemes (--hash)", {}};
  for (std::string_view name : kSchemeNames)
    s.items.push_back({std::string(name), std::string(scheme_summary(name))});
  return s;
}

// Kept apart so that a script iterating "hash" never runs fault injection.
ListSection test_hash_section() {
  ListSection s{"test_hash", "test only: fault injection (tests build backends with these)", {}};
  for (std::string_view name : kTestSchemeNames)
    s.items.push_back({std::string(name), std::string(scheme_summary(name))});
  return s;
}

ListSection backend_section() {
  ListSection s{"backends", "parallel backends (--backend)", {}};
  for (const BackendInfo& b : backends())
    s.items.push_back({std::string(b.name), std::string(b.summary) + " [default hash: " +
                                                std::string(b.default_hash) + "]"});
  return s;
}

std::vector<ListSection> sections() {
  return {hash_section(), test_hash_section(), backend_section()};
}

// The (backend, scheme) combinations that can run: JSON "pairs", and one
// line per backend in text.
std::vector<std::pair<std::string, std::string>> valid_pairs() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const BackendInfo& b : backends())
    for (std::string_view scheme : kSchemeNames)
      if (b.supports(scheme)) out.emplace_back(std::string(b.name), std::string(scheme));
  return out;
}

void print_json(const std::vector<ListSection>& all) {
  std::printf("{");
  for (std::size_t i = 0; i < all.size(); ++i) {
    std::printf("%s\"%s\": [", i ? ", " : "", json_escape(all[i].key).c_str());
    for (std::size_t j = 0; j < all[i].items.size(); ++j)
      std::printf("%s\"%s\"", j ? ", " : "", json_escape(all[i].items[j].name).c_str());
    std::printf("]");
  }
  std::printf(", \"pairs\": [");
  const auto pairs = valid_pairs();
  for (std::size_t i = 0; i < pairs.size(); ++i)
    std::printf("%s[\"%s\", \"%s\"]", i ? ", " : "", json_escape(pairs[i].first).c_str(),
                json_escape(pairs[i].second).c_str());
  std::printf("]}\n");
}

void print_text(const std::vector<ListSection>& all) {
  for (std::size_t i = 0; i < all.size(); ++i) {
    std::printf("%s%s:\n", i ? "\n" : "", all[i].title.c_str());
    for (const ListItem& item : all[i].items)
      std::printf("  %-12s %s\n", item.name.c_str(), item.summary.c_str());
  }
  std::printf("\nvalid combinations (--backend with --hash):\n");
  for (const BackendInfo& b : backends()) {
    std::string schemes;
    for (std::string_view scheme : kSchemeNames)
      if (b.supports(scheme)) schemes += (schemes.empty() ? "" : ", ") + std::string(scheme);
    std::printf("  %-12s %s\n", std::string(b.name).c_str(), schemes.c_str());
  }
}

}  // namespace

int cmd_list(const Argv& argv) {
  const Args args(argv, {}, {"json"});
  const std::vector<ListSection> all = sections();
  if (args.has("json")) print_json(all);
  else print_text(all);
  return 0;
}

}  // namespace xq::cli
