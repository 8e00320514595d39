#include "lab/report/svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace xq::lab::report::svg {
namespace {

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string attr(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + escape(value) + "\"";
}

std::string value_attr(const double* v) {
  if (!v) return "";
  char buf[40];
  std::snprintf(buf, sizeof buf, " data-value=\"%.17g\"", *v);
  return buf;
}

std::string tip_element(std::string_view tip) {
  return tip.empty() ? std::string() : "<title>" + escape(tip) + "</title>";
}

}  // namespace

double Scale::operator()(double v) const {
  double a = d0, b = d1, x = v;
  if (log) {
    a = std::log10(d0);
    b = std::log10(d1);
    x = v <= d0 ? a : std::log10(v);
  }
  if (b == a) return p0;
  return p0 + (x - a) / (b - a) * (p1 - p0);
}

std::vector<double> nice_ticks(double lo, double hi, int count) {
  if (!(hi > lo)) hi = lo + 1;
  const double raw = (hi - lo) / std::max(1, count);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (raw <= m * mag) {
      step = m * mag;
      break;
    }
  std::vector<double> t;
  const double first = std::floor(lo / step + 1e-9) * step;
  // Index steps rather than repeated addition: no drift in long tick runs.
  for (int i = 0; first + i * step < hi + step * 0.999; ++i) {
    const double v = first + i * step;
    t.push_back(std::abs(v) < 1e-12 * step ? 0 : v);
  }
  return t;
}

std::vector<double> log_ticks(double lo, double hi) {
  std::vector<double> t;
  const int first = int(std::floor(std::log10(lo) + 1e-9));
  const int last = std::max(first + 1, int(std::ceil(std::log10(hi) - 1e-9)));
  for (int k = first; k <= last; ++k) t.push_back(std::pow(10.0, k));
  return t;
}

std::string short_number(double v) {
  char buf[32];
  const double a = std::abs(v);
  if (a == 0) return "0";
  if (a >= 1e9) std::snprintf(buf, sizeof buf, "%.3gG", v / 1e9);
  else if (a >= 1e6) std::snprintf(buf, sizeof buf, "%.3gM", v / 1e6);
  else if (a >= 1e4) std::snprintf(buf, sizeof buf, "%.3gk", v / 1e3);
  else if (a >= 1e-3) std::snprintf(buf, sizeof buf, "%.3g", v);
  else std::snprintf(buf, sizeof buf, "%.0e", v);
  return buf;
}

std::string table_number(double v, int digits) {
  char buf[48];
  if (std::abs(v) >= 1e9) std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  else if (std::abs(v) >= std::pow(10.0, digits)) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

std::string escape(std::string_view s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default: o += c;
    }
  return o;
}

std::string colour(std::size_t i) {
  static const char* const kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                         "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
  return kPalette[i % (sizeof kPalette / sizeof kPalette[0])];
}

Writer::Writer(std::string_view id, double width, double height, std::string_view title) {
  out_ = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\"" + attr("id", id) +
         attr("width", fmt(width)) + attr("height", fmt(height)) +
         attr("viewBox", "0 0 " + fmt(width) + " " + fmt(height)) + attr("role", "img") +
         attr("aria-label", title) + "><title>" + escape(title) + "</title>\n";
}

void Writer::line(double x1, double y1, double x2, double y2, std::string_view stroke,
                  double width, std::string_view dash) {
  out_ += "<line" + attr("x1", fmt(x1)) + attr("y1", fmt(y1)) + attr("x2", fmt(x2)) +
          attr("y2", fmt(y2)) + attr("stroke", stroke) + attr("stroke-width", fmt(width)) +
          (dash.empty() ? "" : attr("stroke-dasharray", dash)) + "/>\n";
}

void Writer::rect(double x, double y, double w, double h, std::string_view fill,
                  std::string_view cls, std::string_view tip, const double* value) {
  out_ += "<rect" + attr("x", fmt(x)) + attr("y", fmt(y)) + attr("width", fmt(w)) +
          attr("height", fmt(h)) + attr("fill", fill) + (cls.empty() ? "" : attr("class", cls)) +
          value_attr(value) + ">" + tip_element(tip) + "</rect>\n";
}

void Writer::circle(double cx, double cy, double r, std::string_view fill, std::string_view tip,
                    std::string_view cls, const double* value) {
  out_ += "<circle" + attr("cx", fmt(cx)) + attr("cy", fmt(cy)) + attr("r", fmt(r)) +
          attr("fill", fill) + (cls.empty() ? "" : attr("class", cls)) + value_attr(value) + ">" +
          tip_element(tip) + "</circle>\n";
}

void Writer::tick(char axis, double value, double x1, double y1, double x2, double y2) {
  out_ += "<line class=\"" + std::string(1, axis) + "tick\"" + value_attr(&value) +
          attr("x1", fmt(x1)) + attr("y1", fmt(y1)) + attr("x2", fmt(x2)) + attr("y2", fmt(y2)) +
          " stroke=\"#ddd\" stroke-width=\"1\"/>\n";
}

void Writer::polyline(const std::vector<std::pair<double, double>>& points,
                      std::string_view stroke, double width, std::string_view dash) {
  std::string p;
  for (const auto& [x, y] : points) p += (p.empty() ? "" : " ") + fmt(x) + "," + fmt(y);
  out_ += "<polyline fill=\"none\"" + attr("points", p) + attr("stroke", stroke) +
          attr("stroke-width", fmt(width)) + (dash.empty() ? "" : attr("stroke-dasharray", dash)) +
          "/>\n";
}

void Writer::text(double x, double y, std::string_view s, std::string_view anchor,
                  std::string_view cls, double rotate) {
  out_ += "<text" + attr("x", fmt(x)) + attr("y", fmt(y)) + attr("text-anchor", anchor) +
          (cls.empty() ? "" : attr("class", cls)) +
          (rotate != 0
               ? attr("transform", "rotate(" + fmt(rotate) + " " + fmt(x) + " " + fmt(y) + ")")
               : "") +
          ">" + escape(s) + "</text>\n";
}

std::string Writer::finish() { return out_ + "</svg>\n"; }

}  // namespace xq::lab::report::svg
