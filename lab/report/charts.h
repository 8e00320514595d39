// The report's chart kinds, each an SVG string drawn from plain numbers:
// lines with error bars (speedup against threads, LLR against games), bars
// (grouped, stacked, linear or log), strips (per-position values) and
// intervals (Elo with its confidence interval). NaN marks a value that was
// not measured: it is labelled "n/a", never drawn as zero.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace xq::lab::report::chart {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

struct Titles {
  std::string id, title, x, y;  // element id, accessible title, axis titles
};

// A horizontal reference line (ideal efficiency, SPRT bounds, ratio 1).
struct RefLine {
  double y = 0;
  std::string name;
};

struct Point {
  double x = 0, y = 0;
  double lo = kNone, hi = kNone;  // thin whisker (e.g. spread over positions)
  double inner_lo = kNone, inner_hi = kNone;  // thick bar (e.g. spread over runs)
};

struct Series {
  std::string name;
  std::vector<Point> points;
  bool dashed = false;  // a SIMULATED series (never drawn like a measured one)
};

struct LineChart {
  Titles t;
  std::vector<Series> series;
  bool ideal_diagonal = false;  // y = x, the ideal speedup
  bool integer_x = false;       // ticks at the x values present (thread counts)
  bool log_x = false;           // x on a log scale (thread counts from 1 to 256)
  bool markers = true;          // a dot per point
  std::vector<RefLine> refs;
};
std::string line_chart(const LineChart& c);

struct BarChart {
  Titles t;
  std::vector<std::string> categories;
  std::vector<std::string> series;           // one name per series
  std::vector<std::vector<double>> values;   // [series][category]
  bool stacked = false, log = false;
  std::vector<RefLine> refs;
};
std::string bar_chart(const BarChart& c);

struct StripChart {
  Titles t;
  std::vector<std::string> categories;
  std::vector<std::vector<double>> values;  // [category][point]
  std::vector<RefLine> refs;
};
std::string strip_chart(const StripChart& c);

struct IntervalChart {
  Titles t;
  std::vector<std::string> categories;
  std::vector<double> values, lo, hi;
  std::vector<RefLine> refs;
};
std::string interval_chart(const IntervalChart& c);

}  // namespace xq::lab::report::chart
