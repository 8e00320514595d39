// Tables in memory shared between processes, the worker processes that use
// them (hashing/processes.h), and the stress tool's process mode. None of
// these suites is named *Stress*: ThreadSanitizer cannot see across
// processes, so what checks the cross-process protocol is what they assert
// (every counter a worker wrote reaches the parent, a probe in one process
// finds what another stored, no safe scheme accepts a corrupt entry), and
// AddressSanitizer runs them as unit tests.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <stdexcept>
#include <string>
#include <sstream>
#include <thread>
#include <vector>

#include "hashing/memory.h"
#include "hashing/processes.h"
#include "hashing/schemes.h"
#include "hashing/stress.h"
#include "tests/hashing/scheme_types.h"
#include "tests/support/run_xqlab.h"

namespace xq {
namespace {

// True when no process with this pid exists any more (reaped, not a zombie).
bool gone(pid_t pid) { return ::kill(pid, 0) == -1 && errno == ESRCH; }

TEST(WorkerProcesses, EveryJobRunsInItsOwnProcessAndIsReaped) {
  TableBlock<std::atomic<int>> seen(3, TableMemory::Shared);
  TableBlock<std::atomic<int>> pids(3, TableMemory::Shared);
  WorkerProcesses workers("test worker", 3, [&](int i) {
    seen[std::size_t(i)].store(i + 1);
    pids[std::size_t(i)].store(int(::getpid()));
  });
  ASSERT_EQ(workers.size(), 3);
  workers.join(30.0);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(seen[std::size_t(i)].load(), i + 1) << i;
    EXPECT_EQ(pids[std::size_t(i)].load(), int(workers.pid(i))) << i;
    EXPECT_NE(workers.pid(i), ::getpid());
    EXPECT_TRUE(gone(workers.pid(i))) << i;
  }
}

// Private memory is each process's own copy: what a worker writes there
// never reaches the parent (the contrast that makes the test above mean
// something).
TEST(WorkerProcesses, PrivateMemoryStaysInTheWorker) {
  TableBlock<std::atomic<int>> mine(1, TableMemory::Private);
  WorkerProcesses workers("test worker", 1, [&](int) { mine[0].store(7); });
  workers.join(30.0);
  EXPECT_EQ(mine[0].load(), 0);
}

// A worker killed mid-work: one line naming it and its signal, and neither
// it nor the other worker (which would have run on) is left behind.
TEST(WorkerProcesses, AKilledWorkerIsOneLineAndLeavesNoProcess) {
  TableBlock<std::atomic<int>> running(2, TableMemory::Shared);
  WorkerProcesses workers("test worker", 2, [&](int i) {
    running[std::size_t(i)].store(1);
    while (true) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while ((running[0].load() == 0 || running[1].load() == 0) &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(::kill(workers.pid(1), SIGKILL), 0);
  std::string message;
  while (message.empty() && std::chrono::steady_clock::now() < deadline) {
    try {
      workers.poll();
    } catch (const std::runtime_error& e) {
      message = e.what();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(message, "test worker process 2 of 2 (pid " + std::to_string(workers.pid(1)) +
                         ") was killed by signal 9 (Killed)");
  EXPECT_EQ(message.find('\n'), std::string::npos);
  EXPECT_TRUE(gone(workers.pid(0)));
  EXPECT_TRUE(gone(workers.pid(1)));
}

TEST(WorkerProcesses, AThrowingJobIsReported) {
  WorkerProcesses workers("test worker", 2, [](int i) {
    if (i == 0) throw std::runtime_error("no");
  });
  try {
    workers.join(30.0);
    ADD_FAILURE() << "a worker whose job threw was not reported";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "test worker process 1 of 2 (pid " +
                                         std::to_string(workers.pid(0)) +
                                         ") exited with status 1 (its work threw)");
  }
}

TEST(WorkerProcesses, AWorkerThatDoesNotStopIsKilledAfterTheGrace) {
  WorkerProcesses workers("test worker", 1, [](int) {
    while (true) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  try {
    workers.join(0.2);
    ADD_FAILURE() << "a hung worker was not reported";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "test worker process 1 of 1 (pid " +
                                         std::to_string(workers.pid(0)) +
                                         ") did not stop within 0.2 s and was killed");
  }
  EXPECT_TRUE(gone(workers.pid(0)));
}

// A table in shared memory: what a worker process stores, the parent's
// probe finds (and, in a private table, does not).
template <class Table>
class SharedTable : public ::testing::Test {};
TYPED_TEST_SUITE(SharedTable, testing::AllSchemes, testing::SchemeName);

TYPED_TEST(SharedTable, AStoreInOneProcessIsFoundByAnother) {
  using Table = TypeParam;
  if constexpr (!Table::kProcessShared) {
    Table t;
    EXPECT_THROW(t.configure_bytes(1 << 16, 2, Replacement::DepthPreferred, TableMemory::Shared),
                 std::invalid_argument);
  } else {
    for (TableMemory memory : {TableMemory::Shared, TableMemory::Private}) {
      Table t;
      t.configure_bytes(1 << 16, 2, Replacement::DepthPreferred, memory);
      EXPECT_EQ(t.memory(), memory);
      const Key key = testing::test_key(1);
      const TTData data = testing::make_data(9);
      WorkerProcesses workers("test worker", 1, [&](int) { t.store(key, data, 1); });
      workers.join(30.0);
      TTData got;
      const bool found = t.probe(key, got, 0);
      // The worker's counters reach the parent only through shared memory.
      const TableCounters c = t.counters();
      if (memory == TableMemory::Shared) {
        ASSERT_TRUE(found) << Table::kName;
        got.generation = data.generation;
        EXPECT_EQ(got, data) << Table::kName;
        EXPECT_EQ(c.stores, 1u) << Table::kName;
      } else {
        EXPECT_FALSE(found) << Table::kName;
        EXPECT_EQ(c.stores, 0u) << Table::kName;
      }
      EXPECT_EQ(c.probes, 1u) << Table::kName;
    }
  }
}

// The stress tool across processes: every operation counted by the workers
// reaches the parent (ops, and the table's probe and store counters), and
// no safe scheme accepts a corrupt entry.
TEST(CrossProcessHammer, SafeSchemesAcceptNoCorruptEntry) {
  int schemes = 0;
  for (std::string_view name : kSchemeNames) {
    if (is_unprotected_scheme(name)) continue;
    // Shareable, and a whole-key check (a 16-bit one admits false matches).
    const bool eligible = visit_scheme(name, [](auto tag) {
      using T = typename decltype(tag)::type;
      return T::kProcessShared && T::kKeyCheckBits == 64;
    });
    if (!eligible) continue;
    StressConfig c;
    c.processes = true;
    c.threads = 2;
    c.entries = 256;
    c.max_ops = 2000000;
    c.seconds = 120;  // the operation limit ends the run
    const StressResult r = visit_scheme(name, [&](auto tag) {
      return run_stress<typename decltype(tag)::type>(c);
    });
    EXPECT_EQ(r.ops, c.max_ops) << name;
    EXPECT_EQ(r.probes + r.stores, r.ops) << name;
    EXPECT_GT(r.hits, 0u) << name;
    EXPECT_EQ(r.corrupt_accepted, 0u) << name;
    ++schemes;
  }
  EXPECT_EQ(schemes, 6);  // perthread, spinlock, tbbspin, xor, sandwich, atomic16
}

TEST(CrossProcessHammer, AProcessPrivateLockIsRefusedInOneLine) {
  StressConfig c;
  c.processes = true;
  c.max_ops = 1000;
  try {
    run_stress<MutexTable>(c);
    ADD_FAILURE() << "std::mutex stripes were accepted in shared memory";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "hash scheme mutex cannot be shared between processes (its locks are "
              "process-private std::mutex)");
  }
}

// Busy marks across processes: under the spinlock every claim and release
// is exact, so nothing is lost and nothing stays marked.
TEST(CrossProcessHammer, MarksBalanceUnderTheSpinlock) {
  StressConfig c;
  c.processes = true;
  c.threads = 3;
  c.entries = 300;
  c.max_ops = 300000;
  c.seconds = 120;
  const MarkStressResult r = run_mark_stress<SpinlockTable>(c);
  EXPECT_GE(r.ops, c.max_ops);
  EXPECT_GT(r.enters, 0u);
  EXPECT_EQ(r.lost_updates(), 0u);
  EXPECT_EQ(r.leaks, 0u);
}

TEST(CrossProcessCli, AllMeansEveryShareableScheme) {
  const test::XqlabRun r = test::run_xqlab({"stress", "--hash", "all", "--processes", "--threads",
                                           "2", "--ops", "20000", "--entries", "64", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::string> names;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    const nlohmann::json j = nlohmann::json::parse(line);
    EXPECT_EQ(j.at("executor"), "processes") << line;
    EXPECT_EQ(j.at("probes").get<long long>() + j.at("stores").get<long long>(),
              j.at("ops").get<long long>())
        << line;
    names.push_back(j.at("hash"));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"perthread", "spinlock", "tbbspin", "xor",
                                             "sandwich", "atomic16", "packed", "unprotected"}));
}

TEST(CrossProcessCli, MutexIsAOneLineError) {
  const test::XqlabRun r =
      test::run_xqlab({"stress", "--hash", "mutex", "--processes", "--ops", "100"});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.err,
            "xqlab stress: hash scheme mutex cannot be shared between processes (its locks are "
            "process-private std::mutex)\n");
}

}  // namespace
}  // namespace xq
