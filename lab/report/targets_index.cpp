#include "lab/report/targets_index.h"

#include <algorithm>
#include <map>

#include "lab/common/files.h"

namespace xq::lab::report::targets {
namespace {

// Lines are built whole and checked as they are added: a line of the index
// longer than kMaxIndexLine names the target it belongs to.
class IndexText {
 public:
  void line(const std::string& s, const std::string& target = "") {
    if (s.size() > kMaxIndexLine)
      throw TargetError((target.empty() ? "the index" : "target '" + target + "'") +
                        ": a line of " + std::to_string(s.size()) + " characters; the limit is " +
                        std::to_string(kMaxIndexLine) + ": " + s.substr(0, 60) + "...");
    text_ += s;
    text_ += '\n';
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// A table cell: a `|` would end it.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// Code text whatever backticks it holds: a fence one longer than its
// longest run of them.
std::string code(const std::string& s) {
  std::size_t longest = 0, run = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = longest > 0;
  return fence + (pad ? " " : "") + s + (pad ? " " : "") + fence;
}

// A repository-relative path as a link target from docs/.
std::string from_docs(const std::string& path) {
  if (path.rfind("docs/", 0) == 0) return path.substr(5);
  return "../" + path;
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The journal file a link goes to, without its folder, extension and anchor.
std::string journal_label(const std::string& link) {
  std::string file = base_name(link.substr(0, link.find('#')));
  if (file.size() > 3 && file.compare(file.size() - 3, 3, ".md") == 0)
    file.resize(file.size() - 3);
  return file;
}

// What goes under a section's table: reference definitions (documents and
// journal, so that a row carries short link texts) and the keyed commands
// and document lists of rows that would not fit otherwise.
struct SectionNotes {
  std::vector<std::string> definitions;
  std::vector<std::string> keyed;  // lines of the collapsed list
};

struct RowLayout {
  bool command_keyed = false, documents_keyed = false;
};

std::string documents_cell(const Target& t, int n, bool keyed) {
  if (t.documents.empty()) return "—";
  if (keyed)
    return std::to_string(t.documents.size()) + " documents: [d" + std::to_string(n) + "]";
  std::string s;
  for (std::size_t k = 0; k < t.documents.size(); ++k) {
    if (k) s += ", ";
    const std::string& d = t.documents[k];
    if (is_commit_reference(d)) s += code(d);
    else s += "[" + base_name(d) + "][d" + std::to_string(n) + "." + std::to_string(k + 1) + "]";
  }
  return s;
}

std::string row(const Target& t, int n, const std::string& figure, const std::string& machine,
                RowLayout layout) {
  const std::string ns = std::to_string(n);
  const std::vector<std::string> cells{
      t.id,
      cell(t.measures),
      t.acceptance.empty() ? "—" : cell(t.acceptance),
      cell(figure) + (t.typed ? " *typed*" : ""),
      t.date.value_or("—"),
      t.commit.value_or("—"),
      machine,
      layout.command_keyed ? "[c" + ns + "]" : code(cell(t.command)),
      documents_cell(t, n, layout.documents_keyed),
      "[" + journal_label(t.journal) + "][j" + ns + "]"};
  std::string s = "|";
  for (const std::string& c : cells) s += c + "|";
  return s;
}

// The row as wide as it can be and still fit: the command under a key,
// else the documents, else both.
std::string fitted_row(const Target& t, int n, const std::string& figure,
                       const std::string& machine, SectionNotes& notes) {
  RowLayout layout;
  std::string r;
  for (const RowLayout l : {RowLayout{false, false}, RowLayout{true, false},
                            RowLayout{false, true}, RowLayout{true, true}}) {
    if (l.documents_keyed && t.documents.empty()) continue;
    layout = l;
    r = row(t, n, figure, machine, layout);
    if (r.size() <= kMaxIndexLine) break;
  }
  if (r.size() > kMaxIndexLine)
    throw TargetError("target '" + t.id + "': its row is " + std::to_string(r.size()) +
                      " characters with command and documents under keys; the limit is " +
                      std::to_string(kMaxIndexLine) + " (measures " +
                      std::to_string(t.measures.size()) + ", figure " +
                      std::to_string(figure.size()) + ", id " + std::to_string(t.id.size()) +
                      " characters): shorten them");
  const std::string ns = std::to_string(n);
  if (layout.command_keyed) notes.keyed.push_back("- [c" + ns + "] " + code(t.command));
  if (layout.documents_keyed) {
    notes.keyed.push_back("- [d" + ns + "]");
    for (const std::string& d : t.documents)
      notes.keyed.push_back("  - " + (is_commit_reference(d)
                                          ? code(d)
                                          : "[" + base_name(d) + "](" + from_docs(d) + ")"));
  } else {
    for (std::size_t k = 0; k < t.documents.size(); ++k)
      if (!is_commit_reference(t.documents[k]))
        notes.definitions.push_back("[d" + ns + "." + std::to_string(k + 1) +
                                    "]: " + from_docs(t.documents[k]));
  }
  notes.definitions.push_back("[j" + ns + "]: " + t.journal);
  return r;
}

void header(IndexText& out, const std::map<std::string, std::string>& machine_keys,
            const std::vector<std::string>& machines) {
  const char* lines[] = {
      "# xqlab — results index",
      "",
      "The current figure of every target the project measures, with the command that made it,",
      "the documents that hold it and the journal section that tells its story. This file is",
      "generated by `xqlab report --index` from [targets.json](targets.json) — do not edit it:",
      "edit docs/targets.json (its schema: [results/targets-schema.md](results/targets-schema.md))",
      "and run `xqlab report --index` at the repository's root; `--check` (a unit test) fails",
      "when this file is stale, a cited document is missing, a recomputed figure changed or a",
      "link under docs/ is dead. The history (superseded figures, dropped experiments, the",
      "reasoning) is in [journal/](journal/README.md); rows of the hand-written index that",
      "later figures replaced are in",
      "[journal/superseded-results-rows.md](journal/superseded-results-rows.md).",
      "",
      "**How to read a row.** *target*: its id in targets.json. *acceptance*: the target as",
      "its issue states it (— none). *figure*: the current figure; where the target has a",
      "compute rule, the generator recomputes it from the documents and fails unless it equals",
      "the recorded text. *typed* marks a figure that no committed document holds (typed by",
      "hand from a log or the journal): it wants re-measuring. *date*: UTC day of the",
      "measurement; *commit*: of the binary (— the journal names none); *machine*: a key,",
      "spelled out below. *command*: as recorded (`commit:path` names a one-off script that",
      "left the tree). *documents*: under [results/](results/README.md); those that left the",
      "tree are listed in [results/manifest.csv](results/manifest.csv). A key such as [c12] or",
      "[d12] stands for a command or a list of documents too long for its row, spelled out",
      "under the section's table.",
      "",
      "**Terms.** S = time-to-depth speedup, serial's median summed time / the backend's;",
      "paired S = the per-pass ratio, median [min, max] over the passes; SO = search overhead,",
      "summed nodes / serial's; idle = idle share of thread time (split backends only); W/C =",
      "work over critical path. 2 threads use both cores; 4 and 8 threads time-share them, so",
      "they measure search overhead and oversubscription, not speed.",
      "",
      "**SIMULATED.** Sections whose title begins SIMULATED hold the figures of the simulated",
      "machine (`--simulate`) and their comparisons with real runs, and nothing else; no other",
      "section holds a simulated figure, so simulated and measured figures are never mixed.",
      "",
  };
  for (const char* l : lines) out.line(l);
  if (machines.empty()) return;
  std::string m = "**Machines.**";
  for (const std::string& name : machines) m += " " + machine_keys.at(name) + " = " + name + ";";
  m.back() = '.';
  out.line(m);
}

}  // namespace

ResultsIndex build_results_index(const std::vector<Target>& targets, DocumentCache& cache) {
  ResultsIndex index;
  IndexCounts& counts = index.counts;
  std::vector<std::string> sections, machines;
  std::map<std::string, std::string> machine_keys;
  std::vector<std::string> figures;
  for (const Target& t : targets) {
    if (std::find(sections.begin(), sections.end(), t.section) == sections.end())
      sections.push_back(t.section);
    if (!machine_keys.count(t.machine)) {
      machines.push_back(t.machine);
      machine_keys[t.machine] = "m" + std::to_string(machines.size());
    }
    for (const std::string& d : t.documents) {
      if (is_commit_reference(d)) continue;
      if (!cache.exists(d)) throw TargetError("target '" + t.id + "': document '" + d + "' is missing");
      if (!common::is_gzip_path(d) && cache.bytes(d) > kMaxPlainDocumentBytes)
        throw TargetError("target '" + t.id + "': document '" + d + "' is " +
                          std::to_string(cache.bytes(d)) + " bytes; one over " +
                          std::to_string(kMaxPlainDocumentBytes / 1024) +
                          " KB is committed gzipped (gzip -9n; docs/results/README.md)");
    }
    std::string figure = t.text;
    if (!t.compute.is_null()) {
      try {
        figure = compute_text(t.compute, t.documents, cache);
      } catch (const TargetError& e) {
        throw TargetError("target '" + t.id + "': " + e.what());
      }
      if (figure != t.text)
        throw TargetError("target '" + t.id + "': the documents give '" + figure +
                          "' but figure.text records '" + t.text + "'");
      ++counts.computed;
    }
    figures.push_back(figure);
    ++counts.targets;
    counts.typed += t.typed;
    counts.neither += t.documents.empty() && !t.commit;
  }

  IndexText out;
  header(out, machine_keys, machines);
  for (const std::string& section : sections) {
    out.line("");
    out.line("## " + section);
    out.line("");
    out.line("|target|measures|acceptance|figure|date|commit|machine|command|documents|journal|");
    out.line("|---|---|---|---|---|---|---|---|---|---|");
    SectionNotes notes;
    for (std::size_t k = 0; k < targets.size(); ++k) {
      const Target& t = targets[k];
      if (t.section != section) continue;
      out.line(fitted_row(t, int(k + 1), figures[k], machine_keys[t.machine], notes), t.id);
    }
    out.line("");
    for (const std::string& d : notes.definitions) out.line(d);
    if (!notes.keyed.empty()) {
      out.line("");
      out.line("<details><summary>Commands and documents by key</summary>");
      out.line("");
      for (const std::string& l : notes.keyed) out.line(l);
      out.line("");
      out.line("</details>");
    }
  }
  out.line("");
  out.line(std::to_string(counts.targets) + " targets: " + std::to_string(counts.computed) +
           " figures recomputed from their documents, " + std::to_string(counts.typed) +
           " typed, " + std::to_string(counts.neither) + " with neither document nor commit.");
  index.markdown = out.text();
  return index;
}

namespace {

// At most 70 characters of a line, cut on a UTF-8 boundary.
std::string cut_line(const std::string& s) {
  if (s.size() <= 70) return s;
  std::size_t n = 67;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n) + "...";
}

}  // namespace

std::optional<std::string> first_difference(const std::string& current,
                                            const std::string& generated) {
  if (current == generated) return std::nullopt;
  std::size_t a = 0, b = 0;
  for (int line = 1;; ++line) {
    const std::size_t ea = current.find('\n', a), eb = generated.find('\n', b);
    const std::string la = a < current.size() ? current.substr(a, ea - a) : "(end of file)";
    const std::string lb = b < generated.size() ? generated.substr(b, eb - b) : "(end of file)";
    const bool end_a = ea == std::string::npos, end_b = eb == std::string::npos;
    if (la != lb || end_a != end_b) {
      if (la == lb) return "line " + std::to_string(line) + ": one file ends without a newline";
      return "line " + std::to_string(line) + " differs: has '" + cut_line(la) + "', generated '" +
             cut_line(lb) + "'";
    }
    a = ea + 1;
    b = eb + 1;
  }
}

}  // namespace xq::lab::report::targets
