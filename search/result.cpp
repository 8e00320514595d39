#include "search/result.h"

namespace xq {

SearchStats& SearchStats::operator+=(const SearchStats& o) {
  nodes += o.nodes;
  qnodes += o.qnodes;
  tt_probes += o.tt_probes;
  tt_hits += o.tt_hits;
  tt_cutoffs += o.tt_cutoffs;
  tt_torn += o.tt_torn;
  bad_tt_moves += o.bad_tt_moves;
  tt_rejected += o.tt_rejected;
  fail_highs += o.fail_highs;
  fail_high_first += o.fail_high_first;
  null_tries += o.null_tries;
  null_cutoffs += o.null_cutoffs;
  reductions += o.reductions;
  reduction_researches += o.reduction_researches;
  pruned_moves += o.pruned_moves;
  static_cutoffs += o.static_cutoffs;
  singular_extensions += o.singular_extensions;
  splits += o.splits;
  eldest_splits += o.eldest_splits;
  joins += o.joins;
  aborts += o.aborts;
  idle_seconds += o.idle_seconds;
  nested_joins += o.nested_joins;
  master_joins += o.master_joins;
  search_seconds += o.search_seconds;
  lock_seconds += o.lock_seconds;
  copy_seconds += o.copy_seconds;
  span_seconds += o.span_seconds;
  wasted_nodes += o.wasted_nodes;
  busy_answers += o.busy_answers;
  deferrals += o.deferrals;
  deferred_searches += o.deferred_searches;
  cutoff_reprobes += o.cutoff_reprobes;
  root_retests += o.root_retests;
  mark_underflows += o.mark_underflows;
  mark_leaks += o.mark_leaks;
  gratuitous_splits += o.gratuitous_splits;
  late_joins += o.late_joins;
  predicted_all += o.predicted_all;
  predicted_cut += o.predicted_cut;
  prediction_held += o.prediction_held;
  tasks += o.tasks;
  stolen_tasks += o.stolen_tasks;
  researches += o.researches;
  if (o.critical_path > critical_path) critical_path = o.critical_path.load();
  cancel_wait_seconds += o.cancel_wait_seconds;
  helper_cpu_seconds += o.helper_cpu_seconds;
  schedule_bound += o.schedule_bound;
  master_passes += o.master_passes;
  uncertain_leaves += o.uncertain_leaves;
  leaf_searches += o.leaf_searches;
  if (o.seldepth > seldepth) seldepth = o.seldepth.load();
  return *this;
}

std::optional<int> SearchResult::mate() const {
  if (score >= kMateInMaxPly) return (kMate - score + 1) / 2;
  if (score <= -kMateInMaxPly) return -((kMate + score) / 2);
  return std::nullopt;
}

}  // namespace xq
