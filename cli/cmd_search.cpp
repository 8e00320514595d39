// xqlab search: one search of one position by one backend with one hash
// scheme, reporting every completed iteration and the final result (plain
// text, or one JSON object with --json).
#include <cstdio>
#include <stdexcept>
#include <string>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/lab_backend.h"
#include "hashing/schemes.h"
#include "search/options.h"

namespace xq::cli {
namespace {

constexpr Depth kDefaultDepth = 6;

std::string pv_text(const std::vector<Move>& pv) {
  std::string s;
  for (Move m : pv) {
    if (!s.empty()) s += ' ';
    s += move_name(m);
  }
  return s;
}

std::string score_text(const SearchResult& r) {
  if (const auto mate = r.mate()) return "mate " + std::to_string(*mate);
  return "cp " + std::to_string(r.score);
}

// Prints one "info" line per completed iteration (plain output only).
class InfoPrinter final : public Observer {
 public:
  void on_iteration(const SearchResult& r) override {
    std::printf("info depth %d score %s nodes %llu qnodes %llu time %.0f nps %.0f pv %s\n",
                r.depth, score_text(r).c_str(), static_cast<unsigned long long>(r.stats.nodes),
                static_cast<unsigned long long>(r.stats.qnodes), r.seconds * 1000.0, r.nps(),
                pv_text(r.pv).c_str());
    std::fflush(stdout);
  }
};

SearchOptions parse_options(const Args& args) {
  SearchOptions opt;
  opt.limits.depth = Depth(args.get_int("depth", 0, 1, kMaxDepth));
  opt.limits.movetime_ms = args.get_int("movetime", 0, 1, std::int64_t{1} << 40);
  opt.limits.nodes = std::uint64_t(args.get_int("nodes", 0, 1, std::int64_t{1} << 62));
  if (!args.has("depth") && !args.has("movetime") && !args.has("nodes"))
    opt.limits.depth = kDefaultDepth;
  try {
    opt.algorithm = parse_algorithm(args.get("algo", "pvs"));
    opt.features = Features::parse(args.get("features", "all"));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  opt.exact = args.has("exact");
  return opt;
}

void print_json(const SearchResult& r, const Position& pos, const SearchOptions& opt,
                const std::string& backend, const BackendConfig& cfg) {
  const SearchStats& s = r.stats;
  auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  std::string pv = "[";
  for (std::size_t i = 0; i < r.pv.size(); ++i) {
    if (i) pv += ", ";
    pv += '"';
    pv += move_name(r.pv[i]);
    pv += '"';
  }
  pv += "]";
  const auto mate = r.mate();
  const std::string mate_text = mate ? std::to_string(*mate) : "null";
  std::printf(
      "{\"fen\": \"%s\", \"bestmove\": \"%s\", \"score\": %d, \"mate\": %s, \"depth\": %d, "
      "\"nodes\": %llu, \"qnodes\": %llu, \"seconds\": %.6f, \"nps\": %.0f, \"pv\": %s, "
      "\"tt_probes\": %llu, \"tt_hits\": %llu, \"tt_cutoffs\": %llu, \"tt_torn\": %llu, "
      "\"bad_tt_moves\": %llu, \"first_move_cutoff_rate\": %.4f, \"null_tries\": %llu, "
      "\"null_cutoffs\": %llu, \"splits\": %llu, \"joins\": %llu, \"aborts\": %llu, "
      "\"idle_seconds\": %.6f, \"stopped\": %s, \"backend\": \"%s\", \"hash\": \"%s\", "
      "\"threads\": %d, \"hash_mb\": %zu, \"algo\": \"%s\", \"features\": \"%s\", "
      "\"exact\": %s}\n",
      json_escape(pos.fen()).c_str(), move_name(r.best_move).c_str(), r.score, mate_text.c_str(),
      r.depth, u(s.nodes), u(s.qnodes), r.seconds, r.nps(), pv.c_str(), u(s.tt_probes),
      u(s.tt_hits), u(s.tt_cutoffs), u(s.tt_torn), u(s.bad_tt_moves), s.first_move_cutoff_rate(),
      u(s.null_tries), u(s.null_cutoffs), u(s.splits), u(s.joins), u(s.aborts), s.idle_seconds,
      r.stopped ? "true" : "false", json_escape(backend).c_str(), json_escape(cfg.hash).c_str(),
      cfg.threads, cfg.hash_mib, algorithm_name(opt.algorithm),
      opt.features.to_string().c_str(), opt.exact ? "true" : "false");
}

void print_text(const SearchResult& r, const std::string& backend, const BackendConfig& cfg) {
  const SearchStats& s = r.stats;
  auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  std::printf("bestmove %s\n", move_name(r.best_move).c_str());
  std::printf("score %s (%d)  depth %d%s\n", score_text(r).c_str(), r.score, r.depth,
              r.stopped ? "  (stopped by a limit)" : "");
  std::printf("pv %s\n", pv_text(r.pv).c_str());
  std::printf("nodes %llu  qnodes %llu  time %.3f s  nps %.0f\n", u(s.nodes), u(s.qnodes),
              r.seconds, r.nps());
  std::printf("tt probes %llu  hits %llu  cutoffs %llu  torn %llu  bad moves %llu\n",
              u(s.tt_probes), u(s.tt_hits), u(s.tt_cutoffs), u(s.tt_torn), u(s.bad_tt_moves));
  std::printf("first-move cutoff rate %.3f\n", s.first_move_cutoff_rate());
  std::printf("backend %s  hash %s  threads %d  splits %llu  joins %llu  aborts %llu\n",
              backend.c_str(), cfg.hash.c_str(), cfg.threads, u(s.splits), u(s.joins),
              u(s.aborts));
}

}  // namespace

int cmd_search(const Argv& argv) {
  const Args args(argv,
                  {"fen", "depth", "movetime", "nodes", "algo", "features", "backend", "hash",
                   "threads", "hash-mb"},
                  {"exact", "json"});
  const Position pos = parse_position_arg(args.get("fen"));
  const SearchOptions opt = parse_options(args);

  const std::string backend = args.get("backend", "serial");
  const BackendInfo* info = nullptr;
  try {
    info = &find_backend(backend);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  BackendConfig cfg;
  cfg.hash = args.get("hash", std::string(info->default_hash));
  cfg.threads = int(args.get_int("threads", 1, 1, 256));
  cfg.hash_mib = std::size_t(args.get_int("hash-mb", 16, 1, 1 << 20));
  check_backend_pair(backend, cfg.hash);
  const auto engine = make_backend_or_usage(backend, cfg);

  const bool json = args.has("json");
  InfoPrinter printer;
  Observer silent;
  const SearchResult r = engine->search(pos, opt, json ? static_cast<Observer&>(silent) : printer);
  if (json) print_json(r, pos, opt, backend, engine->config());
  else print_text(r, backend, engine->config());
  return 0;
}

}  // namespace xq::cli
