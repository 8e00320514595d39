// The lab's journal: every search of `xqlab lab` appended as one JSON line
// the moment it finishes, so that a run of hours that is interrupted (Ctrl-C,
// kill, a crash) keeps every search it finished, and `--resume` continues
// from them. The file:
//   line 1:  {"journal": "xqlab lab", "version": 1, "settings": {...}}
//            settings: suite path, its FENs, depth, runs, table size,
//            backend parameters and the configurations' labels; a journal
//            is only resumed by a run with equal settings;
//   then:    one line per finished search: {"config" (label), "run",
//            "position", "seconds", "cpu_seconds", "load_average",
//            "bestmove", "score", "depth", "completed", "stopped",
//            "result_seconds", "hashfull", "stats": {every counter}}.
// Numbers are written so that they read back exactly; a search read back
// equals the one written, so a resumed run's tables equal those of an
// uninterrupted run of the same searches. A torn last line (the process died
// while writing it) is dropped when the journal is read.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "lab/common/json.h"
#include "lab/common/suite.h"
#include "lab/timing/runner.h"

namespace xq::lab::timing {

// The settings object of the first line.
Json journal_settings(const LabSettings& s, const std::vector<common::SuiteEntry>& suite);

// One search as its journal line (no line break), and back. from_journal_line
// throws std::invalid_argument for a line that is not a search of `s`.
std::string journal_line(const LabSettings& s, const LabRun& r);
LabRun from_journal_line(const std::string& line, const LabSettings& s,
                         const std::vector<common::SuiteEntry>& suite);

// The searches of a journal written for the same settings, in file order
// (a search recorded twice counts once). Throws std::invalid_argument naming
// the file when it cannot be read, belongs to other settings, or holds a bad
// line other than a torn last one.
std::vector<LabRun> read_journal(const std::string& path, const LabSettings& s,
                                 const std::vector<common::SuiteEntry>& suite);

// Appends searches to a journal file, each line flushed as it is written.
class JournalWriter {
 public:
  // Starts the file afresh with the settings line followed by `done` (the
  // searches read back for a resumed run); the whole file is written
  // atomically (lab/common/files.h), so the old journal stays until the new
  // one is in place. Throws std::runtime_error when it cannot be written.
  JournalWriter(const std::string& path, const LabSettings& s,
                const std::vector<common::SuiteEntry>& suite, const std::vector<LabRun>& done);
  ~JournalWriter();
  JournalWriter(const JournalWriter&) = delete;
  JournalWriter& operator=(const JournalWriter&) = delete;

  // One more finished search. Throws std::runtime_error when the write fails.
  void append(const LabRun& r);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  const LabSettings& settings_;
  std::FILE* file_ = nullptr;
};

}  // namespace xq::lab::timing
