// Unit tests of code-coverage reading, coverage closure and test ranking (regress.closure.*).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "dla/regression/closure.h"
#include "dla/regression/code_coverage.h"
#include "dla/regression/code_coverage_closure.h"
#include "dla/regression/constant_bits.h"
#include "dla/regression/coverage_file_gzip.h"
#include "dla/regression/knob_candidates.h"
#include "dla/regression/plan.h"
#include "dla/regression/plan_writer.h"
#include "dla/regression/reset_phase_coverage.h"
#include "dla/coverage/unit_coverage.h"
#include "dla/hwconfig.h"
#include "dla/test_generator.h"
#include "dla/test_runner.h"

namespace dla::regression {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() : path_(fs::temp_directory_path() / ("dla_regress_closure_" + std::to_string(::getpid()))) {
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string file(const std::string& name, const std::string& text = "") const {
    const fs::path p = path_ / name;
    if (!text.empty()) std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }

 private:
  fs::path path_;
};

// One Verilator coverage point line, keys as verilator_coverage writes them.
std::string point(const std::string& page, const std::string& file, int line, const std::string& lines,
                  const std::string& comment, const std::string& hier, uint64_t count) {
  std::string keys = "\x01" "f\x02" + file + "\x01" "l\x02" + std::to_string(line) + "\x01" "page\x02" + page;
  if (!lines.empty()) keys += "\x01" "S\x02" + lines;
  keys += "\x01" "o\x02" + comment + "\x01" "h\x02" + hier;
  return "C '" + keys + "' " + std::to_string(count) + "\n";
}

TEST(CodeCoverage, LinesTogglesPerFileAndUnit) {
  TempDir d;
  const std::string dat = d.file(
      "c.dat", "# SystemC::Coverage-3\n" + point("v_line/dla_fifo", "common/dla_fifo.sv", 10, "10-12", "block", "TOP.a", 5) +
                   point("v_line/dla_fifo", "common/dla_fifo.sv", 10, "10-12", "block", "TOP.b", 0) +
                   point("v_branch/dla_fifo", "common/dla_fifo.sv", 20, "", "if", "TOP.a", 0) +
                   point("v_toggle/dla_fifo", "common/dla_fifo.sv", 3, "", "count[0]", "TOP.a", 2) +
                   point("v_toggle/dla_fifo", "common/dla_fifo.sv", 3, "", "count[1]", "TOP.a", 0) +
                   point("v_line/dla_pdp", "pdp/dla_pdp.sv", 7, "", "block", "TOP.p", 1) +
                   point("v_toggle/dla_pdp_regs", "/x/gen/v1/rtl/dla_pdp_regs.sv", 4, "", "q[0]", "TOP.r", 0));
  const CodeCoverage cc = CodeCoverage::load(dat);
  ASSERT_EQ(cc.points().size(), 7u);
  EXPECT_EQ(cc.points()[2].type, "branch");
  // Instance a ran the block, b did not: the source lines count as hit.
  EXPECT_EQ(cc.hit_lines("common/dla_fifo.sv"), (std::set<int>{10, 11, 12}));
  const auto hits = cc.line_hits();
  EXPECT_EQ(hits.at("common/dla_fifo.sv").at(20), 0u);  // instrumented, never hit
  EXPECT_EQ(hits.at("common/dla_fifo.sv").count(3), 0u);  // a toggle is not a line
  const auto files = cc.per_file();
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].unit, "common");
  EXPECT_EQ(files[0].lines, 4u);
  EXPECT_EQ(files[0].lines_hit, 3u);
  EXPECT_EQ(files[0].toggles, 2u);
  EXPECT_EQ(files[0].toggles_hit, 1u);
  EXPECT_EQ(files[2].unit, "regs");
  const auto units = cc.per_unit();
  ASSERT_EQ(units.size(), 3u);
  EXPECT_EQ(units[1].file, "pdp");
  EXPECT_DOUBLE_EQ(units[1].line_percent(), 100.0);
  const FileCodeCoverage t = cc.total();
  EXPECT_EQ(t.lines, 5u);
  EXPECT_EQ(t.lines_hit, 4u);
  EXPECT_EQ(t.toggles, 3u);
  EXPECT_EQ(t.toggles_hit, 1u);
}

TEST(CodeCoverage, SourceRootMakesNamesAbsolute) {
  TempDir d;
  fs::create_directories(fs::path(d.file("root")) / "common");
  d.file("root/common/a.sv", "module a; endmodule\n");
  const std::string dat = d.file("c.dat", "# SystemC::Coverage-3\n" + point("v_line/a", "common/a.sv", 1, "", "", "TOP", 1));
  const CodeCoverage cc = CodeCoverage::load(dat, d.file("root"));
  EXPECT_EQ(cc.points()[0].file, d.file("root/common/a.sv"));
  EXPECT_EQ(cc.hit_lines(d.file("root/common/a.sv")), (std::set<int>{1}));
}

// Two files of unit bdma: lines 10-12 hit, 20-23 and 30 not, toggles cnt[0] hit, cnt[30], cnt[31]
// and busy not.
std::string closure_dat(const TempDir& d) {
  return d.file("closure.dat",
                "# SystemC::Coverage-3\n" + point("v_line/x", "/r/rtl/bdma/dla_bdma.sv", 10, "10-12", "block", "TOP.a", 3) +
                    point("v_line/x", "/r/rtl/bdma/dla_bdma.sv", 20, "20-23", "block", "TOP.a", 0) +
                    point("v_branch/x", "/r/rtl/bdma/dla_bdma.sv", 30, "", "if", "TOP.a", 0) +
                    point("v_toggle/x", "/r/rtl/bdma/dla_bdma.sv", 5, "", "u_rd.cnt[0]", "TOP.a", 1) +
                    point("v_toggle/x", "/r/rtl/bdma/dla_bdma.sv", 5, "", "u_rd.cnt[30]", "TOP.a", 0) +
                    point("v_toggle/x", "/r/rtl/bdma/dla_bdma.sv", 5, "", "u_rd.cnt[31]", "TOP.a", 0) +
                    point("v_toggle/x", "/r/rtl/bdma/dla_bdma_rd.sv", 5, "", "busy", "TOP.a", 0) +
                    point("v_line/x", "/r/rtl/bdma/dla_bdma_rd.sv", 7, "", "block", "TOP.a", 1));
}

TEST(CodeCoverageClosure, UncoveredLinesAndTogglesLessWaiversAgainstGoals) {
  TempDir d;
  const CodeCoverage cc = CodeCoverage::load(closure_dat(d));
  const auto none = close_code_coverage(cc, "v1", {});
  ASSERT_EQ(none.units.size(), 1u);
  const UnitCodeClosure& u = none.units[0];
  EXPECT_EQ(u.unit, "bdma");
  EXPECT_EQ(u.lines, 9u);
  EXPECT_EQ(u.lines_hit, 4u);
  EXPECT_EQ(format_line_ranges(u.uncovered_lines.at("/r/rtl/bdma/dla_bdma.sv")), "20-23, 30");
  EXPECT_EQ(u.uncovered_line_count(), 5u);
  EXPECT_EQ(u.uncovered_toggles.at("/r/rtl/bdma/dla_bdma.sv: u_rd.cnt"), 2u);
  EXPECT_EQ(u.uncovered_toggles.at("/r/rtl/bdma/dla_bdma_rd.sv: busy"), 1u);
  EXPECT_NEAR(u.line_percent(), 100.0 * 4 / 9, 1e-9);
  EXPECT_FALSE(u.meets(CodeCoverageGoals{}));

  const std::string waivers = d.file("w.yaml",
      "waivers:\n"
      "  - {file: rtl/bdma/dla_bdma.sv, lines: '20-23', reason: unreachable}\n"
      "  - {file: bdma/dla_bdma.sv, toggle: 'cnt\\[3[01]\\]', reason: the counter stays below 2^30}\n"
      "  - {file: dla_bdma_rd.sv, toggle: busy, config: small, reason: only on small}\n"
      "  - {file: ma/dla_bdma.sv, lines: '30', reason: not a path component suffix}\n"
      "  - {file: rtl/bdma/dla_bdma.sv, lines: '10', reason: a hit line so stale}\n");
  const auto w = load_code_coverage_waivers(waivers);
  const auto c = close_code_coverage(cc, "v1", w);
  const UnitCodeClosure& v = c.units[0];
  EXPECT_EQ(v.lines_waived, 4u);
  EXPECT_EQ(format_line_ranges(v.uncovered_lines.at("/r/rtl/bdma/dla_bdma.sv")), "30");  // entry 4 is no path suffix
  EXPECT_DOUBLE_EQ(v.line_percent(), 80.0);
  EXPECT_EQ(v.toggles_waived, 2u);
  EXPECT_EQ(v.uncovered_toggles.size(), 1u);  // busy: its waiver is for small only
  EXPECT_NEAR(v.toggle_percent(), 50.0, 1e-9);
  EXPECT_TRUE(v.meets(CodeCoverageGoals{80, 50}));
  EXPECT_FALSE(v.meets(CodeCoverageGoals{80, 51}));
  EXPECT_FALSE(v.meets(CodeCoverageGoals{81, 50}));
  EXPECT_EQ(c.unused_waivers, (std::vector<size_t>{4, 5}));  // entry 3 does not apply to v1
  EXPECT_EQ(close_code_coverage(cc, "small", w).units[0].toggles_waived, 3u);
}

// A constant-bit list as scripts/constant_bits.py writes it: u_a and u_b are two instances of
// one module (Verilator may combine them as "u_*"); u_b drives `st[3]` while u_a holds it.
std::string constant_bits_json(const TempDir& d) {
  return d.file("constant_bits.json", R"({"format": "dlaverif-constant-bits/1", "config": "small", "top": "NV_nvdla",
    "signals": {"TOP.NV_nvdla.u_a": {"st": [2, 3], "tied": [0]}, "TOP.NV_nvdla.u_b": {"st": [2], "tied": [0]},
                "TOP.NV_nvdla": {"len": [5, 6, 7]}},
    "declared": {"TOP.NV_nvdla.u_a": ["st", "tied", "busy"], "TOP.NV_nvdla.u_b": ["st", "tied", "busy"],
                 "TOP.NV_nvdla.u_c": ["other"], "TOP.NV_nvdla": ["len"]}})");
}

TEST(ConstantBits, ExactAndCombinedInstances) {
  TempDir d;
  const ConstantBits c = ConstantBits::load(constant_bits_json(d));
  EXPECT_EQ(c.config, "small");
  EXPECT_EQ(c.bits(), 8u);
  EXPECT_TRUE(c.holds("TOP.NV_nvdla", "len[5]"));   // declared index, not position
  EXPECT_FALSE(c.holds("TOP.NV_nvdla", "len[0]"));
  EXPECT_TRUE(c.holds("TOP.NV_nvdla.u_a", "tied"));  // 1-bit signal: bit 0
  EXPECT_FALSE(c.holds("TOP.NV_nvdla.u_a", "busy"));
  EXPECT_FALSE(c.holds("TOP.NV_nvdla.u_x", "tied"));
  EXPECT_FALSE(c.holds("TOP.NV_nvdla", "len[5][1]"));  // multi-dimensional names are not listed
  // Combined instances: constant only when every instance declaring the signal holds the bit.
  EXPECT_TRUE(c.holds("TOP.NV_nvdla.u_*", "st[2]"));
  EXPECT_FALSE(c.holds("TOP.NV_nvdla.u_*", "st[3]"));  // u_b drives it
  EXPECT_TRUE(c.holds("TOP.NV_nvdla.u_*", "tied"));     // u_c does not declare `tied`
  EXPECT_FALSE(c.holds("TOP.NV_nvdla.v_*", "tied"));    // matches no instance
}

TEST(ConstantBits, BadListsNameTheFile) {
  TempDir d;
  const auto message = [](const std::string& path) {
    try {
      ConstantBits::load(path);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(d.file("absent.json")).find("absent.json: cannot be read"), std::string::npos);
  EXPECT_NE(message(d.file("fmt.json", R"({"format": "other", "signals": {}, "declared": {}})"))
                .find("fmt.json: format is not dlaverif-constant-bits/1"), std::string::npos);
  EXPECT_NE(message(d.file("trunc.json", R"({"format": "dlaverif-constant-bits/1", "signals": {)")).find("trunc.json: "),
            std::string::npos);
  EXPECT_NE(message(d.file("bits.json", R"({"format": "dlaverif-constant-bits/1", "signals": {"T": {"s": ["x"]}}, "declared": {}})"))
                .find("bits.json: "), std::string::npos);
}

TEST(CodeCoverageClosure, ConstantBitsLeaveTheToggleGoal) {
  TempDir d;
  const std::string dat = d.file("const.dat",
      "# SystemC::Coverage-3\n" +
      point("v_toggle/x", "/r/rtl/pdp/dla_pdp.sv", 5, "", "st[2]", "TOP.NV_nvdla.u_*", 341) +  // shared counter
      point("v_toggle/x", "/r/rtl/pdp/dla_pdp.sv", 5, "", "st[3]", "TOP.NV_nvdla.u_*", 0) +
      point("v_toggle/x", "/r/rtl/pdp/dla_pdp.sv", 6, "", "tied", "TOP.NV_nvdla.u_a", 0) +
      point("v_toggle/x", "/r/rtl/pdp/dla_pdp.sv", 7, "", "busy", "TOP.NV_nvdla.u_a", 4) +
      point("v_toggle/x", "/r/top/NV_nvdla.sv", 9, "", "len[5]", "TOP.NV_nvdla", 0));
  const CodeCoverage cc = CodeCoverage::load(dat);
  const ConstantBits constants = ConstantBits::load(constant_bits_json(d));
  const auto plain = close_code_coverage(cc, "small", {});
  const auto with = close_code_coverage(cc, "small", {}, &constants);
  ASSERT_EQ(with.units.size(), 2u);
  const UnitCodeClosure& p0 = plain.units[0];
  const UnitCodeClosure& p1 = with.units[0];
  ASSERT_EQ(p1.unit, "pdp");
  EXPECT_EQ(p0.toggles_constant, 0u);
  EXPECT_NEAR(p0.toggle_percent(), 50.0, 1e-9);  // st[2] and busy hit of 4
  EXPECT_EQ(p1.toggles, 4u);
  EXPECT_EQ(p1.toggles_constant, 2u);           // st[2], tied
  EXPECT_EQ(p1.toggles_constant_counted, 1u);   // st[2]: Verilator's shared counter said 341
  EXPECT_EQ(p1.toggles_hit, 1u);                // busy only
  EXPECT_NEAR(p1.toggle_percent(), 50.0, 1e-9); // busy of {st[3], busy}
  EXPECT_EQ(p1.uncovered_toggles.count("/r/rtl/pdp/dla_pdp.sv: tied"), 0u);
  EXPECT_EQ(p1.uncovered_toggles.at("/r/rtl/pdp/dla_pdp.sv: st"), 1u);
  EXPECT_EQ(with.units[1].toggles_constant, 1u);
  EXPECT_DOUBLE_EQ(with.units[1].toggle_percent(), 100.0);  // nothing left to toggle
}

TEST(CodeCoverageClosure, BadWaiversAndGoalsNameTheRule) {
  TempDir d;
  auto error = [&](const std::string& text) {
    const std::string path = d.file("bad.yaml", text);
    try {
      load_code_coverage_waivers(path);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what()).substr(("code-coverage waiver file " + path + ": ").size());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error("waivers:\n  - {file: a.sv, lines: '3'}\n"), "entry 1: needs a 'reason' (why no test can reach it)");
  EXPECT_EQ(error("waivers:\n  - {file: a.sv, reason: r}\n"), "entry 1: needs 'lines' and/or 'toggle' (what it waives)");
  EXPECT_EQ(error("waivers:\n  - {file: a.sv, lines: '9-3', reason: r}\n"),
            "entry 1: 'lines' item '9-3' is not a line (N) or a range (N-M, N <= M)");
  EXPECT_EQ(error("waivers:\n  - {lines: '3', reason: r}\n"), "entry 1: needs 'file' (a source path, e.g. rtl/bdma/dla_bdma.sv)");
  EXPECT_EQ(error("waivers:\n  - {file: a.sv, toggle: 'x[', reason: r}\n").rfind("entry 1: 'toggle' is not a regular expression: x[", 0), 0u);
  EXPECT_EQ(error("waivers:\n  - {file: a.sv, line: 3, reason: r}\n"),
            "entry 1: unknown field 'line' (fields: file, lines, toggle, config, reason)");
  EXPECT_EQ(error("waiver: []\n"), "needs a top-level 'waivers:' list");
  const CodeCoverageGoals g = parse_code_coverage_goals("line=97.5,toggle=80");
  EXPECT_DOUBLE_EQ(g.line_percent, 97.5);
  EXPECT_DOUBLE_EQ(g.toggle_percent, 80);
  EXPECT_DOUBLE_EQ(parse_code_coverage_goals("toggle=70").line_percent, 95);
  for (const char* bad : {"line=101", "lines=90", "line=9x", "line", "toggle=-1"})
    EXPECT_THROW(parse_code_coverage_goals(bad), std::invalid_argument) << bad;
}

TEST(CodeCoverage, BadFilesNameTheFileAndLine) {
  TempDir d;
  try {
    CodeCoverage::load(d.file("bad.dat", "# SystemC::Coverage-3\nC 'x' many\n"));
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bad.dat' line 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(CodeCoverage::load(d.file("missing.dat")), std::invalid_argument);
  EXPECT_THROW(CodeCoverage::load(d.file("text.dat", "hello\n")), std::invalid_argument);
}

// The reset phase (random start -> reset values) keeps its line hits but not its toggles.
TEST(ResetPhaseCoverage, LineHitsAddedTogglesCountOnlyAfterReset) {
  TempDir d;
  auto dat = [&](const std::string& name, uint64_t line, uint64_t branch, uint64_t toggle) {
    return d.file(name, "# SystemC::Coverage-3\n" + point("v_line/a", "a.sv", 3, "3-4", "block", "TOP.a", line) +
                            point("v_branch/a", "a.sv", 5, "", "if", "TOP.a", branch) +
                            point("v_toggle/a", "a.sv", 1, "", "q[0]", "TOP.a", toggle));
  };
  const std::string reset = dat("c.dat.reset", 7, 2, 1);
  const std::string final_file = dat("c.dat", 10, 0, 0);
  add_reset_phase_hits(final_file, reset);
  const CodeCoverage cc = CodeCoverage::load(final_file);
  ASSERT_EQ(cc.points().size(), 3u);
  EXPECT_EQ(cc.points()[0].count, 17u);  // line: both phases
  EXPECT_EQ(cc.points()[1].count, 2u);   // a reset-only branch stays hit
  EXPECT_EQ(cc.points()[2].count, 0u);   // the reset toggle is dropped
  EXPECT_EQ(cc.total().toggles_hit, 0u);
}

TEST(ResetPhaseCoverage, MismatchedOrBadFilesNameTheFile) {
  TempDir d;
  const std::string one = "# SystemC::Coverage-3\n" + point("v_line/a", "a.sv", 3, "", "block", "TOP.a", 1);
  const std::string two = one + point("v_toggle/a", "a.sv", 1, "", "q[0]", "TOP.a", 1);
  auto error_of = [](const std::string& f, const std::string& r) -> std::string {
    try {
      add_reset_phase_hits(f, r);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(error_of(d.file("f1.dat", one), d.file("r2.dat", two)).find("f1.dat: 1 points, the reset snapshot"),
            std::string::npos);
  EXPECT_NE(error_of(d.file("f2.dat", two), d.file("r1.dat", one)).find("point not in the reset snapshot"),
            std::string::npos);
  EXPECT_NE(error_of(d.file("f3.dat", one), d.file("bad.dat", "# x\nC 'k' many\n")).find("bad.dat:2: count 'many'"),
            std::string::npos);
  EXPECT_NE(error_of(d.file("f4.dat", one), d.file("missing.dat")).find("missing.dat: cannot read"), std::string::npos);
  // A failed combination leaves the final file as it was.
  EXPECT_EQ(CodeCoverage::load(d.file("f1.dat")).points()[0].count, 1u);
}

// Per-test coverage files are stored compressed: the round trip gives the same bytes and the
// same points, the plain file is gone, and bad compressed files name themselves.
TEST(CoverageFileGzip, RoundTripAndBadFiles) {
  TempDir d;
  std::string text = "# SystemC::Coverage-3\n";
  for (int i = 0; i < 2000; ++i) text += point("v_toggle/a", "a.sv", i, "", "q[" + std::to_string(i % 7) + "]", "TOP.a", i % 3);
  const std::string plain = d.file("c.dat", text);
  gzip_coverage_file(plain);
  EXPECT_FALSE(fs::exists(plain));
  ASSERT_TRUE(fs::exists(plain + ".gz"));
  EXPECT_LT(fs::file_size(plain + ".gz"), text.size() / 5);
  gunzip_coverage_file(plain + ".gz", d.file("back.dat"));
  auto slurp = [](const std::string& path) {
    std::ostringstream ss;
    ss << std::ifstream(path, std::ios::binary).rdbuf();
    return ss.str();
  };
  EXPECT_EQ(slurp(d.file("back.dat")), text);
  EXPECT_EQ(CodeCoverage::load(d.file("back.dat")).points().size(), 2000u);

  auto error_of = [](auto f) -> std::string {
    try {
      f();
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(error_of([&] { gzip_coverage_file(d.file("none.dat")); }).find("none.dat: cannot read"), std::string::npos);
  EXPECT_NE(error_of([&] { gunzip_coverage_file(d.file("none.gz"), d.file("o.dat")); }).find("none.gz: cannot read"),
            std::string::npos);
  const std::string gz = slurp(plain + ".gz");
  d.file("cut.gz", gz.substr(0, gz.size() / 2));
  EXPECT_NE(error_of([&] { gunzip_coverage_file(d.file("cut.gz"), d.file("o.dat")); }).find("cut.gz: truncated"),
            std::string::npos);
  // An output that cannot be written is the merge's problem, not the file's: its own type.
  EXPECT_THROW(gunzip_coverage_file(plain + ".gz", d.file("no_such_dir/o.dat")), CoverageFileWriteError);
  d.file("junk.gz", std::string(64, '\x1f') + "not gzip at all");
  EXPECT_NE(error_of([&] { gunzip_coverage_file(d.file("junk.gz"), d.file("o.dat")); }).find("junk.gz: not gzip data"),
            std::string::npos);
}

// The project's waiver file loads, names source files that exist and configurations that exist,
// and every waived line of an RTL file is a line of that file (an edit that moves code shows).
TEST(CodeCoverageClosure, ProjectWaiverFileIsValid) {
  const fs::path root = DLA_SOURCE_DIR;
  const auto waivers = load_code_coverage_waivers((root / "regress/plans/code_coverage_waivers.yaml").string());
  ASSERT_FALSE(waivers.empty());
  for (const CodeCoverageWaiver& w : waivers) {
    SCOPED_TRACE("entry " + std::to_string(w.entry) + " " + w.file);
    const fs::path f = root / w.file;
    ASSERT_TRUE(fs::exists(f));
    if (!w.config.empty()) {
      EXPECT_TRUE(fs::exists(root / "rtl/configs" / (w.config + ".yaml")));
    }
    EXPECT_GE(w.reason.size(), 20u);
    std::ifstream in(f);
    int n = 0;
    for (std::string l; std::getline(in, l);) ++n;
    for (const auto& [first, last] : w.lines) EXPECT_LE(last, n);
  }
}

TEST(CodeCoverage, UnitOfSource) {
  EXPECT_EQ(unit_of_source("/r/rtl/bdma/dla_bdma.sv"), "bdma");
  EXPECT_EQ(unit_of_source("/b/gen/v1/rtl/dla_bdma_shell.sv"), "regs");
  EXPECT_EQ(unit_of_source("/b/gen/small/rtl/dla_reg_shells.sv"), "regs");  // not a unit "rtl"
  EXPECT_EQ(unit_of_source("NV_nvdla.sv"), "top");
}

TEST(Ranking, GreedyCoverIsSmallAndKeepsEveryBin) {
  const std::vector<std::set<std::string>> s = {{"a", "b"}, {"a", "b", "c"}, {"d"}, {"c"}, {"a"}, {}};
  std::vector<size_t> gains;
  const auto picks = greedy_cover(s, &gains);
  EXPECT_EQ(picks, (std::vector<size_t>{1, 2}));
  EXPECT_EQ(gains, (std::vector<size_t>{3, 1}));
  EXPECT_TRUE(greedy_cover({}).empty());
}

TEST(Ranking, PlanYamlRerunsTheSameJobs) {
  TempDir d;
  Job a;
  a.entry = "bdma-s7";
  a.id = "bdma-s7/7";
  a.test = "bdma.random";
  a.config = "v1";
  a.seed = 7;
  a.knobs = {{"ports", "dbb"}, {"max_lines", "2"}};
  a.golden_only = true;
  a.axi_profile = "slow";
  a.timeout_seconds = 30;
  a.covergroups = {"bdma.op"};
  Job b = a;
  b.entry = "regs-s3";
  b.id = "regs-s3/3";
  b.test = "regs.access";
  b.config = "small";
  b.seed = 3;
  b.knobs.clear();
  b.covergroups.clear();
  b.watchdog_cycles = 5000;
  const Plan p = load_plan(d.file("ranked.yaml", plan_yaml("ranked", "two tests", {a, b})));
  const auto jobs = expand(p, Level::Smoke);
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].id, a.id);
  EXPECT_EQ(jobs[0].knobs, a.knobs);
  EXPECT_EQ(jobs[0].run_args("o"), a.run_args("o"));
  EXPECT_EQ(jobs[1].run_args("o"), b.run_args("o"));
  EXPECT_THROW(plan_yaml("x", "", {a, a}), std::logic_error);
}

TEST(Closure, KnobCandidatesComeFromTheGeneratorsValidation) {
  const auto c = knob_candidates(find_test_generator("bdma.random"), "v1", {{{"max_line_bytes", "262144"}}});
  const auto& ports = c.at("ports");
  EXPECT_EQ(std::set<std::string>(ports.begin(), ports.end()), (std::set<std::string>{"both", "dbb", "sram"}));
  const auto& lines = c.at("max_lines");
  EXPECT_GE(lines.size(), 4u);  // the declared range spread out, not just the default
  const auto& bytes = c.at("max_line_bytes");
  EXPECT_NE(std::find(bytes.begin(), bytes.end(), "262144"), bytes.end());  // the plan's value
  for (const auto& [knob, values] : c)
    for (const std::string& v : values)  // every candidate builds a program
      EXPECT_NO_THROW(find_test_generator("bdma.random").generate(HwConfig::get("v1"), 1, {{knob, v}})) << knob << "=" << v;
}

TEST(Closure, PicksCandidatesThatHitHolesAndIsSeeded) {
  // The plan's only entry copies tiny lines between DBB buffers: the merged coverage of one
  // seed leaves the SRAM port and large lines as holes that other knob settings hit.
  Job base;
  base.entry = "tiny";
  base.id = "tiny/1";
  base.test = "bdma.random";
  base.config = "v1";
  base.seed = 1;
  base.knobs = {{"ports", "dbb"}, {"max_line_bytes", "32"}};
  base.golden_only = true;
  RunRequest req;
  req.test = base.test;
  req.seed = 1;
  req.knobs = base.knobs;
  req.golden_only = true;
  const RunResult r = run_test(req);
  ASSERT_EQ(r.verdict, Verdict::Pass) << r.summary;
  const cov::CoverageData before = cov::sample_coverage(cov::CoverageInput{HwConfig::get("v1"), r.layers, r.control});
  ClosureOptions opt;
  opt.candidates = 16;
  opt.max_tests = 5;
  const ClosureSelection sel = select_closure_tests({base}, before, opt);
  EXPECT_EQ(sel.screened, 16u);
  EXPECT_EQ(sel.holes_before, before.holes().size());
  ASSERT_FALSE(sel.picks.empty());
  EXPECT_LE(sel.picks.size(), 5u);
  std::set<std::string> holes;
  for (const cov::Hole& h : before.holes()) holes.insert(h.path());
  for (size_t i = 0; i < sel.picks.size(); ++i) {
    const ClosurePick& p = sel.picks[i];
    EXPECT_EQ(p.job.id, "closure-tiny-" + std::to_string(p.job.seed) + "/" + std::to_string(p.job.seed));
    EXPECT_FALSE(p.holes.empty()) << "pick " << i << " hits no new hole";
    for (const std::string& h : p.holes) EXPECT_TRUE(holes.count(h)) << h;
    // The pick really hits them: rerun it golden-only and sample.
    RunRequest q = req;
    q.seed = p.job.seed;
    q.knobs = p.job.knobs;
    const RunResult rr = run_test(q);
    const auto hit = hit_bins(cov::sample_coverage(cov::CoverageInput{HwConfig::get("v1"), rr.layers, rr.control}));
    for (const std::string& h : p.holes) EXPECT_TRUE(hit.count(h)) << h;
  }
  // Picks are ordered by gain and the same seed picks the same tests.
  for (size_t i = 1; i < sel.picks.size(); ++i) EXPECT_GE(sel.picks[i - 1].holes.size(), sel.picks[i].holes.size());
  const ClosureSelection again = select_closure_tests({base}, before, opt);
  ASSERT_EQ(again.picks.size(), sel.picks.size());
  for (size_t i = 0; i < sel.picks.size(); ++i) EXPECT_EQ(again.picks[i].job.run_args("o"), sel.picks[i].job.run_args("o"));
  EXPECT_EQ(sel.holes_left.size() + [&] {
    size_t n = 0;
    for (const auto& p : sel.picks) n += p.holes.size();
    return n;
  }(), sel.holes_before);
}

}  // namespace
}  // namespace dla::regression
