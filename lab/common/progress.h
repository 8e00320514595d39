// Progress of a long job on stderr. On a terminal: one line redrawn in place
// (done / total, elapsed, estimated time left, what runs now). Otherwise: one
// plain line per finished unit, so a log shows how far the job got, and with
// keep_alive() a line at least every so often while a unit runs. Quiet:
// nothing at all.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace xq::lab::common {

// Seconds left when `done` of `total` equal units took `elapsed` seconds;
// negative when nothing is done yet (no estimate).
double eta_seconds(std::size_t done, std::size_t total, double elapsed);

// "12 s", "3 min 05 s", "1 h 02 min".
std::string duration_text(double seconds);

// "<prefix>: <label>  [done/total, elapsed E, left L]"; left is "?" without
// an estimate.
std::string progress_line(std::string_view prefix, std::string_view label, std::size_t done,
                          std::size_t total, double elapsed);

class Progress {
 public:
  enum class Mode { quiet, lines, terminal };

  // Mode from `quiet` and whether `out` is a terminal.
  Progress(std::string prefix, std::size_t total, bool quiet, std::FILE* out = stderr);
  Progress(std::string prefix, std::size_t total, Mode mode, std::FILE* out);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // What runs now (redrawn on a terminal at most ten times a second; written
  // by keep_alive's lines otherwise).
  void working(std::string_view what);
  // Lines mode: whenever `seconds` pass without a line, writes one (what runs
  // now, done/total, elapsed, left), from a thread of its own, so that a log
  // shows a job alive within every such interval even during a unit of
  // hours. Nothing in the other modes.
  void keep_alive(double seconds);
  // One more unit finished.
  void done(std::string_view label);
  // Ends the updating line (a terminal's cursor goes to a fresh line).
  void finish();
  // Erases the updating line so that other output can be written; the next
  // working() or done() draws it again.
  void clear();

  Mode mode() const { return mode_; }
  std::size_t completed() const;
  double elapsed() const;

 private:
  void draw(std::string_view label);
  void line(std::string_view label);  // lines mode; mutex_ held
  void stop_keep_alive();

  std::string prefix_;
  std::size_t total_ = 0, done_ = 0;
  Mode mode_;
  std::FILE* out_;
  bool drawn_ = false;
  double last_draw_ = -1;  // elapsed seconds at the last redraw
  double last_line_ = 0;   // elapsed seconds at the last line (lines mode)
  std::string current_;    // what runs now
  std::chrono::steady_clock::time_point start_;
  mutable std::mutex mutex_;  // every member above, when keep_alive runs
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread keep_alive_;
};

}  // namespace xq::lab::common
