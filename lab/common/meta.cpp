#include "lab/common/meta.h"

#include <cctype>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <thread>

#include "xqlab_build.h"
#include "xqlab_version.h"

namespace xq::lab::common {
namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    const auto start = line.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? "unknown" : line.substr(start);
  }
  return "unknown";
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool needs_quotes(const std::string& a) {
  if (a.empty()) return true;
  for (char c : a)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || std::string_view("-_./=,:+@%").find(c) !=
                                                              std::string_view::npos))
      return true;
  return false;
}

}  // namespace

std::string command_line(const std::vector<std::string>& args) {
  std::string out;
  for (const std::string& a : args) {
    if (!out.empty()) out += ' ';
    if (!needs_quotes(a)) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

RunMeta run_meta(const std::vector<std::string>& args) {
  RunMeta m;
  m.command = command_line(args);
  m.date = utc_now();
  m.commit = XQLAB_COMMIT;
  m.nproc = int(std::thread::hardware_concurrency());
  m.cpu = cpu_model();
  double load[1];
  if (getloadavg(load, 1) == 1) m.load_average = load[0];
  m.build = XQLAB_BUILD;
  return m;
}

std::string version_line() {
  return std::string("xqlab ") + XQLAB_VERSION + " (commit " + XQLAB_COMMIT + "; build " +
         XQLAB_BUILD + "; flags " + XQLAB_FLAGS + ")";
}

void to_json(Json& j, const RunMeta& m) {
  j = Json{{"command", m.command}, {"date", m.date},  {"commit", m.commit},
           {"nproc", m.nproc},     {"cpu", m.cpu},
           {"load_average", m.load_average >= 0 ? Json(m.load_average) : Json()},
           {"build", m.build}};
}

}  // namespace xq::lab::common
