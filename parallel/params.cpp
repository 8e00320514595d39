#include "parallel/params.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <utility>

#include "hashing/replacement.h"

namespace xq {
namespace {

// The table parameter every backend reads (a field of BackendConfig).
BackendParam replacement_param() {
  BackendParam p;
  p.name = "replacement";
  p.summary = "transposition-table replacement policy";
  p.backends = {"all"};
  p.min = 0;
  p.max = std::int64_t(kReplacementNames.size()) - 1;
  p.choices = {kReplacementNames.begin(), kReplacementNames.end()};
  p.default_value = p.index_of(replacement_name(BackendConfig{}.replacement));
  return p;
}

bool same_declaration(const BackendParam& p, const ParamSpec& s) {
  return p.summary == s.summary && p.min == s.min && p.max == s.max && p.choices == s.choices &&
         p.default_value == s.default_value && p.tuned == s.tuned;
}

// The union of the backends' own tables, in registry order; a parameter that
// several backends read (declared once, in their family's header) lists all
// of them.
std::vector<BackendParam> make_params() {
  std::vector<BackendParam> v;
  for (const BackendInfo& b : backends()) {
    if (!b.params) continue;
    for (const ParamSpec& s : b.params()) {
      auto it = std::find_if(v.begin(), v.end(), [&](const BackendParam& p) { return p.name == s.name; });
      if (it == v.end()) {
        BackendParam p;
        static_cast<ParamSpec&>(p) = s;
        v.push_back(std::move(p));
        it = v.end() - 1;
      } else if (!same_declaration(*it, s)) {
        throw std::logic_error("backend parameter '" + std::string(s.name) +
                               "' is declared differently by two backends");
      }
      it->backends.push_back(b.name);
    }
  }
  v.push_back(replacement_param());
  return v;
}

std::int64_t parse_value(const BackendParam& p, std::string_view text) {
  const std::string bad = "parameter " + std::string(p.name) + " must be " +
                          (p.enumerated() ? "one of " : "an integer in ") + p.range_text() +
                          ", got '" + std::string(text) + "'";
  if (p.enumerated()) {
    const std::int64_t i = p.index_of(text);
    if (i < 0) throw std::invalid_argument(bad);
    return i;
  }
  std::int64_t x = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, x);
  if (text.empty() || ec != std::errc() || ptr != end || x < p.min || x > p.max)
    throw std::invalid_argument(bad);
  return x;
}

}  // namespace

std::int64_t ParamSpec::index_of(std::string_view choice) const {
  for (std::size_t i = 0; i < choices.size(); ++i)
    if (choices[i] == choice) return std::int64_t(i);
  return -1;
}

std::int64_t BackendParam::get(const BackendConfig& c) const {
  if (name == "replacement") return index_of(replacement_name(c.replacement));
  return c.param(name);
}

void BackendParam::set(BackendConfig& c, std::int64_t x) const {
  if (name == "replacement")
    c.replacement = parse_replacement(kReplacementNames[std::size_t(x)]);
  else
    c.set(name, x);
}

std::string BackendParam::value_text(const BackendConfig& c) const {
  const std::int64_t x = get(c);
  return enumerated() ? std::string(choices[std::size_t(x)]) : std::to_string(x);
}

std::string BackendParam::range_text() const {
  if (!enumerated()) return std::to_string(min) + ".." + std::to_string(max);
  std::string s;
  for (std::string_view c : choices) s += (s.empty() ? "" : "|") + std::string(c);
  return s;
}

const std::vector<BackendParam>& backend_params() {
  static const std::vector<BackendParam> kParams = make_params();
  return kParams;
}

const BackendParam& find_param(std::string_view name) {
  std::string known;
  for (const BackendParam& p : backend_params()) {
    if (p.name == name) return p;
    known += (known.empty() ? "" : ", ") + std::string(p.name);
  }
  throw std::invalid_argument("unknown parameter '" + std::string(name) + "' (known: " + known +
                              ")");
}

void set_param(BackendConfig& config, std::string_view assignment) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string_view::npos)
    throw std::invalid_argument("--param needs NAME=VALUE, got '" + std::string(assignment) +
                                "'");
  const BackendParam& p = find_param(assignment.substr(0, eq));
  p.set(config, parse_value(p, assignment.substr(eq + 1)));
}

std::int64_t BackendConfig::param(std::string_view name) const {
  for (const auto& [n, v] : params)
    if (n == name) return v;
  return find_param(name).default_value;
}

void BackendConfig::set(std::string_view name, std::int64_t value) {
  for (auto& [n, v] : params)
    if (n == name) {
      v = value;
      return;
    }
  params.emplace_back(std::string(name), value);
}

}  // namespace xq
