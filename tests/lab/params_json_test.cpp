// Backend parameters by name (parallel/params.h), the JSON form of results
// (lab/records/json.h), interruptible perft and the lab's configuration list.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <stdexcept>

#include "board/movegen.h"
#include "lab/records/json.h"
#include "board/perft_divide.h"
#include "lab/timing/runner.h"
#include "parallel/params.h"

namespace {

using xq::BackendConfig;

TEST(BackendParams, SetEveryParameterByName) {
  BackendConfig c;
  xq::set_param(c, "min_split_depth=2");
  xq::set_param(c, "max_splits_per_thread=5");
  xq::set_param(c, "omp_schedule=dynamic");
  xq::set_param(c, "replacement=twotier");
  EXPECT_EQ(c.min_split_depth, 2);
  EXPECT_EQ(c.max_splits_per_thread, 5);
  EXPECT_TRUE(c.omp_dynamic);
  EXPECT_EQ(xq::replacement_name(c.replacement), "twotier");
  for (const xq::BackendParam& p : xq::backend_params()) {
    // Reading back what was written, at both ends of every range.
    for (std::int64_t x : {p.min, p.max}) {
      BackendConfig d;
      p.set(d, x);
      EXPECT_EQ(p.get(d), x) << p.name;
      const std::string text = p.value_text(d);
      BackendConfig e;
      xq::set_param(e, std::string(p.name) + "=" + text);
      EXPECT_EQ(p.get(e), x) << p.name << "=" << text;
    }
    EXPECT_FALSE(p.backends.empty()) << p.name;
    EXPECT_FALSE(p.summary.empty()) << p.name;
  }
  EXPECT_GE(xq::backend_params().size(), 3u);
}

TEST(BackendParams, RejectsUnknownNamesAndBadValues) {
  for (const char* bad : {"nosuch=1", "min_split_depth=0", "min_split_depth=65",
                          "min_split_depth=2x", "min_split_depth=", "omp_schedule=guided",
                          "min_split_depth", "=1", "max_splits_per_thread=-1"}) {
    BackendConfig c;
    EXPECT_THROW(xq::set_param(c, bad), std::invalid_argument) << bad;
  }
  BackendConfig c;
  try {
    xq::set_param(c, "min_split_depth=0");
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "parameter min_split_depth must be an integer in 1..64, got '0'");
  }
}

TEST(LabJson, SearchResultWithoutIterationHasNullScore) {
  xq::SearchResult r;
  r.best_move = xq::MoveList(xq::Position()).moves[0];  // what a backend might leave there
  r.score = 17;
  r.stopped = true;
  const xq::Json j = r;
  EXPECT_TRUE(xq::lab::records::no_iteration_completed(r));
  EXPECT_EQ(j.at("depth"), 0);
  EXPECT_TRUE(j.at("score").is_null());
  EXPECT_TRUE(j.at("bestmove").is_null());
  r.depth = 3;
  r.completed = true;
  r.pv = {r.best_move};
  const xq::Json k = r;
  EXPECT_EQ(k.at("score"), 17);
  EXPECT_EQ(k.at("bestmove"), xq::move_name(r.best_move));
  EXPECT_EQ(k.at("pv").size(), 1u);
  EXPECT_TRUE(k.contains("nodes"));  // statistics are flattened in
}

TEST(LabJson, BackendJsonReportsEveryParameter) {
  BackendConfig c;
  c.min_split_depth = 3;
  const xq::Json j = xq::lab::records::backend_json("ybwc", c);
  EXPECT_EQ(j.at("backend"), "ybwc");
  EXPECT_EQ(j.at("params").size(), xq::backend_params().size());
  EXPECT_EQ(j.at("params").at("min_split_depth"), 3);
}

TEST(LabPerft, DivideSumsAndStopsWhenAsked) {
  std::atomic<bool> stop{false};
  int calls = 0;
  const xq::PerftResult r =
      xq::perft_divide(xq::Position(), 3, stop, [&](const xq::PerftResult&) { ++calls; });
  EXPECT_EQ(r.nodes, 79666u);
  EXPECT_EQ(calls, 44);
  EXPECT_FALSE(r.interrupted);
  // Stopped from the callback after the second root move.
  const xq::PerftResult s = xq::perft_divide(
      xq::Position(), 5, stop, [&](const xq::PerftResult& p) {
        if (p.divide.size() == 2) stop = true;
      });
  EXPECT_TRUE(s.interrupted);
  EXPECT_EQ(s.divide.size(), 2u);
}

// A stop inside a root move's subtree (minutes of work at depth 9) ends the
// count without finishing that move.
TEST(LabPerft, StopReachesInsideASubtree) {
  std::atomic<bool> stop{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop = true;
  });
  const xq::PerftResult r = xq::perft_divide(xq::Position(), 9, stop, nullptr);
  stopper.join();
  EXPECT_TRUE(r.interrupted);
  EXPECT_TRUE(r.divide.empty());
  EXPECT_EQ(r.root_moves, 44);
}

TEST(LabRunner, ConfigurationsPutSerialReferencesFirst) {
  std::vector<std::string> skipped;
  const auto configs = xq::lab::timing::build_configs({"ybwc", "serial"}, {"xor", "spinlock"}, {1, 2},
                                              [&](const std::string& s) { skipped.push_back(s); });
  ASSERT_EQ(configs.size(), 2u + 2u * 2u);
  EXPECT_EQ(configs[0].label(), "serial/xor/1t");
  EXPECT_EQ(configs[1].label(), "serial/spinlock/1t");
  EXPECT_EQ(configs[5].label(), "ybwc/spinlock/2t");
  const std::vector<int> refs = xq::lab::timing::reference_configs(configs);
  EXPECT_EQ(refs, (std::vector<int>{0, 1, 0, 0, 1, 1}));
  EXPECT_TRUE(skipped.empty());
  EXPECT_THROW(xq::lab::timing::build_configs({"nope"}, {"xor"}, {1}, nullptr), std::invalid_argument);
  EXPECT_THROW(xq::lab::timing::build_configs({"ybwc"}, {"nope"}, {1}, nullptr), std::invalid_argument);
}

}  // namespace
