// The serial backend: the serial engine behind the Backend interface, with
// empty hooks. Every speedup and overhead the lab reports is a ratio against it.

#include "parallel/backend_base.h"
#include "parallel/backend_factory.h"
#include "search/driver.h"

namespace xq {
namespace {

template <class Table>
class SerialBackend final : public BackendBase<Table> {
 public:
  explicit SerialBackend(const BackendConfig& c)
      : BackendBase<Table>(single_thread(c)), worker_(std::make_unique<Worker>(0)) {
    this->require_thread_slots(1);
  }
  std::string_view name() const override { return "serial"; }

  void clear() override {
    this->tt_.clear();
    worker_->clear_heuristics();
  }

 protected:
  void begin_search(const Position& pos, SearchShared&) override { reset_worker(*worker_, pos); }
  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    SerialHooks hooks;
    Search<Table, SerialHooks> search(this->tt_, hooks, shared);
    return iterative_deepening(search, *worker_, shared, &observer);
  }
  SearchStats thread_stats() const override { return worker_->stats; }

 private:
  static BackendConfig single_thread(BackendConfig c) {
    c.threads = 1;
    return c;
  }
  std::unique_ptr<Worker> worker_;
};

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme, real or test.
extern const BackendInfo kSerialBackend = {
    .name = "serial",
    .summary = "the serial hybrid-PVS engine (reference for every ratio)",
    .default_hash = "xor",
    .sharing = Sharing::None,
    .supports = runs_on<EveryTable>,
    .make = make_on<SerialBackend, EveryTable>
};

}  // namespace xq
