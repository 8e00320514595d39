// SVG primitives for the report's charts: scales from data to pixels, tick
// values, and a writer that appends elements. Every chart of lab/report_charts
// is made of these, so the geometry tests check one mapping.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace xq::lab::report::svg {

// A linear or base-10 logarithmic map from [d0, d1] to pixels [p0, p1]
// (p0 > p1 for a y axis, whose pixels grow downwards). A log scale maps
// values at or below d0 to p0.
struct Scale {
  double d0 = 0, d1 = 1, p0 = 0, p1 = 1;
  bool log = false;
  double operator()(double v) const;
};

// Round tick values covering [lo, hi] (about `count` of them), and the
// [lo, hi] widened to the first and last tick.
std::vector<double> nice_ticks(double lo, double hi, int count);
// Powers of ten covering [lo, hi] (lo > 0).
std::vector<double> log_ticks(double lo, double hi);

// "1.5", "12", "3.2k", "4.1M", "1e-05": short tick and value labels.
std::string short_number(double v);
// Fixed precision for tables: `digits` significant digits, no exponent
// below 1e9.
std::string table_number(double v, int digits = 4);
// Text safe inside XML/HTML (& < > " ').
std::string escape(std::string_view s);

// One colour per series, distinguishable and printable.
std::string colour(std::size_t i);

class Writer {
 public:
  Writer(std::string_view id, double width, double height, std::string_view title);
  void line(double x1, double y1, double x2, double y2, std::string_view stroke,
            double width = 1, std::string_view dash = "");
  // `value`: the datum drawn, written as data-value so that a reader (and the
  // geometry tests) can check the drawing against it.
  void rect(double x, double y, double w, double h, std::string_view fill,
            std::string_view cls = "", std::string_view tip = "", const double* value = nullptr);
  void circle(double cx, double cy, double r, std::string_view fill, std::string_view tip = "",
              std::string_view cls = "", const double* value = nullptr);
  // A tick mark of axis "x" or "y" at `value`, drawn from (x1, y1) to (x2, y2).
  void tick(char axis, double value, double x1, double y1, double x2, double y2);
  void polyline(const std::vector<std::pair<double, double>>& points, std::string_view stroke,
                double width = 2, std::string_view dash = "");
  // anchor: "start", "middle" or "end"; rotate: degrees about (x, y).
  void text(double x, double y, std::string_view s, std::string_view anchor = "start",
            std::string_view cls = "", double rotate = 0);
  std::string finish();

 private:
  std::string out_;
};

}  // namespace xq::lab::report::svg
