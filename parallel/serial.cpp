// The serial backend: the serial engine behind the Backend interface, with
// empty hooks. Every speedup and overhead the lab reports is a ratio against it.

#include "parallel/backend_base.h"
#include "parallel/factories.h"
#include "parallel/table_setup.h"
#include "search/driver.h"

namespace xq {
namespace {

template <class Table>
class SerialBackend final : public BackendBase<Table> {
 public:
  explicit SerialBackend(const BackendConfig& c)
      : BackendBase<Table>(single_thread(c)), worker_(std::make_unique<Worker>(0)) {}
  std::string_view name() const override { return "serial"; }

  SearchResult search(const Position& pos, const SearchOptions& options,
                      Observer& observer) override {
    SearchShared shared;
    shared.options = options;
    const typename BackendBase<Table>::Running run(*this, shared);
    reset_worker(*worker_, pos);
    SerialHooks hooks;
    Search<Table, SerialHooks> search(this->tt_, hooks, shared);
    SearchResult r = iterative_deepening(search, *worker_, shared, &observer);
    run.finish(r, worker_->stats);
    return r;
  }

  void clear() override {
    this->tt_.clear();
    worker_->clear_heuristics();
  }

 private:
  static BackendConfig single_thread(BackendConfig c) {
    c.threads = 1;
    return c;
  }
  std::unique_ptr<Worker> worker_;
};

}  // namespace

bool serial_supports(std::string_view scheme) { return is_known_scheme(scheme); }

std::unique_ptr<Backend> make_serial_backend(const BackendConfig& config) {
  validate_config(config, "serial");
  return make_for_scheme<SerialBackend>(config);
}

}  // namespace xq
