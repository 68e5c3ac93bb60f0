// The PDP pooling datapath (spec §1.5-§1.11, §6.1) on one layer: reads input atoms from a
// PdpInput, pools every lane of every atom, writes whole output atoms to memory.
#pragma once

#include <cstdint>

#include "dla/pdp_layer.h"
#include "dla/sparse_memory.h"

namespace dla::golden {

// Where the pooling engine gets the input cube. Off-flying: PDP_RDMA reading memory; the
// on-flying path (SDP's output stream, spec §1.12) plugs in here later.
class PdpInput {
 public:
  virtual ~PdpInput() = default;
  // The atom (atom_bytes bytes) at (surface, line, column) of the input cube. Columns are
  // cube columns; split mode asks for overlapping columns once per stripe.
  virtual void read_atom(uint32_t surface, uint32_t line, int64_t column, uint8_t* out) = 0;
  // Whether NaN flushing and input NaN/Inf counting apply (off-flying only, §1.8, §1.9).
  virtual bool from_memory() const = 0;
};

// PDP_RDMA: atoms at src + s*surface_stride + h*line_stride + w*atom.
class PdpMemoryInput final : public PdpInput {
 public:
  PdpMemoryInput(const SparseMemory& mem, uint64_t base, uint64_t line_stride, uint64_t surface_stride,
                 unsigned atom_bytes)
      : mem_(mem), base_(base), line_(line_stride), surface_(surface_stride), atom_(atom_bytes) {}
  void read_atom(uint32_t surface, uint32_t line, int64_t column, uint8_t* out) override {
    mem_.read(base_ + surface * surface_ + line * line_ + static_cast<uint64_t>(column) * atom_, out, atom_);
  }
  bool from_memory() const override { return true; }

 private:
  const SparseMemory& mem_;
  uint64_t base_, line_, surface_;
  unsigned atom_;
};

struct PdpCounters {
  uint32_t nan_input = 0, inf_input = 0, nan_output = 0;
};

// Runs the layer (any programming; rule violations give the natural extension of the
// arithmetic, see docs/pdp.md). Writes OWj atoms per stripe, surface and output row.
PdpCounters run_pdp_layer(const PdpLayer& layer, unsigned atom_bytes, PdpInput& in, SparseMemory& out);

}  // namespace dla::golden
