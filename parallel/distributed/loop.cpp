#include "parallel/distributed/loop.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "parallel/sim/machine.h"

namespace xq::dist {

class LoopWorld::End final : public Transport {
 public:
  End(LoopWorld& world, int rank, int ranks, std::chrono::microseconds latency)
      : world_(world), rank_(rank), latency_(latency), last_due_(std::size_t(ranks), 0) {}

  int rank() const override { return rank_; }
  int size() const override { return world_.size(); }

  void send(int dest, Tag tag, std::vector<std::uint8_t> body) override {
    if (dest < 0 || dest >= size() || dest == rank_)
      throw std::invalid_argument("loop wire: rank " + std::to_string(rank_) +
                                  " cannot send to rank " + std::to_string(dest));
    count_sent(body.size());
    End& to = *world_.ends_[std::size_t(dest)];
    // On a simulated machine a message is due in virtual time: the sender
    // pays its CPU cost, the flight its latency and bytes. A later message
    // of the same pair is never due earlier (the wire's order), though the
    // sender's threads' clocks differ.
    sim::Machine* m = sim::Machine::current();
    sim::Time vdue = 0;
    if (m) {
      m->charge(sim::Cost::Message);
      vdue = m->now() + m->transit(body.size());
    }
    const auto due = std::chrono::steady_clock::now() + (m ? std::chrono::microseconds(0) : latency_);
    int waiter = -1;
    {
      std::lock_guard lock(to.mutex_);
      sim::Time& last = to.last_due_[std::size_t(rank_)];
      vdue = std::max(vdue, last);
      last = vdue;
      // Sorted by virtual due time (all 0 off the simulated machine: the
      // order of sending), a message after every one due no later.
      auto at = to.inbox_.end();
      while (at != to.inbox_.begin() && std::prev(at)->vdue > vdue) --at;
      to.inbox_.insert(at, Pending{due, vdue, Message{rank_, tag, std::move(body)}});
      waiter = to.sim_waiter_;
    }
    if (m && waiter >= 0) m->wake(waiter, vdue);
    to.cv_.notify_one();
  }

  std::optional<Message> receive(std::chrono::microseconds wait) override {
    if (sim::Machine* m = sim::Machine::current()) return receive_simulated(*m, wait);
    const auto deadline = std::chrono::steady_clock::now() + wait;
    std::unique_lock lock(mutex_);
    for (;;) {
      const auto now = std::chrono::steady_clock::now();
      if (!inbox_.empty() && inbox_.front().due <= now) return pop(lock);
      if (now >= deadline) return std::nullopt;
      // Every message has the same latency, so the front is due first.
      const auto until = inbox_.empty() ? deadline : std::min(deadline, inbox_.front().due);
      cv_.wait_until(lock, until);
    }
  }

 private:
  struct Pending {
    std::chrono::steady_clock::time_point due;
    sim::Time vdue = 0;  // on a simulated machine
    Message message;
  };

  Message pop(std::unique_lock<std::mutex>& lock) {
    Message m = std::move(inbox_.front().message);
    inbox_.pop_front();
    lock.unlock();
    count_received(m.body.size());
    return m;
  }

  // The receiver is a logical thread: it sleeps in virtual time until the
  // front message is due, a sender wakes it for an earlier one, or `wait`
  // has passed; only one logical thread runs at a time, so nothing arrives
  // between its look at the inbox and its sleep.
  std::optional<Message> receive_simulated(sim::Machine& m, std::chrono::microseconds wait) {
    const sim::Time deadline = m.now() + sim::Time(wait.count()) * 1'000'000;
    std::unique_lock lock(mutex_);
    for (;;) {
      const sim::Time now = m.now();
      if (!inbox_.empty() && inbox_.front().vdue <= now) {
        Message msg = pop(lock);
        m.charge(sim::Cost::Message);
        return msg;
      }
      if (now >= deadline) {
        lock.unlock();
        m.charge(sim::Cost::IdlePoll);  // an empty look costs time too
        m.yield();
        return std::nullopt;
      }
      const sim::Time until = inbox_.empty() ? deadline : std::min(deadline, inbox_.front().vdue);
      sim_waiter_ = m.id();
      lock.unlock();
      m.sleep_until(until);
      lock.lock();
      sim_waiter_ = -1;
    }
  }

  LoopWorld& world_;
  const int rank_;
  const std::chrono::microseconds latency_;
  std::mutex mutex_;
  std::condition_variable cv_;
  // Guarded by mutex_.
  std::deque<Pending> inbox_;
  std::vector<sim::Time> last_due_;  // by sender: its last message's due time
  int sim_waiter_ = -1;              // the logical thread asleep in receive_simulated
};

LoopWorld::LoopWorld(int ranks, std::chrono::microseconds latency) {
  if (ranks < 1) throw std::invalid_argument("a loop world needs at least one rank");
  for (int r = 0; r < ranks; ++r) ends_.push_back(std::make_unique<End>(*this, r, ranks, latency));
}

LoopWorld::~LoopWorld() = default;

Transport& LoopWorld::rank(int r) { return *ends_[std::size_t(r)]; }

}  // namespace xq::dist
