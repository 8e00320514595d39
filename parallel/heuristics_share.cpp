#include "parallel/heuristics_share.h"

#include <algorithm>

namespace xq {
namespace {

constexpr std::string_view kHistoryParam = "history_share";
constexpr std::string_view kKillerParam = "killer_share";

ParamSpec share_param(std::string_view name, std::string_view summary) {
  ParamSpec p{name, summary, 0, std::int64_t(kShareModeNames.size()) - 1,
              {kShareModeNames.begin(), kShareModeNames.end()}, 0};
  p.tuned = false;  // a setting to compare, not one of an algorithm's numbers
  return p;
}

// Tables of a group size for `threads` threads (0: each thread its own).
int tables_for(int group, int threads) {
  return group <= 1 ? 0 : (threads + group - 1) / group;
}

}  // namespace

int share_group_size(ShareMode mode, int threads) {
  switch (mode) {
    case ShareMode::Thread: return 1;
    case ShareMode::Group2: return std::min(2, std::max(threads, 1));
    case ShareMode::Group8: return std::min(8, std::max(threads, 1));
    case ShareMode::All: return std::max(threads, 1);
  }
  return 1;
}

std::vector<ParamSpec> heuristics_share_params() {
  return {share_param(kHistoryParam,
                      "threads that share one history table: each its own (thread), groups of "
                      "2 or 8, or all"),
          share_param(kKillerParam,
                      "threads that share one killer table: each its own (thread), groups of 2 "
                      "or 8, or all")};
}

std::vector<ParamSpec> with_heuristics_share(std::vector<ParamSpec> params) {
  for (ParamSpec& p : heuristics_share_params()) params.push_back(std::move(p));
  return params;
}

std::vector<ParamSpec> without_heuristics_share(std::vector<ParamSpec> params) {
  std::erase_if(params, [](const ParamSpec& p) {
    return p.name == kHistoryParam || p.name == kKillerParam;
  });
  return params;
}

HeuristicsShare::HeuristicsShare(const BackendConfig& config)
    : HeuristicsShare(ShareMode(config.param(kHistoryParam)), ShareMode(config.param(kKillerParam)),
                      config.threads) {}

HeuristicsShare::HeuristicsShare(ShareMode history, ShareMode killers, int threads)
    : history_mode_(history),
      killers_mode_(killers),
      history_group_(share_group_size(history, threads)),
      killers_group_(share_group_size(killers, threads)) {
  for (int i = 0; i < tables_for(history_group_, threads); ++i)
    histories_.push_back(std::make_unique<HistoryBox>());
  for (int i = 0; i < tables_for(killers_group_, threads); ++i)
    killers_.push_back(std::make_unique<KillersBox>());
}

void HeuristicsShare::attach(Worker& w, bool may_lead) const {
  const int id = std::max(w.id, 0);
  if (histories_.empty()) {
    w.attach_history(nullptr, true);
  } else {
    const int g = std::min(id / history_group_, int(histories_.size()) - 1);
    w.attach_history(&histories_[std::size_t(g)]->t, may_lead && id % history_group_ == 0);
  }
  if (killers_.empty()) {
    w.attach_killers(nullptr, true);
  } else {
    const int g = std::min(id / killers_group_, int(killers_.size()) - 1);
    w.attach_killers(&killers_[std::size_t(g)]->t, may_lead && id % killers_group_ == 0);
  }
}

void HeuristicsShare::clear() const {
  for (const auto& h : histories_)
    for (auto& row : h->t)
      for (int& v : row) std::atomic_ref<int>(v).store(0, std::memory_order_relaxed);
  for (const auto& k : killers_)
    for (auto& ply : k->t)
      for (Move& m : ply) std::atomic_ref<Move>(m).store(Move::none(), std::memory_order_relaxed);
}

}  // namespace xq
