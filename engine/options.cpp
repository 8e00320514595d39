#include "engine/options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

#include "engine/text.h"
#include "hashing/schemes.h"
#include "parallel/params.h"

namespace xq {
namespace {

std::vector<std::string> scheme_choices() {
  std::vector<std::string> v{std::string(kDefaultScheme)};
  for (std::string_view n : kSchemeNames) v.emplace_back(n);
  return v;
}

OptionSpec spin(std::string name, std::int64_t def, std::int64_t lo, std::int64_t hi,
                std::string help) {
  return {std::move(name), OptionType::Spin, std::to_string(def), lo, hi, {}, std::move(help)};
}

OptionSpec combo(std::string name, std::string def, std::vector<std::string> choices,
                 std::string help) {
  return {std::move(name), OptionType::Combo, std::move(def), 0, 0, std::move(choices),
          std::move(help)};
}

// One option per backend parameter (parallel/params.h), under the same name
// and range as the command line's --param NAME=VALUE.
OptionSpec param_spec(const BackendParam& p) {
  const BackendConfig defaults;
  if (!p.enumerated())
    return spin(std::string(p.name), p.get(defaults), p.min, p.max, std::string(p.summary));
  return combo(std::string(p.name), p.value_text(defaults), {p.choices.begin(), p.choices.end()},
               std::string(p.summary));
}

const BackendParam* param_named(std::string_view name) {
  for (const BackendParam& p : backend_params())
    if (p.name == name) return &p;
  return nullptr;
}

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

const OptionSpec& find_spec(std::string_view name) {
  for (const OptionSpec& s : EngineOptions::specs())
    if (same_name(s.name, name)) return s;
  // The list grows with every backend parameter; the message must stay one
  // short line (200 characters), so names that do not fit are counted.
  std::string known;
  int more = 0;
  for (const OptionSpec& s : EngineOptions::specs()) {
    if (more == 0 && known.size() + s.name.size() < 120)
      known += (known.empty() ? "" : ", ") + s.name;
    else
      ++more;
  }
  if (more) known += ", and " + std::to_string(more) + " more";
  throw std::invalid_argument("unknown option " + quoted(name) + " (known: " + known + ")");
}

std::int64_t parse_spin(const OptionSpec& s, std::string_view text) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    throw std::invalid_argument("option " + s.name + ": " + quoted(text) + " is not an integer");
  if (v < s.min || v > s.max)
    throw std::invalid_argument("option " + s.name + ": " + std::to_string(v) +
                                " is outside [" + std::to_string(s.min) + ", " +
                                std::to_string(s.max) + "]");
  return v;
}

const std::string& parse_combo(const OptionSpec& s, std::string_view text) {
  for (const std::string& c : s.choices)
    if (c == text) return c;
  std::string known;
  for (const std::string& c : s.choices) known += (known.empty() ? "" : ", ") + c;
  throw std::invalid_argument("option " + s.name + ": " + quoted(text) +
                              " is not one of: " + known);
}

std::int64_t index_of(const OptionSpec& s, const std::string& choice) {
  return std::int64_t(std::find(s.choices.begin(), s.choices.end(), choice) - s.choices.begin());
}

}  // namespace

const std::vector<OptionSpec>& EngineOptions::specs() {
  static const std::vector<OptionSpec> kSpecs = [] {
    std::vector<OptionSpec> v = {
        spin("Threads", 1, 1, kMaxBackendThreads, "search threads"),
        spin("Hash", 16, 1, kMaxHashMib, "transposition table size in MiB"),
        combo("Backend", "serial", backend_names(), "parallel search algorithm"),
        combo("HashScheme", std::string(kDefaultScheme), scheme_choices(),
              "concurrent table scheme; 'default' is the backend's own"),
        spin("Move Overhead", 10, 0, 5000, "ms kept back per move for I/O latency"),
        combo("Profile", "thesis", {"thesis", "modern"},
              "search profile: the thesis's engine, or with the modern selective search"),
        {"Features", OptionType::String, "profile", 0, 0, {},
         "search features instead of the profile's: a list as --features takes, such as "
         "modern-lmr (no spaces); 'profile' for the Profile option's"},
        {"Clear Hash", OptionType::Button, "", 0, 0, {}, "forget the table and heuristics"},
    };
    for (const BackendParam& p : backend_params()) v.push_back(param_spec(p));
    for (const TunableParam& t : tunable_params())
      v.push_back(spin(std::string(t.name), t.default_value(), t.min, t.max,
                       std::string(t.help) + " (tunable, " + std::string(t.group) + ")"));
    return v;
  }();
  return kSpecs;
}

EngineOptions::EngineOptions() {
  for (const OptionSpec& s : specs())
    if (s.type != OptionType::Button) set(s.name, s.default_value);
}

OptionEffect EngineOptions::set(std::string_view name, std::string_view value) {
  const OptionSpec& s = find_spec(name);
  EngineOptions next = *this;  // nothing changes unless every check passes
  OptionEffect effect = OptionEffect::Rebuild;
  if (s.name == "Threads") next.config_.threads = int(parse_spin(s, value));
  else if (s.name == "Hash") next.config_.hash_mib = std::size_t(parse_spin(s, value));
  else if (s.name == "Backend") next.backend_ = parse_combo(s, value);
  else if (s.name == "HashScheme") next.scheme_ = parse_combo(s, value);
  else if (const BackendParam* p = param_named(s.name))
    p->set(next.config_, p->enumerated() ? index_of(s, parse_combo(s, value))
                                         : parse_spin(s, value));
  else if (s.name == "Move Overhead") {
    next.move_overhead_ms_ = parse_spin(s, value);
    effect = OptionEffect::None;
  } else if (s.name == "Profile") {
    next.profile_ = parse_combo(s, value);
    effect = OptionEffect::None;
  } else if (s.name == "Features") {
    if (value != "profile") {
      try {
        (void)Features::parse(value);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("option Features: " + std::string(e.what()));
      }
    }
    next.features_ = std::string(value);
    effect = OptionEffect::None;
  } else if (s.name == "Clear Hash") {
    return OptionEffect::Clear;
  } else if (const TunableParam* t = find_tunable(s.name)) {
    parse_spin(s, value);  // the option's own message for a bad value
    set_tunable(next.tunables_, s.name, value);
    effect = t->sets_eval() ? OptionEffect::Eval : OptionEffect::None;
  }
  const BackendConfig c = next.backend_config();
  if (!find_backend(next.backend_).supports(c.hash))
    throw std::invalid_argument("option " + s.name + ": backend '" + next.backend_ +
                                "' cannot use hash scheme '" + c.hash + "'");
  *this = std::move(next);
  return effect;
}

std::string EngineOptions::get(std::string_view name) const {
  const OptionSpec& s = find_spec(name);
  if (s.name == "Threads") return std::to_string(config_.threads);
  if (s.name == "Hash") return std::to_string(config_.hash_mib);
  if (s.name == "Backend") return backend_;
  if (s.name == "HashScheme") return scheme_;
  if (s.name == "Move Overhead") return std::to_string(move_overhead_ms_);
  if (s.name == "Profile") return profile_;
  if (s.name == "Features") return features_;
  if (const BackendParam* p = param_named(s.name)) return p->value_text(config_);
  if (const TunableParam* t = find_tunable(s.name)) return std::to_string(t->get(tunables_));
  return "";  // a button has no value
}

Features EngineOptions::features() const {
  return features_ == "profile" ? profile_features(profile_) : Features::parse(features_);
}

BackendConfig EngineOptions::backend_config() const {
  BackendConfig c = config_;
  c.hash = scheme_ == kDefaultScheme ? std::string(find_backend(backend_).default_hash) : scheme_;
  return c;
}

}  // namespace xq
