// The distributed backends' seam and mpi-lazy over the loop wire: the wire
// keeps each pair's order and counts what it carries; the codecs round-trip;
// a thread's outbox keeps its deepest entries; and mpi-lazy returns the
// serial value in exact mode at 1-4 ranks x 1-2 threads, is the serial
// search node for node at one rank and one thread, ends every search with
// every message received (sent = received), ships what it says it shipped,
// binds the node limit over every rank, and survives start/stop cycles.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <random>
#include <span>
#include <thread>

#include "parallel/backend.h"
#include "parallel/distributed/loop.h"
#include "parallel/distributed/rank.h"
#include "parallel/params.h"
#include "tests/parallel/exact_grid.h"
#include "tests/parallel/dist_checks.h"
#include "parallel/distributed/wire_counters.h"

namespace xq {
namespace {

using namespace std::chrono_literals;

std::vector<std::uint8_t> bytes(std::initializer_list<std::uint8_t> v) { return v; }

TEST(LoopWire, KeepsEachPairsOrderAndCountsBothEnds) {
  dist::LoopWorld world(3, 0us);
  for (std::uint8_t i = 0; i < 50; ++i) {
    world.rank(1).send(0, dist::Tag::Entries, bytes({i, 1}));
    world.rank(2).send(0, dist::Tag::Progress, bytes({i}));
  }
  std::uint8_t next1 = 0, next2 = 0;
  int got = 0;
  while (std::optional<dist::Message> m = world.rank(0).receive(0us)) {
    ++got;
    if (m->source == 1) {
      EXPECT_EQ(m->tag, dist::Tag::Entries);
      EXPECT_EQ(m->body, bytes({next1++, 1}));
    } else {
      EXPECT_EQ(m->source, 2);
      EXPECT_EQ(m->body, bytes({next2++}));
    }
  }
  EXPECT_EQ(got, 100);
  const dist::Traffic t0 = world.rank(0).traffic();
  EXPECT_EQ(t0.msgs_received, 100u);
  EXPECT_EQ(t0.bytes_received, 150u);
  EXPECT_EQ(world.rank(1).traffic().bytes_sent, 100u);
  EXPECT_EQ(world.rank(2).traffic().msgs_sent, 50u);
  EXPECT_EQ(t0.msgs_sent, 0u);
  EXPECT_THROW(world.rank(0).send(0, dist::Tag::Fin, {}), std::invalid_argument);
  EXPECT_THROW(world.rank(0).send(3, dist::Tag::Fin, {}), std::invalid_argument);
}

TEST(LoopWire, HoldsAMessageForItsLatency) {
  dist::LoopWorld world(2, 200ms);
  world.rank(0).send(1, dist::Tag::Stop, bytes({7}));
  EXPECT_FALSE(world.rank(1).receive(0us).has_value());  // 200 ms early
  const std::optional<dist::Message> m = world.rank(1).receive(5s);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->body, bytes({7}));
}

TEST(DistCodec, RequestStatsAndBallotRoundTrip) {
  Position pos;
  ASSERT_EQ(pos.set_fen("r1bakab1r/9/1cn4cn/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w"), "");
  SearchOptions o;
  o.limits.depth = 7;
  o.limits.nodes = 12345;
  o.algorithm = Algorithm::Mtdf;
  o.exact = true;
  o.features = profile_features("modern");
  o.banned_root_moves = {MoveList(pos).moves[0], MoveList(pos).moves[3]};
  dist::Writer w;
  dist::put_request(w, 42, pos, o);
  SearchStats s;
  std::uint64_t v = 1;
  for_each_counter(s, [&](const char*, auto& c) { c = decltype(c.load())(v++); });
  dist::put_stats(w, s);
  dist::put_ballot(w, {MoveList(pos).moves[2], -35, 9, {MoveList(pos).moves[2]}});
  const std::vector<std::uint8_t> body = w.take();

  dist::Reader r(body);
  dist::Request q;
  dist::get_request(r, q);
  EXPECT_EQ(q.id, 42u);
  EXPECT_EQ(q.pos.fen(), pos.fen());
  EXPECT_EQ(q.pos.key(), pos.key());
  EXPECT_EQ(q.options.limits.depth, 7);
  EXPECT_EQ(q.options.limits.nodes, 12345u);
  EXPECT_EQ(q.options.algorithm, Algorithm::Mtdf);
  EXPECT_TRUE(q.options.exact);
  EXPECT_EQ(profile_name(q.options.features), "modern");
  EXPECT_EQ(q.options.banned_root_moves, o.banned_root_moves);
  const SearchStats back = dist::get_stats(r);
  int counters = 0;
  v = 1;
  for_each_counter(back, [&](const char* name, const auto& c) {
    EXPECT_EQ(double(c.load()), double(v++)) << name;
    ++counters;
  });
  // The core's and every declared counter travel (this binary links every
  // family: 31 declared on 2026-12-02, and the wire's own at least).
  EXPECT_EQ(counters, search_counter_count());
  EXPECT_GE(declared_counters().size(), 7u);
  const dist::Ballot b = dist::get_ballot(r);
  EXPECT_EQ(b.move, MoveList(pos).moves[2]);
  EXPECT_EQ(b.score, -35);
  EXPECT_EQ(b.depth, 9);
  EXPECT_EQ(b.pv.size(), 1u);
  EXPECT_TRUE(r.done());
  // A body cut short is a clear error, not a read past its end.
  const std::vector<std::uint8_t> cut(body.begin(), body.begin() + 20);
  dist::Reader short_reader(cut);
  dist::Request ignored;
  EXPECT_THROW(dist::get_request(short_reader, ignored), std::runtime_error);
}

TEST(DistCodec, BatchesRoundTripAndACountPastTheEndThrows) {
  const std::vector<dist::WireEntry> entries = {{1, 10}, {0xFFFF'FFFF'FFFF'FFFFull, 20}, {3, 30}};
  const std::vector<std::uint8_t> body =
      dist::Writer().put(std::uint64_t{7}).put_batch(entries).take();
  EXPECT_EQ(body.size(), 8 + 4 + entries.size() * sizeof(dist::WireEntry));
  dist::Reader r(body);
  EXPECT_EQ(r.get<std::uint64_t>(), 7u);
  std::vector<dist::WireEntry> back;
  EXPECT_EQ(r.get_batch<dist::WireEntry>([&](const dist::WireEntry& e) { back.push_back(e); }), 3u);
  ASSERT_EQ(back.size(), entries.size());
  for (std::size_t i = 0; i < back.size(); ++i) {
    EXPECT_EQ(back[i].key, entries[i].key);
    EXPECT_EQ(back[i].word, entries[i].word);
  }
  EXPECT_TRUE(r.done());
  // An empty batch is its count alone.
  const std::vector<std::uint8_t> none =
      dist::Writer().put_batch(std::span<const dist::WireEntry>()).take();
  dist::Reader empty(none);
  EXPECT_EQ(empty.get_batch<dist::WireEntry>([](const dist::WireEntry&) { FAIL(); }), 0u);
  EXPECT_TRUE(empty.done());
  // A count that promises more items than the body holds is a clear error
  // after the items that are there.
  std::vector<std::uint8_t> cut(body.begin(), body.end() - 1);
  dist::Reader short_reader(cut);
  short_reader.get<std::uint64_t>();
  int seen = 0;
  EXPECT_THROW(short_reader.get_batch<dist::WireEntry>([&](const dist::WireEntry&) { ++seen; }),
               std::runtime_error);
  EXPECT_EQ(seen, 2);
}

TEST(DistOutboxes, KeepTheDeepestOffers) {
  dist::Outboxes boxes(2, 3);
  for (int d = 1; d <= 8; ++d) boxes.offer(0, Key(d), TTData{Move::none(), 0, 0, std::int8_t(d)});
  boxes.offer(1, Key(99), TTData{Move::none(), 0, 0, 2});
  EXPECT_EQ(boxes.offered(), 9u);
  std::vector<dist::WireEntry> out;
  boxes.collect(out);
  ASSERT_EQ(out.size(), 4u);
  std::vector<Key> keys;
  for (const dist::WireEntry& e : out) keys.push_back(e.key);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, (std::vector<Key>{6, 7, 8, 99}));
  out.clear();
  boxes.collect(out);
  EXPECT_TRUE(out.empty());
}

// Offers in random order, two collections in a row: each time the box holds
// the deepest `capacity` depths offered since the last one (the full box is
// a heap; a collection starts a fresh one).
TEST(DistOutboxes, KeepTheDeepestOffersInAnyOrder) {
  constexpr int kCapacity = 16;
  dist::Outboxes boxes(1, kCapacity);
  std::mt19937 rng(7);
  int rounds = 0;
  for (int offers : {200, 9, 1000}) {
    std::vector<int> depths;
    for (int i = 0; i < offers; ++i) {
      const int d = int(rng() % 40);
      depths.push_back(d);
      // The key carries the depth back.
      boxes.offer(0, Key(i) * 100 + Key(d), TTData{Move::none(), 0, 0, std::int8_t(d)});
    }
    std::vector<dist::WireEntry> out;
    boxes.collect(out);
    std::vector<int> got;
    for (const dist::WireEntry& e : out) got.push_back(int(e.key % 100));
    std::sort(got.begin(), got.end());
    std::sort(depths.begin(), depths.end());
    const std::size_t kept = std::min<std::size_t>(depths.size(), kCapacity);
    EXPECT_EQ(got, std::vector<int>(depths.end() - std::ptrdiff_t(kept), depths.end())) << offers;
    ++rounds;
  }
  EXPECT_EQ(rounds, 3);
}

std::unique_ptr<Backend> cluster(int ranks, int threads, const std::string& scheme = "xor",
                                 const std::string& exchange = "all") {
  return test::loop_cluster("mpi-lazy", ranks, threads, scheme,
                            {"exchange=" + exchange, "share_depth=2"});
}

using test::expect_balanced;

TEST(MpiLazy, ExactModeIsTheSerialValueAtOneToFourRanks) {
  EXPECT_GT(test::expect_exact_at_one_to_four_ranks([](int ranks, int threads) {
              return cluster(ranks, threads, ranks % 2 ? "xor" : "spinlock",
                             threads == 2 ? "ring" : "all");
            }),
            0);
}

TEST(MpiLazy, OneRankOfOneThreadIsTheSerialSearchNodeForNode) {
  BackendConfig c;
  c.hash_mib = 4;
  set_param(c, "ranks=1");
  auto one = make_backend("mpi-lazy", c);
  const int compared = test::expect_serial_node_for_node(
      *one, [](const SearchResult& r) { EXPECT_EQ(r.stats[dist::msgs_sent], 0u); });
  EXPECT_GE(compared, 10);
}

TEST(MpiLazy, SlowEveryShippedEntryReachesEveryOtherRank) {
  for (int ranks : {2, 3}) {
    auto b = cluster(ranks, 1);
    const SearchResult r = test::search_start_to(*b, 8);
    EXPECT_GT(r.stats[dist::entries_shipped], 0u);
    EXPECT_GE(r.stats[dist::entries_offered], r.stats[dist::entries_shipped]);
    // exchange=all: each batch goes to the ranks - 1 others, and the drain
    // lets every message arrive.
    EXPECT_EQ(r.stats[dist::entries_received], r.stats[dist::entries_shipped] * std::uint64_t(ranks - 1));
    expect_balanced(r.stats, std::to_string(ranks) + " ranks");
  }
}

TEST(MpiLazy, SharingOffShipsNothing) {
  BackendConfig c;
  c.hash_mib = 4;
  set_param(c, "ranks=2");
  set_param(c, "share_depth=0");
  auto b = make_backend("mpi-lazy", c);
  const SearchResult r = test::search_start_to(*b, 7);
  EXPECT_EQ(r.stats[dist::entries_shipped], 0u);
  EXPECT_EQ(r.stats[dist::entries_received], 0u);
  EXPECT_EQ(r.stats[dist::msgs_sent], 5u);  // SEARCH, STOP, FIN both ways, RESULT
  expect_balanced(r.stats, "sharing off");
}

TEST(MpiLazy, TheNodeLimitBindsEveryRank) {
  auto b = cluster(3, 1);
  test::expect_node_limit_binds_every_rank(*b);
}

TEST(MpiLazy, StartStopCyclesAtTwoToFourRanksEndDrained) {
  EXPECT_EQ(test::expect_cycles_end_drained([](int ranks) { return cluster(ranks, 1); }), 600);
}

TEST(MpiLazy, ClearBetweenSearchesRepeatsTheExactValue) {
  auto b = cluster(2, 1);
  Observer quiet;
  const Position p;
  const Value first = b->search(p, test::exact_options(5), quiet).score;
  b->clear();
  EXPECT_EQ(b->search(p, test::exact_options(5), quiet).score, first);
  EXPECT_EQ(first, test::serial_values({p}, 5)[0]);
}

}  // namespace
}  // namespace xq
