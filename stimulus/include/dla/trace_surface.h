// Memory image files of NVDLA traces.
//
// `.dat`/`.mem` surface files of the .cfg dialect (spec nvdla_trace_format.md 2.7): one
// record per line, `{offset:0x40, size:4, payload:0x1f 0x00 0x7a 0x03},`, optional `{`/`}`
// header/footer lines; byte k of a record goes to base + offset + k; records may leave holes.
//
// Data files of the input.txn dialect (3.3): lines starting with `0x` hold bytes in
// ascending address order; every other line (headers, banners) is ignored.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dla::trace {

struct SurfaceRecord {
  uint64_t offset = 0;
  std::vector<uint8_t> bytes;
};

// Records in ascending, non-overlapping offset order.
struct Surface {
  std::vector<SurfaceRecord> records;
  // One past the last byte (0 when empty).
  uint64_t extent() const { return records.empty() ? 0 : records.back().offset + records.back().bytes.size(); }
  uint64_t byte_count() const;
  // Adjacent records merged: one record per contiguous run of bytes.
  std::vector<SurfaceRecord> contiguous_runs() const;
};

// Parse/read a surface file; TraceError naming file and line on any malformed record,
// overlapping or descending offsets, or a payload whose length differs from its size.
Surface parse_surface(const std::string& text, const std::string& file_name);
Surface read_surface_file(const std::string& path);

// Writes `bytes` (placed at offset 0) as records of at most `record_bytes` bytes, in the
// header-less style of NVDLA's python tooling. Round-trips through parse_surface().
std::string format_surface(const Surface& surface);
Surface surface_from_bytes(const std::vector<uint8_t>& bytes, size_t record_bytes = 32);
void write_surface_file(const std::string& path, const Surface& surface);

// input.txn data file: the first `size` data bytes. TraceError if the file holds fewer
// or a data line has a token that is not `0xHH`.
std::vector<uint8_t> parse_txn_data(const std::string& text, const std::string& file_name, uint64_t size);
std::vector<uint8_t> read_txn_data_file(const std::string& path, uint64_t size);

// Whole file as text; TraceError (naming `what_for`, e.g. "mem_load at x.cfg:3") if unreadable.
std::string read_text_file(const std::string& path, const std::string& what_for = "");

}  // namespace dla::trace
