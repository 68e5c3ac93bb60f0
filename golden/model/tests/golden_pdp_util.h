// Helpers for the golden PDP tests: program a PdpLayer into PDP_RDMA and PDP over CSB,
// fill the input cube (pad lanes included) and read output elements.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "dla/golden_model.h"
#include "dla/numerics/integer_ops.h"
#include "dla/pdp_layer.h"
#include "dla/regs.gen.h"

namespace dla::pdptest {

inline unsigned lanes(const HwConfig& cfg, const PdpLayer& l) { return cfg.atom_bytes / l.elem_bytes(); }
inline uint32_t surfaces(const HwConfig& cfg, const PdpLayer& l) {
  return (l.channels + lanes(cfg, l) - 1) / lanes(cfg, l);
}

// A layer with packed strides at fixed addresses, output size from the formula.
inline PdpLayer make_layer(const HwConfig& cfg, uint32_t format, PoolMethod method, uint32_t w, uint32_t h,
                           uint32_t c, uint32_t kw, uint32_t kh, uint32_t sw, uint32_t sh,
                           std::array<uint32_t, 4> pads_ltrb = {0, 0, 0, 0}) {
  PdpLayer l;
  l.format = format;
  l.method = static_cast<uint32_t>(method);
  l.width = w, l.height = h, l.channels = c, l.out_channels = c;
  l.kernel_w = kw, l.kernel_h = kh, l.stride_w = sw, l.stride_h = sh;
  l.pad_left = pads_ltrb[0], l.pad_top = pads_ltrb[1], l.pad_right = pads_ltrb[2], l.pad_bottom = pads_ltrb[3];
  l.out_width = pdp_output_size(w, l.pad_left, l.pad_right, kw, sw);
  l.out_height = pdp_output_size(h, l.pad_top, l.pad_bottom, kh, sh);
  l.recip_w = pdp_reciprocal(kw, format == 2);
  l.recip_h = pdp_reciprocal(kh, format == 2);
  l.src = 0x8000'0000ull;
  l.src_line = uint64_t{w} * cfg.atom_bytes;
  l.src_surface = l.src_line * h;
  l.dst = 0x8100'0000ull;
  l.dst_line = uint64_t{l.out_width} * cfg.atom_bytes;
  l.dst_surface = l.dst_line * l.out_height;
  return l;
}

// Integer pad table for pad element value v: PAD_VALUE_nX = n * v as a 19-bit pattern.
inline void set_int_pad_value(PdpLayer& l, int64_t v) {
  for (unsigned n = 1; n <= 7; ++n) l.pad_value[n - 1] = static_cast<uint32_t>(v * n) & 0x7FFFFu;
}

struct PdpHarness {
  const HwConfig& cfg;
  GoldenModel m;
  explicit PdpHarness(const std::string& config) : cfg(HwConfig::get(config)), m(cfg, 7) {}

  uint32_t base(Unit u) const { return *cfg.unit_base[static_cast<unsigned>(u)]; }
  void write(Unit u, uint32_t off, uint32_t v) { m.csb_write(base(u) + off, v); }
  uint32_t read(Unit u, uint32_t off) { return m.csb_read(base(u) + off); }

  // Input element (w, h, channel incl. pad lanes) -> bits.
  void fill_input(const PdpLayer& l, const std::function<uint16_t(uint32_t, uint32_t, uint32_t)>& value) {
    const unsigned e = lanes(cfg, l), eb = l.elem_bytes();
    for (uint32_t s = 0; s < surfaces(cfg, l); ++s)
      for (uint32_t h = 0; h < l.height; ++h)
        for (uint32_t w = 0; w < l.width; ++w) {
          std::vector<uint8_t> atom(cfg.atom_bytes);
          for (unsigned lane = 0; lane < e; ++lane) {
            const uint16_t v = value(w, h, s * e + lane);
            atom[lane * eb] = static_cast<uint8_t>(v);
            if (eb == 2) atom[lane * eb + 1] = static_cast<uint8_t>(v >> 8);
          }
          m.memory(l.src_port).load(l.src + s * l.src_surface + h * l.src_line + uint64_t{w} * cfg.atom_bytes, atom);
        }
  }
  uint16_t output(const PdpLayer& l, uint32_t w, uint32_t h, uint32_t c) const {
    const unsigned e = lanes(cfg, l), eb = l.elem_bytes();
    const uint64_t a = l.dst + (c / e) * l.dst_surface + h * l.dst_line + uint64_t{w} * cfg.atom_bytes + (c % e) * eb;
    const auto& mem = m.memory(l.dst_port);
    return eb == 1 ? mem.read_byte(a) : static_cast<uint16_t>(mem.read_byte(a) | mem.read_byte(a + 1) << 8);
  }
  int64_t output_int(const PdpLayer& l, uint32_t w, uint32_t h, uint32_t c) const {
    return num::sx(output(l, w, h, c), l.elem_bytes() * 8);
  }

  // Programs both units (the given group) and arms them; RDMA first unless told otherwise.
  void run(const PdpLayer& l, unsigned group = 0, bool rdma_first = true) {
    write(Unit::PDP_RDMA, reg::PDP_RDMA::S_POINTER::offset, group);
    write(Unit::PDP, reg::PDP::S_POINTER::offset, group);
    for (const auto& [off, v] : pdp_rdma_register_values(l)) write(Unit::PDP_RDMA, off, v);
    for (const auto& [off, v] : pdp_register_values(l)) write(Unit::PDP, off, v);
    const Unit first = rdma_first ? Unit::PDP_RDMA : Unit::PDP, second = rdma_first ? Unit::PDP : Unit::PDP_RDMA;
    write(first, reg::PDP::D_OP_ENABLE::offset, 1);
    write(second, reg::PDP::D_OP_ENABLE::offset, 1);
  }
  // The run completed: both groups idle, the PDP done bit of the group set.
  void expect_done(unsigned group) {
    EXPECT_EQ(read(Unit::PDP, reg::PDP::S_STATUS::offset), 0u);
    EXPECT_EQ(read(Unit::PDP_RDMA, reg::PDP_RDMA::S_STATUS::offset), 0u);
    EXPECT_NE(m.intr_status() & (1u << (4 + group)), 0u);
  }
  uint32_t counter(uint32_t offset, unsigned group) {
    write(Unit::PDP, reg::PDP::S_POINTER::offset, group);
    return read(Unit::PDP, offset);
  }
};

// Independent reference for int average pooling with a consistent pad table (spec §1.6):
// T = sum of real elements + v * padded positions, then the two rounded reciprocal steps.
inline int64_t reference_int_average(const std::function<int64_t(int64_t, int64_t)>& x, const PdpLayer& l,
                                     int64_t v, uint32_t ox, uint32_t oy) {
  int64_t t = 0, real = 0;
  for (uint32_t j = 0; j < l.kernel_h; ++j)
    for (uint32_t i = 0; i < l.kernel_w; ++i) {
      const int64_t xx = int64_t{ox} * l.stride_w - l.pad_left + i, yy = int64_t{oy} * l.stride_h - l.pad_top + j;
      if (xx >= 0 && xx < l.width && yy >= 0 && yy < l.height) {
        t += x(xx, yy);
        ++real;
      }
    }
  t += v * (int64_t{l.kernel_w} * l.kernel_h - real);
  const int64_t a = num::rha(t * l.recip_w, 16);
  return num::rha(a * l.recip_h, 16);
}

}  // namespace dla::pdptest
