// xqlab lab: the laboratory's main job. Compares parallel backends and hash
// schemes by time to depth on a position suite (cli/lab.h has the
// definitions). With no arguments: every registered backend, the xor scheme,
// 1 and 2 threads, the opening suite, at a depth chosen so the whole run ends
// in about ten minutes on two cores.
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <fstream>
#include <string>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/lab.h"
#include "cli/lab_backend.h"
#include "hashing/schemes.h"

namespace xq::cli {
namespace {

// Depth 8 with 3 runs: about 21 s of serial search per pass over the
// 16-position opening suite on the (shared, loaded) 2-core lab machine, so the
// default comparison (serial + two backends at 1 and 2 threads) stays under
// ten minutes; measured in docs/RESULTS.md (lab runner). Depth 9 would take ~3x that.
constexpr Depth kDefaultDepth = 8;
constexpr int kDefaultRuns = 3;

std::string default_suite() {
  const std::string built_in = std::string(XQLAB_DATA_DIR) + "/openings.csv";
  if (std::ifstream(built_in)) return built_in;
  return "data/openings.csv";
}

std::vector<std::string> default_backends() {
  std::vector<std::string> out;
  for (const BackendInfo& b : backends()) out.emplace_back(b.name);
  return out;
}

std::vector<int> parse_threads(const Args& args) {
  std::vector<int> out;
  for (const std::string& t : args.get_list("threads", {"1", "2"})) {
    const int n = int(parse_int(t, "--threads", 1, 256));
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  return out;
}

// The configurations: the serial reference (1 thread) of every scheme first,
// then each requested backend x scheme x thread count it can run. The serial
// backend runs one thread only, so its other thread counts are dropped.
std::vector<LabConfig> build_configs(const std::vector<std::string>& names,
                                     const std::vector<std::string>& schemes,
                                     const std::vector<int>& threads) {
  for (const std::string& h : schemes)
    if (!is_scheme_name(h))
      throw UsageError(unknown_scheme_message(h));
  for (const std::string& b : names) {
    bool any = false;
    for (const std::string& h : schemes) {
      try {
        any = any || find_backend(b).supports(h);
      } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
      }
    }
    if (!any) throw UsageError("backend '" + b + "' can use none of the requested hash schemes");
  }
  std::vector<LabConfig> out;
  for (const std::string& h : schemes) out.push_back({"serial", h, 1});
  for (const std::string& b : names) {
    if (b == "serial") continue;
    for (const std::string& h : schemes) {
      if (!find_backend(b).supports(h)) {
        std::fprintf(stderr, "lab: skipping %s with %s (not a valid pair)\n", b.c_str(),
                     h.c_str());
        continue;
      }
      for (int t : threads) out.push_back({b, h, t});
    }
  }
  return out;
}

}  // namespace

int cmd_lab(const Argv& argv) {
  const Args args(argv, {"suite", "backends", "hash", "threads", "depth", "runs", "csv", "hash-mb"},
                  {"json"});
  LabSettings s;
  s.suite_path = args.get("suite", default_suite());
  s.depth = Depth(args.get_int("depth", kDefaultDepth, 1, kMaxDepth));
  s.runs = int(args.get_int("runs", kDefaultRuns, 1, 1000));
  s.hash_mib = std::size_t(args.get_int("hash-mb", 16, 1, 1 << 20));
  s.configs = build_configs(args.get_list("backends", default_backends()),
                            args.get_list("hash", {"xor"}), parse_threads(args));
  const std::vector<SuiteEntry> suite = load_suite(s.suite_path);

  std::FILE* csv = nullptr;
  if (args.has("csv")) {
    csv = std::fopen(args.get("csv").c_str(), "w");
    if (!csv) throw UsageError("cannot write --csv file '" + args.get("csv") + "'");
  }
  const bool json = args.has("json");
  std::FILE* head = json ? stderr : stdout;
  std::fprintf(head, "lab settings: suite %s (%zu positions), depth %d, runs %d, %zu MiB, %zu "
               "configurations:", s.suite_path.c_str(), suite.size(), s.depth, s.runs,
               s.hash_mib, s.configs.size());
  for (const LabConfig& c : s.configs) std::fprintf(head, " %s", c.label().c_str());
  std::fprintf(head, "\n");
  if (const std::string note = oversubscription_note(s); !note.empty())
    std::fprintf(head, "%s\n", note.c_str());
  std::fflush(head);

  const std::vector<LabRun> runs = run_lab(s, suite, csv);
  if (csv) std::fclose(csv);
  const std::vector<LabSummary> rows = summarise(s, suite.size(), runs);
  if (json) print_lab_json(s, suite.size(), rows);
  else print_lab_text(s, suite.size(), rows);
  return 0;
}

}  // namespace xq::cli
