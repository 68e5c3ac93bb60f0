#include "dla/trace_surface.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "dla/trace_error.h"
#include "trace_text.h"

namespace dla::trace {

using namespace text;

uint64_t Surface::byte_count() const {
  uint64_t n = 0;
  for (const auto& r : records) n += r.bytes.size();
  return n;
}

std::vector<SurfaceRecord> Surface::contiguous_runs() const {
  std::vector<SurfaceRecord> runs;
  for (const auto& r : records) {
    if (!runs.empty() && runs.back().offset + runs.back().bytes.size() == r.offset)
      runs.back().bytes.insert(runs.back().bytes.end(), r.bytes.begin(), r.bytes.end());
    else
      runs.push_back(r);
  }
  return runs;
}

std::string read_text_file(const std::string& path, const std::string& what_for) {
  const std::string ctx = what_for.empty() ? std::string() : " (" + what_for + ")";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw TraceError(path, 0, "file not found" + ctx);
  if (std::filesystem::is_directory(path, ec)) throw TraceError(path, 0, "is a directory, expected a file" + ctx);
  std::ifstream f(path, std::ios::binary);
  if (!f) throw TraceError(path, 0, "cannot open file" + ctx);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

namespace {

// "key:value" with the key in plain or single-quoted form.
bool take_field(std::string_view field, std::initializer_list<std::string_view> keys, std::string_view& value) {
  const auto colon = field.find(':');
  if (colon == std::string_view::npos) return false;
  std::string_view key = trim(field.substr(0, colon));
  if (key.size() >= 2 && key.front() == '\'' && key.back() == '\'') key = key.substr(1, key.size() - 2);
  for (auto k : keys)
    if (key == k) {
      value = trim(field.substr(colon + 1));
      return true;
    }
  return false;
}

}  // namespace

Surface parse_surface(const std::string& text, const std::string& file_name) {
  Surface s;
  std::istringstream in(text);
  std::string raw;
  size_t line_no = 0;
  const char* expected = "expected a record {offset:0x<hex>, size:<n>, payload:0xHH ...},";
  while (std::getline(in, raw)) {
    ++line_no;
    std::string_view line = trim(raw);
    if (line.empty() || line == "{" || line == "}" || line[0] == '#') continue;
    if (line.back() == ',') line = trim(line.substr(0, line.size() - 1));
    if (line.size() < 2 || line.front() != '{' || line.back() != '}')
      throw TraceError(file_name, line_no, std::string(expected) + ", got " + quote(raw));
    const std::string_view body = line.substr(1, line.size() - 2);
    // Exactly three comma-separated fields.
    std::vector<std::string_view> fields;
    size_t start = 0;
    for (size_t i = 0; i <= body.size(); ++i)
      if (i == body.size() || body[i] == ',') {
        fields.push_back(trim(body.substr(start, i - start)));
        start = i + 1;
      }
    std::string_view off_s, size_s, payload_s;
    if (fields.size() != 3 || !take_field(fields[0], {"offset"}, off_s) ||
        !take_field(fields[1], {"size"}, size_s) || !take_field(fields[2], {"payload", "value"}, payload_s))
      throw TraceError(file_name, line_no, std::string(expected) + ", got " + quote(raw));
    const auto offset = parse_number(off_s, NumberForm::HexOnly);
    if (!offset) throw TraceError(file_name, line_no, "offset " + quote(off_s) + " is not a 0x hex number");
    const auto size = parse_number(size_s, NumberForm::Any);
    if (!size || *size == 0 || *size > (1u << 20))
      throw TraceError(file_name, line_no, "size " + quote(size_s) + " is not a byte count between 1 and 1 MiB");
    SurfaceRecord r;
    r.offset = *offset;
    for (auto tok : split_ws(payload_s)) {
      const auto b = parse_hex_byte(tok);
      if (!b) throw TraceError(file_name, line_no, "payload byte " + quote(tok) + " is not 0xHH");
      r.bytes.push_back(*b);
    }
    if (r.bytes.size() != *size)
      throw TraceError(file_name, line_no,
                       fmt::format("payload has {} bytes but the record's size is {}", r.bytes.size(), *size));
    if (r.offset + r.bytes.size() < r.offset)
      throw TraceError(file_name, line_no, "record runs past the end of the address space");
    if (!s.records.empty() && r.offset < s.extent())
      throw TraceError(file_name, line_no,
                       fmt::format("record at offset 0x{:x} overlaps or precedes the previous record (which ends "
                                   "at 0x{:x}); offsets must increase",
                                   r.offset, s.extent()));
    s.records.push_back(std::move(r));
  }
  return s;
}

Surface read_surface_file(const std::string& path) { return parse_surface(read_text_file(path), path); }

Surface surface_from_bytes(const std::vector<uint8_t>& bytes, size_t record_bytes) {
  Surface s;
  if (record_bytes == 0) record_bytes = 32;
  for (size_t i = 0; i < bytes.size(); i += record_bytes) {
    const size_t n = std::min(record_bytes, bytes.size() - i);
    s.records.push_back({i, std::vector<uint8_t>(bytes.begin() + static_cast<std::ptrdiff_t>(i),
                                                 bytes.begin() + static_cast<std::ptrdiff_t>(i + n))});
  }
  return s;
}

std::string format_surface(const Surface& surface) {
  std::string out;
  for (const auto& r : surface.records) {
    out += fmt::format("{{offset:0x{:x}, size:{}, payload:", r.offset, r.bytes.size());
    for (size_t i = 0; i < r.bytes.size(); ++i) out += fmt::format("{}0x{:02x}", i ? " " : "", r.bytes[i]);
    out += "},\n";
  }
  return out;
}

void write_surface_file(const std::string& path, const Surface& surface) {
  std::ofstream f(path, std::ios::binary);
  f << format_surface(surface);
  if (!f) throw std::runtime_error("cannot write " + path);
}

std::vector<uint8_t> parse_txn_data(const std::string& text, const std::string& file_name, uint64_t size) {
  std::vector<uint8_t> out;
  out.reserve(static_cast<size_t>(std::min<uint64_t>(size, 1u << 24)));
  std::istringstream in(text);
  std::string raw;
  size_t line_no = 0;
  while (out.size() < size && std::getline(in, raw)) {
    ++line_no;
    std::string_view line = raw;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty() && line[0] == ' ') line.remove_prefix(1);
    if (!starts_with(line, "0x") && !starts_with(line, "0X")) continue;  // header or banner
    for (auto tok : split_ws(line)) {
      const auto b = parse_hex_byte(tok);
      if (!b) throw TraceError(file_name, line_no, "data byte " + quote(tok) + " is not 0xHH");
      if (out.size() < size) out.push_back(*b);
    }
  }
  if (out.size() < size)
    throw TraceError(file_name, 0,
                     fmt::format("holds only {} (0x{:x}) data bytes, but the command needs {} (0x{:x})", out.size(),
                                 out.size(), size, size));
  return out;
}

std::vector<uint8_t> read_txn_data_file(const std::string& path, uint64_t size) {
  return parse_txn_data(read_text_file(path), path, size);
}

}  // namespace dla::trace
