#include "search/options.h"

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
};

}  // namespace

Features Features::none() {
  Features f;
  for (const Named& n : kFeatureNames) f.*n.flag = false;
  return f;
}

Features Features::parse(std::string_view text) {
  if (text == "all") return all();
  if (text == "none") return none();
  Features f = none();
  std::string item;
  const std::string s = std::string(text) + ",";
  for (char c : s) {
    if (c != ',') {
      item += c;
      continue;
    }
    bool found = false;
    for (const Named& n : kFeatureNames)
      if (item == n.name) {
        f.*n.flag = true;
        found = true;
      }
    if (!found) {
      std::string known;
      for (const Named& n : kFeatureNames) known += std::string(known.empty() ? "" : ",") + n.name;
      throw std::invalid_argument("unknown search feature '" + item + "' (known: all, none, " +
                                  known + ")");
    }
    item.clear();
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
