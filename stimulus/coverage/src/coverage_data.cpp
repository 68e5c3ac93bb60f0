#include "dla/coverage/coverage_data.h"

#include <cstdio>

#include <fstream>
#include <stdexcept>

namespace dla::cov {

size_t ItemData::normal_bins() const {
  size_t n = 0;
  for (const BinData& b : bins) n += b.kind == BinKind::Normal;
  return n;
}

size_t ItemData::hit_bins() const {
  size_t n = 0;
  for (const BinData& b : bins) n += b.kind == BinKind::Normal && b.hits > 0;
  return n;
}

double ItemData::percent() const {
  const size_t n = normal_bins();
  return n == 0 ? 100.0 : 100.0 * static_cast<double>(hit_bins()) / static_cast<double>(n);
}

double GroupData::percent() const {
  if (items.empty()) return 100.0;
  double sum = 0;
  for (const ItemData& i : items) sum += i.percent();
  return sum / static_cast<double>(items.size());
}

size_t GroupData::normal_bins() const {
  size_t n = 0;
  for (const ItemData& i : items) n += i.normal_bins();
  return n;
}

size_t GroupData::hit_bins() const {
  size_t n = 0;
  for (const ItemData& i : items) n += i.hit_bins();
  return n;
}

namespace {

void merge_item(ItemData& into, const ItemData& from, const std::string& group) {
  for (const BinData& b : from.bins) {
    BinData* mine = nullptr;
    for (BinData& m : into.bins)
      if (m.name == b.name) mine = &m;
    if (!mine) {
      into.bins.push_back(b);
      continue;
    }
    if (mine->kind != b.kind)
      throw std::invalid_argument("coverage merge: bin " + group + "." + into.name + "." + b.name + " is " +
                                  bin_kind_name(mine->kind) + " on one side and " + bin_kind_name(b.kind) +
                                  " on the other (different coverage models)");
    mine->hits += b.hits;
  }
}

void merge_group(GroupData& into, const GroupData& from) {
  into.samples += from.samples;
  if (into.description.empty()) into.description = from.description;
  for (const ItemData& item : from.items) {
    ItemData* mine = nullptr;
    for (ItemData& m : into.items)
      if (m.name == item.name) mine = &m;
    if (mine) merge_item(*mine, item, into.name);
    else into.items.push_back(item);
  }
  for (const std::string& e : from.illegal_events)
    if (into.illegal_events.size() < CoverageData::kMaxIllegalEvents) into.illegal_events.push_back(e);
}

}  // namespace

void CoverageData::add(GroupData group) {
  auto it = groups_.find(group.name);
  if (it == groups_.end()) groups_.emplace(group.name, std::move(group));
  else merge_group(it->second, group);
}

void CoverageData::merge(const CoverageData& other) {
  for (const auto& [name, g] : other.groups_) add(g);
}

const GroupData* CoverageData::group(const std::string& name) const {
  const auto it = groups_.find(name);
  return it == groups_.end() ? nullptr : &it->second;
}

std::vector<Hole> CoverageData::holes() const {
  std::vector<Hole> out;
  for (const auto& [name, g] : groups_)
    for (const ItemData& i : g.items)
      for (const BinData& b : i.bins)
        if (b.kind == BinKind::Normal && b.hits == 0) out.push_back(Hole{name, i.name, b.name});
  return out;
}

std::vector<IllegalHit> CoverageData::illegal_hits() const {
  std::vector<IllegalHit> out;
  for (const auto& [name, g] : groups_)
    for (const ItemData& i : g.items)
      for (const BinData& b : i.bins)
        if (b.kind == BinKind::Illegal && b.hits > 0) out.push_back(IllegalHit{name, i.name, b.name, b.hits});
  return out;
}

double CoverageData::percent() const {
  if (groups_.empty()) return 100.0;
  double sum = 0;
  for (const auto& [name, g] : groups_) sum += g.percent();
  return sum / static_cast<double>(groups_.size());
}

nlohmann::json CoverageData::to_json(const nlohmann::json& meta) const {
  nlohmann::json groups = nlohmann::json::array();
  for (const auto& [name, g] : groups_) {
    nlohmann::json items = nlohmann::json::array();
    for (const ItemData& i : g.items) {
      nlohmann::json bins = nlohmann::json::array();
      for (const BinData& b : i.bins) bins.push_back({{"name", b.name}, {"kind", bin_kind_name(b.kind)}, {"hits", b.hits}});
      nlohmann::json item = {{"name", i.name}, {"bins", bins}};
      if (!i.cross.empty()) item["cross"] = i.cross;
      items.push_back(item);
    }
    groups.push_back({{"name", name}, {"description", g.description}, {"samples", g.samples},
                      {"items", items}, {"illegal_events", g.illegal_events}});
  }
  return {{"format", kFormat}, {"meta", meta}, {"groups", groups}};
}

namespace {
// json::value(key, "") trips GCC 12's -Wnull-dereference inside nlohmann; this does not.
std::string string_or_empty(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() || !it->is_string() ? std::string() : *it->get_ptr<const std::string*>();
}
}  // namespace

CoverageData CoverageData::from_json(const nlohmann::json& j, const std::string& source) {
  CoverageData d;
  try {
    if (!j.is_object() || string_or_empty(j, "format") != kFormat)
      throw std::invalid_argument(std::string("not a coverage file (format is not ") + kFormat + ")");
    for (const auto& g : j.at("groups")) {
      GroupData gd;
      gd.name = g.at("name").get<std::string>();
      gd.description = string_or_empty(g, "description");
      gd.samples = g.value("samples", uint64_t{0});
      gd.illegal_events = g.value("illegal_events", std::vector<std::string>{});
      for (const auto& i : g.at("items")) {
        ItemData id;
        id.name = i.at("name").get<std::string>();
        id.cross = i.value("cross", std::vector<std::string>{});
        for (const auto& b : i.at("bins"))
          id.bins.push_back(BinData{b.at("name").get<std::string>(), bin_kind_from_name(b.at("kind").get<std::string>()),
                                    b.at("hits").get<uint64_t>()});
        gd.items.push_back(std::move(id));
      }
      d.add(std::move(gd));
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument("coverage file '" + source + "': " + e.what());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("coverage file '" + source + "': " + e.what());
  }
  return d;
}

namespace {
// A JSON string literal as nlohmann's dump() writes it (UTF-8 kept, control characters escaped).
void put_string(std::string& out, const std::string& s) {
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void put_strings(std::string& out, const std::vector<std::string>& v, const std::string& indent) {
  if (v.empty()) {
    out += "[]";
    return;
  }
  out += "[\n";
  for (size_t k = 0; k < v.size(); ++k) {
    out += indent + " ";
    put_string(out, v[k]);
    out += k + 1 < v.size() ? ",\n" : "\n";
  }
  out += indent + "]";
}
}  // namespace

// The text of to_json(meta).dump(1), written directly: a regression writes one sample file per
// test, and building the JSON tree first cost more than sampling (docs/regression.md, runner
// overhead). CoverageData.SaveWritesWhatToJsonDumps keeps the two equal.
std::string CoverageData::to_text(const nlohmann::json& meta) const {
  std::string out;
  out.reserve(256 + 64 * groups_.size() * 16);
  out += "{\n \"format\": ";
  put_string(out, kFormat);
  out += ",\n \"groups\": ";
  if (groups_.empty()) out += "[]";
  else {
    out += "[\n";
    size_t gi = 0;
    for (const auto& [name, g] : groups_) {
      out += "  {\n   \"description\": ";
      put_string(out, g.description);
      out += ",\n   \"illegal_events\": ";
      put_strings(out, g.illegal_events, "   ");
      out += ",\n   \"items\": ";
      if (g.items.empty()) out += "[]";
      else {
        out += "[\n";
        for (size_t ii = 0; ii < g.items.size(); ++ii) {
          const ItemData& i = g.items[ii];
          out += "    {\n     \"bins\": ";
          if (i.bins.empty()) out += "[]";
          else {
            out += "[\n";
            for (size_t bi = 0; bi < i.bins.size(); ++bi) {
              const BinData& b = i.bins[bi];
              out += "      {\n       \"hits\": " + std::to_string(b.hits) + ",\n       \"kind\": ";
              put_string(out, bin_kind_name(b.kind));
              out += ",\n       \"name\": ";
              put_string(out, b.name);
              out += bi + 1 < i.bins.size() ? "\n      },\n" : "\n      }\n";
            }
            out += "     ]";
          }
          if (!i.cross.empty()) {
            out += ",\n     \"cross\": ";
            put_strings(out, i.cross, "     ");
          }
          out += ",\n     \"name\": ";
          put_string(out, i.name);
          out += ii + 1 < g.items.size() ? "\n    },\n" : "\n    }\n";
        }
        out += "   ]";
      }
      out += ",\n   \"name\": ";
      put_string(out, name);
      out += ",\n   \"samples\": " + std::to_string(g.samples);
      out += ++gi < groups_.size() ? "\n  },\n" : "\n  }\n";
    }
    out += " ]";
  }
  // meta: nlohmann's own text, one level deeper.
  std::string m = meta.dump(1);
  std::string indented;
  for (const char c : m) {
    indented += c;
    if (c == '\n') indented += ' ';
  }
  out += ",\n \"meta\": " + indented + "\n}";
  return out;
}

void CoverageData::save(const std::string& path, const nlohmann::json& meta) const {
  const std::string text = to_text(meta) + "\n";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  const bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (f && std::fclose(f) != 0) throw std::runtime_error("cannot write coverage file '" + path + "'");
  if (!ok) throw std::runtime_error("cannot write coverage file '" + path + "'");
}

CoverageData CoverageData::load(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::invalid_argument("cannot read coverage file '" + path + "'");
  nlohmann::json j;
  try {
    f >> j;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument("coverage file '" + path + "' is not JSON: " + e.what());
  }
  return from_json(j, path);
}

}  // namespace dla::cov
