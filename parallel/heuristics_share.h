// What a backend's threads share besides the table: the history table and
// the killer moves, each either the thread's own (the seed thesis's way, the
// default), shared by groups of 2 or of 8 threads (threads 0-1, 2-3, ... or
// 0-7, 8-15, ...), or shared by every thread. Shared tables race: every word
// is a relaxed atomic (search/worker.h), so an update may be lost or mixed
// with another's, as engines that share such tables accept, and
// ThreadSanitizer sees no race. A run-time choice read from two backend
// parameters (history_share, killer_share), not a template axis: it adds no
// instantiation. Exact mode is unchanged by it (the tables order moves only).
#pragma once

#include <array>
#include <memory>
#include <string_view>
#include <vector>

#include "parallel/backend.h"
#include "search/worker.h"

namespace xq {

enum class ShareMode : std::uint8_t { Thread, Group2, Group8, All };
inline constexpr std::array<std::string_view, 4> kShareModeNames = {"thread", "group2", "group8",
                                                                     "all"};

// Threads per table: 1, 2, 8 or all `threads`.
int share_group_size(ShareMode mode, int threads);

// The two parameters, for the tables of the backends whose threads honour
// them: `params` followed by them.
std::vector<ParamSpec> heuristics_share_params();
std::vector<ParamSpec> with_heuristics_share(std::vector<ParamSpec> params);
// `params` without them (a backend whose helpers are processes: a table in
// one process's heap cannot be shared).
std::vector<ParamSpec> without_heuristics_share(std::vector<ParamSpec> params);

class HeuristicsShare {
 public:
  // Every thread its own tables.
  HeuristicsShare() = default;
  // From the config's history_share and killer_share, for config.threads.
  explicit HeuristicsShare(const BackendConfig& config);
  HeuristicsShare(ShareMode history, ShareMode killers, int threads);

  // Points w's tables at its group's (group w.id / size; an id past the
  // thread count joins the last group), or at its own; the first thread of
  // a group clears the group's tables when it is reset (`may_lead`; a
  // backend that makes workers during a search says false and clear()s).
  void attach(Worker& w, bool may_lead = true) const;
  // Clears every shared table (no thread may be searching).
  void clear() const;
  ShareMode history() const { return history_mode_; }
  ShareMode killers() const { return killers_mode_; }
  // Shared tables of each kind (0 when every thread has its own).
  int history_tables() const { return int(histories_.size()); }
  int killer_tables() const { return int(killers_.size()); }

 private:
  struct alignas(64) HistoryBox {
    History t{};
  };
  struct alignas(64) KillersBox {
    Killers t{};
  };
  ShareMode history_mode_ = ShareMode::Thread, killers_mode_ = ShareMode::Thread;
  int history_group_ = 1, killers_group_ = 1;
  std::vector<std::unique_ptr<HistoryBox>> histories_;
  std::vector<std::unique_ptr<KillersBox>> killers_;
};

}  // namespace xq
