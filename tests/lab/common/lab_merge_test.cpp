// merge_lab_sweeps: a SIMULATED sweep run a backend at a time is one document
// when its documents were run alike and agree on the serial reference;
// anything else stays as it was.
#include <gtest/gtest.h>

#include "lab/common/lab_merge.h"

namespace {

using xq::Json;
using xq::lab::common::merge_lab_sweeps;
using xq::lab::common::sweep_groups;

Json row(const std::string& backend, int threads, double nodes, double seconds) {
  return Json{{"backend", backend}, {"hash", "xor"}, {"threads", threads},
              {"nodes", nodes}, {"seconds", seconds}};
}

Json sweep_doc(const std::string& backend, double serial_nodes = 1000, double serial_s = 2.0,
               const std::string& mode = "simulated") {
  Json d{{"mode", mode}, {"suite", "SUITE.csv"}, {"positions", 8}, {"depth", 11},
         {"profile", "thesis"}, {"runs", 1}, {"hash_mb", 16},
         {"simulation", {{"quantum", 256}, {"seeds", {1}}}},
         {"meta", {{"command", "xqlab lab --backends serial," + backend}}}};
  d["results"] = Json::array({row("serial", 1, serial_nodes, serial_s),
                              row(backend, 1, serial_nodes, serial_s),
                              row(backend, 64, 4 * serial_nodes, 0.1)});
  return d;
}

TEST(LabMerge, OneSweepRunABackendAtATimeIsOneDocument) {
  const std::vector<Json> out =
      merge_lab_sweeps({sweep_doc("ybwc"), sweep_doc("dts"), sweep_doc("lazysmp")});
  ASSERT_EQ(out.size(), 1u);
  const Json& r = out[0]["results"];
  ASSERT_EQ(r.size(), 7u);  // one serial row, two per backend
  int serial = 0;
  for (const Json& x : r) serial += x["backend"] == "serial";
  EXPECT_EQ(serial, 1);
  EXPECT_EQ(r[5]["backend"], "lazysmp");
  ASSERT_EQ(out[0]["meta"]["merged_from"].size(), 3u);
  EXPECT_EQ(out[0]["meta"]["merged_from"][1]["command"], "xqlab lab --backends serial,dts");
}

TEST(LabMerge, DifferentSerialSettingsOrRepeatsStayApart) {
  // The serial reference differs by one node: not the same experiment.
  EXPECT_EQ(merge_lab_sweeps({sweep_doc("ybwc"), sweep_doc("dts", 1001)}).size(), 2u);
  // Another depth.
  Json deeper = sweep_doc("dts");
  deeper["depth"] = 12;
  EXPECT_EQ(merge_lab_sweeps({sweep_doc("ybwc"), deeper}).size(), 2u);
  // The same backend twice: a second measurement, not more of the sweep.
  EXPECT_EQ(merge_lab_sweeps({sweep_doc("ybwc"), sweep_doc("ybwc")}).size(), 2u);
  // Measured documents are never merged, even when alike.
  EXPECT_EQ(merge_lab_sweeps({sweep_doc("ybwc", 1000, 2.0, "measured"),
                              sweep_doc("dts", 1000, 2.0, "measured")})
                .size(),
            2u);
  // A third document that matches the first merges into it past one that did not.
  const std::vector<Json> out =
      merge_lab_sweeps({sweep_doc("ybwc"), deeper, sweep_doc("lazysmp")});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0]["results"].size(), 5u);
  EXPECT_EQ(out[1]["depth"], 12);
}

}  // namespace
