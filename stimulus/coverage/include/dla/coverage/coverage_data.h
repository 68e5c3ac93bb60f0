// Coverage results as plain data: what a per-test sample file holds, what merges add up and
// what reports read. Needs no covergroup code, so old sample files merge without the model.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dla/coverage/coverpoint.h"

namespace dla::cov {

struct BinData {
  std::string name;
  BinKind kind = BinKind::Normal;
  uint64_t hits = 0;
};

// A coverpoint (cross empty) or a cross (cross = the crossed coverpoints).
struct ItemData {
  std::string name;
  std::vector<std::string> cross;
  std::vector<BinData> bins;

  size_t normal_bins() const;
  size_t hit_bins() const;  // normal bins with at least one hit
  // hit / normal bins in percent; 100 when the item has no normal bin.
  double percent() const;
};

struct GroupData {
  std::string name, description;
  uint64_t samples = 0;
  std::vector<ItemData> items;
  std::vector<std::string> illegal_events;  // first few illegal-bin hits, as messages

  // Mean of the items' percentages (each coverpoint and cross weighs the same).
  double percent() const;
  size_t normal_bins() const;
  size_t hit_bins() const;
};

struct Hole {
  std::string group, item, bin;
  std::string path() const { return group + "." + item + "." + bin; }
};

struct IllegalHit {
  std::string group, item, bin;
  uint64_t hits = 0;
};

class CoverageData {
 public:
  static constexpr const char* kFormat = "dlaverif-coverage/1";
  static constexpr size_t kMaxIllegalEvents = 10;

  void add(GroupData group);  // merges when a group of that name exists
  // Adds hit counts bin by bin (bins and items missing on one side are taken over), so a
  // merge of any number of sample files gives the union of what they hit.
  // std::invalid_argument when the same bin has different kinds on the two sides.
  void merge(const CoverageData& other);

  const std::map<std::string, GroupData>& groups() const { return groups_; }
  const GroupData* group(const std::string& name) const;
  bool empty() const { return groups_.empty(); }

  std::vector<Hole> holes() const;             // normal bins never hit
  std::vector<IllegalHit> illegal_hits() const;
  double percent() const;                      // mean over groups; 100 when empty

  // JSON: {"format", "meta", "groups": [...]}; from_json throws std::invalid_argument
  // naming `source` and what is wrong.
  nlohmann::json to_json(const nlohmann::json& meta = nlohmann::json::object()) const;
  static CoverageData from_json(const nlohmann::json& j, const std::string& source);
  // to_json(meta).dump(1), written without building the tree (what save() writes).
  std::string to_text(const nlohmann::json& meta = nlohmann::json::object()) const;
  void save(const std::string& path, const nlohmann::json& meta = nlohmann::json::object()) const;
  static CoverageData load(const std::string& path);

 private:
  std::map<std::string, GroupData> groups_;
};

}  // namespace dla::cov
