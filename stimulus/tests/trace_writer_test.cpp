// Exporter: a generated program written as a .cfg trace reads back into the same stream of
// register writes, reads and waits, with the golden model's values as expectations.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "dla/golden_model.h"
#include "dla/test_generator.h"
#include "dla/trace_cfg.h"
#include "dla/trace_compile.h"
#include "dla/trace_crc32.h"
#include "dla/trace_files.h"
#include "dla/trace_writer.h"
#include "program_executor.h"
#include "trace_test_util.h"

namespace dla::trace {
namespace {

using test::TempDir;

Program generate(const std::string& config, const std::string& test, uint64_t seed) {
  return find_test_generator(test).generate(HwConfig::get(config), seed, {});
}

// The golden model plays the compiled trace: no expectation may fail.
void expect_golden_passes(const Program& p, const HwConfig& cfg) {
  GoldenModel m(cfg, p.seed);
  for (size_t i = 0; i < p.ops.size(); ++i) {
    const ProgramOp& op = p.ops[i];
    if (const auto* l = std::get_if<MemLoad>(&op)) m.memory(l->port).load(l->addr, l->bytes);
    else if (const auto* w = std::get_if<RegWrite>(&op)) m.csb_write(w->addr, w->data);
    else if (const auto* r = std::get_if<RegRead>(&op)) {
      const uint32_t v = m.csb_read(r->addr);
      ASSERT_TRUE(r->expect);
      EXPECT_EQ(v & r->mask, *r->expect & r->mask) << "op " << i << " " << r->what;
    } else if (const auto* q = std::get_if<PollReg>(&op)) {
      EXPECT_EQ(m.csb_read(q->addr) & q->mask, q->expect & q->mask) << "op " << i << " " << q->what;
    } else if (const auto* c = std::get_if<CheckCrc>(&op)) {
      EXPECT_EQ(crc32(m.memory(c->port), c->addr, c->size), c->crc) << c->what;
    }
  }
}

size_t count_writes(const Program& p) {
  size_t n = 0;
  for (const auto& op : p.ops) n += std::holds_alternative<RegWrite>(op);
  return n;
}

void round_trip(const std::string& config, const std::string& test, uint64_t seed) {
  SCOPED_TRACE(config + " " + test + " seed " + std::to_string(seed));
  TempDir d("trace-export");
  const Program original = generate(config, test, seed);
  ExportOptions o;
  o.poison_seed = seed;
  const ExportResult ex = export_trace(original, HwConfig::get(config), d.path(), o);
  const auto found = find_trace_tests(d.path());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].file, ex.cfg_path);
  const CfgTrace t = read_cfg_file(ex.cfg_path);
  EXPECT_EQ(t.header_value("config"), config);
  CompileOptions co;
  co.seed = seed;
  const CompiledTrace c = compile_trace(t, HwConfig::get(config), co);
  ASSERT_TRUE(c.unsupported.empty()) << c.unsupported;
  EXPECT_EQ(count_writes(c.program), count_writes(original));
  expect_golden_passes(c.program, HwConfig::get(config));
}

TEST(TraceWriter, RegsAccessRoundTrip) {
  round_trip("v1", "regs.access", 1);
  round_trip("small", "regs.access", 2);
}

TEST(TraceWriter, BdmaRandomRoundTrip20Seeds) {
  for (uint64_t seed = 1; seed <= 20; ++seed) round_trip("v1", "bdma.random", seed);
}

TEST(TraceWriter, WritesDataFilesCrcsAndAnnotations) {
  TempDir d("trace-export");
  const Program p = generate("v1", "bdma.random", 3);
  const ExportResult ex = export_trace(p, HwConfig::get("v1"), d.path() + "/seed3", {"bdma3", 3, "dlaverif run ..."});
  EXPECT_EQ(std::filesystem::path(ex.cfg_path).filename(), "bdma3.cfg");
  EXPECT_GT(ex.data_files, 0u);
  EXPECT_GT(ex.crc_checks, 0u);
  std::ifstream f(ex.cfg_path);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  EXPECT_NE(text.find("mem_load(pri_mem, 0x"), std::string::npos);
  EXPECT_NE(text.find("\"bdma3_mem0.dat\""), std::string::npos);
  EXPECT_NE(text.find("check_crc(end_of_test, "), std::string::npos);
  EXPECT_NE(text.find("poll_reg_equal(NVDLA_GLB.S_INTR_STATUS_0, 0x"), std::string::npos);
  EXPECT_NE(text.find("// dlaverif mask=0x"), std::string::npos);
  EXPECT_NE(text.find("reg_write(NVDLA_BDMA.CFG_LAUNCH"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(d.path() + "/seed3/bdma3_mem0.dat"));
}

TEST(TraceWriter, ExpectationsOfTheProgramAreKept) {
  // A program whose expectation the golden model does not meet exports that expectation, so
  // the trace fails the same way.
  Program p;
  p.config = "v1";
  p.test = "planted";
  const RegisterMap& map = RegisterMap::of(HwConfig::get("v1"));
  const uint32_t surf = map.address_of(*map.find("BDMA.CFG_DST_SURF"));
  p.ops.push_back(RegWrite{surf, 0x800, false});
  p.ops.push_back(RegRead{surf, 0xffffffe0u, 0x900u, "planted wrong expectation"});
  TempDir d("trace-export");
  const ExportResult ex = export_trace(p, HwConfig::get("v1"), d.path());
  const CompiledTrace c = compile_trace(read_cfg_file(ex.cfg_path), HwConfig::get("v1"));
  const auto& r = std::get<RegRead>(c.program.ops.at(1));
  EXPECT_EQ(*r.expect, 0x900u);
  EXPECT_EQ(r.mask, 0xffffffe0u);
  dla::test::ExecResult res;
  GoldenModel m(HwConfig::get("v1"));
  res = dla::test::execute(c.program, m);
  EXPECT_EQ(res.failures.size(), 1u);
}

TEST(TraceWriter, RejectsWhatTheDialectCannotSay) {
  Program p;
  p.config = "v1";
  p.ops.push_back(RegWrite{0x7ffc, 1, false});  // no register there
  TempDir d("trace-export");
  EXPECT_THROW(export_trace(p, HwConfig::get("v1"), d.path()), std::invalid_argument);
  Program q;
  q.config = "v1";
  q.ops.push_back(PollReg{0x000c, 0x40, 0x40, RegCompare::Ge, 0, ""});
  EXPECT_THROW(export_trace(q, HwConfig::get("v1"), d.path()), std::invalid_argument);
  Program z;  // a read that also accepts 0 (reg_read_check names one value)
  z.config = "v1";
  RegRead counter{0x000c, 0xffffffffu, std::nullopt, "a counter while its layer runs"};
  counter.zero_ok = true;
  z.ops.push_back(counter);
  EXPECT_THROW(export_trace(z, HwConfig::get("v1"), d.path()), std::invalid_argument);
  z.ops.back() = RegRead{0x000c, 0xffffffffu, std::nullopt, "the same read, one value"};
  EXPECT_NO_THROW(export_trace(z, HwConfig::get("v1"), d.path()));
}

}  // namespace
}  // namespace dla::trace
