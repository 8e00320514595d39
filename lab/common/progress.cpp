#include "lab/common/progress.h"

#include <algorithm>
#include <cmath>
#include <unistd.h>

namespace xq::lab::common {

double eta_seconds(std::size_t done, std::size_t total, double elapsed) {
  if (done == 0 || elapsed < 0) return -1;
  if (done >= total) return 0;
  return elapsed / double(done) * double(total - done);
}

std::string duration_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char buf[48];
  if (s < 60) std::snprintf(buf, sizeof buf, "%ld s", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%ld min %02ld s", s / 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%ld h %02ld min", s / 3600, (s / 60) % 60);
  return buf;
}

std::string progress_line(std::string_view prefix, std::string_view label, std::size_t done,
                          std::size_t total, double elapsed) {
  const double eta = eta_seconds(done, total, elapsed);
  std::string s(prefix);
  s += ": ";
  s += label;
  s += "  [" + std::to_string(done) + "/" + std::to_string(total) + ", elapsed " +
       duration_text(elapsed) + ", left " + (eta < 0 ? std::string("?") : duration_text(eta)) +
       "]";
  return s;
}

Progress::Progress(std::string prefix, std::size_t total, bool quiet, std::FILE* out)
    : Progress(std::move(prefix), total,
               quiet ? Mode::quiet : (isatty(fileno(out)) ? Mode::terminal : Mode::lines), out) {}

Progress::Progress(std::string prefix, std::size_t total, Mode mode, std::FILE* out)
    : prefix_(std::move(prefix)), total_(total), mode_(mode), out_(out),
      start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
  stop_keep_alive();
  finish();
}

std::size_t Progress::completed() const {
  const std::lock_guard lock(mutex_);
  return done_;
}

double Progress::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::draw(std::string_view label) {
  // \r and "erase line": the line is rewritten in place.
  last_draw_ = elapsed();
  std::fprintf(out_, "\r\033[K%s", progress_line(prefix_, label, done_, total_, last_draw_).c_str());
  std::fflush(out_);
  drawn_ = true;
}

void Progress::line(std::string_view label) {
  last_line_ = elapsed();
  std::fprintf(out_, "%s\n", progress_line(prefix_, label, done_, total_, last_line_).c_str());
  std::fflush(out_);
}

void Progress::working(std::string_view what) {
  const std::lock_guard lock(mutex_);
  current_ = what;
  if (mode_ != Mode::terminal) return;
  if (drawn_ && elapsed() - last_draw_ < 0.1) return;  // a terminal need not repaint faster
  draw(what);
}

void Progress::done(std::string_view label) {
  const std::lock_guard lock(mutex_);
  if (done_ < total_) ++done_;
  if (mode_ == Mode::terminal) draw(label);
  if (mode_ == Mode::lines) line(label);
}

void Progress::keep_alive(double seconds) {
  if (mode_ != Mode::lines || keep_alive_.joinable()) return;
  keep_alive_ = std::thread([this, seconds] {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      const double wait = std::max(0.01, last_line_ + seconds - elapsed());
      wake_.wait_for(lock, std::chrono::duration<double>(wait));
      if (!stopping_ && elapsed() - last_line_ >= seconds)
        line(current_.empty() ? std::string_view("working") : std::string_view(current_));
    }
  });
}

void Progress::stop_keep_alive() {
  if (!keep_alive_.joinable()) return;
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  keep_alive_.join();
}

void Progress::clear() {
  const std::lock_guard lock(mutex_);
  if (mode_ != Mode::terminal || !drawn_) return;
  std::fprintf(out_, "\r\033[K");
  std::fflush(out_);
  drawn_ = false;
}

void Progress::finish() {
  stop_keep_alive();
  const std::lock_guard lock(mutex_);
  if (mode_ != Mode::terminal || !drawn_) return;
  std::fprintf(out_, "\n");
  std::fflush(out_);
  drawn_ = false;
}

}  // namespace xq::lab::common
