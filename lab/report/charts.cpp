#include "lab/report/charts.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "lab/report/chart_frame.h"

namespace xq::lab::report::chart {
namespace {

bool known(double v) { return !std::isnan(v); }

struct Range {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  void add(double v) {
    if (!known(v) || std::isinf(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return lo > hi; }
};

void draw_refs(svg::Writer& w, const Frame& f, const svg::Scale& y,
               const std::vector<RefLine>& refs, std::vector<LegendEntry>& legend) {
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const double py = y(refs[i].y);
    w.line(f.plot_left(), py, f.plot_right(), py, "#555", 1.5, "6,4");
    w.text(f.plot_right() - 4, py - 4, refs[i].name, "end", "ref-label");
  }
  if (!refs.empty())
    legend.push_back({refs.size() == 1 ? refs[0].name : "reference lines", "#555", true});
}

void whisker(svg::Writer& w, double x, double y0, double y1, const std::string& colour,
             double width, double cap) {
  w.line(x, y0, x, y1, colour, width);
  if (cap > 0) {
    w.line(x - cap, y0, x + cap, y0, colour, 1.5);
    w.line(x - cap, y1, x + cap, y1, colour, 1.5);
  }
}

void draw_axes(svg::Writer& w, const Frame& f, const YAxis& y, const Titles& t) {
  draw_y(w, f, y, t.y);
  draw_x_title(w, f, t.x);
}

// Width of one category's slot on the x axis, and the centres of the n slots.
double slot_width(const Frame& f, std::size_t n) {
  return (f.plot_right() - f.plot_left()) / double(std::max<std::size_t>(1, n));
}
std::vector<double> slot_centres(const Frame& f, std::size_t n) {
  const double slot = slot_width(f, n);
  std::vector<double> centres;
  for (std::size_t k = 0; k < n; ++k) centres.push_back(f.plot_left() + slot * (double(k) + 0.5));
  return centres;
}

// The common tail of the categorical charts: category labels, reference lines, legend.
std::string finish_categorical(svg::Writer& w, const Frame& f, const YAxis& y,
                               const std::vector<double>& centres,
                               const std::vector<std::string>& categories,
                               const std::vector<RefLine>& refs, std::vector<LegendEntry> legend) {
  draw_categories(w, f, centres, categories);
  draw_refs(w, f, y.scale, refs, legend);
  draw_legend(w, f, legend);
  return w.finish();
}

Range x_range(const LineChart& c) {
  Range r;
  for (const Series& s : c.series)
    for (const Point& p : s.points) r.add(p.x);
  if (r.empty()) r = {0, 1};
  if (r.hi == r.lo) {
    r.lo -= 1;
    r.hi += 1;
  }
  return r;
}

Range y_range(const LineChart& c) {
  Range r;
  for (const Series& s : c.series)
    for (const Point& p : s.points)
      for (double v : {p.y, p.lo, p.hi, p.inner_lo, p.inner_hi}) r.add(v);
  for (const RefLine& l : c.refs) r.add(l.y);
  if (c.ideal_diagonal) r.add(x_range(c).hi);
  if (r.empty()) r = {0, 1};
  return r;
}

}  // namespace

std::string line_chart(const LineChart& c) {
  Frame f;
  svg::Writer w(c.t.id, f.width, f.height, c.t.title);
  const Range xr = x_range(c), yr = y_range(c);
  const YAxis y = linear_y(f, yr.lo, yr.hi);
  std::vector<double> xt;
  if (c.integer_x) {
    for (const Series& s : c.series)
      for (const Point& p : s.points) xt.push_back(p.x);
    std::sort(xt.begin(), xt.end());
    xt.erase(std::unique(xt.begin(), xt.end()), xt.end());
  } else {
    xt = svg::nice_ticks(xr.lo, xr.hi, 6);
  }
  // A log x axis needs positive values: it pads by a factor, a linear one
  // by a tenth of the range.
  const bool log_x = c.log_x && xr.lo > 0;
  if (log_x && !c.integer_x) xt = svg::log_ticks(xr.lo, xr.hi);
  const double pad = c.integer_x ? 0.1 * (xr.hi - xr.lo) : 0, factor = 1.25;
  svg::Scale x{c.integer_x ? xr.lo - pad : xt.front(), c.integer_x ? xr.hi + pad : xt.back(),
               f.plot_left(), f.plot_right()};
  if (log_x) x = {xr.lo / factor, xr.hi * factor, f.plot_left(), f.plot_right(), true};
  draw_y(w, f, y, c.t.y);
  draw_x_ticks(w, f, x, xt);
  draw_x_title(w, f, c.t.x);
  std::vector<LegendEntry> legend;
  if (c.ideal_diagonal) {
    const double a = std::max(x.d0, y.scale.d0), b = std::min(x.d1, y.scale.d1);
    if (log_x) {  // y = x is a curve on a log x axis: drawn through 48 points
      std::vector<std::pair<double, double>> ideal;
      for (int k = 0; k <= 48 && a < b; ++k) {
        const double v = a * std::pow(b / a, k / 48.0);
        ideal.emplace_back(x(v), y.scale(v));
      }
      w.polyline(ideal, "#555", 1.5, "6 4");
    } else {
      w.line(x(a), y.scale(a), x(b), y.scale(b), "#555", 1.5, "6,4");
    }
    legend.push_back({"ideal", "#555", true});
  }
  draw_refs(w, f, y.scale, c.refs, legend);
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const Series& s = c.series[i];
    const std::string col = svg::colour(i);
    // Series are nudged apart around their x so whiskers do not overlap: 5
    // pixels each, at most 40 in all.
    const double step = c.series.size() > 1 ? std::min(5.0, 40.0 / double(c.series.size() - 1)) : 0;
    const double nudge = c.integer_x ? (double(i) - double(c.series.size() - 1) / 2) * step : 0;
    std::vector<std::pair<double, double>> pts;
    for (const Point& p : s.points) pts.emplace_back(x(p.x) + nudge, y.scale(p.y));
    w.polyline(pts, col, 2, s.dashed ? "6 4" : "");
    for (std::size_t k = 0; k < s.points.size(); ++k) {
      const Point& p = s.points[k];
      const double px = pts[k].first;
      if (known(p.lo) && known(p.hi)) whisker(w, px, y.scale(p.lo), y.scale(p.hi), col, 1, 4);
      if (known(p.inner_lo) && known(p.inner_hi))
        whisker(w, px, y.scale(p.inner_lo), y.scale(p.inner_hi), col, 4, 0);
      if (c.markers)
        w.circle(px, pts[k].second, 3.5, col, s.name + ": " + svg::table_number(p.y), "point",
                 &p.y);
    }
    legend.push_back({s.name, col, false});
  }
  draw_legend(w, f, legend);
  return w.finish();
}

std::string bar_chart(const BarChart& c) {
  Frame f;
  svg::Writer w(c.t.id, f.width, f.height, c.t.title);
  Range r;
  const std::size_t n = c.categories.size(), m = c.series.size();
  for (std::size_t k = 0; k < n; ++k) {
    double sum = 0;
    for (std::size_t s = 0; s < m; ++s) {
      const double v = c.values[s][k];
      if (c.log && !(v > 0)) continue;
      if (c.stacked && known(v)) sum += v;
      else r.add(v);
    }
    if (c.stacked) r.add(sum);
  }
  for (const RefLine& l : c.refs) r.add(l.y);
  if (r.empty()) r = {c.log ? 1.0 : 0.0, c.log ? 10.0 : 1.0};
  const YAxis y = c.log ? log_y(f, r.lo, r.hi) : linear_y(f, r.lo, r.hi);
  draw_axes(w, f, y, c.t);
  const double slot = slot_width(f, n);
  const double bar = c.stacked ? slot * 0.6 : slot * 0.8 / double(std::max<std::size_t>(1, m));
  const std::vector<double> centres = slot_centres(f, n);
  for (std::size_t k = 0; k < n; ++k) {
    const double left = f.plot_left() + slot * double(k) + slot * (c.stacked ? 0.2 : 0.1);
    double base = c.log ? y.scale.d0 : 0;
    for (std::size_t s = 0; s < m; ++s) {
      const double v = c.values[s][k];
      const double bx = c.stacked ? left : left + bar * double(s);
      if (!known(v) || (c.log && !(v > 0))) {
        if (!c.stacked || s + 1 == m || !known(v))
          w.text(bx + bar / 2, f.plot_bottom() - 4, known(v) ? "0" : "n/a", "middle", "na-label");
        continue;
      }
      const double top = c.stacked ? base + v : v;
      const double y0 = y.scale(c.stacked ? base : (c.log ? y.scale.d0 : 0)), y1 = y.scale(top);
      w.rect(bx, std::min(y0, y1), bar, std::abs(y0 - y1), svg::colour(s), "bar",
             c.categories[k] + " " + c.series[s] + ": " + svg::table_number(v), &v);
      if (c.stacked) base = top;
    }
  }
  std::vector<LegendEntry> legend;
  if (m > 1 || c.stacked)
    for (std::size_t s = 0; s < m; ++s) legend.push_back({c.series[s], svg::colour(s), false});
  return finish_categorical(w, f, y, centres, c.categories, c.refs, std::move(legend));
}

std::string strip_chart(const StripChart& c) {
  Frame f;
  svg::Writer w(c.t.id, f.width, f.height, c.t.title);
  Range r;
  for (const auto& pts : c.values)
    for (double v : pts) r.add(v);
  for (const RefLine& l : c.refs) r.add(l.y);
  if (r.empty()) r = {0, 1};
  const YAxis y = linear_y(f, r.lo, r.hi);
  draw_axes(w, f, y, c.t);
  const std::size_t n = c.categories.size();
  const double slot = slot_width(f, n);
  const std::vector<double> centres = slot_centres(f, n);
  for (std::size_t k = 0; k < n; ++k) {
    const double cx = centres[k];
    const std::vector<double>& pts = c.values[k];
    for (std::size_t i = 0; i < pts.size(); ++i) {
      if (!known(pts[i])) continue;
      // Deterministic jitter (golden-ratio steps) so that equal values stay apart.
      const double jitter = (std::fmod(double(i) * 0.618034, 1.0) - 0.5) * slot * 0.5;
      w.circle(cx + jitter, y.scale(pts[i]), 3, svg::colour(k), c.categories[k] + " #" +
               std::to_string(i + 1) + ": " + svg::table_number(pts[i]), "point", &pts[i]);
    }
    std::vector<double> sorted;
    for (double v : pts)
      if (known(v)) sorted.push_back(v);
    if (sorted.empty()) {
      w.text(cx, f.plot_bottom() - 4, "n/a", "middle", "na-label");
      continue;
    }
    std::sort(sorted.begin(), sorted.end());
    const std::size_t mid = sorted.size() / 2;
    const double med = sorted.size() % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    w.line(cx - slot * 0.35, y.scale(med), cx + slot * 0.35, y.scale(med), "#000", 2);
  }
  return finish_categorical(w, f, y, centres, c.categories, c.refs,
                            {{"median", "#000", false}});
}

std::string interval_chart(const IntervalChart& c) {
  Frame f;
  svg::Writer w(c.t.id, f.width, f.height, c.t.title);
  Range r;
  for (std::size_t k = 0; k < c.values.size(); ++k)
    for (double v : {c.values[k], c.lo[k], c.hi[k]}) r.add(v);
  for (const RefLine& ref : c.refs) r.add(ref.y);
  if (r.empty()) r = {-1, 1};
  const YAxis y = linear_y(f, r.lo, r.hi, false);
  draw_axes(w, f, y, c.t);
  const std::size_t n = c.categories.size();
  const std::vector<double> centres = slot_centres(f, n);
  for (std::size_t k = 0; k < n; ++k) {
    const double cx = centres[k];
    if (!known(c.values[k])) {
      w.text(cx, f.plot_bottom() - 4, "n/a", "middle", "na-label");
      continue;
    }
    if (known(c.lo[k]) && known(c.hi[k]))
      whisker(w, cx, y.scale(c.lo[k]), y.scale(c.hi[k]), svg::colour(0), 1.5, 6);
    w.circle(cx, y.scale(c.values[k]), 4, svg::colour(0),
             c.categories[k] + ": " + svg::table_number(c.values[k]), "point", &c.values[k]);
  }
  return finish_categorical(w, f, y, centres, c.categories, c.refs,
                            {{"estimate, 95% interval", svg::colour(0), false}});
}

}  // namespace xq::lab::report::chart
