#include "lab/report/doc_links.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <regex>
#include <sstream>

#include "lab/common/files.h"

namespace xq::lab::report::targets {
namespace {

namespace fs = std::filesystem;

bool starts_with(const std::string& s, std::string_view head) {
  return s.rfind(head, 0) == 0;
}

// A fence line (``` or ~~~, up to three spaces before it): its character.
char fence_of(const std::string& line) {
  std::size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  if (line.compare(i, 3, "```") == 0) return '`';
  if (line.compare(i, 3, "~~~") == 0) return '~';
  return 0;
}

// The line with each code span (a run of n backticks up to the next run of
// exactly n) a space; an unmatched run stays, as Markdown shows it literally.
std::string without_code_spans(const std::string& line) {
  std::string out;
  std::size_t i = 0;
  while (i < line.size()) {
    if (line[i] != '`') {
      out += line[i++];
      continue;
    }
    std::size_t n = 0;
    while (i + n < line.size() && line[i + n] == '`') ++n;
    std::size_t close = std::string::npos;
    for (std::size_t j = i + n; j < line.size();) {
      if (line[j] != '`') {
        ++j;
        continue;
      }
      std::size_t m = 0;
      while (j + m < line.size() && line[j + m] == '`') ++m;
      if (m == n) {
        close = j;
        break;
      }
      j += m;
    }
    if (close == std::string::npos) {
      out.append(n, '`');
      i += n;
    } else {
      out += ' ';  // so that "[a]`x`(b)" does not become a link
      i = close + n;
    }
  }
  return out;
}

bool relative(const std::string& target) {
  return !target.empty() && target[0] != '#' && !starts_with(target, "http://") &&
         !starts_with(target, "https://") && !starts_with(target, "mailto:");
}

// The destination after "](" at `i`: <...>, or up to a space or the
// parenthesis that closes the link (balanced ones inside are kept).
std::string destination(const std::string& s, std::size_t i) {
  if (i < s.size() && s[i] == '<') {
    const std::size_t close = s.find('>', i);
    return close == std::string::npos ? "" : s.substr(i + 1, close - i - 1);
  }
  int depth = 0;
  std::size_t j = i;
  for (; j < s.size(); ++j) {
    const char c = s[j];
    if (c == ' ' || c == '\t') break;
    if (c == '(') ++depth;
    if (c == ')' && depth-- == 0) break;
  }
  return s.substr(i, j - i);
}

std::string percent_decoded(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += char(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

std::vector<MarkdownLink> relative_links(const std::string& markdown) {
  // A definition is the whole line: label, destination, an optional title.
  static const std::regex definition(
      R"(^ {0,3}\[([^\]^][^\]]*)\]:[ \t]+(<[^>]*>|\S+))"
      R"(([ \t]+("[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*$)");
  std::vector<MarkdownLink> out;
  std::istringstream in(markdown);
  std::string line;
  char fence = 0;
  for (int n = 1; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (const char f = fence_of(line)) {
      if (!fence) fence = f;
      else if (f == fence) fence = 0;
      continue;
    }
    if (fence) continue;
    const std::string s = without_code_spans(line);
    std::smatch m;
    if (std::regex_match(s, m, definition)) {
      std::string target = m[2].str();
      if (target.front() == '<') target = target.substr(1, target.size() - 2);
      if (relative(target)) out.push_back({n, target});
      continue;
    }
    for (std::size_t i = s.find("]("); i != std::string::npos; i = s.find("](", i + 2)) {
      const std::string target = destination(s, i + 2);
      if (relative(target)) out.push_back({n, target});
    }
  }
  return out;
}

LinkCheck check_links(const std::string& folder) {
  LinkCheck check;
  const fs::path base(folder);
  std::vector<fs::path> files;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(base))
    if (e.is_regular_file() && e.path().extension() == ".md") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    ++check.files;
    for (const MarkdownLink& link :
         relative_links(common::read_whole_file(file.string()).value_or(""))) {
      ++check.links;
      const std::string path =
          percent_decoded(link.target.substr(0, link.target.find_first_of("#?")));
      if (path.empty()) continue;
      const fs::path resolved =
          path[0] == '/' ? base / ".." / path.substr(1) : file.parent_path() / path;
      std::error_code ec;
      if (!fs::exists(resolved, ec))
        check.dead.push_back({fs::relative(file, base, ec).generic_string(), link.line,
                              link.target});
    }
  }
  return check;
}

}  // namespace xq::lab::report::targets
