// The parameter cell of docs/guide.md (the options every command shares)
// is the parameter table, not a copy of it: the cell must list every
// declared parameter with its range, in table order
// (regenerate it from `xqlab list --json` when a backend declares a new one).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "parallel/params.h"

namespace xq {
namespace {

std::string guide() {
  std::ifstream in(std::string(XQLAB_DATA_DIR) + "/../docs/guide.md");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ParamsGuide, TheParameterCellListsTheDeclaredTable) {
  const std::string text = guide();
  ASSERT_FALSE(text.empty()) << "docs/guide.md not found next to data/";
  std::string cell;
  int listed = 0;
  for (const BackendParam& p : backend_params()) {
    std::string range = p.range_text();
    std::string escaped;
    for (char ch : range) escaped += ch == '|' ? std::string("\\|") : std::string(1, ch);
    cell += (cell.empty() ? "" : ", ") + ("`" + std::string(p.name) + "=" + escaped + "`");
    ++listed;
  }
  EXPECT_GE(listed, 20);
  EXPECT_NE(text.find("| a backend parameter, repeatable | " + cell + " |"), std::string::npos)
      << "docs/guide.md's --param cell differs from the table; it should read:\n" << cell;
}

// Two backends that read one parameter declare it once (their family's
// header), so the merged table names both.
TEST(ParamsGuide, SharedParametersNameEveryReader) {
  EXPECT_EQ(find_param("min_split_depth").backends,
            (std::vector<std::string_view>{"pvsplit", "ybwc", "ybwc-proc", "dts"}));
  // Every backend whose parameters include it, in the registry's order.
  std::vector<std::string_view> readers;
  for (const BackendInfo& b : backends())
    if (b.params)
      for (const ParamSpec& p : b.params())
        if (p.name == "root_retest") readers.push_back(b.name);
  EXPECT_EQ(find_param("root_retest").backends, readers);
  EXPECT_GE(readers.size(), 2u);  // abdada and abdada-simple at least
  EXPECT_EQ(BackendConfig{}.param("min_split_depth"), 4);
  EXPECT_THROW((void)BackendConfig{}.param("no_such_parameter"), std::invalid_argument);
}

}  // namespace
}  // namespace xq
