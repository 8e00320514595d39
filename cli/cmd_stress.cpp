// xqlab stress: hammers a hash scheme from T threads. Mode "entries":
// colliding stores and probes; counts torn entries the scheme rejected and
// corrupt ones it accepted. Mode "marks": the busy marks' enter/leave path
// (claim and release of searcher counts); counts the updates lost. See
// hashing/stress.h for how each is recognised.
//
// With --processes the workers are processes sharing the table through
// shared memory instead of threads (hashing/processes.h); "all" then means
// every scheme that can be shared that way.
//
// Several schemes (a list, or "all") and --rounds R run interleaved:
// round 1 of every scheme, then round 2 of every scheme, and so on, so that
// a drift of the machine (other jobs, clock changes) falls on all schemes
// alike. Every run is one JSON line (with "round" and "rounds"); the report
// takes the median per scheme (lab/verdict.h).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/options.h"
#include "cli/usage_error.h"
#include "hashing/replacement.h"
#include "hashing/schemes.h"
#include "hashing/stress.h"
#include "lab/common/meta.h"
#include "lab/common/progress.h"
#include "lab/common/verdict.h"
#include "lab/records/json.h"

namespace xq::cli {
namespace {

struct StressArgs {
  std::vector<std::string> schemes;  // as given: names or "all"
  std::string replace = "always", mode = "entries";
  StressConfig config;
  int rounds = 1;
  bool json = false, quiet = false;
  const CLI::Option* threads_option = nullptr;  // to tell whether --threads was given
};

// "all": every scheme (in marks mode, every scheme that counts searchers).
std::vector<std::string> expand_schemes(const StressArgs& a) {
  std::vector<std::string> out;
  for (const std::string& s : a.schemes) {
    if (s != "all") {
      out.push_back(s);
      continue;
    }
    for (std::string_view n : kSchemeNames) {
      const auto [counts, shareable] = visit_scheme(n, [](auto tag) {
        using Table = typename decltype(tag)::type;
        return std::pair<bool, bool>{Table::kCountsSearchers, Table::kProcessShared};
      });
      if ((a.mode != "marks" || counts) && (!a.config.processes || shareable)) out.emplace_back(n);
    }
  }
  return out;
}

// A run is one unit; on a terminal a ticker redraws the elapsed time
// against the time limit while it lasts.
template <class Work>
StressResult with_progress(lab::common::Progress& progress, const StressArgs& a,
                           const std::string& scheme, Work work) {
  const std::string what = scheme + ", " + std::to_string(a.config.threads) +
                           (a.config.processes ? " processes, " : " threads, ") +
                           "limit " + lab::common::duration_text(a.config.seconds);
  std::atomic<bool> running{true};
  std::thread ticker;
  if (progress.mode() == lab::common::Progress::Mode::terminal)
    ticker = std::thread([&] {
      while (running.load(std::memory_order_acquire)) {
        progress.working(what);
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
      }
    });
  const StressResult r = work();
  running.store(false, std::memory_order_release);
  if (ticker.joinable()) ticker.join();
  progress.done(what);
  return r;
}

// "threads" or "processes": what the workers were ("threads" counts them either way).
const char* executor_name(const StressConfig& c) { return c.processes ? "processes" : "threads"; }

void print_text(const std::string& scheme, const StressConfig& config, const StressResult& r) {
  const auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  const double per_million = r.hits ? 1e6 * double(r.corrupt_accepted) / double(r.hits) : 0.0;
  std::printf("hash              %s%s\n", scheme.c_str(),
              is_unprotected_scheme(scheme) ? " (unsafe baseline)" : "");
  std::printf("%-18s%d\nentries           %zu\nseconds           %.3f\n",
              config.processes ? "processes" : "threads", config.threads, r.entries, r.seconds);
  std::printf("ops               %llu\nops_per_sec       %.0f\n", u(r.ops), r.ops_per_sec());
  std::printf("probes            %llu\nstores            %llu\nhits              %llu\n",
              u(r.probes), u(r.stores), u(r.hits));
  std::printf("torn_detected     %llu\ncorrupt_accepted  %llu (%.4f per million hits)\n",
              u(r.torn_detected), u(r.corrupt_accepted), per_million);
}

void print_marks_text(const std::string& scheme, const StressConfig& config,
                      const MarkStressResult& r) {
  const auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  std::printf("mode              marks\nhash              %s\n", scheme.c_str());
  std::printf("%-18s%d\nentries           %zu\nseconds           %.3f\n",
              config.processes ? "processes" : "threads", config.threads, r.entries, r.seconds);
  std::printf("ops               %llu (enters %llu, busy answers %llu)\n", u(r.ops), u(r.enters),
              u(r.busy));
  std::printf("lost_updates      %llu (%.4f per 1e8 ops)\n", u(r.lost_updates()),
              r.lost_per_1e8());
  std::printf("underflows        %llu\nleaks             %llu (entries still marked)\n",
              u(r.underflows), u(r.leaks));
}

void run_false_matches(const StressArgs& a, const std::string& scheme, int round) {
  const FalseMatchResult r = visit_scheme(scheme, [&](auto tag) {
    return run_false_match<typename decltype(tag)::type>(a.config);
  });
  const auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  if (!a.json) {
    if (a.rounds > 1) std::printf("round             %d of %d\n", round, a.rounds);
    std::printf("mode              false-matches\nhash              %s\n", scheme.c_str());
    std::printf("entries           %zu (%d per bucket, %d-bit key check)\n", r.entries,
                r.bucket_slots, r.key_bits);
    std::printf("stored            %llu keys (fill %.3f)\n", u(r.stored), r.fill);
    std::printf("probes            %llu of keys never stored\n", u(r.probes));
    std::printf("false_matches     %llu (%.3f per million probes; the key check predicts %.1f)\n",
                u(r.false_matches), r.per_million(), r.expected());
    return;
  }
  print_json(Json{{"meta", lab::common::run_meta(invocation())},
                  {"mode", "false-matches"},
                  {"hash", scheme},
                  {"round", round},
                  {"rounds", a.rounds},
                  {"threads", 1},
                  {"entries", r.entries},
                  {"bucket_slots", r.bucket_slots},
                  {"key_bits", r.key_bits},
                  {"ops", r.stored + r.probes},
                  {"stored", r.stored},
                  {"fill", r.fill},
                  {"probes", r.probes},
                  {"false_matches", r.false_matches},
                  {"false_per_million", r.per_million()},
                  {"expected_false_matches", r.expected()},
                  {"seconds", r.seconds}});
}

void run_marks(const StressArgs& a, const std::string& scheme, int round) {
  const MarkStressResult r = visit_scheme(scheme, [&](auto tag) {
    return run_mark_stress<typename decltype(tag)::type>(a.config);
  });
  if (!a.json) {
    if (a.rounds > 1) std::printf("round             %d of %d\n", round, a.rounds);
    print_marks_text(scheme, a.config, r);
    return;
  }
  print_json(Json{{"meta", lab::common::run_meta(invocation())},
                  {"mode", "marks"},
                  {"hash", scheme},
                  {"round", round},
                  {"rounds", a.rounds},
                  {"executor", executor_name(a.config)},
                  {"threads", a.config.threads},
                  {"entries", r.entries},
                  {"ops", r.ops},
                  {"enters", r.enters},
                  {"busy_answers", r.busy},
                  {"seconds", r.seconds},
                  {"lost_updates", r.lost_updates()},
                  {"lost_per_1e8", r.lost_per_1e8()},
                  {"underflows", r.underflows},
                  {"leaks", r.leaks}});
}

// After several entry-mode runs of a scheme: the median and range of its
// throughput over the rounds.
void print_rounds_text(const std::vector<std::string>& schemes,
                       const std::vector<std::vector<double>>& ops_per_sec) {
  std::printf("\n%-12s %6s %14s %14s %14s\n", "hash", "rounds", "median ops/s", "min ops/s",
              "max ops/s");
  for (std::size_t i = 0; i < schemes.size(); ++i) {
    const lab::common::Spread s = lab::common::spread_of(ops_per_sec[i]);
    std::printf("%-12s %6zu %14.0f %14.0f %14.0f\n", schemes[i].c_str(), s.n, s.median, s.min,
                s.max);
  }
  if (schemes.size() < 2) return;
  // The rule of lab/common/verdict.h: a winner only when its slowest round
  // beats every rival's fastest.
  std::vector<lab::common::Samples> samples;
  for (std::size_t i = 0; i < schemes.size(); ++i) samples.push_back({schemes[i], ops_per_sec[i]});
  const lab::common::FastestVerdict v = lab::common::fastest(samples);
  std::vector<std::string> tied;
  for (std::size_t k = 0; k < v.contenders; ++k) tied.push_back(schemes[v.ranking[k]]);
  if (v.decided())
    std::printf("verdict: %s is the fastest (its slowest round beats every other's fastest)\n",
                tied.front().c_str());
  else
    std::printf("verdict: undecided between %s (%s)\n", lab::common::and_list(tied).c_str(),
                v.too_few_samples ? "too few rounds to tell" : "their spreads overlap");
}

StressResult run_entries(const StressArgs& a, lab::common::Progress& progress, const std::string& scheme,
                         int round) {
  const StressResult r = with_progress(progress, a, scheme, [&] {
    return visit_scheme(scheme, [&](auto tag) {
      return run_stress<typename decltype(tag)::type>(a.config);
    });
  });
  if (!a.json) {
    if (a.rounds > 1) std::printf("round             %d of %d\n", round, a.rounds);
    print_text(scheme, a.config, r);
    return r;
  }
  Json j{{"meta", lab::common::run_meta(invocation())},
         {"mode", "entries"},
         {"hash", scheme},
         {"round", round},
         {"rounds", a.rounds},
         {"unprotected", is_unprotected_scheme(scheme)},
         // A probe and a store scan the whole bucket, so throughput differs
         // between schemes by their bucket width too (docs/DESIGN-NOTES.md).
         {"bucket_slots", visit_scheme(scheme, [](auto tag) {
            return decltype(tag)::type::kBucketSlots;
          })},
         // A check shorter than the key admits false matches: such a
         // scheme is never the summary's safest (lab/report/report_summary.cpp).
         {"key_bits", visit_scheme(scheme, [](auto tag) {
            return decltype(tag)::type::kKeyCheckBits;
          })},
         {"executor", executor_name(a.config)},
         {"threads", a.config.threads},
         {"replace", a.replace},
         {"max_ops", a.config.max_ops},
         {"max_seconds", a.config.seconds}};
  j.update(Json(r));
  print_json(j);
  return r;
}

int run(StressArgs& a) {
  if (a.mode == "false-matches" && (a.config.processes || a.threads_option->count() > 0))
    throw UsageError("stress --mode false-matches runs one thread; --threads and --processes do "
                     "not apply");
  const std::vector<std::string> schemes = expand_schemes(a);
  if (a.mode != "marks") a.config.replacement = parse_replacement(a.replace);
  lab::common::Progress progress("stress", std::size_t(a.rounds) * schemes.size(), a.quiet);
  std::vector<std::vector<double>> ops_per_sec(schemes.size());
  for (int round = 1; round <= a.rounds; ++round)
    for (std::size_t i = 0; i < schemes.size(); ++i) {
      if (!a.json && (round > 1 || i > 0)) std::printf("\n");
      if (a.mode == "marks") {
        run_marks(a, schemes[i], round);
        continue;
      }
      if (a.mode == "false-matches") {
        run_false_matches(a, schemes[i], round);
        continue;
      }
      ops_per_sec[i].push_back(run_entries(a, progress, schemes[i], round).ops_per_sec());
    }
  progress.finish();
  if (!a.json && a.mode == "entries" && a.rounds > 1) print_rounds_text(schemes, ops_per_sec);
  return 0;
}

}  // namespace

Command add_stress(CLI::App& root) {
  auto a = std::make_shared<StressArgs>();
  StressConfig& c = a->config;
  c.seconds = 5.0;
  c.entries = 1024;
  CLI::App* app = root.add_subcommand("stress", "hash-table race stress: torn entries detected "
                                                "and corrupt entries accepted, or busy-mark "
                                                "updates lost");
  app->add_option("--hash", a->schemes,
                  "hash schemes, comma-separated, or 'all' ('xqlab list' names them)")
      ->delimiter(',')
      ->check(scheme_name() | CLI::IsMember({"all"}))
      ->required();
  app->add_option("--rounds", a->rounds,
                  "runs of every scheme, interleaved across the schemes (A B A B ...)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app->add_option("--mode", a->mode,
                  "entries: stores and probes; marks: busy-mark enter/leave (claim/release); "
                  "false-matches: one thread fills the table, then probes --ops keys never "
                  "stored (default 1000000) and counts the entries returned")
      ->check(CLI::IsMember({"entries", "marks", "false-matches"}))
      ->capture_default_str();
  a->threads_option = add_threads_option(app, c.threads)->capture_default_str();
  app->add_option("--seconds", c.seconds, "time limit")
      ->check(CLI::Range(1e-3, 86400.0))->capture_default_str();
  app->add_option("--ops", c.max_ops, "operation limit, split evenly over threads (0 = none)")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 62));
  app->add_option("--entries", c.entries, "table size in entries")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 32))->capture_default_str();
  app->add_option("--replace", a->replace, "replacement policy")
      ->check(CLI::IsMember(std::vector<std::string>(kReplacementNames.begin(),
                                                     kReplacementNames.end())))
      ->capture_default_str();
  app->add_option("--stores", c.store_percent, "percentage of operations that store")
      ->check(CLI::Range(0, 100))->capture_default_str();
  app->add_option("--seed", c.seed, "random seed")->capture_default_str();
  app->add_flag("--processes", c.processes,
                "the workers are processes sharing the table in shared memory (--threads of "
                "them), not threads");
  app->add_flag("--json", a->json, "one JSON object on stdout");
  app->add_flag("--quiet", a->quiet, "no progress on stderr");
  return {app, [a] { return run(*a); }};
}

}  // namespace xq::cli
