#include "dla/regression/coverage_file_gzip.h"

#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

namespace dla::regression {

namespace {

struct GzCloser {
  void operator()(gzFile f) const {
    if (f) gzclose(f);
  }
};
using GzHandle = std::unique_ptr<std::remove_pointer_t<gzFile>, GzCloser>;

constexpr size_t kChunk = 1 << 20;

}  // namespace

void gzip_coverage_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read the coverage file to compress it", path));
  const std::string gz = path + ".gz", tmp = gz + ".tmp";
  {
    // Level 1: the text is very repetitive, the fast level already gains ~20x.
    GzHandle out(gzopen(tmp.c_str(), "wb1"));
    if (!out) throw std::runtime_error(fmt::format("{}: cannot create", tmp));
    std::vector<char> buf(kChunk);
    while (in) {
      in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
      const auto n = static_cast<unsigned>(in.gcount());
      if (n && gzwrite(out.get(), buf.data(), n) != static_cast<int>(n)) {
        out.reset();
        std::remove(tmp.c_str());
        throw std::runtime_error(fmt::format("{}: cannot write (disk full?)", tmp));
      }
    }
    if (in.bad()) {
      out.reset();
      std::remove(tmp.c_str());
      throw std::runtime_error(fmt::format("{}: read error while compressing it", path));
    }
    if (gzclose(out.release()) != Z_OK) {
      std::remove(tmp.c_str());
      throw std::runtime_error(fmt::format("{}: cannot write (disk full?)", tmp));
    }
  }
  if (std::rename(tmp.c_str(), gz.c_str()) != 0) throw std::runtime_error(fmt::format("{}: cannot rename to {}", tmp, gz));
  std::remove(path.c_str());
}

void gunzip_coverage_file(const std::string& gz, const std::string& out_path) {
  GzHandle in(gzopen(gz.c_str(), "rb"));
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read the compressed coverage file", gz));
  std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
  if (!out) throw CoverageFileWriteError(fmt::format("{}: cannot write", out_path));
  std::vector<char> buf(kChunk);
  for (;;) {
    const int n = gzread(in.get(), buf.data(), static_cast<unsigned>(buf.size()));
    if (n < 0) {
      int code = 0;
      const char* what = gzerror(in.get(), &code);
      throw std::runtime_error(fmt::format("{}: not a readable gzip file ({})", gz, what ? what : "zlib error"));
    }
    // zlib reads data without a gzip header through unchanged ("transparent" mode).
    if (gzdirect(in.get())) throw std::runtime_error(fmt::format("{}: not gzip data", gz));
    if (n == 0) break;
    out.write(buf.data(), n);
  }
  // gzread returns 0 at a truncated end as at a clean one; gzeof + no error tells them apart
  // only through gzerror, which reports Z_BUF_ERROR for "unexpected end of file".
  int code = Z_OK;
  gzerror(in.get(), &code);
  if (code != Z_OK && code != Z_STREAM_END) throw std::runtime_error(fmt::format("{}: truncated gzip file", gz));
  if (!out.flush()) throw CoverageFileWriteError(fmt::format("{}: cannot write (disk full?)", out_path));
}

}  // namespace dla::regression
