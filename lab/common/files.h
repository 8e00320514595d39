// Files a long job writes: a document is replaced atomically (written to
// PATH.tmp, flushed to disk, then renamed over PATH), so a reader, or a job
// interrupted at any moment, finds either the old document or the whole new
// one, never a truncated or placeholder file.
#pragma once

#include <optional>
#include <string>

namespace xq::lab::common {

// Writes `text` to PATH.tmp, syncs it and renames it to `path`. Throws
// std::runtime_error naming the path when any step fails; PATH.tmp is then
// removed and `path` is left as it was.
void write_file_atomically(const std::string& path, const std::string& text);

// Throws std::runtime_error naming the path unless PATH.tmp can be created
// (then removed): the check a job makes before hours of work, without
// touching `path` itself.
void check_writable(const std::string& path);

// The whole content of the file at `path`, or nothing when it cannot be
// opened.
std::optional<std::string> read_whole_file(const std::string& path);

}  // namespace xq::lab::common
