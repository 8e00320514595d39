#include "lab/report/chart_frame.h"

#include <algorithm>
#include <cmath>

namespace xq::lab::report::chart {

YAxis linear_y(const Frame& f, double lo, double hi, bool from_zero) {
  if (from_zero) lo = std::min(0.0, lo);
  if (!(hi > lo)) hi = lo + 1;
  YAxis y;
  y.ticks = svg::nice_ticks(lo, hi, 5);
  y.scale = {y.ticks.front(), y.ticks.back(), f.plot_bottom(), f.plot_top(), false};
  return y;
}

YAxis log_y(const Frame& f, double lo, double hi) {
  // Half the smallest value: its bar keeps a visible height above the floor.
  lo = lo > 0 ? lo / 2 : 1;
  hi = std::max(hi, lo * 10);
  YAxis y;
  y.ticks = svg::log_ticks(lo, hi);
  y.scale = {y.ticks.front(), y.ticks.back(), f.plot_bottom(), f.plot_top(), true};
  return y;
}

void draw_y(svg::Writer& w, const Frame& f, const YAxis& y, const std::string& title) {
  w.rect(f.plot_left(), f.plot_top(), f.plot_right() - f.plot_left(),
         f.plot_bottom() - f.plot_top(), "#fafafa", "plot-area");
  for (double t : y.ticks) {
    const double py = y.scale(t);
    w.tick('y', t, f.plot_left(), py, f.plot_right(), py);
    w.text(f.plot_left() - 6, py + 4, svg::short_number(t), "end", "tick-label");
  }
  w.line(f.plot_left(), f.plot_top(), f.plot_left(), f.plot_bottom(), "#333");
  w.line(f.plot_left(), f.plot_bottom(), f.plot_right(), f.plot_bottom(), "#333");
  const double cy = (f.plot_top() + f.plot_bottom()) / 2;
  w.text(18, cy, title, "middle", "axis-title", -90);
}

void draw_x_title(svg::Writer& w, const Frame& f, const std::string& title) {
  w.text((f.plot_left() + f.plot_right()) / 2, f.height - 8, title, "middle", "axis-title");
}

void draw_categories(svg::Writer& w, const Frame& f, const std::vector<double>& centres,
                     const std::vector<std::string>& labels) {
  const double room = centres.size() > 1 ? (f.plot_right() - f.plot_left()) / double(centres.size())
                                         : f.plot_right() - f.plot_left();
  std::size_t longest = 0;
  for (const std::string& l : labels) longest = std::max(longest, l.size());
  const bool rotate = double(longest) * 6.5 > room;
  for (std::size_t i = 0; i < centres.size() && i < labels.size(); ++i) {
    if (rotate) w.text(centres[i] + 4, f.plot_bottom() + 12, labels[i], "end", "cat-label", -35);
    else w.text(centres[i], f.plot_bottom() + 16, labels[i], "middle", "cat-label");
  }
}

void draw_x_ticks(svg::Writer& w, const Frame& f, const svg::Scale& x,
                  const std::vector<double>& ticks) {
  for (double t : ticks) {
    const double px = x(t);
    w.tick('x', t, px, f.plot_top(), px, f.plot_bottom());
    w.text(px, f.plot_bottom() + 16, svg::short_number(t), "middle", "tick-label");
  }
}

void draw_legend(svg::Writer& w, const Frame& f, const std::vector<LegendEntry>& entries) {
  const double x = f.plot_right() + 14;
  double y = f.plot_top() + 10;
  for (const LegendEntry& e : entries) {
    if (e.dashed) w.line(x, y, x + 18, y, e.colour, 2, "5,3");
    else w.rect(x, y - 6, 18, 12, e.colour, "swatch");
    w.text(x + 24, y + 4, e.name, "start", "legend-label");
    y += 18;
  }
}

}  // namespace xq::lab::report::chart
