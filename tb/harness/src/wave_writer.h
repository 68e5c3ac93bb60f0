#pragma once
// FST waves of a Verilated model, opened at run time. With a window, the run is split into
// chunks of `window_cycles`: <path> holds the current chunk and <stem>.prev<ext> the one before,
// so together they cover at least the last `window_cycles` cycles before the end or a failure.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include "dla/simulation.h"
#include "verilated_fst_c.h"

namespace dla::tb {

template <class Dut>
class WaveWriter {
 public:
  static constexpr uint64_t kTimePerCycle = 10;  // the harness advances time by 5 per clock phase

  WaveWriter(Dut& dut, std::string path, uint64_t window_cycles)
      : dut_(dut), path_(std::move(path)), window_time_(window_cycles * kTimePerCycle) {
    if (!std::ofstream(path_)) throw std::invalid_argument("cannot write waves file '" + path_ + "'");
    open();
  }
  ~WaveWriter() {
    if (fst_) fst_->close();
  }
  WaveWriter(const WaveWriter&) = delete;
  WaveWriter& operator=(const WaveWriter&) = delete;

  void dump(uint64_t time) {
    if (window_time_ != 0 && time - chunk_start_ >= window_time_) rotate(time);
    fst_->dump(time);
  }
  void flush() { fst_->flush(); }

 private:
  void open() {
    fst_ = std::make_unique<VerilatedFstC>();
    dut_.trace(fst_.get(), 99);
    fst_->open(path_.c_str());
  }
  void rotate(uint64_t time) {
    fst_->close();
    fst_.reset();
    std::rename(path_.c_str(), waves_previous_chunk_path(path_).c_str());
    open();
    chunk_start_ = time;
  }

  Dut& dut_;
  std::string path_;
  uint64_t window_time_;
  uint64_t chunk_start_ = 0;
  std::unique_ptr<VerilatedFstC> fst_;
};

}  // namespace dla::tb
