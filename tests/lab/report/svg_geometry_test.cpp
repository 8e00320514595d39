// The report's charts against their numbers: a bar's top and height and a
// point's position are the value on the axis that the chart draws, read back
// from the SVG (tick marks carry their value, bars and points theirs).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "lab/report/charts.h"
#include "lab/report/svg.h"

namespace {

using namespace xq::lab::report;

double attr(const std::string& element, const std::string& name) {
  const std::regex re(" " + name + "=\"([-0-9.e+]+)\"");
  std::smatch m;
  if (!std::regex_search(element, m, re)) {
    ADD_FAILURE() << "no " << name << " in " << element;
    return std::nan("");
  }
  return std::stod(m[1]);
}

// Elements of a kind with a class, as their opening tags.
std::vector<std::string> elements(const std::string& svg, const std::string& tag,
                                  const std::string& cls) {
  std::vector<std::string> out;
  const std::regex re("<" + tag + " [^>]*class=\"" + cls + "\"[^>]*>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back(it->str());
  return out;
}

// The axis map read back from two tick marks: pixel = a + b * value (or
// log10(value) on a log axis).
struct Axis {
  double a = 0, b = 0;
  bool log = false;
  double operator()(double v) const { return a + b * (log ? std::log10(v) : v); }
};

Axis read_axis(const std::string& svg, char which, bool log = false) {
  const std::vector<std::string> ticks = elements(svg, "line", std::string(1, which) + "tick");
  Axis ax;
  ax.log = log;
  if (ticks.size() < 2) {
    ADD_FAILURE() << "fewer than two " << which << " ticks";
    return ax;
  }
  const char* coord = which == 'y' ? "y1" : "x1";
  const double v0 = attr(ticks.front(), "data-value"), v1 = attr(ticks.back(), "data-value");
  const double p0 = attr(ticks.front(), coord), p1 = attr(ticks.back(), coord);
  const double t0 = log ? std::log10(v0) : v0, t1 = log ? std::log10(v1) : v1;
  ax.b = (p1 - p0) / (t1 - t0);
  ax.a = p0 - ax.b * t0;
  return ax;
}

constexpr double kPixel = 0.02;  // the SVG writes two decimals

TEST(SvgScale, LinearAndLogMaps) {
  const svg::Scale lin{0, 10, 300, 100};
  EXPECT_DOUBLE_EQ(lin(0), 300);
  EXPECT_DOUBLE_EQ(lin(10), 100);
  EXPECT_DOUBLE_EQ(lin(2.5), 250);
  const svg::Scale lg{1, 1000, 300, 0, true};
  EXPECT_DOUBLE_EQ(lg(10), 200);
  EXPECT_DOUBLE_EQ(lg(100), 100);
  EXPECT_DOUBLE_EQ(lg(0), 300);  // at or below the floor: the baseline
  const std::vector<double> t = svg::nice_ticks(0, 7.3, 5);
  EXPECT_LE(t.front(), 0.0);
  EXPECT_GE(t.back(), 7.3);
  EXPECT_EQ(svg::log_ticks(0.3, 50), (std::vector<double>{0.1, 1, 10, 100}));
}

TEST(SvgGeometry, BarHeightIsItsValueOnTheAxis) {
  chart::BarChart c;
  c.t = {"bars", "bars", "category", "value"};
  c.categories = {"a", "b", "c", "d"};
  c.series = {"s"};
  c.values = {{3, 7.5, 12, chart::kNone}};
  const std::string s = chart::bar_chart(c);
  const Axis y = read_axis(s, 'y');
  const std::vector<std::string> bars = elements(s, "rect", "bar");
  ASSERT_EQ(bars.size(), 3u);  // the unmeasured one is not drawn
  for (const std::string& b : bars) {
    const double v = attr(b, "data-value");
    EXPECT_NEAR(attr(b, "y"), y(v), kPixel) << b;
    EXPECT_NEAR(attr(b, "height"), y(0) - y(v), kPixel) << b;
  }
  EXPECT_NE(s.find(">n/a</text>"), std::string::npos);
}

TEST(SvgGeometry, LogBarsAndStackedSegments) {
  chart::BarChart c;
  c.t = {"log", "log", "scheme", "per 1e8"};
  c.categories = {"a", "b", "c"};
  c.series = {"torn", "corrupt"};
  c.values = {{5, 20000, 0}, {0.5, 0, 300}};
  c.log = true;
  const std::string s = chart::bar_chart(c);
  const Axis y = read_axis(s, 'y', true);
  const std::vector<std::string> bars = elements(s, "rect", "bar");
  ASSERT_EQ(bars.size(), 4u);  // zeros are labelled, not drawn
  const double floor = attr(elements(s, "line", "ytick").front(), "data-value");
  for (const std::string& b : bars) {
    const double v = attr(b, "data-value");
    EXPECT_NEAR(attr(b, "y"), y(v), kPixel) << b;
    EXPECT_NEAR(attr(b, "height"), y(floor) - y(v), kPixel) << b;
  }
  chart::BarChart st = c;
  st.log = false;
  st.stacked = true;
  st.values = {{60, 30, 80}, {40, 70, chart::kNone}};
  const std::string ss = chart::bar_chart(st);
  const Axis sy = read_axis(ss, 'y');
  const std::vector<std::string> seg = elements(ss, "rect", "bar");
  ASSERT_EQ(seg.size(), 5u);
  // Segments of one category: each as tall as its value, the second on top of the first.
  EXPECT_NEAR(attr(seg[0], "height"), sy(0) - sy(60), kPixel);
  EXPECT_NEAR(attr(seg[1], "height"), sy(0) - sy(40), kPixel);
  EXPECT_NEAR(attr(seg[1], "y"), sy(100), kPixel);
}

TEST(SvgGeometry, PointIsItsValueOnBothAxes) {
  chart::LineChart c;
  c.t = {"lines", "lines", "threads", "speedup"};
  c.integer_x = true;
  c.ideal_diagonal = true;
  c.series = {{"one", {{1, 0.97, 0.5, 1.4}, {2, 1.7, 0.8, 3.1}, {4, 2.9}}},
              {"two", {{1, 1.0}, {2, 1.2}, {4, 1.1}}}};
  const std::string s = chart::line_chart(c);
  const Axis y = read_axis(s, 'y'), x = read_axis(s, 'x');
  const std::vector<std::string> points = elements(s, "circle", "point");
  ASSERT_EQ(points.size(), 6u);
  const double xs[] = {1, 2, 4, 1, 2, 4};
  for (std::size_t i = 0; i < points.size(); ++i) {
    EXPECT_NEAR(attr(points[i], "cy"), y(attr(points[i], "data-value")), kPixel) << points[i];
    // Series are nudged apart by a few pixels around their x so whiskers do not overlap.
    EXPECT_NEAR(attr(points[i], "cx"), x(xs[i]), 5.0) << points[i];
  }
  EXPECT_NE(s.find(">threads</text>"), std::string::npos);
  EXPECT_NE(s.find(">speedup</text>"), std::string::npos);
  EXPECT_NE(s.find(">ideal</text>"), std::string::npos);
}

// Thread counts from 1 to 256 on a log x axis: each point at log10 of its
// count (equal steps per doubling), the ideal y = x drawn as a curve.
TEST(SvgGeometry, LogThreadAxisPlacesDoublingsEvenly) {
  chart::LineChart c;
  c.t = {"many", "many", "threads", "speedup"};
  c.integer_x = true;
  c.log_x = true;
  c.ideal_diagonal = true;
  c.series = {{"one", {{1, 1.0}, {4, 3.5}, {16, 11.0}, {64, 25.0}, {256, 31.0}}}};
  const std::string s = chart::line_chart(c);
  const Axis x = read_axis(s, 'x', true), y = read_axis(s, 'y');
  const std::vector<std::string> points = elements(s, "circle", "point");
  ASSERT_EQ(points.size(), 5u);
  const double xs[] = {1, 4, 16, 64, 256};
  for (std::size_t i = 0; i < points.size(); ++i) {
    EXPECT_NEAR(attr(points[i], "cx"), x(xs[i]), kPixel) << points[i];
    EXPECT_NEAR(attr(points[i], "cy"), y(attr(points[i], "data-value")), kPixel) << points[i];
  }
  // Four steps of 4x each: equal widths on the log axis.
  const double step = attr(points[1], "cx") - attr(points[0], "cx");
  EXPECT_GT(step, 10.0);
  for (std::size_t i = 2; i < points.size(); ++i)
    EXPECT_NEAR(attr(points[i], "cx") - attr(points[i - 1], "cx"), step, 2 * kPixel);
  EXPECT_NE(s.find(">ideal</text>"), std::string::npos);
  EXPECT_NE(s.find(">256</text>"), std::string::npos);
}

TEST(SvgGeometry, StripAndIntervalPointsSitOnTheAxis) {
  chart::StripChart st;
  st.t = {"strip", "strip", "configuration", "speedup"};
  st.categories = {"a", "b"};
  st.values = {{0.5, 1.0, 3.5}, {2.0, chart::kNone}};
  const std::string s = chart::strip_chart(st);
  const Axis y = read_axis(s, 'y');
  const std::vector<std::string> points = elements(s, "circle", "point");
  ASSERT_EQ(points.size(), 4u);
  for (const std::string& p : points) EXPECT_NEAR(attr(p, "cy"), y(attr(p, "data-value")), kPixel);
  chart::IntervalChart iv;
  iv.t = {"elo", "elo", "pairing", "Elo"};
  iv.categories = {"a vs b", "a vs c"};
  iv.values = {35, -12};
  iv.lo = {10, -40};
  iv.hi = {60, 16};
  const std::string e = chart::interval_chart(iv);
  const Axis ey = read_axis(e, 'y');
  const std::vector<std::string> dots = elements(e, "circle", "point");
  ASSERT_EQ(dots.size(), 2u);
  for (const std::string& p : dots) EXPECT_NEAR(attr(p, "cy"), ey(attr(p, "data-value")), kPixel);
}

TEST(SvgText, EscapesMarkup) {
  EXPECT_EQ(svg::escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  chart::BarChart c;
  c.t = {"x", "<script>", "a", "b"};
  c.categories = {"<i>"};
  c.series = {"s"};
  c.values = {{1}};
  const std::string s = chart::bar_chart(c);
  EXPECT_EQ(s.find("<script>"), std::string::npos);
  EXPECT_EQ(s.find("<i>"), std::string::npos);
}

}  // namespace
