#include "lab/common/counter_figures.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace xq::lab::common {

void to_json(Json& j, const CounterFigure& f) {
  j = Json{{"group", f.group},
           {"name", f.name},
           {"unit", f.unit},
           {"show", f.show},
           {"of", f.of.empty() ? Json() : Json(f.of)},
           {"meaning", f.meaning},
           {"sum", f.sum},
           {"shown", f.known ? Json(f.shown) : Json()}};
}

CounterFigure counter_figure(const Json& j) {
  CounterFigure f;
  f.group = j.at("group").get<std::string>();
  f.name = j.at("name").get<std::string>();
  f.unit = j.value("unit", "");
  f.show = j.value("show", "total");
  if (j.contains("of") && j["of"].is_string()) f.of = j["of"].get<std::string>();
  f.meaning = j.value("meaning", "");
  f.sum = j.at("sum").get<double>();
  f.known = j.contains("shown") && j["shown"].is_number();
  f.shown = f.known ? j["shown"].get<double>() : 0;
  return f;
}

std::string counter_heading(const CounterFigure& f) {
  static const std::pair<const char*, const char*> kSuffix[] = {
      {"per_search", "/search"}, {"per_second", "/s"}, {"ratio", "/"},
      {"thread_share", " %time"}, {"serial_nodes_over", " S bound"}};
  std::string h = f.name;
  for (const auto& [show, suffix] : kSuffix)
    if (f.show == show) h += suffix;
  if (f.show == "ratio") h += f.of + (f.unit == "seconds" ? " (us)" : "");
  return h;
}

std::string counter_cell(const CounterFigure& f) {
  if (!f.known) return "-";
  double v = f.shown;
  const char* unit = "";
  if (f.show == "thread_share") {
    v *= 100;
    unit = "%";
  } else if (f.show == "ratio" && f.unit == "seconds") {
    v *= 1e6;
  }
  const double a = std::abs(v);
  char buf[48];
  std::snprintf(buf, sizeof buf, a >= 100 || a == 0 ? "%.0f%s" : a >= 1 ? "%.2f%s" : "%.3f%s", v,
                unit);
  return buf;
}

std::vector<std::string> counter_groups(const std::vector<std::vector<CounterFigure>>& rows) {
  std::vector<std::string> out;
  for (const auto& row : rows)
    for (const CounterFigure& f : row)
      if (std::find(out.begin(), out.end(), f.group) == out.end()) out.push_back(f.group);
  return out;
}

std::vector<CounterFigure> group_columns(const std::vector<std::vector<CounterFigure>>& rows,
                                         const std::string& group) {
  std::vector<CounterFigure> out;
  for (const auto& row : rows)
    for (const CounterFigure& f : row)
      if (f.group == group && std::none_of(out.begin(), out.end(), [&](const CounterFigure& o) {
            return o.name == f.name;
          }))
        out.push_back(f);
  return out;
}

std::string cell_of(const std::vector<CounterFigure>& row, const std::string& name) {
  for (const CounterFigure& f : row)
    if (f.name == name) return counter_cell(f);
  return "";
}

}  // namespace xq::lab::common
