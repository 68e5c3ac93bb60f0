// Planted bugs: deliberate, named defects in the golden model, off unless a test asks for
// one. They exist to prove the checker: with a plant enabled, the golden model disagrees
// with the (correct) RTL in one narrow way, and the random tests must notice within a few
// seeds. `dlaverif run --plant NAME` and the checker-proof tests enable them; nothing else
// does. Each unit model asks `planted(name)` where its defect would live.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dla::golden {

struct PlantedBugInfo {
  std::string name;         // unit.what, e.g. "sdp.rounding"
  std::string description;  // what the defect does
};

// Every plant the golden model knows, sorted by name.
const std::vector<PlantedBugInfo>& planted_bug_catalogue();

// True if the plant is enabled in this process. Unknown names are a programming error
// (std::logic_error), so a typo cannot silently disable a proof.
bool planted(std::string_view name);

// Enables the given plants for its lifetime (and restores the previous set after).
// Throws std::invalid_argument naming an unknown plant.
class PlantedBugScope {
 public:
  explicit PlantedBugScope(const std::vector<std::string>& names);
  ~PlantedBugScope();
  PlantedBugScope(const PlantedBugScope&) = delete;
  PlantedBugScope& operator=(const PlantedBugScope&) = delete;

 private:
  std::vector<std::string> previous_;
};

}  // namespace dla::golden
