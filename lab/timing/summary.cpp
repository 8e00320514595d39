#include "lab/timing/summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>

#include "lab/common/engines.h"
#include "lab/common/stats.h"
#include "lab/common/suite.h"
#include "lab/timing/simulation.h"
#include "parallel/backend.h"
#include "parallel/params.h"
#include "parallel/work_span.h"

namespace xq::lab::timing {
namespace {

// Per configuration: sums over positions for each run, and times per position
// for each run.
struct Sums {
  std::vector<double> seconds, nodes, tt_hits, tt_probes, splits, joins, aborts;
  std::vector<double> wasted, cpu, idle, load;  // per run; load summed over searches
  std::vector<double> critical_path;            // per run
  // Every counter (for_each_counter's order), per run.
  std::vector<std::vector<double>> all;
  RoundTrips trips;                                    // over every run
  double search = 0, idle_all = 0, lock = 0, copy = 0;  // over every run
  std::vector<std::vector<double>> position_seconds;  // [position][run]
  std::vector<double> hashfull;                       // per search that could say
  int agree = 0, searches = 0;
};

// The search counters summed per run, and where each goes.
struct CounterSum {
  std::vector<double> Sums::*sum;
  SearchStats::Counter SearchStats::*counter;
};
const CounterSum kCounterSums[] = {
    {&Sums::nodes, &SearchStats::nodes},          {&Sums::tt_hits, &SearchStats::tt_hits},
    {&Sums::tt_probes, &SearchStats::tt_probes},  {&Sums::splits, &SearchStats::splits},
    {&Sums::joins, &SearchStats::joins},          {&Sums::aborts, &SearchStats::aborts},
    {&Sums::wasted, &SearchStats::wasted_nodes},
    {&Sums::critical_path, &SearchStats::critical_path}};

// The names of every counter, in for_each_counter's order.
const std::vector<std::string>& counter_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    const SearchStats none;
    for_each_counter(none, [&](const char* n, const auto&) { v.emplace_back(n); });
    return v;
  }();
  return names;
}

std::vector<Sums> collect(const LabSettings& s, std::size_t positions,
                          const std::vector<LabRun>& runs) {
  const std::size_t n_runs = std::size_t(s.runs);
  std::vector<Sums> sums(s.configs.size());
  for (Sums& x : sums) {
    for (auto* v : {&x.seconds, &x.cpu, &x.idle, &x.load}) v->assign(n_runs, 0.0);
    for (const CounterSum& c : kCounterSums) (x.*c.sum).assign(n_runs, 0.0);
    x.all.assign(counter_names().size(), std::vector<double>(n_runs, 0.0));
    x.position_seconds.assign(positions, {});
  }
  for (const LabRun& r : runs) {
    Sums& x = sums[std::size_t(r.config)];
    const std::size_t k = std::size_t(r.run);
    const SearchStats& st = r.result.stats;
    x.seconds[k] += r.seconds;
    for (const CounterSum& c : kCounterSums) (x.*c.sum)[k] += double(st.*c.counter);
    std::size_t i = 0;
    for_each_counter(st, [&](const char*, const auto& c) { x.all[i++][k] += double(c.load()); });
    x.cpu[k] += r.cpu_seconds;
    x.idle[k] += st.idle_seconds;
    x.load[k] += r.load_average;
    x.trips += r.result.round_trips;
    x.search += st.search_seconds;
    x.idle_all += st.idle_seconds;
    x.lock += st.lock_seconds;
    x.copy += st.copy_seconds;
    x.position_seconds[std::size_t(r.position)].push_back(r.seconds);
    x.agree += r.agrees;
    if (r.result.hashfull >= 0) x.hashfull.push_back(r.result.hashfull);
    ++x.searches;
  }
  return sums;
}

// The median over runs of the counter named `name` (0 when none is).
double median_of(const Sums& x, std::string_view name) {
  const std::vector<std::string>& names = counter_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return common::median(x.all[i]);
  return 0;
}

// The declared counters a configuration shows: those of the groups its
// backend declares, and of any group a run moved.
std::vector<CounterFigure> declared_figures(const LabConfig& c, const Sums& x) {
  std::vector<std::string_view> groups;
  if (const auto it = std::find_if(backends().begin(), backends().end(),
                                   [&](const BackendInfo& b) { return b.name == c.backend; });
      it != backends().end())
    groups = it->counter_groups;
  for (const DeclaredRef& d : declared_counters())
    if (std::find(groups.begin(), groups.end(), std::string_view(d.spec->group)) == groups.end() &&
        median_of(x, d.spec->name) != 0)
      groups.emplace_back(d.spec->group);
  std::vector<CounterFigure> out;
  for (const DeclaredRef& d : declared_counters()) {
    if (std::find(groups.begin(), groups.end(), std::string_view(d.spec->group)) == groups.end())
      continue;
    CounterFigure f;
    f.group = d.spec->group;
    f.name = d.spec->name;
    f.unit = d.spec->unit;
    f.show = show_name(d.spec->show);
    f.of = d.spec->of;
    f.meaning = d.spec->meaning;
    f.sum = median_of(x, d.spec->name);
    out.push_back(std::move(f));
  }
  return out;
}

// Each declared counter as its Show says, once the reference is known.
void show_counters(LabSummary& o, const Sums& x, const LabSummary* ref, std::size_t positions) {
  const auto divide = [](CounterFigure& f, double by) {
    f.known = by > 0;
    f.shown = f.known ? f.sum / by : 0;
  };
  for (CounterFigure& f : o.counters) {
    const DeclaredRef* d = find_declared(f.name);
    switch (d ? d->spec->show : Show::Total) {
      case Show::Total: f.shown = f.sum; f.known = true; break;
      case Show::PerSearch: divide(f, double(positions)); break;
      case Show::PerSecond: divide(f, o.seconds); break;
      case Show::Ratio: divide(f, median_of(x, f.of)); break;
      case Show::ThreadShare: divide(f, o.seconds * o.processors); break;
      case Show::SerialNodesOver:
        f.known = ref && f.sum > 0 && ref->nodes > 0;
        f.shown = f.known ? ref->nodes / f.sum : 0;
        break;
    }
  }
}

void own_times(LabSummary& o, const Sums& x) {
  o.timed = x.search > 0;
  o.time_search = x.search;
  o.time_idle = x.idle_all;
  o.time_lock = x.lock;
  o.time_copy = x.copy;
  o.wasted_nodes = common::median(x.wasted);
  const int searches_per_run = x.searches / std::max<int>(1, int(x.seconds.size()));
  std::vector<double> shares;
  for (std::size_t k = 0; k < x.seconds.size(); ++k) {
    RunCpu c;
    c.run = int(k) + 1;
    c.seconds = x.seconds[k];
    c.cpu_seconds = x.cpu[k];
    c.cpu_share = cpu_share(c.cpu_seconds, c.seconds, o.processors);
    c.load_average = searches_per_run > 0 ? x.load[k] / searches_per_run : -1;
    c.contested = contested(c.cpu_seconds, c.seconds, o.processors, x.idle[k]);
    o.contested = o.contested || c.contested;
    shares.push_back(c.cpu_share);
    o.cpu_runs.push_back(c);
  }
  o.cpu_share = common::median(shares);
}

// The speedup-loss decomposition of summary.h, from times summed over runs.
void loss(LabSummary& o, const Sums& x, const Sums& rx) {
  double wall = 0, serial = 0;
  for (double t : x.seconds) wall += t;
  for (double t : rx.seconds) serial += t;
  const double thread_time = wall * o.processors;
  if (!o.timed || thread_time <= 0 || serial <= 0) return;
  o.has_loss = true;
  o.loss_idle = o.time_idle / thread_time;
  o.loss_sync = (o.time_lock + o.time_copy) / thread_time;
  o.loss_overhead = 1.0 - serial / thread_time - o.loss_idle - o.loss_sync;
}

}  // namespace

double split_burden_nodes(const sim::Costs& c) {
  return c.node > 0 ? double(c.publish + c.join) / double(c.node) : 0.0;
}

double split_burden_nodes(const LabSettings& s) {
  if (s.sim) return split_burden_nodes(s.sim->costs);
  static const double calibrated = [] {
    try {
      return split_burden_nodes(load_sim_profile(common::data_dir() + "/sim/epyc-2c.json").costs);
    } catch (const std::exception&) {
      return split_burden_nodes(sim::Costs{});
    }
  }();
  return calibrated;
}

namespace {

// Threads times ranks (1 unless distributed).
int processors(const LabSettings& s, const LabConfig& c) { return c.threads * ranks_of(s, c); }

LabSummary own_figures(const LabSettings& s, const LabConfig& c, int reference, const Sums& x) {
  LabSummary o;
  o.config = c;
  o.processors = processors(s, c);
  if (has_ranks(c.backend)) o.ranks = ranks_of(s, c);
  o.reference = reference;
  o.seconds = common::median(x.seconds);
  o.nodes = common::median(x.nodes);
  o.nps = o.seconds > 0 ? o.nodes / o.seconds : 0;
  o.tt_hits = common::median(x.tt_hits);
  const double probes = common::median(x.tt_probes);
  o.tt_hit_rate = probes > 0 ? o.tt_hits / probes : 0;
  o.splits = common::median(x.splits);
  o.joins = common::median(x.joins);
  o.aborts = common::median(x.aborts);
  o.critical_path = common::median(x.critical_path);
  o.round_trip_p50_us = x.trips.quantile_us(0.5);
  o.round_trip_p99_us = x.trips.quantile_us(0.99);
  o.counters = declared_figures(c, x);
  o.parallelism = o.critical_path > 0 ? o.nodes / o.critical_path : 0;
  if (o.critical_path > 0) {
    o.critical_splits = median_of(x, critical_splits.spec().name);
    o.burden_nodes = split_burden_nodes(s);
    o.burdened_parallelism = o.nodes / (o.critical_path + o.critical_splits * o.burden_nodes);
  }
  o.agreement = x.searches ? 100.0 * x.agree / x.searches : 0;
  if (!x.hashfull.empty()) o.hashfull = common::median(x.hashfull);
  std::vector<double> per_position;
  for (const auto& t : x.position_seconds) per_position.push_back(common::median(t));
  o.ms_per_position = 1000.0 * common::median(per_position);
  own_times(o, x);
  return o;
}

void ratios(LabSummary& o, const LabSummary& ref, const Sums& x, const Sums& rx) {
  o.speedup = o.seconds > 0 ? ref.seconds / o.seconds : 0;
  o.efficiency = o.speedup / o.processors;
  o.overhead = ref.nodes > 0 ? o.nodes / ref.nodes : 0;
  for (std::size_t k = 0; k < x.seconds.size() && k < rx.seconds.size(); ++k)
    if (x.seconds[k] > 0) o.run_speedups.push_back(rx.seconds[k] / x.seconds[k]);
  if (!o.run_speedups.empty()) {
    o.paired_median = common::median(o.run_speedups);
    o.paired_min = *std::min_element(o.run_speedups.begin(), o.run_speedups.end());
    o.paired_max = *std::max_element(o.run_speedups.begin(), o.run_speedups.end());
  }
  std::vector<double> spread;
  for (std::size_t p = 0; p < x.position_seconds.size(); ++p) {
    const double t = common::median(x.position_seconds[p]);
    if (t > 0) spread.push_back(common::median(rx.position_seconds[p]) / t);
  }
  if (spread.empty()) return;
  o.spread_min = *std::min_element(spread.begin(), spread.end());
  o.spread_max = *std::max_element(spread.begin(), spread.end());
  o.spread_median = common::median(spread);
}

unsigned cores() { return std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace

std::vector<LabSummary> summarise(const LabSettings& s, std::size_t positions,
                                  const std::vector<LabRun>& runs) {
  const std::vector<Sums> sums = collect(s, positions, runs);
  const std::vector<int> refs = reference_configs(s.configs);
  std::vector<LabSummary> out;
  for (std::size_t i = 0; i < s.configs.size(); ++i)
    out.push_back(own_figures(s, s.configs[i], refs[i], sums[i]));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int ref = out[i].reference;
    show_counters(out[i], sums[i], ref < 0 ? nullptr : &out[std::size_t(ref)], positions);
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int ref = out[i].reference;
    if (ref < 0) continue;
    ratios(out[i], out[std::size_t(ref)], sums[i], sums[std::size_t(ref)]);
    if (ref != int(i)) loss(out[i], sums[i], sums[std::size_t(ref)]);
  }
  return out;
}

std::vector<GroupSummary> summarise_by(const LabSettings& s, const std::vector<std::string>& labels,
                                       const std::vector<LabRun>& runs) {
  std::vector<GroupSummary> groups;
  std::vector<int> group_of(labels.size()), index_in(labels.size());
  for (std::size_t i = 0; i < labels.size(); ++i) {
    std::size_t g = 0;
    while (g < groups.size() && groups[g].label != labels[i]) ++g;
    if (g == groups.size()) groups.push_back({labels[i], {}, {}});
    group_of[i] = int(g);
    index_in[i] = int(groups[g].positions.size());
    groups[g].positions.push_back(int(i));
  }
  std::vector<std::vector<LabRun>> subsets(groups.size());
  for (const LabRun& r : runs) {
    if (r.position < 0 || std::size_t(r.position) >= labels.size())
      throw std::invalid_argument("summarise_by: a run's position has no label");
    LabRun copy = r;
    copy.position = index_in[std::size_t(r.position)];
    subsets[std::size_t(group_of[std::size_t(r.position)])].push_back(std::move(copy));
  }
  for (std::size_t g = 0; g < groups.size(); ++g)
    groups[g].rows = summarise(s, groups[g].positions.size(), subsets[g]);
  return groups;
}

std::vector<WorkSpanFit> fit_work_span(const LabSettings& s, const std::vector<LabRun>& runs) {
  const std::vector<int> refs = reference_configs(s.configs);
  // Seconds per node of each configuration's serial reference.
  std::vector<double> ref_seconds(s.configs.size(), 0), ref_nodes(s.configs.size(), 0);
  for (const LabRun& r : runs) {
    ref_seconds[std::size_t(r.config)] += r.seconds;
    ref_nodes[std::size_t(r.config)] += double(r.result.stats.nodes);
  }
  std::vector<WorkSpanFit> out;
  std::vector<bool> done(s.configs.size(), false);
  for (std::size_t i = 0; i < s.configs.size(); ++i) {
    if (done[i]) continue;
    const LabConfig& c = s.configs[i];
    WorkSpanFit f;
    f.backend = c.backend;
    f.hash = c.hash;
    double xx = 0, xy = 0, yy = 0, xt = 0, yt = 0, tt = 0;
    bool spans = false;
    for (std::size_t j = i; j < s.configs.size(); ++j) {
      const LabConfig& d = s.configs[j];
      if (d.backend != c.backend || d.hash != c.hash) continue;
      done[j] = true;
      const int ref = refs[j];
      if (ref < 0 || ref_nodes[std::size_t(ref)] <= 0) continue;
      const double u = ref_seconds[std::size_t(ref)] / ref_nodes[std::size_t(ref)];
      f.seconds_per_node = u;
      bool any = false;
      for (const LabRun& r : runs) {
        if (r.config != int(j) || r.result.stats.critical_path == 0) continue;
        const double w = u * double(r.result.stats.nodes) / d.threads;
        const double cp = u * double(r.result.stats.critical_path);
        xx += w * w;
        xy += w * cp;
        yy += cp * cp;
        xt += w * r.seconds;
        yt += cp * r.seconds;
        tt += r.seconds * r.seconds;
        ++f.samples;
        any = true;
      }
      if (any) f.threads.push_back(d.threads);
      spans = spans || any;
    }
    const double det = xx * yy - xy * xy;
    if (!spans || f.samples < 2 || det <= 1e-12 * xx * yy) continue;
    f.a = (xt * yy - yt * xy) / det;
    f.b = (yt * xx - xt * xy) / det;
    // Residual sum of squares about the fit, against the sum of squares.
    const double rss = tt - 2 * (f.a * xt + f.b * yt) + f.a * f.a * xx + 2 * f.a * f.b * xy +
                       f.b * f.b * yy;
    f.r2 = tt > 0 ? 1.0 - rss / tt : 0;
    out.push_back(f);
  }
  return out;
}

double cpu_share(double cpu_seconds, double wall_seconds, int threads) {
  const double offered = wall_seconds * threads;
  return offered > 0 ? cpu_seconds / offered : 0.0;
}

bool contested(double cpu_seconds, double wall_seconds, int threads, double idle_seconds) {
  if (threads > int(cores()) || wall_seconds <= 0) return false;
  const double wanted = std::max(wall_seconds, wall_seconds * threads - idle_seconds);
  return cpu_seconds < kContestedShare * wanted;
}

std::string oversubscription_note(const LabSettings& s) {
  // A simulated machine has a processor per logical thread, unless it
  // time-slices them on fewer (--sim-cores).
  if (s.sim) {
    for (const LabConfig& c : s.configs)
      if (s.sim->cores > 0 && processors(s, c) > s.sim->cores)
        return "note: SIMULATED thread counts above " + std::to_string(s.sim->cores) +
               " virtual cores (--sim-cores) are time-sliced: they measure overhead, not speed";
    return "";
  }
  for (const LabConfig& c : s.configs)
    if (c.threads > int(cores()))
      return "note: thread counts above " + std::to_string(cores()) +
             " cores measure overhead, not speed";
  return "";
}

namespace {

// "3, 5-7" for the 0-based indices {2, 4, 5, 6}.
std::string ranges(const std::vector<int>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(v[i] + 1);
    if (j > i) {
      out += '-';
      out += std::to_string(v[j] + 1);
    }
    i = j + 1;
  }
  return out;
}

}  // namespace

std::vector<std::string> missing_searches(const LabSettings& s, std::size_t positions,
                                          const std::vector<LabRun>& runs) {
  // have[config][run][position]
  std::vector<std::vector<std::vector<bool>>> have(
      s.configs.size(), std::vector<std::vector<bool>>(std::size_t(std::max(0, s.runs)),
                                                       std::vector<bool>(positions, false)));
  for (const LabRun& r : runs)
    have[std::size_t(r.config)][std::size_t(r.run)][std::size_t(r.position)] = true;
  std::vector<std::string> out;
  for (std::size_t c = 0; c < s.configs.size(); ++c) {
    std::size_t missing = 0;
    std::string where;
    for (std::size_t k = 0; k < have[c].size(); ++k) {
      std::vector<int> gaps;
      for (std::size_t p = 0; p < positions; ++p)
        if (!have[c][k][p]) gaps.push_back(int(p));
      if (gaps.empty()) continue;
      missing += gaps.size();
      if (!where.empty()) where += "; ";
      where += "run " + std::to_string(k + 1) + ": ";
      if (gaps.size() == positions) {
        where += "all";
      } else {
        where += gaps.size() == 1 ? "position " : "positions ";
        where += ranges(gaps);
      }
    }
    if (missing == 0) continue;
    out.push_back(s.configs[c].label() + ": " + std::to_string(missing) + " of " +
                  std::to_string(have[c].size() * positions) + " searches (" + where + ")");
  }
  return out;
}

}  // namespace xq::lab::timing
