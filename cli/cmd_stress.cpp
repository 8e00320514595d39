// xqlab stress: hammers one hash scheme from T threads with colliding keys and
// counts torn entries the scheme rejected and corrupt ones it accepted (see
// hashing/stress.h for how corruption is recognised).
#include <cstdio>
#include <stdexcept>
#include <string>

#include "cli/args.h"
#include "cli/commands.h"
#include "hashing/schemes.h"
#include "hashing/stress.h"

namespace xq::cli {

int cmd_stress(const Argv& argv) {
  const Args args(argv, {"hash", "threads", "seconds", "entries", "ops", "replace", "stores", "seed"},
                  {"json"});
  if (!args.has("hash")) throw UsageError("--hash is required (known: " + known_schemes_text() + ")");
  const std::string scheme = args.get("hash");
  if (!is_scheme_name(scheme))
    throw UsageError(unknown_scheme_message(scheme));

  StressConfig config;
  config.threads = int(args.get_int("threads", 2, 1, kMaxTableThreads));
  config.seconds = args.get_double("seconds", 5.0, 1e-3, 86400.0);
  config.entries = std::size_t(args.get_int("entries", 1024, 1, std::int64_t{1} << 32));
  config.max_ops = std::uint64_t(args.get_int("ops", 0, 0, std::int64_t{1} << 62));
  config.store_percent = int(args.get_int("stores", 50, 0, 100));
  config.seed = std::uint64_t(args.get_int("seed", 1, 0, std::int64_t{1} << 62));
  try {
    config.replacement = parse_replacement(args.get("replace", "always"));
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--replace: ") + e.what());
  }

  StressResult r;
  try {
    r = visit_scheme(scheme, [&](auto tag) {
      return run_stress<typename decltype(tag)::type>(config);
    });
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }

  const double corrupt_per_million =
      r.hits ? 1e6 * double(r.corrupt_accepted) / double(r.hits) : 0.0;
  const auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  if (args.has("json")) {
    std::printf(
        "{\"hash\": \"%s\", \"unprotected\": %s, \"threads\": %d, \"entries\": %zu, "
        "\"replace\": \"%s\", \"seconds\": %.6f, \"ops\": %llu, \"ops_per_sec\": %.0f, "
        "\"probes\": %llu, \"stores\": %llu, \"hits\": %llu, \"torn_detected\": %llu, "
        "\"corrupt_accepted\": %llu, \"corrupt_per_million_hits\": %.4f}\n",
        json_escape(scheme).c_str(), is_unprotected_scheme(scheme) ? "true" : "false",
        config.threads, r.entries, std::string(replacement_name(config.replacement)).c_str(),
        r.seconds, u(r.ops), r.ops_per_sec(), u(r.probes), u(r.stores), u(r.hits),
        u(r.torn_detected), u(r.corrupt_accepted), corrupt_per_million);
  } else {
    std::printf("hash              %s%s\n", scheme.c_str(),
                is_unprotected_scheme(scheme) ? " (unsafe baseline)" : "");
    std::printf("threads           %d\nentries           %zu\nseconds           %.3f\n",
                config.threads, r.entries, r.seconds);
    std::printf("ops               %llu\nops_per_sec       %.0f\n", u(r.ops), r.ops_per_sec());
    std::printf("probes            %llu\nstores            %llu\nhits              %llu\n",
                u(r.probes), u(r.stores), u(r.hits));
    std::printf("torn_detected     %llu\ncorrupt_accepted  %llu (%.4f per million hits)\n",
                u(r.torn_detected), u(r.corrupt_accepted), corrupt_per_million);
  }
  return 0;
}

}  // namespace xq::cli
