// Files a long job writes: a document is replaced atomically (written to
// PATH.tmp, flushed to disk, then renamed over PATH), so a reader, or a job
// interrupted at any moment, finds either the old document or the whole new
// one, never a truncated or placeholder file.
#pragma once

#include <optional>
#include <string>

namespace xq::lab::common {

// A path ending in ".gz" is gzip-compressed on writing and decompressed on
// reading (docs/results/README.md: documents over 256 KB are kept
// compressed), so every reader of a document accepts both forms.

// Writes `text` to PATH.tmp, syncs it and renames it to `path`. Throws
// std::runtime_error naming the path when any step fails; PATH.tmp is then
// removed and `path` is left as it was.
void write_file_atomically(const std::string& path, const std::string& text);

// Throws std::runtime_error naming the path unless PATH.tmp can be created
// (then removed): the check a job makes before hours of work, without
// touching `path` itself.
void check_writable(const std::string& path);

// The whole content of the file at `path` (decompressed when it ends in
// ".gz"), or nothing when it cannot be opened. Throws std::runtime_error
// naming the path when a ".gz" file is not whole gzip data.
std::optional<std::string> read_whole_file(const std::string& path);

// read_whole_file for an input the user named: the text, or
// std::invalid_argument (a bad-input error) "cannot read WHAT 'PATH'" when
// the file cannot be opened, or naming the path when its gzip data is bad.
std::string read_input_file(const std::string& path, const std::string& what);

// True when `path` ends in ".gz".
bool is_gzip_path(const std::string& path);

// `text` as one gzip member (level 9), and back. gunzip accepts several
// members one after another, as gzip(1) does; both throw
// std::runtime_error with `what` (a path) in the message on failure.
std::string gzip_text(const std::string& text, const std::string& what);
std::string gunzip_text(const std::string& data, const std::string& what);

}  // namespace xq::lab::common
