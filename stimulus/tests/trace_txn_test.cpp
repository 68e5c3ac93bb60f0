// The input.txn dialect reader: every command and every error message.
#include <gtest/gtest.h>

#include "dla/trace_txn.h"
#include "trace_test_util.h"

namespace dla::trace {
namespace {

TEST(TraceTxnReader, Commands) {
  const TxnTrace t = parse_txn(
      "# load_mem(addr, offset,  file)\n"
      "load_mem 0x80000000 0x1000 sample_surf.dat \n"
      "write_reg 0xffff100b 0x800 #NVDLA_BDMA.CFG_DST_SURF_0\n"
      "read_reg 0xffff100b 0xffffffe0 0x00000800 #NVDLA_BDMA.CFG_DST_SURF_0\n"
      "read_reg 0xffff0003 0x40 >= 0x40 100\n"
      "\n"
      "wait\n"
      "dump_mem 0x80100000 0x1880 output_feature_map.dat\n",
      "input.txn");
  ASSERT_EQ(t.commands.size(), 6u);
  EXPECT_EQ(t.commands[0].op, TxnOp::LoadMem);
  EXPECT_EQ(t.commands[0].mem_addr, 0x80000000u);
  EXPECT_EQ(t.commands[0].size, 0x1000u);
  EXPECT_EQ(t.commands[0].file, "sample_surf.dat");
  EXPECT_EQ(t.commands[1].op, TxnOp::WriteReg);
  EXPECT_EQ(t.commands[1].addr_token, 0xffff100bu);
  EXPECT_EQ(t.commands[1].data, 0x800u);
  EXPECT_EQ(t.commands[1].comment, "NVDLA_BDMA.CFG_DST_SURF_0");
  EXPECT_EQ(t.commands[2].mask, 0xffffffe0u);
  EXPECT_EQ(t.commands[2].expect, 0x800u);
  EXPECT_EQ(t.commands[2].compare, RegCompare::Eq);
  EXPECT_EQ(t.commands[3].compare, RegCompare::Ge);
  EXPECT_EQ(t.commands[3].retries, 100u);
  EXPECT_EQ(t.commands[4].op, TxnOp::Wait);
  EXPECT_EQ(t.commands[4].line, 7u);
  EXPECT_EQ(t.commands[5].op, TxnOp::DumpMem);
}

TEST(TraceTxnReader, Errors) {
  EXPECT_TRACE_ERROR(parse_txn("\n\nwrite_regs 0xffff0000 1\n", "input.txn"), "input.txn:3: unknown command 'write_regs'");
  EXPECT_TRACE_ERROR(parse_txn("write_reg 0xffff0000\n", "input.txn"),
                     "input.txn:1: write_reg: 1 operands; expected write_reg 0xffffWWWW DATA");
  EXPECT_TRACE_ERROR(parse_txn("write_reg 0xfffg0000 1\n", "input.txn"), "address '0xfffg0000' is not a 32-bit number");
  EXPECT_TRACE_ERROR(parse_txn("write_reg 0xffff0000 0x1ffffffff\n", "input.txn"), "data '0x1ffffffff'");
  EXPECT_TRACE_ERROR(parse_txn("read_reg 0xffff0000 0x1\n", "input.txn"), "read_reg: 2 operands");
  EXPECT_TRACE_ERROR(parse_txn("read_reg 0xffff0000 0x1 != 0x1\n", "input.txn"), "comparison '!=' is not ==, <= or >=");
  EXPECT_TRACE_ERROR(parse_txn("read_reg 0xffff0000 0x1 <= \n", "input.txn"), "missing expected value after '<='");
  EXPECT_TRACE_ERROR(parse_txn("load_mem 0x80000000 0x0 a.dat\n", "input.txn"), "load_mem: size 0");
  EXPECT_TRACE_ERROR(parse_txn("dump_mem 0x80000000 a.dat\n", "input.txn"), "dump_mem: 2 operands");
  EXPECT_TRACE_ERROR(parse_txn("wait 5\n", "input.txn"), "wait: unexpected operands");
  EXPECT_TRACE_ERROR(read_txn_file("/nonexistent/input.txn"), "file not found (trace file)");
}

}  // namespace
}  // namespace dla::trace
