#include "lab/common/files.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace xq::lab::common {
namespace {

std::runtime_error failure(const std::string& what, const std::string& path) {
  return std::runtime_error("cannot " + what + " '" + path + "': " + std::strerror(errno));
}

bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

std::runtime_error zlib_failure(const std::string& what, const std::string& path,
                                const z_stream& z, int code) {
  return std::runtime_error("cannot " + what + " '" + path + "': " +
                            (z.msg ? z.msg : "zlib error " + std::to_string(code)));
}

}  // namespace

bool is_gzip_path(const std::string& path) {
  return path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
}

std::string gzip_text(const std::string& text, const std::string& what) {
  z_stream z{};
  // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
  int code = deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
  if (code != Z_OK) throw zlib_failure("compress", what, z, code);
  std::string out(deflateBound(&z, uLong(text.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = uInt(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = uInt(out.size());
  code = deflate(&z, Z_FINISH);
  const std::size_t written = out.size() - z.avail_out;
  deflateEnd(&z);
  if (code != Z_STREAM_END) throw zlib_failure("compress", what, z, code);
  out.resize(written);
  return out;
}

std::string gunzip_text(const std::string& data, const std::string& what) {
  std::string out;
  std::size_t at = 0;
  char buffer[1 << 16];
  do {  // one gzip member per pass
    z_stream z{};
    int code = inflateInit2(&z, 15 + 16);
    if (code != Z_OK) throw zlib_failure("decompress", what, z, code);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + at));
    z.avail_in = uInt(data.size() - at);
    do {
      z.next_out = reinterpret_cast<Bytef*>(buffer);
      z.avail_out = sizeof buffer;
      code = inflate(&z, Z_NO_FLUSH);
      if (code != Z_OK && code != Z_STREAM_END) {
        const std::runtime_error error =
            code == Z_BUF_ERROR
                ? std::runtime_error("cannot decompress '" + what + "': the gzip data is truncated")
                : zlib_failure("decompress", what, z, code);
        inflateEnd(&z);
        throw error;
      }
      out.append(buffer, sizeof buffer - z.avail_out);
    } while (code != Z_STREAM_END);
    at = data.size() - z.avail_in;
    inflateEnd(&z);
  } while (at < data.size());
  return out;
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  const std::string body = is_gzip_path(path) ? gzip_text(text, path) : std::string();
  const std::string& bytes = is_gzip_path(path) ? body : text;
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw failure("write", tmp);
  bool ok = write_all(fd, bytes) && ::fsync(fd) == 0;
  int error = ok ? 0 : errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    error = errno;
  }
  if (ok && std::rename(tmp.c_str(), path.c_str()) == 0) return;
  if (ok) error = errno;
  std::remove(tmp.c_str());
  errno = error;
  throw failure(ok ? "replace" : "write", ok ? path : tmp);
}

void check_writable(const std::string& path) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw failure("write", tmp);
  ::close(fd);
  std::remove(tmp.c_str());
}

std::string read_input_file(const std::string& path, const std::string& what) {
  std::optional<std::string> text;
  try {
    text = read_whole_file(path);
  } catch (const std::runtime_error& e) {
    throw std::invalid_argument(e.what());
  }
  if (!text) throw std::invalid_argument("cannot read " + what + " '" + path + "'");
  return *text;
}

std::optional<std::string> read_whole_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return std::nullopt;
  std::ostringstream text;
  text << f.rdbuf();
  if (is_gzip_path(path)) return gunzip_text(text.str(), path);
  return text.str();
}

}  // namespace xq::lab::common
