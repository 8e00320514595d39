// A minimal PNG decoder for tests: 8-bit RGB or RGBA, not interlaced (what
// Chromium's screenshots are), inflated with zlib and unfiltered.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace xq::test {

struct Pixels {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint32_t> rgb;  // 0xRRGGBB per pixel, row by row
  std::string error;               // empty when decoded
};

inline std::uint32_t be32(const std::string& s, std::size_t at) {
  return std::uint32_t(std::uint8_t(s[at])) << 24 | std::uint32_t(std::uint8_t(s[at + 1])) << 16 |
         std::uint32_t(std::uint8_t(s[at + 2])) << 8 | std::uint32_t(std::uint8_t(s[at + 3]));
}

inline int paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// Undoes the per-row filters (PNG spec section 9) in place.
inline bool unfilter(std::vector<std::uint8_t>& raw, std::size_t stride, std::size_t bpp,
                     std::uint32_t height) {
  std::vector<std::uint8_t> prev(stride, 0);
  for (std::uint32_t y = 0; y < height; ++y) {
    std::uint8_t* row = &raw[std::size_t(y) * (stride + 1)];
    const int type = row[0];
    std::uint8_t* px = row + 1;
    for (std::size_t i = 0; i < stride; ++i) {
      const int a = i >= bpp ? px[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
      int add = 0;
      switch (type) {
        case 0: break;
        case 1: add = a; break;
        case 2: add = b; break;
        case 3: add = (a + b) / 2; break;
        case 4: add = paeth(a, b, c); break;
        default: return false;
      }
      px[i] = std::uint8_t(px[i] + add);
    }
    prev.assign(px, px + stride);
  }
  return true;
}

inline Pixels read_png(const std::string& file) {
  Pixels p;
  if (file.size() < 8 || file.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) {
    p.error = "not a PNG";
    return p;
  }
  std::string idat;
  int depth = 0, type = 0, interlace = 0;
  for (std::size_t at = 8; at + 8 <= file.size();) {
    const std::uint32_t len = be32(file, at);
    const std::string kind = file.substr(at + 4, 4);
    if (at + 12 + len > file.size()) break;
    if (kind == "IHDR") {
      p.width = be32(file, at + 8);
      p.height = be32(file, at + 12);
      depth = std::uint8_t(file[at + 16]);
      type = std::uint8_t(file[at + 17]);
      interlace = std::uint8_t(file[at + 20]);
    } else if (kind == "IDAT") {
      idat += file.substr(at + 8, len);
    }
    at += 12 + len;
  }
  if (depth != 8 || (type != 2 && type != 6) || interlace != 0) {
    p.error = "unsupported PNG (depth " + std::to_string(depth) + ", colour type " +
              std::to_string(type) + ")";
    return p;
  }
  const std::size_t bpp = type == 6 ? 4 : 3, stride = std::size_t(p.width) * bpp;
  std::vector<std::uint8_t> raw((stride + 1) * p.height);
  uLongf size = uLongf(raw.size());
  if (uncompress(raw.data(), &size, reinterpret_cast<const Bytef*>(idat.data()), uLong(idat.size())) !=
          Z_OK ||
      size != raw.size() || !unfilter(raw, stride, bpp, p.height)) {
    p.error = "corrupt PNG data";
    return p;
  }
  p.rgb.reserve(std::size_t(p.width) * p.height);
  for (std::uint32_t y = 0; y < p.height; ++y)
    for (std::uint32_t x = 0; x < p.width; ++x) {
      const std::uint8_t* px = &raw[std::size_t(y) * (stride + 1) + 1 + x * bpp];
      p.rgb.push_back(std::uint32_t(px[0]) << 16 | std::uint32_t(px[1]) << 8 | px[2]);
    }
  return p;
}

}  // namespace xq::test
