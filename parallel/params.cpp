#include "parallel/params.h"

#include <charconv>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "hashing/replacement.h"
#include "parallel/split/dts_policy.h"

namespace xq {
namespace {

std::vector<std::string_view> replacement_choices() {
  return {kReplacementNames.begin(), kReplacementNames.end()};
}

std::int64_t replacement_index(Replacement r) {
  const std::string_view name = replacement_name(r);
  for (std::size_t i = 0; i < kReplacementNames.size(); ++i)
    if (kReplacementNames[i] == name) return std::int64_t(i);
  return 0;
}

// A parameter stored in one field of BackendConfig (an integer, a bool or
// the index of a choice): its value is the field's, converted.
template <auto Field>
std::int64_t get_field(const BackendConfig& c) {
  return std::int64_t(c.*Field);
}

template <auto Field>
void set_field(BackendConfig& c, std::int64_t x) {
  c.*Field = static_cast<std::remove_reference_t<decltype(c.*Field)>>(x);
}

template <auto Field>
BackendParam field(std::string_view name, std::string_view summary,
                   std::vector<std::string_view> backends, std::int64_t min, std::int64_t max,
                   std::vector<std::string_view> choices) {
  return {name, summary, std::move(backends), min, max, std::move(choices), get_field<Field>,
          set_field<Field>};
}

// simplified ABDADA and Lazy SMP.
void add_shared_table_params(std::vector<BackendParam>& v) {
  v.push_back(field<&BackendConfig::busy_entries>("busy_entries",
                                                  "buckets of the busy-move side table",
                                                  {"abdada-simple"}, 1, std::int64_t{1} << 22, {}));
  v.push_back(field<&BackendConfig::busy_ways>(
      "busy_ways", "slots per bucket of the busy-move side table", {"abdada-simple"}, 1, 16, {}));
  v.push_back(field<&BackendConfig::simple_mark_depth>(
      "simple_mark_depth", "least remaining depth at which moves are marked and deferred",
      {"abdada-simple"}, 1, kMaxDepth, {}));
  v.push_back(field<&BackendConfig::simple_reprobe_depth>(
      "simple_reprobe_depth", "least remaining depth of the table re-probes after a deferral",
      {"abdada-simple"}, 1, kMaxDepth, {}));
  v.push_back(field<&BackendConfig::skip_schedule>(
      "skip_schedule", "depths the helpers skip (Stockfish 7 or 9 schedule)", {"lazysmp"}, 0, 2,
      {"none", "sf7", "sf9"}));
  v.push_back(field<&BackendConfig::window_offset>(
      "window_offset", "aspiration-window shift per helper (+o, -o, +2o, ...)", {"lazysmp"}, 0, 500,
      {}));
  v.push_back(field<&BackendConfig::vote>(
      "best_thread", "result of a search without depth limit: main thread or a vote", {"lazysmp"},
      0, 1, {"main", "vote"}));
}

std::vector<BackendParam> make_params() {
  std::vector<BackendParam> v;
  v.push_back(field<&BackendConfig::min_split_depth>(
      "min_split_depth", "only nodes with at least this remaining depth split",
      {"pvsplit", "ybwc", "dts"}, 1, kMaxDepth, {}));
  v.push_back(field<&BackendConfig::max_splits_per_thread>(
      "max_splits_per_thread", "most split points one thread may own at once", {"ybwc", "dts"}, 1,
      64, {}));
  v.push_back(field<&BackendConfig::omp_dynamic>(
      "omp_schedule", "OpenMP schedule of the parallel loop at a PV node", {"pvsplit"}, 0, 1,
      {"static", "dynamic"}));
  v.push_back(field<&BackendConfig::abdada_defer_depth>(
      "abdada_defer_depth",
      "least remaining depth of a node that is marked busy and may be deferred", {"abdada"}, 1,
      kMaxDepth, {}));
  v.push_back(field<&BackendConfig::abdada_defer_root>(
      "abdada_defer_root", "whether root moves may be deferred", {"abdada"}, 0, 1, {"no", "yes"}));
  v.push_back(field<&BackendConfig::abdada_reprobe_depth>(
      "abdada_reprobe_depth",
      "after a deferral, re-probe the table for a cutoff before each move at this "
      "depth or more (0: never)",
      {"abdada"}, 0, kMaxDepth, {}));
  v.push_back(field<&BackendConfig::abdada_first_complete>(
      "abdada_first_complete",
      "under a depth limit, whether any thread's completed last iteration ends the "
      "search (no: only the main thread's)",
      {"abdada", "abdada-simple"}, 0, 1, {"no", "yes"}));
  v.push_back(field<&BackendConfig::root_retest>(
      "root_retest",
      "a root move that fails high at a stale alpha is re-tested against the best "
      "another thread has raised meanwhile before its open-window re-search",
      {"abdada", "abdada-simple"}, 0, 1, {"no", "yes"}));
  v.push_back({"replacement", "transposition-table replacement policy", {"all"}, 0,
               std::int64_t(kReplacementNames.size()) - 1, replacement_choices(),
               [](const BackendConfig& c) { return replacement_index(c.replacement); },
               [](BackendConfig& c, std::int64_t x) {
                 c.replacement = parse_replacement(kReplacementNames[std::size_t(x)]);
               }});
  add_shared_table_params(v);
  v.push_back(field<&BackendConfig::gratuitous_depth>(
      "gratuitous_depth", "nodes at least this deep split even when no thread is idle", {"dts"}, 1,
      kMaxDepth, {}));
  v.push_back(field<&BackendConfig::gratuitous_limit>(
      "gratuitous_limit", "most gratuitous split points one thread has open at once", {"dts"}, 0,
      64, {}));
  v.push_back(field<&BackendConfig::gratuitous_at_cut>(
      "gratuitous_at_cut", "whether nodes predicted CUT split gratuitously too", {"dts"}, 0, 1,
      {"no", "yes"}));
  v.push_back(field<&BackendConfig::split_max_helpers>(
      "max_helpers", "most helpers at one split point besides its owner (0: no limit)", {"dts"}, 0,
      255, {}));
  v.push_back(field<&BackendConfig::gratuitous_moves>(
      "gratuitous_moves", "moves a node searches without a cutoff before it splits gratuitously",
      {"dts"}, 1, 64, {}));
  v.push_back(field<&BackendConfig::split_policy>(
      "split_policy", "which open split point an idle thread joins", {"dts"}, 0,
      std::int64_t(dts::kPolicyNames.size()) - 1,
      {dts::kPolicyNames.begin(), dts::kPolicyNames.end()}));
  v.push_back(field<&BackendConfig::proven_moves>(
      "proven_moves", "split_policy=proven: moves searched without a cutoff that prove a node ALL",
      {"dts"}, 1, 64, {}));
  v.push_back(field<&BackendConfig::split_live_alpha>(
      "live_alpha", "re-search a split point's younger brother from the node's current alpha",
      {"ybwc", "dts"}, 0, 1, {"no", "yes"}));
  return v;
}

std::int64_t parse_value(const BackendParam& p, std::string_view text) {
  const std::string bad = "parameter " + std::string(p.name) + " must be " +
                          (p.enumerated() ? "one of " : "an integer in ") + p.range_text() +
                          ", got '" + std::string(text) + "'";
  if (p.enumerated()) {
    for (std::size_t i = 0; i < p.choices.size(); ++i)
      if (p.choices[i] == text) return std::int64_t(i);
    throw std::invalid_argument(bad);
  }
  std::int64_t x = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, x);
  if (text.empty() || ec != std::errc() || ptr != end || x < p.min || x > p.max)
    throw std::invalid_argument(bad);
  return x;
}

}  // namespace

std::string BackendParam::value_text(const BackendConfig& c) const {
  const std::int64_t x = get(c);
  return enumerated() ? std::string(choices[std::size_t(x)]) : std::to_string(x);
}

std::string BackendParam::range_text() const {
  if (!enumerated()) return std::to_string(min) + ".." + std::to_string(max);
  std::string s;
  for (std::string_view c : choices) s += (s.empty() ? "" : "|") + std::string(c);
  return s;
}

const std::vector<BackendParam>& backend_params() {
  static const std::vector<BackendParam> kParams = make_params();
  return kParams;
}

const BackendParam& find_param(std::string_view name) {
  std::string known;
  for (const BackendParam& p : backend_params()) {
    if (p.name == name) return p;
    known += (known.empty() ? "" : ", ") + std::string(p.name);
  }
  throw std::invalid_argument("unknown parameter '" + std::string(name) + "' (known: " + known +
                              ")");
}

void set_param(BackendConfig& config, std::string_view assignment) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string_view::npos)
    throw std::invalid_argument("--param needs NAME=VALUE, got '" + std::string(assignment) +
                                "'");
  const BackendParam& p = find_param(assignment.substr(0, eq));
  p.set(config, parse_value(p, assignment.substr(eq + 1)));
}

}  // namespace xq
