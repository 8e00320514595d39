#include "search/options.h"

#include <optional>
#include <stdexcept>

namespace xq {
namespace {

struct Named {
  const char* name;
  bool Features::*flag;
};

constexpr Named kFeatureNames[] = {
    {"tt", &Features::tt},           {"ttmove", &Features::ttmove},
    {"mvvlva", &Features::mvvlva},   {"killers", &Features::killers},
    {"history", &Features::history}, {"null", &Features::null},
    {"checkext", &Features::checkext}, {"qsearch", &Features::qsearch},
    {"aspiration", &Features::aspiration},
    {"lmr", &Features::lmr},         {"histgravity", &Features::histgravity},
    {"rfp", &Features::rfp},         {"razor", &Features::razor},
    {"lmp", &Features::lmp},         {"futility", &Features::futility},
    {"see", &Features::see},         {"nullplus", &Features::nullplus},
    {"iir", &Features::iir},         {"probcut", &Features::probcut},
    {"singular", &Features::singular}, {"aspdelta", &Features::aspdelta},
    {"knowledge", &Features::knowledge}, {"stability", &Features::stability},
};

bool same(const Features& a, const Features& b) {
  for (const Named& n : kFeatureNames)
    if (a.*n.flag != b.*n.flag) return false;
  return true;
}

}  // namespace

Features Features::modern() {
  Features f;
  for (const Named& n : kFeatureNames) f.*n.flag = true;
  return f;
}

std::string feature_names() {
  std::string known;
  for (const Named& n : kFeatureNames) known += std::string(known.empty() ? "" : ",") + n.name;
  return known;
}

Features profile_features(std::string_view name) {
  if (name == "thesis") return Features::thesis();
  if (name == "modern") return Features::modern();
  throw std::invalid_argument("unknown search profile '" + std::string(name) +
                              "' (known: thesis, modern)");
}

std::string profile_name(const Features& f) {
  if (same(f, Features::thesis())) return "thesis";
  if (same(f, Features::modern())) return "modern";
  return "custom";
}

Features Features::none() {
  Features f;
  for (const Named& n : kFeatureNames) f.*n.flag = false;
  return f;
}

Features Features::parse(std::string_view text) {
  Features f = none();
  // Items separated by ',' or '+'; '-' starts an item that removes. A set's
  // name (all, none, thesis, modern) adds its features.
  const auto apply = [&](const std::string& item, bool remove) {
    if (item.empty())
      throw std::invalid_argument("unknown search feature '' (an empty item in '" +
                                  std::string(text) + "')");
    std::optional<Features> set;
    if (item == "all") set = all();
    else if (item == "none") set = none();
    else if (item == "thesis" || item == "modern") set = profile_features(item);
    bool found = set.has_value();
    for (const Named& n : kFeatureNames) {
      const bool named = set ? (*set).*n.flag : item == n.name;
      if (named) f.*n.flag = !remove;
      found = found || named;
    }
    if (!found)
      throw std::invalid_argument("unknown search feature '" + item +
                                  "' (known: all, none, thesis, modern, " + feature_names() + ")");
  };
  std::string item;
  bool remove = false;
  for (char c : std::string(text) + ",") {
    if (c != ',' && c != '+' && c != '-') {
      item += c;
      continue;
    }
    // A '-' right after a separator (or first) only starts a removal.
    if (!item.empty() || c != '-') apply(item, remove);
    item.clear();
    remove = c == '-';
  }
  return f;
}

std::string Features::to_string() const {
  std::string out;
  for (const Named& n : kFeatureNames)
    if (this->*n.flag) out += std::string(out.empty() ? "" : ",") + n.name;
  return out.empty() ? "none" : out;
}

Algorithm parse_algorithm(std::string_view text) {
  if (text == "pvs") return Algorithm::Pvs;
  if (text == "alphabeta" || text == "ab") return Algorithm::AlphaBeta;
  if (text == "mtdf") return Algorithm::Mtdf;
  throw std::invalid_argument("unknown search algorithm '" + std::string(text) +
                              "' (known: pvs, alphabeta, mtdf)");
}

const char* algorithm_name(Algorithm a) {
  switch (a) {
    case Algorithm::Pvs: return "pvs";
    case Algorithm::AlphaBeta: return "alphabeta";
    case Algorithm::Mtdf: return "mtdf";
  }
  return "?";
}

}  // namespace xq
