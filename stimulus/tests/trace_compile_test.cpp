// From parsed traces to Programs: name resolution, memory routing, event ordering,
// unsupported features and input errors; and the public corpus (when present).
#include <gtest/gtest.h>

#include <filesystem>

#include "dla/trace_compile.h"
#include "dla/trace_files.h"
#include "trace_test_util.h"

#ifndef DLA_NVDLA_TRACES
#define DLA_NVDLA_TRACES ""
#endif

namespace dla::trace {
namespace {

using test::TempDir;

const HwConfig& small() { return HwConfig::get("small"); }
const HwConfig& v1() { return HwConfig::get("v1"); }

CompiledTrace cfg(const std::string& text, const HwConfig& hw, const std::string& dir = ".", uint64_t seed = 1) {
  CompileOptions o;
  o.seed = seed;
  return compile_trace(parse_cfg(text, "t.cfg", dir), hw, o);
}

template <class T>
const T& op(const CompiledTrace& c, size_t i) {
  EXPECT_LT(i, c.program.ops.size());
  EXPECT_TRUE(std::holds_alternative<T>(c.program.ops.at(i))) << "op " << i << " has index " << c.program.ops.at(i).index();
  return std::get<T>(c.program.ops.at(i));
}

TEST(TraceCompile, MemoryFirstInterruptsServedLazilyChecksAfterTheirEvent) {
  const auto c = cfg(
      "reg_write(NVDLA_PDP.D_OP_ENABLE_0, 0x1);\n"
      "check_crc(ev, 1, 0x80000000, 0x10, 0x12345678);\n"
      "mem_init(pri_mem, 0x80000000, 0x10, ALL_ZERO);\n"
      "intr_notify(PDP_0, ev);\n"
      "reg_write(NVDLA_CDMA.D_DATAIN_SIZE_0_0, 0x7);\n",
      small());
  ASSERT_TRUE(c.unsupported.empty()) << c.unsupported;
  ASSERT_EQ(c.program.ops.size(), 6u);
  EXPECT_EQ(op<MemFill>(c, 0).addr, 0x80000000u);
  EXPECT_EQ(op<MemFill>(c, 0).size, 16u);
  EXPECT_EQ(op<RegWrite>(c, 1).addr, 0xb008u);  // small map: PDP at 0xb000
  EXPECT_EQ(op<RegWrite>(c, 2).addr, 0x301cu);  // the doubled _0_0 name
  EXPECT_EQ(op<WaitIntr>(c, 3).status_bits, 0x10u);
  EXPECT_NE(op<WaitIntr>(c, 3).what.find("intr_notify(PDP_0, ev) at t.cfg:4"), std::string::npos);
  EXPECT_EQ(op<RegWrite>(c, 4).addr, 0x100cu);  // write-1-to-clear of the handled bit
  EXPECT_EQ(op<RegWrite>(c, 4).data, 0x10u);
  EXPECT_EQ(op<CheckCrc>(c, 5).port, MemPort::Dbb);
  EXPECT_EQ(op<CheckCrc>(c, 5).crc, 0x12345678u);
  EXPECT_EQ(c.checks, 1u);
  const auto same_on_v1 = cfg("reg_write(NVDLA_PDP.D_OP_ENABLE_0, 0x1);\n", v1());
  EXPECT_EQ(op<RegWrite>(same_on_v1, 0).addr, 0xd008u);  // v1 map: PDP at 0xd000
}

TEST(TraceCompile, SyncWaitServesTheInterruptFirstAndSyncNotifyFiresDeferredMemory) {
  TempDir d("trace-compile");
  d.file("a.dat", "{offset:0x0, size:2, payload:0x01 0x02},\n{offset:0x8, size:1, payload:0x03},\n");
  const auto c = cfg(
      "mem_load(pri_mem, 0x80000000, \"a.dat\", go);\n"
      "intr_notify(SDP_0, e1);\n"
      "intr_notify(SDP_1, e2);\n"
      "sync_wait(NVDLA_SDP, e2);\n"
      "reg_write(NVDLA_SDP.S_POINTER_0, 0x0);\n"
      "sync_notify(NVDLA_GLB, go);\n"
      "check_nothing(e1);\n",
      small(), d.path());
  ASSERT_EQ(c.program.ops.size(), 7u);
  EXPECT_EQ(op<WaitIntr>(c, 0).status_bits, 0x1u);  // SDP_0 before SDP_1: per-unit order
  EXPECT_EQ(op<WaitIntr>(c, 2).status_bits, 0x2u);
  EXPECT_EQ(op<RegWrite>(c, 4).addr, 0x9004u);
  EXPECT_EQ(op<MemLoad>(c, 5).bytes, (std::vector<uint8_t>{1, 2}));  // one load per contiguous run
  EXPECT_EQ(op<MemLoad>(c, 6).addr, 0x80000008u);
}

TEST(TraceCompile, PatternsAndTheOneArgumentInterrupt) {
  const auto c = cfg(
      "mem_init(pri_mem, 0x0, 4, ONES);\nmem_init(pri_mem, 0x10, 4, AFIVE);\nmem_init(pri_mem, 0x20, 4, FIVEA);\n"
      "mem_init(pri_mem, 0x30, 4, ADDR);\nmem_init(pri_mem, 0x40, 4, X);\nmem_init(pri_mem, 0x50, 64, RANDOM);\n"
      "intr_notify(any);\ncheck_nothing(any);\n",
      small());
  EXPECT_EQ(op<MemFill>(c, 0).value, 0xffu);
  EXPECT_EQ(op<MemFill>(c, 1).value, 0xa5u);
  EXPECT_EQ(op<MemFill>(c, 2).value, 0x5au);
  EXPECT_TRUE(op<MemFill>(c, 3).address_byte);
  EXPECT_EQ(op<MemFill>(c, 4).value, 0u);
  const auto random = op<MemLoad>(c, 5).bytes;
  EXPECT_EQ(random.size(), 64u);
  EXPECT_EQ(random, op<MemLoad>(cfg("mem_init(pri_mem, 0x50, 64, RANDOM);\n", small()), 0).bytes);  // seeded
  EXPECT_NE(random, op<MemLoad>(cfg("mem_init(pri_mem, 0x50, 64, RANDOM);\n", small(), ".", 2), 0).bytes);
  EXPECT_EQ(op<RegWrite>(c, 7).data, 0xffffffffu);
  (void)op<WaitIntrLine>(c, 6);
}

TEST(TraceCompile, MemoryRouting) {
  const char* text = "mem_init(pri_mem, 0x50000000, 16, ALL_ZERO);\nmem_init(pri_mem, 0x80000000, 16, ALL_ZERO);\n"
                     "check_crc(e, 1, 0x50000000, 16, 0x0);\ncheck_crc(e, 1, 0x80000000, 16, 0x0);\n"
                     "sync_notify(NVDLA_GLB, e);\n";
  // "1": bit 31 clear means CV-SRAM when the configuration has one.
  const auto on_small = cfg(text, small());
  EXPECT_EQ(op<CheckCrc>(on_small, 2).port, MemPort::Dbb);
  const auto on_v1 = compile_trace(parse_cfg(std::string(text) + "mem_init(sec_mem, 0x50000000, 16, ONES);\n", "t.cfg"), v1());
  EXPECT_EQ(op<MemFill>(on_v1, 2).port, MemPort::Sram);
  EXPECT_EQ(op<CheckCrc>(on_v1, 3).port, MemPort::Sram);
  EXPECT_EQ(op<CheckCrc>(on_v1, 4).port, MemPort::Dbb);
}

TEST(TraceCompile, UnsupportedOnThisConfiguration) {
  EXPECT_NE(cfg("mem_init(sec_mem, 0x50000000, 16, ALL_ZERO);\n", small()).unsupported.find("no SRAM interface"),
            std::string::npos);
  EXPECT_NE(cfg("reg_write(NVDLA_BDMA.CFG_OP_0, 1);\n", small()).unsupported.find("NVDLA_BDMA.CFG_OP_0, a unit"),
            std::string::npos);
  EXPECT_NE(cfg("intr_notify(BDMA_0, e);\n", small()).unsupported.find("interrupt BDMA_0"), std::string::npos);
  EXPECT_NE(cfg("reg_write(NVDLA_CFGROM.CFGROM_HW_VERSION_0, 1);\n", v1()).unsupported.find("configuration 'v1'"),
            std::string::npos);
}

TEST(TraceCompile, InputErrors) {
  EXPECT_TRACE_ERROR(cfg("\nreg_write(NVDLA_SDP.NO_SUCH_0, 1);\n", small()),
                     "t.cfg:2: reg_write: unknown register 'NVDLA_SDP.NO_SUCH_0'");
  EXPECT_TRACE_ERROR(cfg("reg_write(NVDLA_FOO.S_STATUS_0, 1);\n", small()), "unknown register block 'NVDLA_FOO'");
  EXPECT_TRACE_ERROR(cfg("intr_notify(SDP_2, e);\n", small()), "t.cfg:1: intr_notify: unknown interrupt id 'SDP_2'");
  EXPECT_TRACE_ERROR(cfg("check_nothing(e);\n", small()),
                     "t.cfg:1: check_nothing waits for event 'e', which no intr_notify or sync_notify produces");
  EXPECT_TRACE_ERROR(cfg("intr_notify(SDP_0, e);\nintr_notify(PDP_0, e);\n", small()),
                     "t.cfg:2: event 'e' is already produced at line 1");
  EXPECT_TRACE_ERROR(cfg("sync_wait(NVDLA_SDP, e);\nsync_notify(NVDLA_PDP, e);\n", small()),
                     "only the sync_notify at line 2 (later in the file) fires");
  EXPECT_TRACE_ERROR(cfg("sync_wait(NVDLA_SDP, e);\nintr_notify(SDP_0, e);\n", small()),
                     "of the intr_notify at line 2, later in the file");
  EXPECT_TRACE_ERROR(cfg("\n\nmem_load(pri_mem, 0x8, \"missing.dat\");\n", small()),
                     "t.cfg:3: mem_load: data file 'missing.dat' not found");
  EXPECT_TRACE_ERROR(cfg("mem_init(pri_mem, 0x1000, 0x10, ALL_ZERO);\ncheck_crc(e, pri_mem, 0x1008, 0x10, 0x0);\n"
                         "sync_notify(NVDLA_GLB, e);\n",
                         small()),
                     "t.cfg:2: check_crc: window 0x1008+0x10 on pri_mem is not inside memory the trace initialises, "
                     "loads or reserves (byte 0x1010 is outside)");
  EXPECT_TRACE_ERROR(cfg("mem_release(pri_mem, 0x1000, e);\nsync_notify(NVDLA_GLB, e);\n", small()),
                     "t.cfg:1: mem_release: base 0x1000 lies in no region of pri_mem");
  EXPECT_TRACE_ERROR(cfg("mem_init(pri_mem, 0x1000, 0x10, ALL_ZERO);\nmem_reserve(pri_mem, 0x1004, 4);\n", small()),
                     "t.cfg:2: mem_reserve: base 0x1004 already lies in the region made at line 1");
  TempDir d("trace-compile");
  d.file("bad.dat", "{offset:0x0, size:2, payload:0x01},\n");
  EXPECT_TRACE_ERROR(cfg("mem_load(pri_mem, 0x8, \"bad.dat\");\n", small(), d.path()),
                     "bad.dat:1: payload has 1 bytes but the record's size is 2");
}

// A 32-bit configuration's memories take addresses modulo 2^32, so a trace window given with
// high bits set covers the same bytes as one without; a window crossing the end of the address
// space is refused on either width.
TEST(TraceCompile, WindowsLiveInTheConfigurationsAddressSpace) {
  const char* high = "mem_init(pri_mem, 0x180001000, 0x10, ALL_ZERO);\ncheck_crc(e, pri_mem, 0x80001000, 0x10, 0x0);\n"
                     "sync_notify(NVDLA_GLB, e);\n";
  EXPECT_EQ(cfg(high, small()).checks, 1u);
  EXPECT_TRACE_ERROR(compile_trace(parse_cfg(high, "t.cfg"), v1()),
                     "t.cfg:2: check_crc: window 0x80001000+0x10 on pri_mem is not inside memory the trace");
  EXPECT_TRACE_ERROR(cfg("mem_init(pri_mem, 0xfffffff8, 0x10, ALL_ZERO);\n", small()),
                     "t.cfg:1: mem_init: window 0xfffffff8+0x10 runs past the end of the 32-bit address space of "
                     "configuration 'small'");
  EXPECT_EQ(compile_trace(parse_cfg("mem_init(pri_mem, 0xfffffff8, 0x10, ALL_ZERO);\n", "t.cfg"), v1()).program.ops.size(),
            1u);
  EXPECT_TRACE_ERROR(compile_trace(parse_cfg("mem_init(pri_mem, 0xfffffffffffffff8, 0x10, ALL_ZERO);\n", "t.cfg"), v1()),
                     "t.cfg:1: mem_init: window 0xfffffffffffffff8+0x10 runs past the end of the 64-bit address space "
                     "of configuration 'v1'");
  EXPECT_TRACE_ERROR(compile_trace(parse_cfg("mem_init(pri_mem, 0xfffffffffffffff0, 0x10, ALL_ZERO);\n", "t.cfg"), v1()),
                     "runs past the end of the 64-bit address space");  // its end, 2^64, has no 64-bit value
  EXPECT_EQ(cfg("mem_init(pri_mem, 0xfffffff0, 0x10, ALL_ZERO);\ncheck_crc(e, pri_mem, 0xfffffff0, 0x10, 0x0);\n"
                "sync_notify(NVDLA_GLB, e);\n",
                small())
                .checks,
            1u);  // on 32 bits a window may end at 2^32
  EXPECT_TRACE_ERROR(cfg("mem_init(pri_mem, 0x1000, 0x10, ALL_ZERO);\ncheck_crc(e, pri_mem, 0xfffffff8, 0x10, 0x0);\n"
                         "sync_notify(NVDLA_GLB, e);\n",
                         small()),
                     "t.cfg:2: check_crc: window 0xfffffff8+0x10 runs past the end");
}

TEST(TraceCompile, ReservedWindowsAndCheckFile) {
  TempDir d("trace-compile");
  d.file("golden.dat", "{offset:0x0, size:4, payload:0x01 0x02 0x03 0x04},\n{offset:0x10, size:4, payload:0x05 0x06 0x07 0x08},\n");
  const auto c = cfg("mem_reserve(pri_mem, 0x80000000, 0x20);\n"
                     "check_crc(e, pri_mem, 0x80000000, 0x20, 0x0);\ncheck_file(e, pri_mem, 0x80000000, 0x12, \"golden.dat\");\n"
                     "sync_notify(NVDLA_GLB, e);\n",
                     small(), d.path());
  ASSERT_EQ(c.program.ops.size(), 3u);
  EXPECT_EQ(op<CheckMem>(c, 1).expect, (std::vector<uint8_t>{1, 2, 3, 4}));
  EXPECT_EQ(op<CheckMem>(c, 2).addr, 0x80000010u);
  EXPECT_EQ(op<CheckMem>(c, 2).expect, (std::vector<uint8_t>{5, 6}));  // clipped to the size
  EXPECT_EQ(c.checks, 2u);
}

TEST(TraceCompile, TxnAddressesAndCommands) {
  TempDir d("trace-compile");
  std::string data = "Crc=0x1\n";
  for (int l = 0; l < 2; ++l) {
    for (int i = 0; i < 32; ++i) data += " 0x" + std::string(1, "0123456789abcdef"[(l * 32 + i) % 16]) + "0";
    data += "\n";
  }
  d.file("surf.dat", data);
  const std::string text =
      "load_mem 0x50000000 0x40 surf.dat\nwrite_reg 0xffff100b 0x800 # BDMA.CFG_DST_SURF\n"
      "read_reg 0xffff0003 0x40 0x40\nwait\ndump_mem 0x80000000 0x20 surf.dat\n";
  const auto c = compile_trace(parse_txn(text, "input.txn", d.path()), v1());
  ASSERT_TRUE(c.unsupported.empty());
  EXPECT_EQ(op<MemLoad>(c, 0).port, MemPort::Sram);
  EXPECT_EQ(op<MemLoad>(c, 0).bytes.size(), 0x40u);
  EXPECT_EQ(op<RegWrite>(c, 1).addr, 0x402cu);
  EXPECT_EQ(op<PollReg>(c, 2).addr, 0x000cu);
  EXPECT_EQ(op<PollReg>(c, 2).mask, 0x40u);
  EXPECT_NE(op<PollReg>(c, 2).what.find("input.txn:3 read_reg"), std::string::npos);
  (void)op<WaitIntrLine>(c, 3);
  EXPECT_EQ(op<CheckMem>(c, 4).expect.size(), 0x20u);
  EXPECT_EQ(c.checks, 2u);
  // Re-based onto the small map: GLB word 3 becomes byte 0x100c; BDMA does not exist there.
  const auto glb = compile_trace(parse_txn("read_reg 0xffff0003 0x40 0x40\n", "input.txn"), small());
  EXPECT_EQ(op<PollReg>(glb, 0).addr, 0x100cu);
  EXPECT_NE(compile_trace(parse_txn(text, "input.txn", d.path()), small()).unsupported.find("no SRAM interface"),
            std::string::npos);
  EXPECT_NE(compile_trace(parse_txn("write_reg 0xffff100b 1\n", "input.txn"), small()).unsupported.find("BDMA"),
            std::string::npos);
  EXPECT_TRACE_ERROR(compile_trace(parse_txn("write_reg 0xffff7fff 1\n", "input.txn"), v1()),
                     "input.txn:1: write_reg: address 0xffff7fff (CSB word 0x7fff, byte 0x1fffc) is in no unit of the "
                     "nvdlav1 address map");
  EXPECT_TRACE_ERROR(compile_trace(parse_txn("\nload_mem 0x80000000 0x10 nope.dat\n", "input.txn"), v1()),
                     "input.txn:2: load_mem: data file 'nope.dat' not found");
  EXPECT_TRACE_ERROR(compile_trace(parse_txn("load_mem 0x80000000 0x41 surf.dat\n", "input.txn", d.path()), v1()),
                     "holds only 64 (0x40) data bytes, but the command needs 65 (0x41)");
}

TEST(TraceCompile, InterruptIds) {
  EXPECT_EQ(interrupt_id("CDMA_WT_1")->bit, 1u << 19);
  EXPECT_EQ(interrupt_id("RUBIK_0")->unit, Unit::RBK);
  EXPECT_FALSE(interrupt_id("SDP"));
  EXPECT_FALSE(interrupt_id("FOO_0"));
  EXPECT_EQ(interrupt_id_name(1u << 7), "BDMA_1");
  EXPECT_EQ(interrupt_id_name(1u << 12), "");
}

// Every public NVDLA trace reads and compiles on its configuration (no input error).
TEST(TraceCompile, PublicCorpus) {
  const std::string dir = DLA_NVDLA_TRACES;
  if (dir.empty() || !std::filesystem::is_directory(dir)) GTEST_SKIP() << "NVDLA traces not found at '" << dir << "'";
  size_t n = 0;
  for (const auto& t : find_trace_tests(dir)) {
    SCOPED_TRACE(t.file);
    const CompiledTrace c = t.dialect == TraceDialect::Cfg
                                ? compile_trace(read_cfg_file(t.file), small())
                                : compile_trace(read_txn_file(t.file), v1());
    // nv_small has no SDP EW stage: NVDLA's EW/LUT traces of it are unsupported, nothing else.
    const bool needs_ew = t.dialect == TraceDialect::Cfg && t.name.find("_ew_") != std::string::npos && !small().sdp_ew;
    if (needs_ew) {
      EXPECT_EQ(c.unsupported, "small has no SDP EW");
    } else {
      EXPECT_TRUE(c.unsupported.empty()) << c.unsupported;
      EXPECT_GT(c.checks, 0u);
    }
    ++n;
  }
  EXPECT_GE(n, 33u);
}

}  // namespace
}  // namespace dla::trace
