// SDP's input and output interfaces. The datapath works on processing atoms: EPA(PROC)
// lanes of 32-bit values per (surface, line, w). The input comes from SDP_RDMA (memory,
// today) or from the convolution accumulator (flying mode, later); the output goes to
// memory or streams to PDP (OUTPUT_DST = PDP). Both ends are interfaces so that the CACC
// and PDP models can plug in without touching the SDP datapath.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "dla/sparse_memory.h"
#include "sdp_config.h"

namespace dla::golden {

class SdpInputSource {
 public:
  virtual ~SdpInputSource() = default;
  // The 32-bit elements (int32, or fp32 patterns in FP16 PROC) of processing atom
  // (surface, line, w) of batch `batch`: l.proc_lanes() values into `lanes`.
  virtual void read_atom(unsigned batch, uint32_t surface, uint32_t line, uint32_t w, uint32_t* lanes) = 0;
  // Flying input: whether a cube waits to be read, why the layer `l` cannot read it (shape or
  // precision disagree), and the end of the layer that read it.
  virtual bool available() const { return true; }
  virtual std::optional<std::string> mismatch(const SdpLayerConfig&) const { return std::nullopt; }
  virtual void consume() {}
};

// Memory input (FLYING_MODE = OFF, sdp.md §4.1, §4.4): decodes IN_PRECISION elements,
// widens fp16 to fp32 and merges INT16 surface pairs in 16->8 mode.
class SdpMemoryInput final : public SdpInputSource {
 public:
  SdpMemoryInput(const SdpLayerConfig& l, const SparseMemory& mem) : l_(l), mem_(mem), buf_(l.atom_bytes) {}
  void read_atom(unsigned batch, uint32_t surface, uint32_t line, uint32_t w, uint32_t* lanes) override;
  // Address of input-precision atom (surface, line, w) (sdp.md §4.1; W = H = 1 packs surfaces).
  static uint64_t atom_address(const SdpLayerConfig& l, uint32_t surface, uint32_t line, uint32_t w);

 private:
  const SdpLayerConfig& l_;
  const SparseMemory& mem_;
  std::vector<uint8_t> buf_;
};

class SdpOutputSink {
 public:
  virtual ~SdpOutputSink() = default;
  // One output atom (atom_bytes bytes, OUT_PRECISION elements in lane order) at output
  // surface `surface` (an OUT-precision surface), line, w of batch `batch`.
  virtual void write_atom(unsigned batch, uint32_t surface, uint32_t line, uint32_t w, const uint8_t* bytes) = 0;
};

// OUTPUT_DST = MEM (sdp.md §11.1-§11.5).
class SdpMemoryOutput final : public SdpOutputSink {
 public:
  SdpMemoryOutput(const SdpLayerConfig& l, SparseMemory& mem) : l_(l), mem_(mem) {}
  void write_atom(unsigned batch, uint32_t surface, uint32_t line, uint32_t w, const uint8_t* bytes) override;
  static uint64_t atom_address(const SdpLayerConfig& l, unsigned batch, uint32_t surface, uint32_t line, uint32_t w);

 private:
  const SdpLayerConfig& l_;
  SparseMemory& mem_;
};

// OUTPUT_DST = PDP: the atoms in SDP's output order, for the PDP model's on-flying input.
class SdpCollectedOutput final : public SdpOutputSink {
 public:
  struct Atom {
    unsigned batch;
    uint32_t surface, line, w;
    std::vector<uint8_t> bytes;
  };
  void write_atom(unsigned batch, uint32_t surface, uint32_t line, uint32_t w, const uint8_t* bytes) override;
  std::vector<Atom> atoms;
  unsigned atom_bytes = 0;
};

// Memory operands of the BS/BN/EW streams (sdp.md §5).
class SdpOperandReader {
 public:
  SdpOperandReader(const SdpLayerConfig& l, const SdpOperandStream& s, const SparseMemory& mem);
  // (ALU component, MUL component) of lane `lane` of processing atom (surface, line, w);
  // a component the stream does not carry reads 0.
  std::pair<uint16_t, uint16_t> get(uint32_t surface, uint32_t line, uint32_t w, unsigned lane) const;

 private:
  uint16_t component(uint64_t addr) const;
  const SdpLayerConfig& l_;
  const SdpOperandStream& s_;
  const SparseMemory& mem_;
  std::vector<std::pair<uint16_t, uint16_t>> per_kernel_;
};

}  // namespace dla::golden
