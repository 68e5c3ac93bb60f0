#include "dla/regression/constant_bits.h"

#include <cctype>
#include <fstream>
#include <regex>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace dla::regression {

namespace {
// json::value(key, "") trips GCC 12's -Wnull-dereference inside nlohmann; this does not.
std::string text_field(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() || !it->is_string() ? std::string() : *it->get_ptr<const std::string*>();
}
}  // namespace

ConstantBits ConstantBits::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("constant-bit list " + path + ": cannot be read");
  ConstantBits c;
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    if (text_field(j, "format") != "dlaverif-constant-bits/1")
      throw std::runtime_error("format is not dlaverif-constant-bits/1");
    c.config = text_field(j, "config");
    for (const auto& [hier, sigs] : j.at("signals").items())
      for (const auto& [sig, bits] : sigs.items())
        for (const auto& b : bits) c.signals_[hier][sig].insert(b.get<int>());
    for (const auto& [hier, sigs] : j.at("declared").items())
      for (const auto& sig : sigs) c.declared_[hier].insert(sig.get<std::string>());
  } catch (const std::exception& e) {
    throw std::runtime_error("constant-bit list " + path + ": " + e.what() +
                             " (regenerate it: scripts/constant_bits.py)");
  }
  return c;
}

size_t ConstantBits::bits() const {
  size_t n = 0;
  for (const auto& [h, sigs] : signals_)
    for (const auto& [s, b] : sigs) n += b.size();
  return n;
}

bool ConstantBits::holds(const std::string& hier, const std::string& comment) const {
  std::string signal = comment;
  int bit = 0;
  const size_t open = comment.rfind('[');
  if (open != std::string::npos && !comment.empty() && comment.back() == ']') {
    try {
      size_t used = 0;
      bit = std::stoi(comment.substr(open + 1), &used);
      if (used != comment.size() - open - 2) return false;  // "mem[3][4]" and the like: not listed
    } catch (const std::exception&) {
      return false;
    }
    signal = comment.substr(0, open);
  }
  const auto in = [&](const std::map<std::string, std::set<int>>& sigs) {
    const auto s = sigs.find(signal);
    return s != sigs.end() && s->second.count(bit) > 0;
  };
  if (hier.find('*') == std::string::npos) {
    const auto h = signals_.find(hier);
    return h != signals_.end() && in(h->second);
  }
  // Instances Verilator combined: every instance the pattern matches that declares the signal
  // must hold the bit (one where it is variable makes the combined point variable).
  std::string re;
  for (char ch : hier) {
    if (ch == '*') re += "[^.]*";
    else if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') re += ch;
    else re += std::string("\\") + ch;
  }
  const std::regex pattern(re);
  size_t matched = 0;
  for (const auto& [h, sigs] : declared_) {
    if (!sigs.count(signal) || !std::regex_match(h, pattern)) continue;
    ++matched;
    const auto c = signals_.find(h);
    if (c == signals_.end() || !in(c->second)) return false;
  }
  return matched > 0;
}

}  // namespace dla::regression
