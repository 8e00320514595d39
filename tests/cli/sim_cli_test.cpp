// `xqlab lab --simulate` and `xqlab sim-calibrate` end to end: the simulated
// lab says SIMULATED in its text, its JSON "mode" and its CSV; the same
// command twice gives the same JSON bytes (the run's metadata aside); a
// calibrated profile is read back; bad simulation options end with one line
// and exit status 2.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <thread>
#include <unistd.h>

#include "tests/support/files.h"
#include "tests/support/run_xqlab.h"

namespace {

using xq::test::run_xqlab;
using xq::test::XqlabRun;

using xq::test::with;

std::string temp(const std::string& name) { return xq::test::temp_path("sim", name); }

using xq::test::kLabPositions;

std::vector<std::string> sim_lab() {
  return with({"lab", "--simulate", "--backends", "ybwc,lazysmp,pvsplit", "--threads", "2,8",
               "--depth", "4", "--runs", "2", "--quiet"},
              xq::test::lab_size_args());
}

TEST(CliSim, SlowSameCommandSameJsonBytesButTheMeta) {
  const XqlabRun a = run_xqlab(with(sim_lab(), {"--json"}));
  const XqlabRun b = run_xqlab(with(sim_lab(), {"--json"}));
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  nlohmann::json ja = a.json(), jb = b.json();
  ASSERT_TRUE(ja.is_object());
  EXPECT_EQ(ja["mode"], "simulated");
  EXPECT_EQ(ja["simulation"]["seeds"], nlohmann::json::array({1, 2}));
  EXPECT_EQ(ja["simulation"]["quantum_nodes"], 256);
  EXPECT_EQ(ja["results"].size(), 7u);  // serial + 3 backends x 2 thread counts
  ja.erase("meta");
  jb.erase("meta");
  EXPECT_EQ(ja.dump(), jb.dump());
  // Simulated seconds are virtual: a speedup at 8 logical threads on this
  // machine's cores is no oversubscription, and no note says it is.
  EXPECT_TRUE(ja["note"].is_null());
}

TEST(CliSim, TextAndCsvSaySimulated) {
  const std::string csv = temp("lab.csv");
  const XqlabRun r = run_xqlab(with(sim_lab(), {"--csv", csv}));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("SIMULATED machine (not measured)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("xqlab lab (SIMULATED, virtual time)"), std::string::npos) << r.out;
  const std::string rows = xq::test::read_file(csv);
  std::remove(csv.c_str());
  const std::string header = rows.substr(0, rows.find('\n'));
  ASSERT_GE(header.size(), 5u);
  EXPECT_EQ(header.substr(header.size() - 5), ",mode");
  int simulated = 0, lines = 0;
  for (std::size_t at = rows.find('\n'); at != std::string::npos && at + 1 < rows.size();
       at = rows.find('\n', at + 1)) {
    ++lines;
    const std::size_t end = rows.find('\n', at + 1);
    const std::string line = rows.substr(at + 1, end - at - 1);
    simulated += line.size() >= 10 && line.substr(line.size() - 10) == ",simulated";
  }
  EXPECT_EQ(lines, 7 * kLabPositions * 2);  // configurations x positions x runs
  EXPECT_EQ(simulated, lines);
}

// --ranks runs each distributed backend at every rank count (threads per
// rank from --threads) on the simulated machine: the JSON says ranks and
// processors, the text R x T, the CSV a ranks column; the same command gives
// the same figures. A lab without a distributed backend refuses --ranks.
TEST(CliSim, SlowRanksSweepADistributedBackend) {
  const std::string csv = temp("ranks.csv");
  const std::vector<std::string> lab =
      with({"lab", "--simulate", "--backends", "mpi-lazy,lazysmp", "--ranks", "1,2,4",
            "--threads", "1,2", "--depth", "4", "--runs", "1", "--quiet"},
           xq::test::lab_size_args());
  const XqlabRun a = run_xqlab(with(lab, {"--json", "--csv", csv}));
  const XqlabRun b = run_xqlab(with(lab, {"--json"}));
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  nlohmann::json ja = a.json(), jb = b.json();
  // serial, mpi-lazy at 3 rank counts x 2 thread counts, lazysmp at 2.
  ASSERT_EQ(ja["results"].size(), 9u);
  int ranked = 0;
  for (const nlohmann::json& r : ja["results"]) {
    if (r["backend"] != "mpi-lazy") {
      EXPECT_FALSE(r.contains("ranks")) << r["backend"];
      continue;
    }
    ++ranked;
    EXPECT_EQ(r["processors"], r["ranks"].get<int>() * r["threads"].get<int>());
    EXPECT_GT(r["speedup"].get<double>(), 0.0);
  }
  EXPECT_EQ(ranked, 6);
  ja.erase("meta");
  jb.erase("meta");
  EXPECT_EQ(ja.dump(), jb.dump());
  const XqlabRun text = run_xqlab(lab);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("mpi-lazy      xor           4x2"), std::string::npos) << text.out;
  const std::string rows = xq::test::read_file(csv);
  std::remove(csv.c_str());
  EXPECT_NE(rows.find(",ranks,mode\n"), std::string::npos);
  EXPECT_NE(rows.find(",4,simulated\n"), std::string::npos);

  const XqlabRun bad = run_xqlab({"lab", "--simulate", "--backends", "ybwc", "--ranks", "2",
                                  "--depth", "1"});
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.err.find("--ranks: no distributed backend"), std::string::npos) << bad.err;
}

TEST(CliSim, CalibratedProfileIsReadBack) {
  const std::string profile = temp("profile.json");
  const XqlabRun c = run_xqlab({"sim-calibrate", "--depth", "3", "--repeats", "1", "--batches",
                                "1", "--machine", "test machine", "--out", profile, "--quiet"});
  ASSERT_EQ(c.status, 0) << c.err;
  const nlohmann::json p = nlohmann::json::parse(xq::test::read_file(profile));
  EXPECT_EQ(p["machine"], "test machine");
  for (const char* cost : {"node", "qnode", "publish", "join", "lock", "wake", "fork", "barrier",
                           "idle_poll", "idle_timeout", "slice"})
    EXPECT_TRUE(p["costs_ps"][cost].is_number_integer()) << cost;
  EXPECT_GT(p["costs_ps"]["node"].get<long long>(), 0);
  // The speed jitter, measured from the node-cost fit's residuals over the
  // suite's positions (a fraction in (0, 0.5]), and how; beside it the
  // machine noise of twin searches at once, where there are two cores.
  ASSERT_TRUE(p["jitter"].is_number()) << p;
  EXPECT_GT(p["jitter"].get<double>(), 0.0);
  EXPECT_LE(p["jitter"].get<double>(), 0.5);
  EXPECT_NE(p["jitter_how"].get<std::string>().find("relative residuals over"), std::string::npos)
      << p["jitter_how"];
  if (std::thread::hardware_concurrency() >= 2) {
    ASSERT_TRUE(p["thread_noise"].is_number()) << p;
    EXPECT_GE(p["thread_noise"].get<double>(), 0.0);
    EXPECT_NE(p["thread_noise_how"].get<std::string>().find(
                  "the same serial search in two threads at once, "),
              std::string::npos)
        << p["thread_noise_how"];
  } else {
    EXPECT_TRUE(p["thread_noise"].is_null()) << p;
  }
  // The model's checks: both wake latencies and the yield probe, or none
  // where threads cannot share a core.
  ASSERT_TRUE(p["checks"].is_array());
  EXPECT_TRUE(p["checks"].empty() || p["checks"].size() == 3u) << p["checks"];
  for (const auto& check : p["checks"]) EXPECT_GE(check["ns"].get<double>(), 0.0) << check;
  const XqlabRun r = run_xqlab({"lab", "--simulate", "--sim-profile", profile, "--sim-cost",
                                "join=2x,jitter=0.05,jitter_period=100us", "--backends", "ybwc",
                                "--threads", "2", "--depth", "3", "--runs", "1", "--quiet",
                                "--json"});
  std::remove(profile.c_str());
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = r.json();
  EXPECT_EQ(j["simulation"]["machine"], "test machine");
  EXPECT_EQ(j["simulation"]["overrides"], "join=2x,jitter=0.05,jitter_period=100us");
  EXPECT_DOUBLE_EQ(j["simulation"]["jitter"].get<double>(), 0.05);
  EXPECT_EQ(j["simulation"]["costs"]["jitter_period"].get<long long>(), 100'000'000);
  EXPECT_EQ(j["simulation"]["costs"]["join"].get<long long>(),
            2 * p["costs_ps"]["join"].get<long long>());
}

// --sim-cores: the threads share fewer virtual cores, time-sliced; the
// document and the text say so, and the same searches take longer.
TEST(CliSim, SimCoresTimeSlicesAndSaysSo) {
  const std::vector<std::string> lab =
      with({"lab", "--simulate", "--backends", "lazysmp", "--threads", "4", "--depth", "5",
            "--runs", "1", "--quiet", "--sim-cost", "slice=20us"},
           xq::test::lab_size_args());
  const XqlabRun sliced = run_xqlab(with(lab, {"--sim-cores", "2", "--json"}));
  const XqlabRun full = run_xqlab(with(lab, {"--json"}));
  const XqlabRun text = run_xqlab(with(lab, {"--sim-cores", "2"}));
  ASSERT_EQ(sliced.status, 0) << sliced.err;
  ASSERT_EQ(full.status, 0) << full.err;
  ASSERT_EQ(text.status, 0) << text.err;
  const nlohmann::json js = sliced.json(), jf = full.json();
  EXPECT_EQ(js["simulation"]["cores"], 2);
  EXPECT_TRUE(jf["simulation"]["cores"].is_null());
  ASSERT_EQ(js["results"].size(), 2u);
  ASSERT_EQ(jf["results"].size(), 2u);
  // The serial reference runs one thread: slicing changes nothing for it.
  EXPECT_EQ(js["results"][0]["seconds"], jf["results"][0]["seconds"]);
  // Four threads on two cores take longer than on four.
  EXPECT_GT(js["results"][1]["seconds"].get<double>(), jf["results"][1]["seconds"].get<double>());
  EXPECT_NE(js["note"].get<std::string>().find("time-sliced"), std::string::npos) << js["note"];
  EXPECT_TRUE(jf["note"].is_null());
  EXPECT_NE(text.out.find("threads time-sliced on 2 cores (slice 0.02 ms)"), std::string::npos)
      << text.out;
  // The CPU the threads got, as the real runs count it: lazysmp's four
  // threads never sleep, so on two cores they had a core about half the
  // time, and all the time with a core each.
  const double sliced_cpu = js["results"][1]["cpu_share"].get<double>();
  EXPECT_GT(sliced_cpu, 0.45);
  EXPECT_LT(sliced_cpu, 0.55);
  EXPECT_DOUBLE_EQ(jf["results"][1]["cpu_share"].get<double>(), 1.0);
  // One search's JSON counts the slicing: preemptions, idle threads'
  // yields, the share of thread time spent waiting for a core.
  const std::vector<std::string> search = {"search",  "--fen",     "startpos", "--simulate",
                                           "--backend", "ybwc",    "--threads", "4",
                                           "--depth", "5",         "--sim-cost", "slice=20us"};
  const XqlabRun one = run_xqlab(with(search, {"--sim-cores", "2", "--json"}));
  const XqlabRun one_full = run_xqlab(with(search, {"--json"}));
  const XqlabRun one_text = run_xqlab(with(search, {"--sim-cores", "2"}));
  ASSERT_EQ(one.status, 0) << one.err;
  ASSERT_EQ(one_full.status, 0) << one_full.err;
  ASSERT_EQ(one_text.status, 0) << one_text.err;
  const nlohmann::json c = one.json()["simulation"]["counts"];
  EXPECT_GT(c["switches"].get<std::uint64_t>(), 0u);
  EXPECT_GT(c["preemptions"].get<std::uint64_t>(), 0u);
  EXPECT_GT(c["yields"].get<std::uint64_t>(), 0u) << "ybwc's idle helpers yield their cores";
  EXPECT_GT(c["core_wait_share"].get<double>(), 0.1);
  EXPECT_LT(c["core_wait_share"].get<double>(), 0.75);
  const nlohmann::json cf = one_full.json()["simulation"]["counts"];
  EXPECT_GT(cf["switches"].get<std::uint64_t>(), 0u);
  EXPECT_FALSE(cf.contains("preemptions")) << cf;
  EXPECT_NE(one_text.out.find("SIMULATED time slicing: "), std::string::npos) << one_text.out;
}

TEST(CliSim, BadSimulationOptionsEndWithOneLine) {
  const std::string bad_profile = temp("bad.json");
  {
    std::FILE* f = std::fopen(bad_profile.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("{\"costs_ps\": {\"node\": 1}}\n", f);
    std::fclose(f);
  }
  const std::vector<std::vector<std::string>> cases = {
      {"lab", "--sim-quantum", "128", "--depth", "1"},
      {"lab", "--simulate", "--sim-profile", "/nonexistent/profile.json", "--depth", "1"},
      {"lab", "--simulate", "--sim-profile", bad_profile, "--depth", "1"},
      {"lab", "--simulate", "--sim-cost", "bogus=2x", "--depth", "1"},
      {"lab", "--simulate", "--sim-cost", "join=-2x", "--depth", "1"},
      {"lab", "--simulate", "--sim-cost", "node=0x", "--depth", "1"},
      {"lab", "--simulate", "--sim-cost", "jitter=1", "--depth", "1"},
      {"lab", "--simulate", "--sim-quantum", "0", "--depth", "1"},
      {"lab", "--sim-cores", "2", "--depth", "1"},
      {"lab", "--simulate", "--sim-cores", "-1", "--depth", "1"},
      {"lab", "--simulate", "--sim-cost", "slice=0us", "--depth", "1"},
      // Helpers in processes: the simulated machine cannot schedule them.
      {"lab", "--simulate", "--backends", "lazysmp-proc", "--threads", "2", "--depth", "1"},
      {"sim-calibrate", "--suite", "/nonexistent/suite.csv"}};
  int checked = 0;
  for (const auto& args : cases) {
    const XqlabRun r = run_xqlab(args);
    EXPECT_EQ(r.status, 2) << args[1] << " " << args[2] << ": " << r.err;
    EXPECT_EQ(xq::test::count_lines(r.err), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    ++checked;
  }
  std::remove(bad_profile.c_str());
  EXPECT_EQ(checked, 13);
}

}  // namespace
