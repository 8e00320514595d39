// The frame every chart of lab/report/charts.h shares: plot area, axes with ticks,
// grid, axis titles and the legend to the right of the plot.
#pragma once

#include <string>
#include <vector>

#include "lab/report/svg.h"

namespace xq::lab::report::chart {

struct Frame {
  double width = 760, height = 380;
  double left = 78, right = 200, top = 16, bottom = 84;  // margins
  double plot_left() const { return left; }
  double plot_right() const { return width - right; }
  double plot_top() const { return top; }
  double plot_bottom() const { return height - bottom; }
};

// A y axis from the data's range: linear from min(0, lo) (or lo when
// `from_zero` is false) to a round top; log from a power of ten below lo.
struct YAxis {
  svg::Scale scale;
  std::vector<double> ticks;
};
YAxis linear_y(const Frame& f, double lo, double hi, bool from_zero = true);
YAxis log_y(const Frame& f, double lo, double hi);

// Draws the plot area, y ticks with grid and labels, and both axis titles.
void draw_y(svg::Writer& w, const Frame& f, const YAxis& y, const std::string& title);
void draw_x_title(svg::Writer& w, const Frame& f, const std::string& title);
// Category labels under the plot at `centres` (rotated when crowded).
void draw_categories(svg::Writer& w, const Frame& f, const std::vector<double>& centres,
                     const std::vector<std::string>& labels);
// Numeric x ticks with labels and grid.
void draw_x_ticks(svg::Writer& w, const Frame& f, const svg::Scale& x,
                  const std::vector<double>& ticks);
// Legend entries (colour swatch or dashed line, name) right of the plot.
struct LegendEntry {
  std::string name, colour;
  bool dashed = false;
};
void draw_legend(svg::Writer& w, const Frame& f, const std::vector<LegendEntry>& entries);

}  // namespace xq::lab::report::chart
