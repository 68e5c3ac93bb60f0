// Small text helpers shared by the trace readers (private to dla_stimulus).
#pragma once

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dla::trace::text {

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

inline bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

inline std::string upper(std::string_view s) {
  std::string u(s);
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

inline bool is_word(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// Number forms a token may take.
enum class NumberForm { HexOnly, HexOrDecimal, Any /* hex, decimal, or leading-0 octal */ };

// Parses an unsigned number that must fit `bits`; nullopt if the token is not one.
inline std::optional<uint64_t> parse_number(std::string_view s, NumberForm form, unsigned bits = 64) {
  if (s.empty()) return std::nullopt;
  unsigned base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  } else if (form == NumberForm::HexOnly) {
    return std::nullopt;
  } else if (form == NumberForm::Any && s.size() > 1 && s[0] == '0') {
    base = 8;
    s.remove_prefix(1);
  }
  uint64_t v = 0;
  for (char c : s) {
    unsigned d;
    if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
    else return std::nullopt;
    if (d >= base) return std::nullopt;
    if (v > (UINT64_MAX - d) / base) return std::nullopt;  // overflow
    v = v * base + d;
  }
  if (bits < 64 && (v >> bits) != 0) return std::nullopt;
  return v;
}

// One "0xHH" byte token.
inline std::optional<uint8_t> parse_hex_byte(std::string_view s) {
  if (s.size() < 3 || s.size() > 4 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return std::nullopt;
  const auto v = parse_number(s, NumberForm::HexOnly, 8);
  if (!v) return std::nullopt;
  return static_cast<uint8_t>(*v);
}

inline std::vector<std::string_view> split_ws(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    const size_t b = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

// Shortened copy of a line for error messages.
inline std::string quote(std::string_view s) {
  s = trim(s);
  std::string q(s.substr(0, 80));
  if (s.size() > 80) q += "...";
  return "'" + q + "'";
}

}  // namespace dla::trace::text
