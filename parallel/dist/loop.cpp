#include "parallel/dist/loop.h"

#include <stdexcept>
#include <string>

namespace xq::dist {

class LoopWorld::End final : public Transport {
 public:
  End(LoopWorld& world, int rank, std::chrono::microseconds latency)
      : world_(world), rank_(rank), latency_(latency) {}

  int rank() const override { return rank_; }
  int size() const override { return world_.size(); }

  void send(int dest, Tag tag, std::vector<std::uint8_t> body) override {
    if (dest < 0 || dest >= size() || dest == rank_)
      throw std::invalid_argument("loop wire: rank " + std::to_string(rank_) +
                                  " cannot send to rank " + std::to_string(dest));
    count_sent(body.size());
    End& to = *world_.ends_[std::size_t(dest)];
    const auto due = std::chrono::steady_clock::now() + latency_;
    {
      std::lock_guard lock(to.mutex_);
      to.inbox_.push_back({due, Message{rank_, tag, std::move(body)}});
    }
    to.cv_.notify_one();
  }

  std::optional<Message> receive(std::chrono::microseconds wait) override {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    std::unique_lock lock(mutex_);
    for (;;) {
      const auto now = std::chrono::steady_clock::now();
      if (!inbox_.empty() && inbox_.front().due <= now) {
        Message m = std::move(inbox_.front().message);
        inbox_.pop_front();
        lock.unlock();
        count_received(m.body.size());
        return m;
      }
      if (now >= deadline) return std::nullopt;
      // Every message has the same latency, so the front is due first.
      const auto until = inbox_.empty() ? deadline : std::min(deadline, inbox_.front().due);
      cv_.wait_until(lock, until);
    }
  }

 private:
  struct Pending {
    std::chrono::steady_clock::time_point due;
    Message message;
  };
  LoopWorld& world_;
  const int rank_;
  const std::chrono::microseconds latency_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Pending> inbox_;  // guarded by mutex_
};

LoopWorld::LoopWorld(int ranks, std::chrono::microseconds latency) {
  if (ranks < 1) throw std::invalid_argument("a loop world needs at least one rank");
  for (int r = 0; r < ranks; ++r) ends_.push_back(std::make_unique<End>(*this, r, latency));
}

LoopWorld::~LoopWorld() = default;

Transport& LoopWorld::rank(int r) { return *ends_[std::size_t(r)]; }

}  // namespace xq::dist
