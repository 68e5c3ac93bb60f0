#include <gtest/gtest.h>

#include "dla/register_map.h"
#include "dla/scoreboard.h"

namespace dla {
namespace {

const HwConfig& v1() { return HwConfig::get("v1"); }

// Golden and DUT memories after the same load; the golden one then "executes" a copy of
// 64 bytes to 0x2000, and so does the DUT (identically, unless a test plants a bug).
struct Images {
  SparseMemory golden{7}, dut{7};
  Images() {
    std::vector<uint8_t> input(256);
    for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<uint8_t>(i * 3 + 1);
    golden.write(0x1000, input);
    dut.write(0x1000, input);
    golden.clear_footprint();
    const auto out = golden.read(0x1000, 64);
    golden.write(0x2000, out);
    dut.write(0x2000, out);
  }
};

TEST(Scoreboard, IdenticalImagesPass) {
  Images im;
  Scoreboard sb(v1());
  EXPECT_EQ(sb.compare_memory(MemPort::Dbb, im.golden, im.dut), 0u);
  EXPECT_TRUE(sb.passed());
  EXPECT_EQ(sb.signature(), "");
  EXPECT_EQ(sb.to_json()["passed"], true);
}

TEST(Scoreboard, OneByteDifferenceInsideTheOutputIsADataMismatch) {
  Images im;
  const uint8_t bad = static_cast<uint8_t>(im.dut.read_byte(0x2011) ^ 0x10);
  im.dut.write(0x2011, &bad, 1);
  Scoreboard sb(v1());
  sb.annotate(MemPort::Dbb, 0x2000, 0x2040, "BDMA");
  EXPECT_EQ(sb.compare_memory(MemPort::Dbb, im.golden, im.dut), 1u);
  ASSERT_FALSE(sb.passed());
  ASSERT_EQ(sb.mismatches().size(), 1u);
  const Mismatch& m = sb.mismatches()[0];
  EXPECT_EQ(m.kind, MismatchKind::MemData);
  EXPECT_EQ(m.addr, 0x2011u);
  EXPECT_EQ(m.length, 1u);
  EXPECT_EQ(m.expected, std::vector<uint8_t>{im.golden.read_byte(0x2011)});
  EXPECT_EQ(m.actual, std::vector<uint8_t>{bad});
  EXPECT_EQ(sb.signature(), "mem-data:BDMA:dbb");
  EXPECT_NE(sb.report().find("0x2011"), std::string::npos);
  EXPECT_NE(sb.report().find("BDMA"), std::string::npos);
}

TEST(Scoreboard, OneByteWrittenOutsideTheOutputIsReportedAsSuch) {
  Images im;
  const uint8_t stray = 0xee;
  im.dut.write(0x9000'0000ull, &stray, 1);  // a page the golden image does not even have
  Scoreboard sb(v1());
  EXPECT_EQ(sb.compare_memory(MemPort::Sram, im.golden, im.dut), 1u);
  ASSERT_EQ(sb.mismatches().size(), 1u);
  EXPECT_EQ(sb.mismatches()[0].kind, MismatchKind::MemOutside);
  EXPECT_EQ(sb.mismatches()[0].addr, 0x9000'0000ull);
  EXPECT_EQ(sb.mismatches()[0].expected, std::vector<uint8_t>{im.golden.poison_byte(0x9000'0000ull)});
  EXPECT_EQ(sb.signature(), "mem-outside:sram");
  EXPECT_NE(sb.report().find("outside its output"), std::string::npos);
}

TEST(Scoreboard, ChangedInputByteIsOutsideTheOutput) {
  Images im;
  const uint8_t v = static_cast<uint8_t>(im.dut.read_byte(0x1005) + 1);
  im.dut.write(0x1005, &v, 1);
  Scoreboard sb(v1());
  sb.compare_memory(MemPort::Dbb, im.golden, im.dut);
  ASSERT_EQ(sb.mismatches().size(), 1u);
  EXPECT_EQ(sb.mismatches()[0].kind, MismatchKind::MemOutside);
}

TEST(Scoreboard, OutputByteTheDutNeverWroteIsADataMismatch) {
  Images im;
  SparseMemory dut(7);
  dut.write(0x1000, im.golden.read(0x1000, 256));  // input only: the DUT did nothing
  Scoreboard sb(v1());
  EXPECT_EQ(sb.compare_memory(MemPort::Dbb, im.golden, dut), 64u);
  ASSERT_EQ(sb.mismatches().size(), 1u) << "adjacent bytes form one range";
  EXPECT_EQ(sb.mismatches()[0].length, 64u);
  EXPECT_EQ(sb.mismatches()[0].expected.size(), 16u) << "bytes shown are capped";
}

TEST(Scoreboard, RangesSplitAtGapsAndTheListingIsCapped) {
  Images im;
  for (uint64_t a = 0x2000; a < 0x2040; a += 2) {  // every other byte differs: 32 ranges
    const uint8_t v = static_cast<uint8_t>(im.dut.read_byte(a) ^ 0xff);
    im.dut.write(a, &v, 1);
  }
  Scoreboard::Options o;
  o.max_memory_ranges = 5;
  Scoreboard sb(v1(), o);
  EXPECT_EQ(sb.compare_memory(MemPort::Dbb, im.golden, im.dut), 32u);
  EXPECT_EQ(sb.mismatches().size(), 5u);
  EXPECT_EQ(sb.to_json()["mismatch_count"], 32);
  EXPECT_NE(sb.report().find("27 more"), std::string::npos);
}

TEST(Scoreboard, RegisterMismatchNamesTheRegisterAndRespectsTheMask) {
  Scoreboard sb(v1());
  const uint32_t status = 0x4040;  // v1 BDMA.STATUS
  EXPECT_TRUE(sb.compare_register(status, "", 0xffu, 0x114, 0x214));  // differs only outside mask
  EXPECT_TRUE(sb.passed());
  EXPECT_FALSE(sb.compare_register(status, "", 0xffffffffu, 0x114, 0x113));
  ASSERT_EQ(sb.mismatches().size(), 1u);
  EXPECT_EQ(sb.mismatches()[0].name, "BDMA.STATUS");
  EXPECT_EQ(sb.mismatches()[0].unit, "BDMA");
  EXPECT_EQ(sb.signature(), "reg:BDMA.STATUS");
  const auto j = sb.to_json();
  EXPECT_EQ(j["mismatches"][0]["expected"], "0x00000114");
  EXPECT_EQ(j["mismatches"][0]["actual"], "0x00000113");
}

TEST(Scoreboard, CounterMismatchHasACounterSignatureWithBothValues) {
  const RegisterMap& map = RegisterMap::of(v1());
  auto addr = [&](const char* name) { return map.address_of(*map.find(name)); };
  Scoreboard sb(v1());
  EXPECT_FALSE(sb.compare_register(addr("SDP.D_PERF_OUT_SATURATION"), "", 0xffffffffu, 5, 3));
  EXPECT_FALSE(sb.compare_register(addr("SDP_RDMA.D_STATUS_NAN_INPUT_NUM"), "", 0xffffffffu, 0, 12));
  EXPECT_FALSE(sb.compare_register(addr("PDP.D_NAN_OUTPUT_NUM"), "", 0xffffffffu, 1, 0));
  EXPECT_FALSE(sb.compare_register(addr("CDP.D_PERF_LUT_LE_HIT"), "", 0xffffffffu, 7, 8));
  EXPECT_FALSE(sb.compare_register(addr("SDP.D_STATUS"), "", 0xffffffffu, 1, 0));          // a flag, not a count
  EXPECT_FALSE(sb.compare_register(addr("BDMA.STATUS_GRP0_READ_STALL"), "", 0xffffffffu, 1, 0));  // no group
  ASSERT_EQ(sb.mismatches().size(), 6u);
  EXPECT_EQ(sb.signature(), "sdp.out_saturation rtl=3 ref=5");
  EXPECT_EQ(sb.mismatches()[1].signature, "sdp_rdma.nan_input_num rtl=12 ref=0");
  EXPECT_EQ(sb.mismatches()[2].signature, "pdp.nan_output_num rtl=0 ref=1");
  EXPECT_EQ(sb.mismatches()[3].signature, "cdp.lut_le_hit rtl=8 ref=7");
  EXPECT_EQ(sb.mismatches()[4].signature, "reg:SDP.D_STATUS");
  EXPECT_EQ(sb.mismatches()[5].signature, "reg:BDMA.STATUS_GRP0_READ_STALL");
  EXPECT_EQ(sb.mismatches()[0].name, "SDP.D_PERF_OUT_SATURATION");
  EXPECT_NE(sb.mismatches()[0].message.find("counter SDP.D_PERF_OUT_SATURATION"), std::string::npos);
}

TEST(Scoreboard, InterruptMismatchNamesTheBits) {
  Scoreboard sb(v1());
  EXPECT_TRUE(sb.compare_interrupt("after batch 0", 0x40, 0x40));
  EXPECT_FALSE(sb.compare_interrupt("after batch 1", 0x80, 0x40));
  EXPECT_EQ(sb.signature(), "intr:BDMA_DONE_STATUS0,BDMA_DONE_STATUS1");
  EXPECT_NE(sb.report().find("missing BDMA_DONE_STATUS1"), std::string::npos);
  EXPECT_FALSE(sb.compare_interrupt_line("at end", false, true));
}

TEST(Scoreboard, ProtocolAndHangSignaturesComeFirstAndAreStable) {
  auto run = []() {
    Images im;
    const uint8_t bad = 0;
    im.dut.write(0x2000, &bad, 1);
    Scoreboard sb(v1());
    sb.compare_register(0x4040, "BDMA.STATUS", 0xffffffffu, 1, 2);
    sb.compare_memory(MemPort::Dbb, im.golden, im.dut);
    sb.add_hang("intr-wait", "no BDMA_DONE_STATUS0 after 100000 cycles");
    sb.add_protocol_violation("AXI_4K_CROSS", "AR addr 0xff0 len 3 size 64");
    return std::make_pair(sb.signature(), sb.to_json().dump());
  };
  const auto a = run(), b = run();
  EXPECT_EQ(a.first, "protocol:AXI_4K_CROSS");
  EXPECT_EQ(a, b);
  Scoreboard hang_only(v1());
  hang_only.add_hang("intr-wait", "x");
  EXPECT_EQ(hang_only.signature(), "hang:intr-wait");
}

}  // namespace
}  // namespace dla
