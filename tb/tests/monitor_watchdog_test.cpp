#include <gtest/gtest.h>

#include <stdexcept>

#include "dla/bfm/interrupt_monitor.h"
#include "dla/bfm/seed.h"
#include "dla/bfm/watchdog.h"

namespace dla::tb {
namespace {

TEST(InterruptMonitor, RecordsEdgesWithCycles) {
  InterruptMonitor mon;
  const bool wave[] = {false, false, true, true, true, false, true, false};
  for (uint64_t c = 0; c < 8; ++c) mon.sample(c, wave[c]);
  EXPECT_EQ(mon.rising_edges(), 2u);
  EXPECT_EQ(mon.falling_edges(), 2u);
  EXPECT_EQ(mon.cycles_high(), 4u);
  EXPECT_EQ(mon.last_rise_cycle(), std::optional<uint64_t>(6));
  ASSERT_EQ(mon.history().size(), 4u);
  EXPECT_EQ(mon.history()[0].cycle, 2u);
  EXPECT_TRUE(mon.history()[0].level);
  EXPECT_EQ(mon.history()[1].cycle, 5u);
  EXPECT_FALSE(mon.history()[1].level);
  EXPECT_FALSE(mon.level());
}

TEST(Watchdog, FiresAfterLimitWithoutProgress) {
  Watchdog wd(10);
  EXPECT_FALSE(wd.expired(1000)) << "a disarmed watchdog never fires";
  wd.arm(100, "csb-read@0x4040");
  EXPECT_FALSE(wd.expired(109));
  EXPECT_TRUE(wd.expired(110));
  wd.progress(105);
  EXPECT_FALSE(wd.expired(114));
  EXPECT_TRUE(wd.expired(115));
  wd.disarm();
  EXPECT_FALSE(wd.expired(500));
  EXPECT_THROW(Watchdog(0), std::invalid_argument);
}

TEST(Watchdog, SignatureNamesTheWaitAndNonZeroCounters) {
  const std::string s = format_hang_signature(
      "intr-wait", {{"csb.pending", 0}, {"axi.dbb.rd_outstanding", 3}, {"axi.dbb.wr_outstanding", 1}});
  EXPECT_EQ(s, "hang:intr-wait axi.dbb.rd_outstanding=3 axi.dbb.wr_outstanding=1");
  EXPECT_EQ(format_hang_signature("csb-read@0x4040", {}), "hang:csb-read@0x4040");
}

TEST(Seeds, StreamsAreIndependentAndStable) {
  EXPECT_EQ(derive_seed(1, "tb.reset"), derive_seed(1, "tb.reset"));
  EXPECT_NE(derive_seed(1, "tb.reset"), derive_seed(1, "tb.csb"));
  EXPECT_NE(derive_seed(1, "tb.reset"), derive_seed(2, "tb.reset"));
}

}  // namespace
}  // namespace dla::tb
