// Per-thread search state: the thread's own position, killer and history
// tables, PV stack and counters. One Worker per thread, aligned to cache
// lines so no two threads' hot data share a line (the seed thesis pads its
// per-thread history and killer tables against false sharing the same way).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>

#include "board/position.h"
#include "board/types.h"
#include "search/result.h"

namespace xq {

struct PvLine {
  std::array<Move, kMaxPly + 1> moves{};
  int size = 0;
};

// out = m followed by the line below it.
inline void set_line(PvLine& out, Move m, const PvLine& below) {
  out.moves[0] = m;
  const int n = std::min(below.size, kMaxPly - 1);
  for (int i = 0; i < n; ++i) out.moves[std::size_t(i) + 1] = below.moves[std::size_t(i)];
  out.size = n + 1;
}

using Killers = std::array<std::array<Move, 2>, kMaxPly + 2>;
using History = std::array<std::array<int, kSquares>, kSquares>;

struct alignas(64) Worker {
  explicit Worker(int thread_id = 0) : id(thread_id) {}
  // Its tables may be pointed at (attach_*), so a worker is never copied.
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Move-ordering knowledge, the thread's own by default. A backend may
  // point either table at one shared with other threads
  // (parallel/heuristics_share.h); every word of a table is then read and
  // written as a relaxed atomic (std::atomic_ref), so a race between two
  // threads loses or mixes an update, as engines that share such tables
  // accept, and is never undefined behaviour. On x86 a relaxed load or
  // store is the plain move, so the thread's own tables cost nothing extra.
  // `leader`: this worker clears the shared table (one per table).
  void attach_history(History* shared, bool leader) {
    history_ = shared ? shared : &own_history_;
    history_shared_ = shared != nullptr;
    history_leader_ = !shared || leader;
  }
  void attach_killers(Killers* shared, bool leader) {
    killers_ = shared ? shared : &own_killers_;
    killers_shared_ = shared != nullptr;
    killers_leader_ = !shared || leader;
  }
  bool history_shared() const { return history_shared_; }
  bool killers_shared() const { return killers_shared_; }

  void clear_heuristics() {
    if (!killers_shared_) {
      for (auto& k : own_killers_) k = {Move::none(), Move::none()};
    } else if (killers_leader_) {
      for (auto& k : *killers_)
        for (Move& m : k) put(m, Move::none());
    }
    if (!history_shared_) {
      for (auto& row : own_history_) row.fill(0);
    } else if (history_leader_) {
      for (auto& row : *history_)
        for (int& v : row) put(v, 0);
    }
  }
  Move killer(int ply, int slot) const {
    return get((*killers_)[std::size_t(ply)][std::size_t(slot)]);
  }
  bool is_killer(int ply, Move m) const { return killer(ply, 0) == m || killer(ply, 1) == m; }
  void add_killer(int ply, Move m) {
    auto& k = (*killers_)[std::size_t(ply)];
    const Move first = get(k[0]);
    if (first == m) return;
    put(k[1], first);
    put(k[0], m);
  }
  int history_of(Move m) const { return get((*history_)[index(m.from())][index(m.to())]); }
  // The modern profile's history (Features::histgravity): a bonus (or,
  // negative, a malus) that shrinks as the entry nears +-kHistoryBound, so
  // entries stay bounded without a global halving.
  static constexpr int kHistoryBound = 16384;
  void add_history_gravity(Move m, int bonus) {
    int& h = (*history_)[index(m.from())][index(m.to())];
    const int v = get(h);
    put(h, v + bonus - v * (bonus < 0 ? -bonus : bonus) / kHistoryBound);
  }
  // History heuristic: +2^depth for a quiet move that caused a cutoff (the
  // thesis's increment); halved everywhere when an entry grows too large.
  void add_history(Move m, Depth depth) {
    int& h = (*history_)[index(m.from())][index(m.to())];
    const int v = get(h) + (1 << std::min(depth, 20));
    put(h, v);
    if (v > (1 << 28)) {
      if (!history_shared_) {
        for (auto& row : *history_)
          for (int& x : row) x /= 2;
      } else {
        for (auto& row : *history_)
          for (int& x : row) put(x, get(x) / 2);
      }
    }
  }
  // Copies of the thread's own tables (a split point's snapshot, a task's
  // hand-over); a shared table is neither copied out nor overwritten: the
  // threads that share it see one another's updates already.
  void save_history(History& out) const {
    if (!history_shared_) out = *history_;
  }
  void save_killers(Killers& out) const {
    if (!killers_shared_) out = *killers_;
  }
  void load_history(const History& in) {
    if (!history_shared_) *history_ = in;
  }
  void load_killers(const Killers& in) {
    if (!killers_shared_) *killers_ = in;
  }
  void copy_history_from(const Worker& o) {
    if (!history_shared_ && !o.history_shared_) *history_ = *o.history_;
  }
  void copy_killers_from(const Worker& o) {
    if (!killers_shared_ && !o.killers_shared_) *killers_ = *o.killers_;
  }
  // Tests and calibration: the history table itself (not while threads search).
  History& history_table() { return *history_; }

  int id = 0;
  Position pos;
  std::array<PvLine, kMaxPly + 2> pv{};
  SearchStats stats;
  std::uint64_t next_time_check = 0;  // node count at which to check the limits
  std::uint64_t flushed_nodes = 0;    // nodes already added to SearchShared::nodes
  // Nodes and quiescence nodes already charged to a simulated machine's
  // clock (search/virtual_time.h).
  std::uint64_t sim_nodes = 0, sim_qnodes = 0;
  // Per ply, for the modern profile (after the thesis's fields, whose layout
  // it leaves as it was): the static value of the node (-kInfinite in
  // check), and the move a singular-extension search leaves out.
  std::array<Value, kMaxPly + 2> static_eval{};
  std::array<Move, kMaxPly + 2> excluded{};

 private:
  template <class T>
  static T get(const T& x) {
    return std::atomic_ref<T>(const_cast<T&>(x)).load(std::memory_order_relaxed);
  }
  template <class T>
  static void put(T& x, T v) {
    std::atomic_ref<T>(x).store(v, std::memory_order_relaxed);
  }

  Killers own_killers_{};
  History own_history_{};
  Killers* killers_ = &own_killers_;
  History* history_ = &own_history_;
  bool killers_shared_ = false, history_shared_ = false;
  bool killers_leader_ = true, history_leader_ = true;
};

}  // namespace xq
