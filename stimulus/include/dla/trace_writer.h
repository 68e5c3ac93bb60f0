// Exporter: writes a dla::Program as a `.cfg` trace (NVDLA master dialect) plus `.dat`
// surface files, with the expected values and CRCs of the golden model, so that a dlaverif
// test (e.g. a failing random seed) becomes a standalone directed test.
#pragma once

#include <cstdint>
#include <string>

#include "dla/hwconfig.h"
#include "dla/program.h"

namespace dla::trace {

struct ExportOptions {
  std::string name;          // file stem of the .cfg; empty: the directory's name
  uint64_t poison_seed = 0;  // the golden model's poison (use the run's seed)
  std::string repro;         // command that produced the program (written as a comment)
};

struct ExportResult {
  std::string cfg_path;
  size_t data_files = 0;
  size_t crc_checks = 0;     // end-of-test CRCs of what the golden model wrote
  size_t lines = 0;          // commands written
};

// Plays the program on a golden model of `cfg` and writes `<dir>/<name>.cfg` and its data
// files (the directory is created). Register reads become reg_read_check with the program's
// expectation or, when it has none, the golden model's value; interrupt waits become
// poll_reg_equal on GLB.S_INTR_STATUS; masks and timeouts the dialect cannot say go into
// `// dlaverif mask=.. timeout=..` annotations. At the end, every range the golden model
// wrote gets a check_crc. Throws std::invalid_argument for what the dialect cannot express
// (a register access at an address with no register, a <= / >= poll).
ExportResult export_trace(const Program& program, const HwConfig& cfg, const std::string& dir,
                          const ExportOptions& options = {});

}  // namespace dla::trace
