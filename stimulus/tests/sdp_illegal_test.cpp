// sdp.illegal: the defined case runs cleanly on the golden model; every undefined case is
// refused by the generator naming its rule, and the golden model warns when fed it anyway.
#include <gtest/gtest.h>

#include <algorithm>

#include "dla/golden_model.h"
#include "dla/sdp_illegal.h"
#include "dla/test_generator.h"
#include "program_executor.h"

namespace dla {
namespace {

using stimulus::sdp_illegal_cases;
using stimulus::sdp_illegal_program;

std::string refusal(const HwConfig& cfg, const std::string& c) {
  try {
    find_test_generator("sdp.illegal").generate(cfg, 1, {{"case", c}});
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(SdpIllegal, UndefinedCasesAreRefusedNamingTheRule) {
  const HwConfig& v1 = HwConfig::get("v1");
  for (const auto& c : sdp_illegal_cases()) {
    if (c.runs) continue;
    const std::string msg = refusal(v1, c.name);
    EXPECT_NE(msg.find("case=" + c.name + " is refused"), std::string::npos) << msg;
    EXPECT_NE(msg.find("sdp.md §"), std::string::npos) << msg;
    EXPECT_NE(msg.find("undefined"), std::string::npos) << msg;
  }
  EXPECT_NE(refusal(v1, "nope").find("case='nope'"), std::string::npos);
}

TEST(SdpIllegal, TheGoldenModelWarnsOnEveryRefusedCaseOnBothConfigurations) {
  for (const char* name : {"v1", "small"}) {
    const HwConfig& cfg = HwConfig::get(name);
    for (const auto& c : sdp_illegal_cases()) {
      if (c.runs || (c.name == "one_byte_operand" && !cfg.supports(Precision::Int16))) continue;
      for (uint64_t seed = 1; seed <= 8; ++seed) {
        const Program p = sdp_illegal_program(cfg, seed, c.name);
        GoldenModel m(cfg, seed);
        test::execute(p, m);
        const auto& w = m.warnings();
        EXPECT_TRUE(std::any_of(w.begin(), w.end(), [&](const std::string& s) { return s.find(c.golden_warning) != std::string::npos; }))
            << name << " case " << c.name << " seed " << seed << ": no warning with '" << c.golden_warning << "'"
            << (w.empty() ? std::string(" (none at all)") : "; first: " + w.front());
      }
    }
  }
}

// sdp.md §2.5 leaves undefined triples undefined: the golden model writes nothing for them.
TEST(SdpIllegal, UndefinedPrecisionWritesNothingOnTheGoldenModel) {
  const HwConfig& cfg = HwConfig::get("v1");
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    GoldenModel m(cfg, seed);
    for (const ProgramOp& op : sdp_illegal_program(cfg, seed, "precision").ops) {
      if (const auto* l = std::get_if<MemLoad>(&op)) m.memory(l->port).load(l->addr, l->bytes.data(), l->bytes.size());
      if (const auto* w = std::get_if<RegWrite>(&op)) m.csb_write(w->addr, w->data);
    }
    size_t written = 0;  // loads are not part of the write footprint
    m.memory(MemPort::Dbb).for_each_page_with_footprint([&](uint64_t, const uint8_t*, const uint8_t*, const uint8_t* f) {
      written += static_cast<size_t>(std::count_if(f, f + SparseMemory::kPageBytes, [](uint8_t b) { return b != 0; }));
    });
    EXPECT_EQ(written, 0u) << "seed " << seed;
  }
}

TEST(SdpIllegal, FpIgnoredFieldsRunsCleanOnV1AndIsUnsupportedOnSmall) {
  const HwConfig& v1 = HwConfig::get("v1");
  const TestGenerator& g = find_test_generator("sdp.illegal");
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    const Program p = g.generate(v1, seed);
    GoldenModel m(v1, seed);
    const auto res = test::execute(p, m);
    EXPECT_TRUE(res.failures.empty()) << "seed " << seed << ": " << res.failures.front();
    EXPECT_TRUE(m.warnings().empty()) << "seed " << seed << ": " << m.warnings().front();
  }
  EXPECT_NE(g.why_unsupported(HwConfig::get("small")).find("needs fp16"), std::string::npos);
  EXPECT_THROW(sdp_illegal_program(HwConfig::get("small"), 1, "fp_ignored_fields"), std::invalid_argument);
}

}  // namespace
}  // namespace dla
