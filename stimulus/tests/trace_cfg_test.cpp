// The .cfg dialect reader: every command of the grammar and every error message.
#include <gtest/gtest.h>

#include "dla/trace_cfg.h"
#include "trace_test_util.h"

namespace dla::trace {
namespace {

CfgCommand one(const std::string& line) {
  const CfgTrace t = parse_cfg(line + "\n", "t.cfg");
  EXPECT_EQ(t.commands.size(), 1u);
  return t.commands.empty() ? CfgCommand{} : t.commands[0];
}

TEST(TraceCfgReader, RegisterCommands) {
  auto c = one("reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x90000040);");
  EXPECT_EQ(c.op, CfgOp::RegWrite);
  EXPECT_EQ(c.reg, "NVDLA_SDP.D_DST_BASE_ADDR_LOW_0");
  EXPECT_EQ(c.value, 0x90000040u);
  EXPECT_EQ(one("  reg_write ( NVDLA_SDP.S_POINTER_0 ,\t0 ) ;  ").value, 0u);  // spaces, decimal
  EXPECT_EQ(one("reg_write(NVDLA_PDP.D_OP_ENABLE_0, 17);").value, 17u);
  c = one("reg_read(NVDLA_GLB.S_INTR_STATUS_0, ev1);");
  EXPECT_EQ(c.op, CfgOp::RegRead);
  EXPECT_EQ(c.event, "ev1");
  c = one("reg_read_check(NVDLA_CDMA.D_DATAIN_SIZE_0_0, 0x7);");
  EXPECT_EQ(c.op, CfgOp::RegReadCheck);
  EXPECT_EQ(c.reg, "NVDLA_CDMA.D_DATAIN_SIZE_0_0");
  c = one("poll_reg_equal(NVDLA_CDMA.S_CBUF_FLUSH_STATUS_0,0x1);");
  EXPECT_EQ(c.op, CfgOp::PollRegEqual);
  EXPECT_EQ(c.value, 1u);
  EXPECT_FALSE(c.mask);
}

TEST(TraceCfgReader, SyncAndInterrupts) {
  auto c = one("sync_notify(NVDLA_CACC, CACC_enabled);");
  EXPECT_EQ(c.op, CfgOp::SyncNotify);
  EXPECT_EQ(c.block, "NVDLA_CACC");
  EXPECT_EQ(c.event, "CACC_enabled");
  EXPECT_EQ(one("sync_wait(NVDLA_CSC, CACC_enabled);").op, CfgOp::SyncWait);
  c = one("intr_notify(cdma_wt_0, SDP_0_SDP_0_interrupt);");
  EXPECT_EQ(c.intr_id, "CDMA_WT_0");  // ids are case-insensitive
  EXPECT_EQ(c.event, "SDP_0_SDP_0_interrupt");
  c = one("intr_notify(sync_id_0);");
  EXPECT_EQ(c.intr_id, "");
  EXPECT_EQ(c.event, "sync_id_0");
}

TEST(TraceCfgReader, MemoryCommands) {
  auto c = one("mem_init(pri_mem, 0x80000400, 0x8, ALL_ZERO);");
  EXPECT_EQ(c.op, CfgOp::MemInit);
  EXPECT_EQ(c.mem, CfgMem::Pri);
  EXPECT_EQ(c.addr, 0x80000400u);
  EXPECT_EQ(c.size, 8u);
  EXPECT_EQ(c.pattern, "ALL_ZERO");
  EXPECT_EQ(c.event, "");
  c = one("mem_init(SEC_MEM, 0x50000000, \"out.dat\", ADDR, ev);");
  EXPECT_EQ(c.mem, CfgMem::Sec);
  EXPECT_EQ(c.file, "out.dat");
  EXPECT_EQ(c.size, 0u);
  EXPECT_EQ(c.event, "ev");
  for (const char* p : {"ONES", "AFIVE", "FIVEA", "RANDOM", "X"})
    EXPECT_EQ(one(std::string("mem_init(pri_mem, 0x0, 16, ") + p + ");").pattern, p);
  c = one("mem_load(pri_mem, 0x80000000, \"sub/SDP_0_input.dat\");");
  EXPECT_EQ(c.op, CfgOp::MemLoad);
  EXPECT_EQ(c.file, "sub/SDP_0_input.dat");
  EXPECT_EQ(one("mem_load(pri_mem, 0x80000000, \"a.dat\", e2);").event, "e2");
  c = one("mem_reserve(pri_mem, 0x80100000, 4096);");
  EXPECT_EQ(c.op, CfgOp::MemReserve);
  EXPECT_EQ(c.size, 4096u);
  EXPECT_EQ(one("mem_reserve(pri_mem, 0x80100000, 0x1000, e);").event, "e");
  c = one("mem_release(pri_mem, 0x80100000, e);");
  EXPECT_EQ(c.op, CfgOp::MemRelease);
  EXPECT_EQ(c.event, "e");
}

TEST(TraceCfgReader, Checks) {
  auto c = one("check_crc(sync_id_0, 1, 0x90000040, 0x8, 0xcb0ea2db);");
  EXPECT_EQ(c.op, CfgOp::CheckCrc);
  EXPECT_EQ(c.mem, CfgMem::ByAddress);
  EXPECT_EQ(c.size, 8u);
  EXPECT_EQ(c.crc, 0xcb0ea2dbu);
  EXPECT_EQ(one("check_crc(e, pri_mem, 0x80080000, 0x800, 0x9F5EDD58);").crc, 0x9f5edd58u);
  EXPECT_EQ(one("check_crc(e, sec_mem, 0x50000000, 2048, 0x1);").mem, CfgMem::Sec);
  c = one("check_file(e, pri_mem, 0x80000000, 0x40, \"golden.dat\");");
  EXPECT_EQ(c.op, CfgOp::CheckFile);
  EXPECT_EQ(c.file, "golden.dat");
  EXPECT_EQ(one("check_nothing(CDMA_done);").op, CfgOp::CheckNothing);
}

TEST(TraceCfgReader, CommentsHeaderAndAnnotations) {
  const CfgTrace t = parse_cfg(
      "// dlaverif config=v1 seed=3\n\n   // indented comment\n"
      "reg_write(NVDLA_GLB.S_INTR_MASK_0, 0x0); // trailing comment\n"
      "reg_read_check(NVDLA_BDMA.STATUS_0, 0x14); // dlaverif mask=0x1ff: BDMA idle\n"
      "poll_reg_equal(NVDLA_GLB.S_INTR_STATUS_0, 0x40); // dlaverif mask=0x40 timeout=5000\n"
      "intr_notify(BDMA_0, e); // dlaverif timeout=123\n",
      "t.cfg");
  ASSERT_EQ(t.commands.size(), 4u);
  EXPECT_EQ(t.header_value("config"), "v1");
  EXPECT_EQ(t.header_value("seed"), "3");
  EXPECT_FALSE(t.header_value("test"));
  EXPECT_EQ(t.commands[0].line, 4u);
  EXPECT_EQ(t.commands[0].comment, "trailing comment");
  EXPECT_EQ(t.commands[1].mask, 0x1ffu);
  EXPECT_EQ(t.commands[1].comment, "BDMA idle");
  EXPECT_EQ(t.commands[2].mask, 0x40u);
  EXPECT_EQ(t.commands[2].timeout_cycles, 5000u);
  EXPECT_EQ(t.commands[3].timeout_cycles, 123u);
}

TEST(TraceCfgReader, Errors) {
  EXPECT_TRACE_ERROR(parse_cfg("\nreg_write(NVDLA_SDP.S_POINTER_0, 0x0)\n", "t.cfg"),
                     "t.cfg:2: reg_write: missing ';' after ')'; expected reg_write(BLOCK.REGISTER, value);");
  EXPECT_TRACE_ERROR(parse_cfg("reg_write(NVDLA_SDP.S_POINTER_0, 0x0;\n", "t.cfg"), "t.cfg:1: reg_write: missing ')'");
  EXPECT_TRACE_ERROR(parse_cfg("reg_writ(NVDLA_SDP.S_POINTER_0, 0x0);\n", "t.cfg"), "t.cfg:1: unknown command 'reg_writ'");
  EXPECT_TRACE_ERROR(parse_cfg("# not a comment here\n", "t.cfg"), "t.cfg:1: expected a command like reg_write(");
  EXPECT_TRACE_ERROR(parse_cfg("reg_write(NVDLA_SDP.S_POINTER_0);\n", "t.cfg"), "t.cfg:1: reg_write: 1 argument; expected");
  EXPECT_TRACE_ERROR(parse_cfg("reg_write(NVDLA_SDP.S_POINTER_0, 0xZ1);\n", "t.cfg"),
                     "value '0xZ1' is not a 32-bit number");
  EXPECT_TRACE_ERROR(parse_cfg("reg_write(NVDLA_SDP.S_POINTER_0, 0x100000000);\n", "t.cfg"), "is not a 32-bit number");
  EXPECT_TRACE_ERROR(parse_cfg("reg_write(S_POINTER_0, 1);\n", "t.cfg"), "register name 'S_POINTER_0' is not BLOCK.REGISTER");
  EXPECT_TRACE_ERROR(parse_cfg("reg_write(NVDLA_SDP.S_POINTER_0, 1); garbage\n", "t.cfg"),
                     "unexpected text 'garbage' after ';'");
  EXPECT_TRACE_ERROR(parse_cfg("reg_write(NVDLA_SDP.S_POINTER_0, );\n", "t.cfg"), "reg_write: empty argument");
  EXPECT_TRACE_ERROR(parse_cfg("mem_init(pri_mem, 80000000, 0x8, ALL_ZERO);\n", "t.cfg"),
                     "base address '80000000' is not a 0x hex number");
  EXPECT_TRACE_ERROR(parse_cfg("mem_init(pri_mem, 0x8, 0x0, ALL_ZERO);\n", "t.cfg"), "size '0x0' is not a non-zero number");
  EXPECT_TRACE_ERROR(parse_cfg("mem_init(pri_mem, 0x8, 8, all_zero);\n", "t.cfg"), "pattern 'all_zero' is not one of");
  EXPECT_TRACE_ERROR(parse_cfg("mem_init(dram, 0x8, 8, ONES);\n", "t.cfg"), "memory 'dram' is not pri_mem, sec_mem or 1");
  EXPECT_TRACE_ERROR(parse_cfg("mem_load(pri_mem, 0x8, in.dat);\n", "t.cfg"), "file 'in.dat' is not a quoted file name");
  EXPECT_TRACE_ERROR(parse_cfg("mem_load(pri_mem, 0x8, \"in-1.dat\");\n", "t.cfg"), "may only hold letters");
  EXPECT_TRACE_ERROR(parse_cfg("mem_release(pri_mem, 0x8);\n", "t.cfg"), "mem_release: 2 arguments");
  EXPECT_TRACE_ERROR(parse_cfg("check_crc(e, 1, 0x8, 8, 12345);\n", "t.cfg"), "CRC '12345' is not a 32-bit 0x hex number");
  EXPECT_TRACE_ERROR(parse_cfg("check_nothing(e f);\n", "t.cfg"), "event 'e f' is not an identifier");
  EXPECT_TRACE_ERROR(parse_cfg("intr_notify(SDP_0, a, b);\n", "t.cfg"), "intr_notify: 3 arguments");
  EXPECT_TRACE_ERROR(parse_cfg("reg_write(NVDLA_SDP.S_POINTER_0, 1); // dlaverif mask=0x1\n", "t.cfg"),
                     "unknown dlaverif annotation 'mask=0x1' for reg_write");
  EXPECT_TRACE_ERROR(parse_cfg("poll_reg_equal(NVDLA_SDP.S_STATUS_0, 1); // dlaverif mask=7\n", "t.cfg"),
                     "dlaverif mask '7' is not a 32-bit 0x hex number");
  EXPECT_TRACE_ERROR(read_cfg_file("/nonexistent/x.cfg"), "/nonexistent/x.cfg: file not found (trace file)");
}

}  // namespace
}  // namespace dla::trace
