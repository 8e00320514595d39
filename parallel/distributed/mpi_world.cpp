// The MPI wire over Open MPI (built when CMake found it: XQLAB_HAVE_MPI) and
// the serve loop of the ranks other than 0. Every MPI call goes through one
// mutex, so MPI_THREAD_SERIALIZED suffices (MULTIPLE is asked for). Sends are
// non-blocking, their buffers kept until MPI reports them done, so two ranks
// shipping to each other never wait on each other; receives poll (Debian's
// Open MPI makes no asynchronous progress, and a rank blocked inside MPI
// would spin a core that the 2-core machines here need for searching), at a
// pace that quickens while messages keep coming.
#include "parallel/distributed/mpi_world.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "parallel/distributed/rank.h"

#if defined(XQLAB_HAVE_MPI)
#include <mpi.h>
#endif

namespace xq::dist {
namespace {

std::atomic<bool> g_claimed{false};

}  // namespace

namespace {

std::vector<std::pair<std::string_view, ServeFn>>& rank_servers() {
  static std::vector<std::pair<std::string_view, ServeFn>> v;
  return v;
}

}  // namespace

RankServer::RankServer(std::string_view backend, ServeFn serve) {
  rank_servers().emplace_back(backend, serve);
}

bool serve_backend(std::string_view backend, const BackendConfig& c, Transport& wire,
                   std::vector<Message> early) {
  for (const auto& [name, serve] : rank_servers())
    if (name == backend) return serve(c, wire, std::move(early));
  throw std::runtime_error("rank " + std::to_string(wire.rank()) + " cannot serve backend '" +
                           std::string(backend) + "'");
}

namespace {

// Whether mpirun / mpiexec started this process (Open MPI, or a PMI launcher).
bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMI_SIZE") != nullptr;
}

}  // namespace

void claim_mpi_ranks(const char* backend) {
  if (g_claimed.exchange(true))
    throw std::invalid_argument(std::string(backend) +
                                ": the MPI ranks already serve another backend (one at a time)");
}
void release_mpi_ranks() { g_claimed.store(false); }

#if defined(XQLAB_HAVE_MPI)

namespace {

class MpiWire final : public Transport {
 public:
  MpiWire() {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~MpiWire() override {
    drain_sends();
    MPI_Comm_free(&comm_);
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void send(int dest, Tag tag, std::vector<std::uint8_t> body) override {
    if (dest < 0 || dest >= size_ || dest == rank_)
      throw std::invalid_argument("mpi wire: rank " + std::to_string(rank_) +
                                  " cannot send to rank " + std::to_string(dest));
    count_sent(body.size());
    std::lock_guard lock(mutex_);
    pending_.push_back({MPI_REQUEST_NULL, std::move(body)});
    Pending& p = pending_.back();
    MPI_Isend(p.body.data(), int(p.body.size()), MPI_BYTE, dest, int(tag), comm_, &p.request);
    progress_sends();
  }

  std::optional<Message> receive(std::chrono::microseconds wait) override {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    // A thread's naps overshoot by its timer slack (50 us by default, half
    // a nap): the receiving thread asks for 1 us.
    static thread_local const bool slack = ::prctl(PR_SET_TIMERSLACK, 1000UL) == 0;
    (void)slack;
    for (;;) {
      {
        std::lock_guard lock(mutex_);
        progress_sends();
        int found = 0;
        MPI_Message handle;
        MPI_Status status;
        MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &found, &handle, &status);
        if (found) {
          int count = 0;
          MPI_Get_count(&status, MPI_BYTE, &count);
          Message m;
          m.source = status.MPI_SOURCE;
          m.tag = Tag(status.MPI_TAG);
          m.body.resize(std::size_t(count));
          MPI_Mrecv(m.body.data(), count, MPI_BYTE, &handle, MPI_STATUS_IGNORE);
          count_received(m.body.size());
          last_message_ = std::chrono::steady_clock::now();
          return m;
        }
      }
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) return std::nullopt;
      std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
          deadline - now, now - last_message_ < kHotFor ? kHotNap : kNap));
    }
  }

  // Waits until every send has completed (before MPI_Finalize).
  void drain_sends() {
    for (;;) {
      {
        std::lock_guard lock(mutex_);
        progress_sends();
        if (pending_.empty()) return;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }

 private:
  struct Pending {
    MPI_Request request;
    std::vector<std::uint8_t> body;
  };
  // Frees the buffers of completed sends (caller holds mutex_).
  void progress_sends() {
    while (!pending_.empty()) {
      int done = 0;
      MPI_Test(&pending_.front().request, &done, MPI_STATUS_IGNORE);
      if (!done) return;
      pending_.pop_front();
    }
  }

  // Receives poll: every kNap, or every kHotNap within kHotFor of the last
  // message (a burst of traffic, such as mpi-abdada's round trips, is
  // answered in tens of microseconds; an idle rank wakes rarely). On the
  // 2-core machines here 10 us naps cost a polling thread half a core and
  // lengthened the round trips they were meant to shorten (one search of
  // depth 9 at 2 ranks: waits 4.2 s at 10 us, 1.8 s at 30 us, 3.4 s at
  // 100 us, 2026-11-27).
  static constexpr std::chrono::microseconds kNap{100}, kHotNap{30};
  static constexpr std::chrono::milliseconds kHotFor{2};

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  // The receiving thread's (receive() runs on one thread at a time).
  std::chrono::steady_clock::time_point last_message_{};
  std::mutex mutex_;
  std::deque<Pending> pending_;  // guarded by mutex_; a deque keeps buffers in place
};

std::unique_ptr<MpiWire> g_wire;
int g_rank = -1;

// mpirun ends the job when one of its processes dies (or the job is
// stopped): it sends the others SIGTERM, then SIGKILL. Rank 0, whose output
// the user reads, says so in one line; the others leave quietly. (A lab
// replaces the handler with its own, which stops the lab and keeps its
// journal.)
extern "C" void on_mpi_term(int) {
  static const char kLine[] =
      "xqlab: mpirun is ending the job (a rank died, or the job was stopped)\n";
  if (g_rank == 0) {
    const ssize_t n = ::write(2, kLine, sizeof kLine - 1);
    (void)n;
  }
  ::_exit(143);
}

}  // namespace

bool mpi_built() { return true; }
Transport* mpi_world() { return g_wire.get(); }

MpiSession::MpiSession(int& argc, char**& argv) {
  if (!launched_by_mpirun()) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    throw std::runtime_error("MPI gives thread level " + std::to_string(provided) +
                             ", the wire needs MPI_THREAD_SERIALIZED or more");
  }
  g_wire = std::make_unique<MpiWire>();
  g_rank = g_wire->rank();
  std::signal(SIGTERM, on_mpi_term);
}

MpiSession::~MpiSession() {
  if (!g_wire) return;
  if (g_wire->rank() == 0)
    for (int r = 1; r < g_wire->size(); ++r) g_wire->send(r, Tag::Shutdown, {});
  g_wire.reset();
  MPI_Finalize();
}

bool MpiSession::serving() const { return g_wire && g_wire->rank() != 0; }

int MpiSession::serve() {
  // Another rank's messages of the next backend can arrive before rank 0's
  // CONFIG does (MPI orders each pair of ranks, not the world): kept for it.
  // Between two backends nothing else is in flight (each search drains).
  std::vector<Message> early;
  for (;;) {
    std::optional<Message> m = g_wire->receive(std::chrono::milliseconds(100));
    if (!m) continue;
    if (m->tag == Tag::Shutdown) return 0;
    if (m->tag != Tag::Config) {
      early.push_back(std::move(*m));
      continue;
    }
    try {
      Reader r(m->body);
      BackendConfig c;
      const std::string backend = get_config(r, c);
      if (serve_backend(backend, c, *g_wire, std::move(early))) return 0;
      early.clear();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "xqlab: rank %d: %s\n", g_wire->rank(), e.what());
      return 1;
    }
  }
}

#else  // no MPI in this build

bool mpi_built() { return false; }
Transport* mpi_world() { return nullptr; }
MpiSession::MpiSession(int&, char**&) {
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (!size) size = std::getenv("PMI_SIZE");
  if (size && std::atoi(size) > 1)
    throw std::runtime_error(std::string("this xqlab was built without MPI, so the ") + size +
                             " processes mpirun started would each run the command: configure "
                             "with -DXQLAB_MPI=ON");
}
MpiSession::~MpiSession() = default;
bool MpiSession::serving() const { return false; }
int MpiSession::serve() { return 0; }

#endif

}  // namespace xq::dist
