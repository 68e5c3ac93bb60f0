#include "rubik_stimulus.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "dla/regs.gen.h"

namespace dla::stimulus {

namespace {

namespace R = reg::RBK;

constexpr uint64_t kAtom = kRubikAtom;

uint64_t round_atoms(uint64_t bytes) { return (bytes + kAtom - 1) / kAtom * kAtom; }

// Widths around the 64-element chunk of split and merge, and 1.
uint32_t pick_width(Rng& r, uint32_t max) {
  const uint64_t c = kRubikChunkElements;
  switch (r.below(6)) {
    case 0: return 1;
    case 1: return std::min<uint32_t>(max, static_cast<uint32_t>(c));
    case 2: return static_cast<uint32_t>(r.uniform(std::min<uint64_t>(max, c + 1), max));
    default: return static_cast<uint32_t>(r.uniform(1, std::min<uint64_t>(max, c - 1)));
  }
}

// Channels: 1, below one atom, exactly one, a multiple, or more and unaligned.
uint32_t pick_channels(Rng& r, uint32_t lanes, uint32_t max) {
  auto clamp = [&](uint64_t v) { return static_cast<uint32_t>(std::clamp<uint64_t>(v, 1, max)); };
  switch (r.below(5)) {
    case 0: return 1;
    case 1: return clamp(r.uniform(2, std::max<uint64_t>(2, lanes - 1)));
    case 2: return clamp(lanes);
    case 3: return clamp(uint64_t{lanes} * r.uniform(2, std::max<uint64_t>(2, max / lanes)));
    default: return clamp(r.uniform(lanes + 1, std::max<uint64_t>(lanes + 1, max)));
  }
}

uint32_t pick_deconv_stride(Rng& r, uint32_t max) {
  if (r.chance(0.3)) return 1;
  if (max > 8 && r.chance(0.2)) return static_cast<uint32_t>(r.uniform(9, max));
  return static_cast<uint32_t>(r.uniform(1, std::min<uint32_t>(max, 8)));
}

// At its minimum, or up to four atoms above it.
uint64_t pick_stride(Rng& r, uint64_t minimum) { return r.chance(0.5) ? minimum : minimum + r.uniform(1, 4) * kAtom; }

}  // namespace

RubikLayer random_rubik_layer(const HwConfig& cfg, Rng& shape, const RubikShapeLimits& lim) {
  std::vector<Precision> precisions = lim.precisions;
  if (precisions.empty()) precisions = cfg.precisions;
  RubikLayer l;
  l.mode = static_cast<uint32_t>(shape.choice(lim.modes));
  l.precision = static_cast<uint32_t>(shape.choice(precisions));
  l.width = pick_width(shape, lim.max_width);
  l.height = static_cast<uint32_t>(shape.uniform(std::min(lim.min_height, lim.max_height), lim.max_height));
  const uint32_t c = pick_channels(shape, l.lanes(), lim.max_channels);
  switch (l.rubik_mode()) {
    case RubikMode::Contract:
      l.out_channels = c;
      l.stride_x = pick_deconv_stride(shape, lim.max_deconv_stride);
      l.stride_y = pick_deconv_stride(shape, lim.max_deconv_stride);
      // The channel-extended cube deconvolution produced (DATAIN_CHANNEL is not used).
      l.channels = std::min<uint32_t>(8192, l.out_surfaces() * l.lanes() * l.stride_x * l.stride_y);
      break;
    case RubikMode::Split:
      l.channels = c;
      l.out_channels = c > 1 && shape.chance(lim.plane_subset_percent / 100.0)
                           ? static_cast<uint32_t>(shape.uniform(1, c - 1))
                           : c;
      break;
    case RubikMode::Merge:
      l.channels = l.out_channels = c;
      break;
  }
  // Knobs at their limits (up to 8192 rows, columns and channels, 32x32 phases) can describe
  // layers of gigabytes: halve height, width, the phases, then the channels until it fits.
  while (rubik_payload_bytes(l) > lim.max_layer_bytes) {
    if (l.height > 1) l.height = (l.height + 1) / 2;
    else if (l.width > 1) l.width = (l.width + 1) / 2;
    else if (l.stride_x > 1 || l.stride_y > 1) l.stride_x = (l.stride_x + 1) / 2, l.stride_y = (l.stride_y + 1) / 2;
    else if (l.channels > 1 || l.out_channels > 1)
      l.channels = (l.channels + 1) / 2, l.out_channels = (l.out_channels + 1) / 2;
    else break;
    if (l.rubik_mode() == RubikMode::Contract)
      l.channels = std::min<uint32_t>(8192, l.out_surfaces() * l.lanes() * l.stride_x * l.stride_y);
  }
  return l;
}

uint64_t rubik_payload_bytes(const RubikLayer& l) {
  const uint64_t rows = l.height, cube_row = uint64_t{l.width} * kAtom;
  switch (l.rubik_mode()) {
    case RubikMode::Contract: return 2 * l.out_surfaces() * rows * l.stride_y * l.stride_x * cube_row;
    case RubikMode::Split: return l.in_surfaces() * rows * cube_row + l.out_channels * rows * l.plane_row_bytes();
    case RubikMode::Merge: return l.channels * rows * l.plane_row_bytes() + l.in_surfaces() * rows * cube_row;
  }
  return 0;
}

RubikRegionAllocator::RubikRegionAllocator(Rng& rng) : rng_(rng) {
  next_[static_cast<unsigned>(MemPort::Dbb)] = rng_.chance(0.3) ? (rng_.uniform(1, 0xff) << 32) + rng_.uniform(0, 0xffff) * 0x1000
                                                                : 0x8000'0000ull + rng_.uniform(0, 0x3fff) * 0x1000;
  next_[static_cast<unsigned>(MemPort::Sram)] = rng_.uniform(0, 0xff) * 0x1000;
}

uint64_t RubikRegionAllocator::take(MemPort port, uint64_t bytes) {
  uint64_t& n = next_[static_cast<unsigned>(port)];
  n += rng_.uniform(0, 6) * kAtom;
  const uint64_t at = n;
  n = round_atoms(n + bytes);
  return at;
}

void place_rubik_layer(RubikLayer& l, Rng& layout, RubikRegionAllocator& alloc, const std::string& ports) {
  auto port = [&]() {
    if (ports == "dbb") return MemPort::Dbb;
    if (ports == "sram") return MemPort::Sram;
    return layout.chance(0.5) ? MemPort::Dbb : MemPort::Sram;
  };
  l.in_port = port();
  l.out_port = port();
  l.in_line = l.in_surface = l.in_planar = l.out_line = l.out_surface = l.out_planar = l.contract0 = l.contract1 = 0;
  const uint64_t h1 = l.height - 1;
  switch (l.rubik_mode()) {
    case RubikMode::Contract: {
      const uint64_t wo = uint64_t{l.width} * l.stride_x * kAtom;
      l.in_line = pick_stride(layout, uint64_t{l.width} * kAtom);
      l.in_surface = pick_stride(layout, l.height * l.in_line);
      l.contract0 = l.out_surfaces() * l.in_surface;
      l.out_line = pick_stride(layout, wo);
      const uint64_t group = (l.stride_y - 1) * l.out_line + wo;
      l.contract1 = layout.chance(0.6) ? l.stride_y * l.out_line : pick_stride(layout, group);
      l.out_surface = pick_stride(layout, h1 * l.contract1 + group);
      break;
    }
    case RubikMode::Split:
      l.in_line = pick_stride(layout, uint64_t{l.width} * kAtom);
      l.in_surface = pick_stride(layout, l.height * l.in_line);
      l.out_line = pick_stride(layout, l.plane_row_bytes());
      l.out_planar = pick_stride(layout, h1 * l.out_line + l.plane_row_bytes());
      break;
    case RubikMode::Merge:
      l.in_line = pick_stride(layout, l.plane_row_bytes());
      l.in_planar = pick_stride(layout, h1 * l.in_line + l.plane_row_bytes());
      l.out_line = pick_stride(layout, uint64_t{l.width} * kAtom);
      l.out_surface = pick_stride(layout, h1 * l.out_line + uint64_t{l.width} * kAtom);
      break;
  }
  l.in = 0, l.out = 0;
  const uint64_t in_bytes = rubik_read_extent(l).end, out_bytes = rubik_write_extent(l).end;
  l.in = alloc.take(l.in_port, in_bytes);
  l.out = alloc.take(l.out_port, out_bytes);
}

std::vector<uint8_t> rubik_expected_output(const RubikLayer& l, const std::vector<uint8_t>& input,
                                           const std::vector<uint8_t>& before) {
  std::vector<uint8_t> out = before;
  const uint64_t bpe = l.element_bytes(), lanes = l.lanes();
  auto put = [&](uint64_t dst, uint8_t v) { out.at(static_cast<size_t>(dst)) = v; };
  auto get = [&](uint64_t src) { return input.at(static_cast<size_t>(src)); };
  switch (l.rubik_mode()) {
    case RubikMode::Contract:
      // Output pixel (wo, h*sy + ty) of surface s is input pixel (wo / sx, h) of phase
      // (wo % sx, ty), surface s.
      for (uint64_t s = 0; s < l.out_surfaces(); ++s)
        for (uint64_t h = 0; h < l.height; ++h)
          for (uint64_t ty = 0; ty < l.stride_y; ++ty)
            for (uint64_t wo = 0; wo < uint64_t{l.width} * l.stride_x; ++wo)
              for (uint64_t b = 0; b < kAtom; ++b) {
                const uint64_t w = wo / l.stride_x, tx = wo % l.stride_x;
                put(s * l.out_surface + h * l.contract1 + ty * l.out_line + wo * kAtom + b,
                    get((ty * l.stride_x + tx) * l.contract0 + s * l.in_surface + h * l.in_line + w * kAtom + b));
              }
      break;
    case RubikMode::Split:
      // Plane c, row h: element w's bytes, then zero to the end of the last atom.
      for (uint64_t c = 0; c < l.out_channels; ++c)
        for (uint64_t h = 0; h < l.height; ++h)
          for (uint64_t x = 0; x < l.plane_row_bytes(); ++x) {
            const uint64_t w = x / bpe, s = c / lanes, lane = c % lanes;
            put(c * l.out_planar + h * l.out_line + x,
                w < l.width ? get(s * l.in_surface + h * l.in_line + w * kAtom + lane * bpe + x % bpe) : 0);
          }
      break;
    case RubikMode::Merge:
      // Atom (w, h) of surface s, byte b: channel s*E + b/bpe of plane row h, or 0 (pad lane).
      for (uint64_t s = 0; s < l.in_surfaces(); ++s)
        for (uint64_t h = 0; h < l.height; ++h)
          for (uint64_t w = 0; w < l.width; ++w)
            for (uint64_t b = 0; b < kAtom; ++b) {
              const uint64_t c = s * lanes + b / bpe;
              put(s * l.out_surface + h * l.out_line + w * kAtom + b,
                  c < l.channels ? get(c * l.in_planar + h * l.in_line + w * bpe + b % bpe) : 0);
            }
      break;
  }
  return out;
}

void program_rubik_layer(ProgramBuilder& b, const HwConfig& cfg, const RubikLayer& l, unsigned group) {
  const uint32_t rbk = *cfg.unit_base[static_cast<unsigned>(Unit::RBK)];
  b.write(rbk + R::S_POINTER::offset, group);
  for (const auto& [off, v] : rubik_register_values(l)) b.write(rbk + off, v);
  b.write(rbk + R::D_OP_ENABLE::offset, 1);
}

void finish_rubik_layer(ProgramBuilder& b, const HwConfig&, unsigned group, uint64_t timeout, const std::string& what) {
  const uint32_t glb_status = b.addr("GLB.S_INTR_STATUS");
  const uint32_t bit = 1u << (8 + group);
  b.wait_intr(bit, timeout);
  b.read(glb_status, bit, bit, fmt::format("GLB RUBIK_DONE_STATUS{} set after {}", group, what));
  b.write(glb_status, bit);
}

void rubik_quiescent_checks(ProgramBuilder& b, const HwConfig& cfg, const std::string& when) {
  const uint32_t rbk = *cfg.unit_base[static_cast<unsigned>(Unit::RBK)];
  b.read(rbk + R::S_STATUS::offset, 0xffffffffu, 0u, "RBK.S_STATUS idle " + when);
  b.read(rbk + R::S_POINTER::offset, 0xffffffffu, std::nullopt, "RBK.S_POINTER " + when);
  b.read(b.addr("GLB.S_INTR_STATUS"), 0xffffffffu, 0u, "GLB.S_INTR_STATUS all clear " + when);
}

uint64_t rubik_timeout(const RubikLayer& l) {
  const RubikExtent r = rubik_read_extent(l), w = rubik_write_extent(l);
  return 20'000 + (r.end - r.begin + w.end - w.begin) / kAtom * 64;
}

std::string describe_rubik_layer(const RubikLayer& l) {
  std::string s = fmt::format("{} {} {}x{}x{}", rubik_mode_name(l.rubik_mode()),
                              precision_name(static_cast<Precision>(std::min<uint32_t>(l.precision, 2))), l.width,
                              l.height, l.channels);
  if (l.rubik_mode() == RubikMode::Contract)
    s += fmt::format(" Co {} sx {} sy {} K0 {} K1 {}", l.out_channels, l.stride_x, l.stride_y, l.contract0, l.contract1);
  if (l.rubik_mode() == RubikMode::Split) s += fmt::format(" planes {}", l.out_channels);
  s += fmt::format(", in {} {:#x} line {} surf {} planar {}, out {} {:#x} line {} surf {} planar {}", mem_port_name(l.in_port),
                   l.in, l.in_line, l.in_surface, l.in_planar, mem_port_name(l.out_port), l.out, l.out_line,
                   l.out_surface, l.out_planar);
  return s;
}

}  // namespace dla::stimulus
