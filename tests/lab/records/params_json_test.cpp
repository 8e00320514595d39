// Backend parameters by name (parallel/params.h) and the JSON form of the
// library's results (lab/records/json.h).
#include <gtest/gtest.h>

#include <stdexcept>

#include "board/movegen.h"
#include "lab/records/json.h"
#include "parallel/params.h"

namespace {

using xq::BackendConfig;

TEST(BackendParams, SetEveryParameterByName) {
  BackendConfig c;
  xq::set_param(c, "min_split_depth=2");
  xq::set_param(c, "max_splits_per_thread=5");
  xq::set_param(c, "omp_schedule=dynamic");
  xq::set_param(c, "replacement=twotier");
  EXPECT_EQ(c.param("min_split_depth"), 2);
  EXPECT_EQ(c.param("max_splits_per_thread"), 5);
  EXPECT_TRUE(c.param("omp_schedule"));
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
  c.set("min_split_depth", 3);
  const xq::Json j = xq::lab::records::backend_json("ybwc", c);
  EXPECT_EQ(j.at("backend"), "ybwc");
  EXPECT_EQ(j.at("params").size(), xq::backend_params().size());
  EXPECT_EQ(j.at("params").at("min_split_depth"), 3);
}

}  // namespace
