#include "lab/timing/runner.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>

#include "hashing/schemes.h"
#include "lab/common/engines.h"
#include "lab/common/text.h"
#include "lab/timing/summary.h"
#include "parallel/params.h"
#include "search/coordination.h"

namespace xq::lab::timing {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// User + system CPU seconds of every thread of this process so far.
double process_cpu_seconds() {
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
  const auto sec = [](const timeval& t) { return double(t.tv_sec) + 1e-6 * double(t.tv_usec); };
  return sec(u.ru_utime) + sec(u.ru_stime);
}

double load_average_now() {
  double load[1];
  return getloadavg(load, 1) == 1 ? load[0] : -1.0;
}

// Quotes a CSV field when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

void check_names(const std::vector<std::string>& backends, const std::vector<std::string>& schemes) {
  for (const std::string& h : schemes) visit_scheme(h, [](auto) { return 0; });
  for (const std::string& b : backends) {
    if (common::is_external_engine(b)) continue;
    const BackendInfo& info = find_backend(b);
    if (std::none_of(schemes.begin(), schemes.end(),
                     [&](const std::string& h) { return info.supports(h); }))
      throw std::invalid_argument("backend '" + b + "' can use none of the requested hash schemes");
  }
}

}  // namespace

std::string LabConfig::label() const {
  std::string s = backend + "/" + hash + "/" + std::to_string(threads) + "t";
  for (const std::string& p : params) s += " " + p;
  if (ranks > 0) s += " ranks=" + std::to_string(ranks);
  return s;
}

std::vector<LabConfig> build_configs(const std::vector<std::string>& backends,
                                     const std::vector<std::string>& schemes,
                                     const std::vector<int>& threads,
                                     const std::function<void(const std::string&)>& skipped) {
  check_names(backends, schemes);
  std::vector<LabConfig> out;
  for (const std::string& h : schemes) out.push_back({"serial", h, 1, {}});
  for (const std::string& b : backends) {
    if (b == "serial") continue;  // one thread only: its reference is already there
    if (common::is_external_engine(b)) {
      for (int t : threads) out.push_back({b, "own", t, {}});
      continue;
    }
    for (const std::string& h : schemes) {
      if (!find_backend(b).supports(h)) {
        if (skipped) skipped(b + " with " + h + " (not a valid pair)");
        continue;
      }
      for (int t : threads) out.push_back({b, h, t, {}});
    }
  }
  return out;
}

bool has_ranks(const std::string& backend) {
  return !common::is_external_engine(backend) && find_backend(backend).distributed;
}

BackendConfig backend_config(const BackendConfig& base, const LabConfig& c) {
  BackendConfig b = base;
  b.hash = c.hash;
  b.threads = c.threads;
  for (const std::string& a : c.params) set_param(b, a);
  if (c.ranks > 0) b.set("ranks", c.ranks);
  return b;
}

int ranks_of(const LabSettings& s, const LabConfig& c) {
  if (!has_ranks(c.backend)) return 1;
  return int(backend_config(s.base, c).param("ranks"));
}

std::vector<LabConfig> with_variants(std::vector<LabConfig> configs, const std::string& vary) {
  const std::size_t eq = vary.find('=');
  if (eq == std::string::npos)
    throw std::invalid_argument("--vary needs NAME=V1,V2,..., got '" + vary + "'");
  std::vector<const BackendParam*> params;
  for (const std::string& name : common::split_commas(vary.substr(0, eq))) {
    params.push_back(&find_param(name));
    if (std::count(params.begin(), params.end(), params.back()) > 1)
      throw std::invalid_argument("--vary: parameter " + name + " named twice");
  }
  const std::string names = vary.substr(0, eq);
  const std::vector<std::string> values = common::split_commas(vary.substr(eq + 1));
  BackendConfig check;
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (const BackendParam* p : params)
      set_param(check, std::string(p->name) + "=" + values[i]);  // throws for a bad value
    if (std::find(values.begin(), values.begin() + std::ptrdiff_t(i), values[i]) !=
        values.begin() + std::ptrdiff_t(i))
      throw std::invalid_argument("--vary: value '" + values[i] + "' of " + names + " given twice");
  }
  if (values.size() < 2)
    throw std::invalid_argument("--vary " + names + ": give at least two values");
  std::vector<LabConfig> out;
  bool any = false;
  for (const LabConfig& c : configs) {
    const bool reads =
        !common::is_external_engine(c.backend) &&
        std::all_of(params.begin(), params.end(), [&](const BackendParam* p) {
          return std::find(p->backends.begin(), p->backends.end(), c.backend) != p->backends.end();
        });
    if (!reads) {
      out.push_back(c);
      continue;
    }
    any = true;
    for (const BackendParam* p : params)
      for (const std::string& own : c.params)
        if (own.rfind(std::string(p->name) + "=", 0) == 0)
          throw std::invalid_argument("--vary: parameter " + std::string(p->name) +
                                      " varied twice");
    for (const std::string& v : values) {
      LabConfig varied = c;
      for (const BackendParam* p : params) varied.params.push_back(std::string(p->name) + "=" + v);
      out.push_back(std::move(varied));
    }
  }
  if (!any)
    throw std::invalid_argument("--vary: no configuration's backend reads " +
                                std::string(params.size() > 1 ? "parameters '" : "parameter '") +
                                names + "'");
  return out;
}

std::vector<LabConfig> with_ranks(std::vector<LabConfig> configs, const std::vector<int>& ranks) {
  std::vector<LabConfig> out;
  bool any = false;
  for (LabConfig& c : configs) {
    if (!has_ranks(c.backend)) {
      out.push_back(std::move(c));
      continue;
    }
    any = true;
    for (int r : ranks) {
      LabConfig x = c;
      x.ranks = r;
      out.push_back(std::move(x));
    }
  }
  if (!any)
    throw std::invalid_argument("--ranks: no distributed backend among the configurations (name "
                                "one with --backends, e.g. mpi-lazy or mpi-abdada)");
  return out;
}

void check_simulable(const std::vector<LabConfig>& configs) {
  for (const LabConfig& c : configs) {
    if (common::is_external_engine(c.backend))
      throw std::invalid_argument("engine '" + c.backend +
                                  "' cannot run on the simulated machine: it is another "
                                  "program, which the simulator does not schedule");
    if (c.threads > 1 && !find_backend(c.backend).simulable)
      throw std::invalid_argument("backend '" + c.backend +
                                  "' cannot run on the simulated machine: its helpers are "
                                  "processes or ranks, which the simulator does not schedule");
  }
}

std::vector<int> reference_configs(const std::vector<LabConfig>& configs) {
  std::vector<int> ref(configs.size(), -1);
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const bool external = common::is_external_engine(configs[i].backend);
    for (std::size_t j = 0; j < configs.size() && ref[i] < 0; ++j)
      if (configs[j].threads == 1 && configs[j].hash == configs[i].hash &&
          configs[j].backend == (external ? configs[i].backend : std::string("serial")))
        ref[i] = int(j);
  }
  return ref;
}

std::size_t lab_searches(const LabSettings& s, std::size_t positions) {
  return s.configs.size() * positions * std::size_t(std::max(0, s.runs));
}

std::vector<LabRun> run_lab(const LabSettings& s, const std::vector<common::SuiteEntry>& suite,
                            const LabCallbacks& cb, const LabResume& resume) {
  if (s.sim) check_simulable(s.configs);
  std::vector<LabRun> out;
  out.reserve(lab_searches(s, suite.size()));
  // Searches finished by an earlier run, by (config, run, position).
  std::map<std::tuple<int, int, int>, const LabRun*> done;
  for (const LabRun& r : resume.done) done.emplace(std::tuple(r.config, r.run, r.position), &r);
  const auto stopped = [&] { return resume.stop && resume.stop->load(); };
  // Best move of each reference configuration's first run, per position.
  std::vector<std::vector<Move>> reference(s.configs.size(), std::vector<Move>(suite.size()));
  const std::vector<int> reference_of = reference_configs(s.configs);
  SearchOptions options;
  options.limits.depth = s.depth;
  options.features = s.features;
  options.stop_signal = resume.stop;
  const Clock::time_point start = Clock::now();
  Observer silent;
  for (int run = 0; run < s.runs && !stopped(); ++run) {
    std::vector<double> total(s.configs.size(), 0.0);
    for (std::size_t p = 0; p < suite.size() && !stopped(); ++p) {
      // Every configuration searches this position before the next one, in
      // an order that reverses from one position to the next (A B C, C B A),
      // so a configuration and its serial reference are timed seconds apart
      // and a machine whose speed drifts over minutes favours none of them.
      const std::size_t first = out.size();
      for (std::size_t k = 0; k < s.configs.size() && !stopped(); ++k) {
        const std::size_t ci = p % 2 == 0 ? k : s.configs.size() - 1 - k;
        const LabConfig& c = s.configs[ci];
        LabRun r;
        if (const auto it = done.find(std::tuple(int(ci), run, int(p))); it != done.end()) {
          r = *it->second;
          r.agrees = true;  // decided below, as for a search made now
        } else {
          const BackendConfig bc = backend_config(s.base, c);
          // Built for every search (outside the timed part): no idle helper
          // thread of one configuration competes with another's search, and
          // every search starts from a fresh table.
          std::unique_ptr<Backend> backend;
          if (!common::is_external_engine(c.backend)) backend = make_backend(c.backend, bc);
          else if (s.external) backend = s.external(c, bc);
          else throw std::invalid_argument("engine '" + c.backend + "': no way to start it here");
          r.config = int(ci);
          r.run = run;
          r.position = int(p);
          if (s.sim) {
            // Virtual time: every logical thread had a processor throughout
            // but for the time it waited for one (time slicing), as the
            // real runs' CPU time counts.
            const std::uint64_t seed = s.sim->seed == 0 ? 0 : s.sim->seed + std::uint64_t(run);
            SimulatedSearch sim =
                simulate_search(*backend, suite[p].pos, options, *s.sim, seed,
                                backend->simulated_threads());
            r.result = std::move(sim.result);
            r.seconds = sim.seconds;
            r.cpu_seconds = sim.seconds * c.threads * ranks_of(s, c) - sim.core_wait_seconds;
          } else {
            r.load_average = load_average_now();
            const double cpu0 = process_cpu_seconds();
            const Clock::time_point t0 = Clock::now();
            r.result = backend->search(suite[p].pos, options, silent);
            r.seconds = since(t0);
            // Helper processes' CPU is theirs, not this process's.
            r.cpu_seconds = process_cpu_seconds() - cpu0 + r.result.stats.helper_cpu_seconds;
          }
          // Cut short by the stop: not a finished search (one that finished
          // before the stop came is kept).
          if (stopped() && r.result.stopped) break;
          if (cb.on_finished) cb.on_finished(r);
        }
        total[ci] += r.seconds;
        const int ref = reference_of[ci];
        if (ref == int(ci) && run == 0) reference[ci][p] = r.result.best_move;
        out.push_back(std::move(r));
      }
      if (stopped()) return out;
      // The agreement with the reference's first-run move, once that exists.
      for (std::size_t k = first; k < out.size(); ++k) {
        LabRun& r = out[k];
        const int ref = reference_of[std::size_t(r.config)];
        if (ref >= 0) r.agrees = r.result.best_move == reference[std::size_t(ref)][p];
        if (cb.on_search) cb.on_search(r);
      }
    }
    if (stopped()) return out;
    for (std::size_t ci = 0; ci < s.configs.size(); ++ci)
      if (cb.on_pass) cb.on_pass(s.configs[ci], run, total[ci], since(start));
  }
  return out;
}

std::string lab_csv_header() {
  return "run,backend,hash,threads,position,name,depth,seconds,nodes,qnodes,nps,tt_probes,"
         "tt_hits,tt_cutoffs,tt_torn,bad_tt_moves,splits,joins,aborts,idle_seconds,bestmove,"
         "score,agrees,search_seconds,lock_seconds,copy_seconds,wasted_nodes,cpu_seconds,"
         "cpu_share,load_average,contested,busy_answers,deferrals,deferred_searches,"
         "cutoff_reprobes,mark_underflows,mark_leaks,ranks,mode";
}

namespace {

// The time-accounting, CPU and shared-table coordination columns of a CSV row.
std::string cpu_fields(const LabRun& r, int threads) {
  const SearchStats& st = r.result.stats;
  auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  char buf[384];
  std::snprintf(buf, sizeof buf, "%.6f,%.6f,%.6f,%llu,%.6f,%.4f,%.2f,%d,%llu,%llu,%llu,%llu,%llu,%llu",
                double(st.search_seconds), double(st.lock_seconds), double(st.copy_seconds),
                u(st.wasted_nodes), r.cpu_seconds, cpu_share(r.cpu_seconds, r.seconds, threads),
                r.load_average, contested(r.cpu_seconds, r.seconds, threads, st.idle_seconds) ? 1 : 0,
                u(st[coordination::busy_answers]), u(st[coordination::deferrals]), u(st[coordination::deferred_searches]), u(st[coordination::cutoff_reprobes]),
                u(st[coordination::mark_underflows]), u(st[coordination::mark_leaks]));
  return buf;
}

}  // namespace

std::string lab_csv_row(const LabSettings& s, const LabRun& r, const common::SuiteEntry& e) {
  const LabConfig& c = s.configs[std::size_t(r.config)];
  const int ranks = ranks_of(s, c);
  const SearchStats& st = r.result.stats;
  auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%.6f,%llu,%llu,%.0f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.6f,", r.seconds,
                u(st.nodes), u(st.qnodes), r.seconds > 0 ? double(st.nodes) / r.seconds : 0.0,
                u(st.tt_probes), u(st.tt_hits), u(st.tt_cutoffs), u(st.tt_torn),
                u(st.bad_tt_moves), u(st.splits), u(st.joins), u(st.aborts),
                double(st.idle_seconds));
  return std::to_string(r.run + 1) + "," + c.backend + "," + c.hash + "," +
         std::to_string(c.threads) + "," + std::to_string(r.position + 1) + "," +
         csv_field(e.name) + "," + std::to_string(s.depth) + "," + buf +
         move_name(r.result.best_move) + "," + std::to_string(r.result.score) + "," +
         (r.agrees ? "1" : "0") + "," + cpu_fields(r, c.threads * ranks) + "," +
         std::to_string(ranks) + (s.sim ? ",simulated" : ",measured");
}

}  // namespace xq::lab::timing
