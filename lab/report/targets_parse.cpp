// parse_targets and read_targets of lab/report/targets_index.h: the schema
// checked key by key, so that a slip in targets.json is one line naming the
// target rather than an exception from deep inside the JSON library.
#include <set>
#include <sstream>

#include "lab/common/files.h"
#include "lab/report/targets_index.h"

namespace xq::lab::report::targets {
namespace {

// The schema's limits (docs/results/targets-schema.md): they keep a row of
// the index within kMaxIndexLine.
constexpr std::size_t kMaxMeasures = 120;
constexpr std::size_t kMaxFigureText = 200;

class TargetReader {
 public:
  TargetReader(const Json& j, std::string name) : j_(j), name_(std::move(name)) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw TargetError("target '" + name_ + "': " + what);
  }

  const Json& field(const Json& in, const char* key, const char* where) const {
    const auto it = in.find(key);
    if (it == in.end()) fail(std::string("missing key '") + where + key + "'");
    return *it;
  }

  // A one-line string (a row of the index is one line).
  std::string text(const Json& in, const char* key, const char* where = "") const {
    const Json& v = field(in, key, where);
    if (!v.is_string()) fail(std::string("'") + where + key + "' must be a string");
    std::string s = v.get<std::string>();
    if (s.find_first_of("\r\n") != std::string::npos)
      fail(std::string("'") + where + key + "' holds a line break");
    return s;
  }

  std::optional<std::string> text_or_null(const Json& in, const char* key,
                                          const char* where) const {
    if (field(in, key, where).is_null()) return std::nullopt;
    return text(in, key, where);
  }

  Target read() const {
    Target t;
    t.id = text(j_, "id");
    t.section = text(j_, "section");
    t.measures = text(j_, "measures");
    if (t.measures.size() > kMaxMeasures)
      fail("'measures' is " + std::to_string(t.measures.size()) + " characters; the schema " +
           "allows " + std::to_string(kMaxMeasures));
    t.acceptance = text(j_, "acceptance");
    t.command = text(j_, "command");
    const Json& docs = field(j_, "documents", "");
    if (!docs.is_array()) fail("'documents' must be an array");
    for (const Json& d : docs) {
      if (!d.is_string() || d.get<std::string>().empty())
        fail("'documents' must hold non-empty strings");
      t.documents.push_back(d.get<std::string>());
    }
    const Json& figure = field(j_, "figure", "");
    if (!figure.is_object()) fail("'figure' must be an object");
    t.text = text(figure, "text", "figure.");
    if (t.text.size() > kMaxFigureText)
      fail("'figure.text' is " + std::to_string(t.text.size()) + " characters; the schema " +
           "allows " + std::to_string(kMaxFigureText));
    t.date = text_or_null(figure, "date", "figure.");
    t.commit = text_or_null(figure, "commit", "figure.");
    t.machine = text(figure, "machine", "figure.");
    const Json& typed = field(figure, "typed", "figure.");
    if (!typed.is_boolean()) fail("'figure.typed' must be true or false");
    t.typed = typed.get<bool>();
    t.compute = field(j_, "compute", "");
    if (!t.compute.is_null() && !t.compute.is_object())
      fail("'compute' must be an object or null");
    t.journal = text(j_, "journal");
    return t;
  }

 private:
  const Json& j_;
  std::string name_;
};

}  // namespace

std::vector<Target> parse_targets(const Json& doc) {
  if (!doc.is_object() || !doc.contains("targets") || !doc["targets"].is_array())
    throw TargetError("targets file: want {\"schema\": 1, \"targets\": [...]}");
  if (!doc.contains("schema") || doc["schema"] != 1)
    throw TargetError("targets file: schema " +
                      (doc.contains("schema") ? doc["schema"].dump() : std::string("missing")) +
                      "; this xqlab reads schema 1");
  std::vector<Target> out;
  std::set<std::string> ids;
  const Json& all = doc["targets"];
  for (std::size_t k = 0; k < all.size(); ++k) {
    const Json& j = all[k];
    if (!j.is_object() || !j.contains("id") || !j["id"].is_string() ||
        j["id"].get<std::string>().empty())
      throw TargetError("target #" + std::to_string(k + 1) +
                        " has no id (an object with a non-empty string 'id')");
    Target t = TargetReader(j, j["id"].get<std::string>()).read();
    if (!ids.insert(t.id).second) throw TargetError("target '" + t.id + "': id used twice");
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<Target> read_targets(const std::string& path) {
  const std::optional<std::string> text = common::read_whole_file(path);
  if (!text) throw TargetError("targets file '" + path + "' is missing");
  Json doc;
  try {
    doc = Json::parse(*text);
  } catch (const Json::exception& e) {
    std::string what = e.what();
    for (char& c : what)
      if (c == '\n') c = ' ';
    throw TargetError("targets file '" + path + "' is not JSON: " + what);
  }
  return parse_targets(doc);
}

}  // namespace xq::lab::report::targets
