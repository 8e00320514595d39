#include "lab/report/targets_compute.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "lab/common/files.h"
#include "lab/common/stats.h"

namespace xq::lab::report::targets {
namespace {

namespace fs = std::filesystem;

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The array each kind's items pick from by default (an item's "array"
// overrides it); stress documents are JSON Lines, their records the array.
std::string default_array(const std::string& kind) {
  if (kind == "lab") return "results";
  if (kind == "match") return "match.pairings";
  if (kind == "solve") return "configs";
  return "";
}

// Keys a compute and an item may have: a misspelt key would otherwise be
// ignored and its default used, which a reader of targets.json cannot see.
void check_keys(const Json& j, const std::set<std::string>& known, const std::string& where) {
  for (const auto& [key, value] : j.items())
    if (!known.count(key)) throw TargetError(where + ": unknown key '" + key + "'");
}

std::string string_field(const Json& j, const char* key, const std::string& fallback,
                         const std::string& where) {
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (!it->is_string()) throw TargetError(where + ": '" + key + "' must be a string");
  return it->get<std::string>();
}

const std::string& document_of(const Json& item, const std::vector<std::string>& documents,
                               const std::string& where) {
  const auto it = item.find("document");
  std::size_t k = 0;
  if (it != item.end()) {
    if (!it->is_number_integer() || it->get<long long>() < 0)
      throw TargetError(where + ": 'document' must be an index (0, 1, ...)");
    k = static_cast<std::size_t>(it->get<long long>());
  }
  if (k >= documents.size())
    throw TargetError(where + ": document " + std::to_string(k) + " is not in 'documents' (" +
                      std::to_string(documents.size()) + " listed)");
  if (is_commit_reference(documents[k]))
    throw TargetError(where + ": document '" + documents[k] + "' left the tree; it cannot be read");
  return documents[k];
}

const Json& select_of(const Json& item, const std::string& where) {
  static const Json every = Json::object();
  const auto it = item.find("select");
  if (it == item.end()) return every;
  if (!it->is_object()) throw TargetError(where + ": 'select' must be an object");
  return *it;
}

Json aggregate_of(const std::vector<const Json*>& records, const std::string& field,
                  const std::string& how, const std::string& where) {
  std::vector<double> v;
  bool integers = true;
  for (const Json* r : records) {
    const Json* x = json_at_path(*r, field);
    if (!x || !x->is_number())
      throw TargetError(where + ": a selected record has no number '" + field + "'");
    integers = integers && x->is_number_integer();
    v.push_back(x->get<double>());
  }
  double out = 0;
  if (how == "sum") {
    for (double x : v) out += x;
  } else if (how == "mean") {
    for (double x : v) out += x;
    out /= double(v.size());
    integers = false;
  } else if (how == "median") {
    out = common::median(v);
    integers = integers && v.size() % 2 == 1;
  } else if (how == "min") {
    out = *std::min_element(v.begin(), v.end());
  } else if (how == "max") {
    out = *std::max_element(v.begin(), v.end());
  } else {
    throw TargetError(where + ": unknown aggregate '" + how +
                      "' (known: sum, mean, median, min, max)");
  }
  if (integers) return Json(static_cast<long long>(out));
  return Json(out);
}

std::string item_text(const Json& compute, const std::string& kind, const Json& item,
                      const std::vector<std::string>& documents, DocumentCache& cache,
                      const std::string& where) {
  if (!item.is_object()) throw TargetError(where + " is not an object");
  check_keys(item, {"document", "array", "select", "format", "label", "aggregate", "field"},
             where);
  const auto format = item.find("format");
  if (format == item.end() || !format->is_string())
    throw TargetError(where + ": 'format' (a string) is missing");
  const Json* label = item.contains("label") ? &item["label"] : nullptr;
  const std::string& path = document_of(item, documents, where);
  const std::vector<Json>& values = cache.values(path);
  const Json& select = select_of(item, where);

  if (kind == "stress") {
    const std::string field = string_field(item, "field", string_field(compute, "field", "",
                                                                       "compute"), where);
    if (field.empty()) throw TargetError(where + ": stress needs a 'field'");
    const std::string how = string_field(item, "aggregate",
                                         string_field(compute, "aggregate", "", "compute"), where);
    const std::vector<const Json*> records = select_all(values, select);
    if (records.empty())
      throw TargetError(where + ": no record of '" + path + "' matches " + select.dump());
    const Json value = aggregate_of(records, field, how, where);
    const Json count = records.size();
    return fill_format(format->get<std::string>(), [&](std::string_view p) -> const Json* {
      if (p == "value") return &value;
      if (p == "count") return &count;
      if (p == "label") return label;
      return nullptr;
    });
  }
  if (values.size() != 1)
    throw TargetError(where + ": '" + path + "' holds " + std::to_string(values.size()) +
                      " JSON values; a " + kind + " document is one");
  const std::string array_path = string_field(item, "array", default_array(kind), where);
  const Json* array = json_at_path(values[0], array_path);
  if (!array || !array->is_array())
    throw TargetError(where + ": '" + path + "' has no array '" + array_path + "'");
  const Json* element = nullptr;
  try {
    element = &select_one(*array, select);
  } catch (const TargetError& e) {
    throw TargetError(where + ": '" + path + "' " + array_path + ": " + e.what());
  }
  try {
    return fill_format(format->get<std::string>(), [&](std::string_view p) -> const Json* {
      if (p == "label" && label) return label;
      return json_at_path(*element, p);
    });
  } catch (const TargetError& e) {
    throw TargetError(where + ": " + e.what());
  }
}

}  // namespace

bool is_commit_reference(const std::string& document) {
  const std::size_t colon = document.find(':');
  if (colon < 7 || colon > 40) return false;  // npos is > 40 too
  return std::all_of(document.begin(), document.begin() + std::ptrdiff_t(colon),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool DocumentCache::exists(const std::string& path) const {
  std::error_code ec;
  return fs::is_regular_file(fs::path(root_) / path, ec);
}

std::uintmax_t DocumentCache::bytes(const std::string& path) const {
  std::error_code ec;
  const std::uintmax_t n = fs::file_size(fs::path(root_) / path, ec);
  return ec ? 0 : n;
}

const std::vector<Json>& DocumentCache::values(const std::string& path) {
  const auto known = read_.find(path);
  if (known != read_.end()) return known->second;
  std::optional<std::string> text;
  try {
    text = common::read_whole_file((fs::path(root_) / path).string());  // .gz too
  } catch (const std::runtime_error& e) {
    throw TargetError(e.what());
  }
  if (!text) throw TargetError("document '" + path + "' is missing (under '" + root_ + "')");
  std::vector<Json> values;
  std::string line;
  int line_no = 0;
  try {
    if (ends_with(path, ".jsonl") || ends_with(path, ".jsonl.gz")) {
      std::istringstream lines(*text);
      while (std::getline(lines, line)) {
        ++line_no;
        if (line.find_first_not_of(" \t\r") != std::string::npos)
          values.push_back(Json::parse(line));
      }
    } else {
      values.push_back(Json::parse(*text));
    }
  } catch (const Json::exception& e) {
    throw TargetError("document '" + path + "'" +
                      (line_no ? " line " + std::to_string(line_no) : std::string()) +
                      " is not JSON: " + e.what());
  }
  return read_.emplace(path, std::move(values)).first->second;
}

std::vector<const Json*> select_all(const std::vector<Json>& values, const Json& select) {
  std::vector<const Json*> out;
  for (const Json& v : values) {
    bool all = v.is_object();
    for (auto it = select.begin(); all && it != select.end(); ++it) {
      const auto have = v.find(it.key());
      all = have != v.end() && *have == it.value();
    }
    if (all) out.push_back(&v);
  }
  return out;
}

const Json& select_one(const Json& array, const Json& select) {
  const std::vector<const Json*> hits =
      select_all(array.get_ref<const Json::array_t&>(), select);
  if (hits.empty()) throw TargetError("no element matches " + select.dump());
  if (hits.size() > 1)
    throw TargetError(std::to_string(hits.size()) + " elements match " + select.dump() +
                      "; a selection must pick exactly one");
  return *hits.front();
}

std::string compute_text(const Json& compute, const std::vector<std::string>& documents,
                         DocumentCache& cache) {
  if (!compute.is_object()) throw TargetError("'compute' must be an object or null");
  check_keys(compute, {"kind", "items", "join", "prefix", "suffix", "field", "aggregate"},
             "compute");
  const std::string kind = string_field(compute, "kind", "", "compute");
  if (kind != "lab" && kind != "match" && kind != "solve" && kind != "stress")
    throw TargetError("compute: unknown kind '" + kind + "' (known: lab, match, solve, stress)");
  const auto items = compute.find("items");
  if (items == compute.end() || !items->is_array() || items->empty())
    throw TargetError("compute: 'items' must be a non-empty array");
  const std::string join = string_field(compute, "join", "", "compute");
  std::string text = string_field(compute, "prefix", "", "compute");
  for (std::size_t k = 0; k < items->size(); ++k) {
    if (k) text += join;
    text += item_text(compute, kind, (*items)[k], documents, cache,
                      "compute item " + std::to_string(k));
  }
  return text + string_field(compute, "suffix", "", "compute");
}

}  // namespace xq::lab::report::targets
