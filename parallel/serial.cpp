// The serial backend: the serial engine behind the Backend interface, with
// empty hooks. Every speedup and overhead the lab reports is a ratio against it.
#include <mutex>

#include "parallel/factories.h"
#include "parallel/table_setup.h"
#include "search/driver.h"

namespace xq {
namespace {

template <class Table>
class SerialBackend final : public Backend {
 public:
  explicit SerialBackend(const BackendConfig& c) : config_(c), worker_(std::make_unique<Worker>(0)) {
    config_.threads = 1;
    tt_.configure(config_.hash_mib, 1, config_.replacement);
  }
  std::string_view name() const override { return "serial"; }
  const BackendConfig& config() const override { return config_; }

  SearchResult search(const Position& pos, const SearchOptions& options,
                      Observer& observer) override {
    SearchShared shared;
    shared.options = options;
    {
      std::lock_guard lock(mutex_);
      current_ = &shared;
    }
    tt_.new_search();
    const TableCounters before = tt_.counters();
    worker_->pos = pos;
    worker_->stats = SearchStats{};
    worker_->next_time_check = 0;
    worker_->clear_heuristics();
    SerialHooks hooks;
    Search<Table, SerialHooks> search(tt_, hooks, shared);
    SearchResult r = iterative_deepening(search, *worker_, shared, &observer);
    r.stats.tt_torn = tt_.counters().torn_detected - before.torn_detected;
    {
      std::lock_guard lock(mutex_);
      current_ = nullptr;
    }
    return r;
  }

  void stop() override {
    std::lock_guard lock(mutex_);
    if (current_) current_->stop.store(true, std::memory_order_relaxed);
  }

  void clear() override {
    tt_.clear();
    worker_->clear_heuristics();
  }

 private:
  BackendConfig config_;
  Table tt_;
  std::unique_ptr<Worker> worker_;
  std::mutex mutex_;
  SearchShared* current_ = nullptr;  // guarded by mutex_
};

}  // namespace

bool serial_supports(std::string_view scheme) { return is_scheme_name(scheme); }

std::unique_ptr<Backend> make_serial_backend(const BackendConfig& config) {
  validate_config(config, "serial");
  return make_for_scheme<SerialBackend>(config);
}

}  // namespace xq
