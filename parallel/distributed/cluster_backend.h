// The backend class of every distributed backend (mpi-lazy, mpi-abdada):
// rank 0 is this process (the caller's thread is its thread 0), the other
// ranks are the loop wire's threads or MPI's processes; and the serve loop
// of a rank other than 0. The ranks themselves: parallel/distributed/cluster.h.
#pragma once

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "parallel/backend_factory.h"
#include "parallel/distributed/cluster.h"
#include "parallel/distributed/loop.h"
#include "parallel/shared/lazysmp.h"
#include "parallel/shared/root_threads.h"
#include "parallel/sim/machine.h"

namespace xq::dist {

// A distributed backend: rank 0 in this process (the caller's thread is its
// thread 0), the other ranks on the loop wire's threads or MPI's processes.
template <class Table, template <class> class Mode>
class ClusterBackend final : public BackendBase<typename Mode<Table>::Tt> {
  using M = Mode<Table>;
  using Tt = typename M::Tt;
  using Base = BackendBase<Tt>;
  using R = Rank<Table, Mode>;

 public:
  explicit ClusterBackend(const BackendConfig& c)
      : Base(c, TableMemory::Private, /*extra_slots=*/1), p_(c) {
    this->require_thread_slots(c.threads + 1);
    if (p_.mpi) {
      start_mpi_ranks(c);
    } else {
      world_ = std::make_unique<LoopWorld>(p_.ranks, p_.latency);
      wire_ = &world_->rank(0);
      start_loop_ranks(c);
    }
    root_ = std::make_unique<R>(c, *wire_, this->tt_);
  }
  ~ClusterBackend() override {
    root_.reset();
    for (int r = 1; r < p_.ranks; ++r) wire_->send(r, Tag::Quit, {});
    for (std::thread& t : serving_) t.join();
    if (p_.mpi) release_mpi_ranks();
  }

  std::string_view name() const override { return M::kName; }
  bool exclusive() const override { return p_.mpi; }
  void clear() override {
    root_->clear();
    for (int r = 1; r < p_.ranks; ++r) wire_->send(r, Tag::Clear, {});
  }

  // Logical thread ids on a simulated machine: rank r's wire thread (or, on
  // rank 0, its thread 0) is r * (T + 1), its pool's helpers the T after.
  int simulated_threads() const override {
    return p_.ranks > 1 ? p_.ranks * (p_.threads + 1) : p_.threads;
  }

 protected:
  void begin_search(const Position& pos, SearchShared& shared) override {
    sim::Machine* m = p_.ranks > 1 ? sim::Machine::current() : nullptr;
    if (m && p_.mpi)
      throw std::invalid_argument(std::string(M::kName) +
                                  " cannot run on the simulated machine over MPI: its ranks are "
                                  "other processes (wire=loop simulates them)");
    if (m && !M::kSimulable)
      throw std::invalid_argument(std::string(M::kName) +
                                  " cannot run on the simulated machine: its searchers sleep on "
                                  "condition variables, which the simulator does not schedule");
    if (m && m->threads() < simulated_threads())
      throw std::invalid_argument(std::string(M::kName) + " runs " +
                                  std::to_string(simulated_threads()) +
                                  " logical threads; the simulated machine holds " +
                                  std::to_string(m->threads()));
    const int per = p_.threads + 1;
    for (int r = 1; r < p_.ranks && !p_.mpi; ++r) servers_[std::size_t(r - 1)]->simulate_next(m, r * per);
    root_->begin(pos, shared, ++search_id_);
    if (!m) return;
    if (!root_->asked()) {
      for (int r = 1; r < p_.ranks; ++r) servers_[std::size_t(r - 1)]->simulate_next(nullptr, 0);
      return;
    }
    // The other ranks start when the SEARCH reaches them.
    for (int r = 1; r < p_.ranks; ++r)
      m->spawn(r * per, m->cost_of(sim::Cost::Message) + m->transit(0));
  }

  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    const SearchOptions& o = shared.options;
    Helpers helpers{*this};
    LastIterationGate<Helpers> gate(observer, helpers, o.limits.depth);
    SearchResult r = iterative_deepening(root_->search(), root_->thread(0), shared, &gate);
    root_->finish();
    // On a simulated machine the other ranks' wire threads leave once they
    // have sent their RESULT.
    if (sim::Machine* m = sim::Machine::current()) m->wait_others();
    if constexpr (M::kVotes) {
      if (!root_->mode().vote() || o.limits.depth > 0 || o.exact || !r.completed) return r;
      std::vector<Ballot> all = root_->ballots();
      std::vector<lazysmp::Ballot> ballots;
      for (const Ballot& b : all) ballots.push_back({b.move, b.score, b.depth});
      const std::size_t winner = lazysmp::vote(ballots);
      if (winner == 0) return r;
      SearchResult chosen = r;
      chosen.best_move = all[winner].move;
      chosen.score = all[winner].score;
      chosen.depth = all[winner].depth;
      chosen.pv = all[winner].pv;
      return chosen;
    }
    return r;
  }

  void end_search() noexcept override { root_->finish_quietly(); }
  SearchStats thread_stats() const override { return root_->stats(); }
  std::vector<RankFigures> rank_figures() const override { return root_->figures(); }
  RoundTrips round_trips() const override { return root_->round_trips(); }

 private:
  struct Helpers {
    ClusterBackend& b;
    void finish() { b.root_->finish(); }
    SearchStats sum() const { return b.root_->stats(); }
  };

  // The loop wire's other ranks: a table and a rank each, serving on a
  // thread of this process.
  void start_loop_ranks(const BackendConfig& c) {
    for (int r = 1; r < p_.ranks; ++r) {
      tables_.push_back(std::make_unique<Tt>());
      configure_table(*tables_.back(), c, c.threads + 1);
      servers_.push_back(std::make_unique<R>(c, world_->rank(r), *tables_.back()));
    }
    for (int r = 1; r < p_.ranks; ++r) {
      R& server = *servers_[std::size_t(r - 1)];
      serving_.emplace_back([&server, r] {
        try {
          server.serve();
        } catch (const std::exception& e) {
          std::fprintf(stderr, "xqlab: %s rank %d stopped serving: %s\n",
                       std::string(M::kName).c_str(), r, e.what());
        }
      });
    }
  }

  // The MPI world's ranks 1..R-1 serve this backend (mpi_world.cpp's loop).
  void start_mpi_ranks(const BackendConfig& c) {
    const std::string name(M::kName);
    wire_ = mpi_world();
    if (!wire_)
      throw std::invalid_argument(
          mpi_built() ? name + ": wire=mpi needs ranks started by mpirun (mpirun -np R xqlab ...)"
                      : name + ": wire=mpi: this xqlab was built without MPI (configure with "
                               "-DXQLAB_MPI=ON)");
    if (wire_->size() < p_.ranks)
      throw std::invalid_argument(name + ": ranks=" + std::to_string(p_.ranks) +
                                  " but mpirun started " + std::to_string(wire_->size()) +
                                  " processes");
    claim_mpi_ranks(name.c_str());
    Writer w;
    put_config(w, name, c);
    const std::vector<std::uint8_t> body = w.take();
    for (int r = 1; r < p_.ranks; ++r) wire_->send(r, Tag::Config, body);
  }

  const ClusterParams p_;
  std::uint64_t search_id_ = 0;
  Transport* wire_ = nullptr;
  std::unique_ptr<LoopWorld> world_;
  std::vector<std::unique_ptr<Tt>> tables_;
  std::vector<std::unique_ptr<R>> servers_;
  std::vector<std::thread> serving_;
  std::unique_ptr<R> root_;
};

// A rank other than 0 serving a backend of mode `Mode` over MPI, compiled
// for the tables the backend runs on (Tables, parallel/backend_factory.h)
// and the build compiles in, as rank 0's make_on is.
template <template <class> class Mode, class Tables>
bool serve_cluster(const BackendConfig& c, Transport& wire, std::vector<Message> early) {
  validate_config(c);
  return visit_scheme(c.hash, [&](auto tag) -> bool {
    using Table = typename decltype(tag)::type;
    if constexpr (kBuiltForBackends<Table> && Tables::template kRuns<Table>) {
      typename Mode<Table>::Tt table;
      configure_table(table, c, c.threads + 1);
      Rank<Table, Mode> rank(c, wire, table);
      rank.adopt_early(std::move(early));
      return rank.serve();
    } else {
      throw std::invalid_argument(refused_scheme_message(c.hash));
    }
  });
}

}  // namespace xq::dist
