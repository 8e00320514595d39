#include "lab/timing/tune.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "lab/common/stats.h"
#include "lab/common/text.h"
#include "lab/timing/summary.h"
#include "parallel/params.h"

namespace xq::lab::timing {
namespace {

bool reads(const BackendParam& p, const std::string& backend) {
  return std::find(p.backends.begin(), p.backends.end(), backend) != p.backends.end();
}

}  // namespace

TuneAxis parse_axis(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw std::invalid_argument("--space needs NAME=V1,V2,..., got '" + text + "'");
  TuneAxis axis{text.substr(0, eq), {}};
  const BackendParam& p = find_param(axis.name);
  for (const std::string& v : common::split_commas(text.substr(eq + 1))) {
    BackendConfig scratch;
    set_param(scratch, axis.name + "=" + v);  // throws naming the range
    const std::string canonical = p.value_text(scratch);
    if (std::find(axis.values.begin(), axis.values.end(), canonical) == axis.values.end())
      axis.values.push_back(canonical);
  }
  return axis;
}

std::vector<TuneAxis> default_space(const std::string& backend, const BackendConfig& base) {
  std::vector<TuneAxis> space;
  for (const BackendParam& p : backend_params()) {
    if (!reads(p, backend) || !p.tuned) continue;
    TuneAxis axis{std::string(p.name), {}};
    if (p.enumerated()) {
      for (std::string_view c : p.choices) axis.values.emplace_back(c);
    } else {
      const std::int64_t d = p.get(base);
      std::set<std::int64_t> v;
      for (std::int64_t x : {d / 2, d, d * 2}) v.insert(std::clamp(x, p.min, p.max));
      for (std::int64_t x : v) axis.values.push_back(std::to_string(x));
    }
    space.push_back(std::move(axis));
  }
  return space;
}

std::vector<std::vector<std::string>> tune_candidates(const std::vector<TuneAxis>& space,
                                                      const BackendConfig& base) {
  std::vector<std::string> def;
  for (const TuneAxis& a : space) def.push_back(a.name + "=" + find_param(a.name).value_text(base));
  std::vector<std::vector<std::string>> out{def};
  std::vector<std::vector<std::string>> partial{{}};
  for (const TuneAxis& a : space) {
    std::vector<std::vector<std::string>> next;
    for (const auto& prefix : partial)
      for (const std::string& v : a.values) {
        next.push_back(prefix);
        next.back().push_back(a.name + "=" + v);
      }
    partial = std::move(next);
  }
  for (auto& c : partial)
    if (c != def) out.push_back(std::move(c));
  return out;
}

std::vector<double> paired_log_ratios(const std::vector<LabRun>& runs, int cand, int base,
                                      std::size_t positions) {
  // times[config side][position][run]
  std::vector<std::vector<std::vector<double>>> t(2, std::vector<std::vector<double>>(positions));
  for (const LabRun& r : runs) {
    const int side = r.config == cand ? 0 : r.config == base ? 1 : -1;
    if (side < 0 || std::size_t(r.position) >= positions) continue;
    auto& v = t[std::size_t(side)][std::size_t(r.position)];
    if (v.size() <= std::size_t(r.run)) v.resize(std::size_t(r.run) + 1, 0.0);
    v[std::size_t(r.run)] = r.seconds;
  }
  std::vector<double> out;
  for (std::size_t p = 0; p < positions; ++p) {
    double sum = 0;
    int n = 0;
    const auto& a = t[0][p];
    const auto& b = t[1][p];
    for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k)
      if (a[k] > 0 && b[k] > 0) {
        sum += std::log(a[k] / b[k]);
        ++n;
      }
    if (n > 0) out.push_back(sum / n);
  }
  return out;
}

TuneReport tune_report(const LabSettings& s, std::size_t positions,
                       const std::vector<LabRun>& runs) {
  const std::vector<LabSummary> sums = summarise(s, positions, runs);
  TuneReport rep;
  for (std::size_t i = 0; i < s.configs.size(); ++i) {
    TuneRow row;
    row.params = s.configs[i].params;
    row.seconds = sums[i].seconds;
    if (i > 0)
      row.vs_default = common::compare_paired(paired_log_ratios(runs, int(i), 0, positions));
    rep.rows.push_back(std::move(row));
  }
  for (std::size_t i = 1; i < rep.rows.size(); ++i) {
    const common::PairedComparison& c = rep.rows[i].vs_default;
    if (c.better() && (rep.best == 0 || c.median_log_ratio <
                                            rep.rows[std::size_t(rep.best)].vs_default.median_log_ratio))
      rep.best = int(i);
  }
  return rep;
}

std::string params_file_text(const std::string& backend, const BackendConfig& config,
                             const std::string& comment) {
  std::string s = "# " + comment + "\n";
  for (const BackendParam& p : backend_params())
    if (reads(p, backend) || reads(p, "all"))
      s += std::string(p.name) + "=" + p.value_text(config) + "\n";
  return s;
}

}  // namespace xq::lab::timing
