// Running the lab: interleaved runs, fresh tables for every search, progress
// on stderr, raw rows to CSV as they complete.
#include <chrono>
#include <cstdio>
#include <memory>

#include "cli/lab.h"
#include "cli/lab_backend.h"

namespace xq::cli {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

void write_csv_header(std::FILE* csv) {
  std::fprintf(csv,
               "run,backend,hash,threads,position,name,depth,seconds,nodes,qnodes,nps,tt_probes,"
               "tt_hits,tt_cutoffs,tt_torn,bad_tt_moves,splits,joins,aborts,idle_seconds,"
               "bestmove,score,agrees\n");
}

// Quotes a CSV field when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

void write_csv_row(std::FILE* csv, const LabConfig& c, const LabRun& r, const SuiteEntry& e,
                   Depth depth) {
  const SearchStats& s = r.result.stats;
  auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  std::fprintf(csv,
               "%d,%s,%s,%d,%d,%s,%d,%.6f,%llu,%llu,%.0f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
               "%.6f,%s,%d,%d\n",
               r.run + 1, c.backend.c_str(), c.hash.c_str(), c.threads, r.position + 1,
               csv_field(e.name).c_str(), depth, r.seconds, u(s.nodes), u(s.qnodes),
               r.seconds > 0 ? double(s.nodes) / r.seconds : 0.0, u(s.tt_probes), u(s.tt_hits),
               u(s.tt_cutoffs), u(s.tt_torn), u(s.bad_tt_moves), u(s.splits), u(s.joins),
               u(s.aborts), s.idle_seconds.load(),
               move_name(r.result.best_move).c_str(), r.result.score,
               r.agrees ? 1 : 0);
  std::fflush(csv);
}

}  // namespace

std::string LabConfig::label() const {
  return backend + "/" + hash + "/" + std::to_string(threads) + "t";
}

std::vector<LabRun> run_lab(const LabSettings& s, const std::vector<SuiteEntry>& suite,
                            std::FILE* csv) {
  if (csv) write_csv_header(csv);
  std::vector<LabRun> out;
  out.reserve(s.configs.size() * suite.size() * std::size_t(s.runs));
  // Best move of each reference configuration's first run, per position.
  std::vector<std::vector<Move>> reference(s.configs.size(), std::vector<Move>(suite.size()));
  std::vector<int> reference_of(s.configs.size(), -1);
  for (std::size_t i = 0; i < s.configs.size(); ++i)
    for (std::size_t j = 0; j < s.configs.size(); ++j)
      if (s.configs[j].backend == "serial" && s.configs[j].threads == 1 &&
          s.configs[j].hash == s.configs[i].hash && reference_of[i] < 0)
        reference_of[i] = int(j);

  SearchOptions options;
  options.limits.depth = s.depth;
  const Clock::time_point start = Clock::now();
  Observer silent;
  for (int run = 0; run < s.runs; ++run) {
    for (std::size_t ci = 0; ci < s.configs.size(); ++ci) {
      const LabConfig& c = s.configs[ci];
      BackendConfig bc;
      bc.hash = c.hash;
      bc.threads = c.threads;
      bc.hash_mib = s.hash_mib;
      // Built per configuration and run, so idle helper threads of one
      // backend never compete with another configuration's search.
      const std::unique_ptr<Backend> backend = make_backend_or_usage(c.backend, bc);
      double total = 0;
      for (std::size_t p = 0; p < suite.size(); ++p) {
        backend->clear();
        LabRun r;
        r.config = int(ci);
        r.run = run;
        r.position = int(p);
        const Clock::time_point t0 = Clock::now();
        r.result = backend->search(suite[p].pos, options, silent);
        r.seconds = since(t0);
        total += r.seconds;
        const int ref = reference_of[ci];
        if (ref == int(ci) && run == 0) reference[ci][p] = r.result.best_move;
        if (ref >= 0) r.agrees = r.result.best_move == reference[std::size_t(ref)][p];
        if (csv) write_csv_row(csv, c, r, suite[p], s.depth);
        out.push_back(std::move(r));
      }
      std::fprintf(stderr, "lab: run %d/%d  %-22s %zu positions  %8.3f s   (elapsed %.0f s)\n",
                   run + 1, s.runs, c.label().c_str(), suite.size(), total, since(start));
      std::fflush(stderr);
    }
  }
  return out;
}

}  // namespace xq::cli
