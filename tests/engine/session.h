// A scripted protocol session: run_protocol on its own thread, fed line by
// line through a blocking input stream, its output captured so a test can
// wait for a line (with the hang bound of engine_util.h, never a timing
// assertion) and then send the next command, as a GUI does.
#pragma once

#include <gtest/gtest.h>

#include <condition_variable>
#include <functional>
#include <initializer_list>
#include <istream>
#include <mutex>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include "engine/protocol.h"
#include "engine_util.h"

namespace xq::test {

// Input that blocks until the test sends more text or closes it (EOF).
class FeedBuf final : public std::streambuf {
 public:
  void send(const std::string& text) {
    std::lock_guard lock(mutex_);
    pending_ += text;
    cv_.notify_all();
  }
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    cv_.notify_all();
  }

 protected:
  int_type underflow() override {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return !pending_.empty() || closed_; });
    if (pending_.empty()) return traits_type::eof();
    current_ = std::move(pending_);
    pending_.clear();
    setg(current_.data(), current_.data(), current_.data() + current_.size());
    return traits_type::to_int_type(current_[0]);
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::string pending_, current_;
  bool closed_ = false;
};

// Output collected into lines; a reader may wait for a line to appear.
class CaptureBuf final : public std::streambuf {
 public:
  // Waits until some line (from index `from` on) satisfies pred; returns its
  // index, or -1 after kHangBound.
  int wait_for(const std::function<bool(const std::string&)>& pred, std::size_t from = 0) {
    std::unique_lock lock(mutex_);
    int found = -1;
    const auto seen = [&] {
      for (std::size_t i = from; i < lines_.size(); ++i)
        if (pred(lines_[i])) return found = int(i), true;
      return false;
    };
    cv_.wait_for(lock, kHangBound, seen);
    return found;
  }
  std::vector<std::string> lines() const {
    std::lock_guard lock(mutex_);
    return lines_;
  }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    xsputn(&ch, 1);
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::lock_guard lock(mutex_);
    for (std::streamsize i = 0; i < n; ++i) {
      if (s[i] == '\n') {
        lines_.push_back(std::move(partial_));
        partial_.clear();
      } else {
        partial_ += s[i];
      }
    }
    cv_.notify_all();
    return n;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::string> lines_;
  std::string partial_;
};

class Session {
 public:
  explicit Session(const EngineOptions& options = options_for("serial", 1))
      : thread_([this, options] { status_ = run_protocol(in_, out_, options); }) {}
  ~Session() {
    input_.close();
    if (thread_.joinable()) thread_.join();
  }

  void send(const std::string& line) { input_.send(line + "\n"); }
  // A script of commands, one after the other, as a GUI sends them.
  void send_all(std::initializer_list<std::string> lines) {
    for (const std::string& l : lines) send(l);
  }
  // Closes the input (EOF) and waits for the loop to return; its status.
  int close() {
    input_.close();
    thread_.join();
    return status_;
  }

  // The index of the first line from `from` on starting with prefix, or -1.
  int wait_prefix(const std::string& prefix, std::size_t from = 0) {
    return output_.wait_for([&](const std::string& l) { return l.rfind(prefix, 0) == 0; }, from);
  }
  int wait_line(const std::string& line, std::size_t from = 0) {
    return output_.wait_for([&](const std::string& l) { return l == line; }, from);
  }
  std::vector<std::string> lines() const { return output_.lines(); }
  int count_prefix(const std::string& prefix) const {
    int n = 0;
    for (const std::string& l : output_.lines()) n += l.rfind(prefix, 0) == 0;
    return n;
  }

 private:
  FeedBuf input_;
  CaptureBuf output_;
  std::istream in_{&input_};
  std::ostream out_{&output_};
  int status_ = -1;
  std::thread thread_;  // last: starts after the streams exist
};

// The second word of a "bestmove X ..." / "move X" line as a move of pos
// (Move::none() when it is not one).
inline Move move_word(const Position& pos, const std::string& line) {
  std::istringstream s(line);
  std::string word, move;
  s >> word >> move;
  return pos.parse_move(move);
}

inline Position position_after(const std::vector<std::string>& moves,
                               std::string_view fen = "startpos") {
  Position pos;
  if (fen != "startpos") {
    EXPECT_EQ(pos.set_fen(fen), "");
  }
  for (const std::string& m : moves) {
    const Move mv = pos.parse_move(m);
    EXPECT_TRUE(mv) << m;
    if (mv) pos.do_move(mv);
  }
  return pos;
}

}  // namespace xq::test
