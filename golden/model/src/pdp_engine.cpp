#include "pdp_engine.h"

#include <algorithm>
#include <vector>

#include "dla/numerics/float_arith.h"
#include "dla/numerics/float_convert.h"
#include "dla/numerics/float_format.h"
#include "dla/numerics/integer_ops.h"
#include "dla/planted_bug.h"

namespace dla::golden {

namespace {

using num::kFp16;

// Real columns / rows of a window: [begin, end) clipped to the plane, plus the padded count.
struct Span {
  int64_t begin = 0, end = 0;
  uint32_t padded = 0;
  uint32_t real() const { return static_cast<uint32_t>(end - begin); }
};

Span span(int64_t start, uint32_t k, uint32_t size) {
  Span s;
  s.begin = std::max<int64_t>(start, 0);
  s.end = std::min<int64_t>(start + k, size);
  if (s.end < s.begin) s.end = s.begin;
  s.padded = k - s.real();
  return s;
}

// Bit widths of the integer stages (spec §1.7 table).
struct IntWidths {
  unsigned row, total, after_w, out;
};
constexpr IntWidths kInt8Widths{11, 14, 11, 8};
constexpr IntWidths kInt16Widths{22, 22, 19, 16};

// The input block of one stripe and surface: lanes of H rows x stripe columns.
class Block {
 public:
  Block(uint32_t rows, uint32_t cols, unsigned lanes) : cols_(cols), lanes_(lanes), v_(size_t{rows} * cols * lanes) {}
  uint16_t& at(int64_t y, int64_t x, unsigned lane) {
    return v_[(static_cast<size_t>(y) * cols_ + static_cast<size_t>(x)) * lanes_ + lane];
  }

 private:
  uint32_t cols_;
  unsigned lanes_;
  std::vector<uint16_t> v_;
};

class Pooler {
 public:
  explicit Pooler(const PdpLayer& l)
      : l_(l), method_(static_cast<PoolMethod>(l.method > 2 ? 1 : l.method)),
        int_widths_(l.format == 0 ? kInt8Widths : kInt16Widths),
        plant_recip_rounding_(planted("pdp.reciprocal_rounding")) {}

  // Result bits of one lane for the window of real rows `rows` and real columns `cols`.
  uint16_t pool(Block& b, const Span& rows, const Span& cols, unsigned lane) const {
    if (l_.is_fp16()) return method_ == PoolMethod::Average ? average_fp16(b, rows, cols, lane)
                                                            : extreme_fp16(b, rows, cols, lane);
    return method_ == PoolMethod::Average ? average_int(b, rows, cols, lane) : extreme_int(b, rows, cols, lane);
  }

 private:
  int64_t element(uint16_t bits) const { return l_.format == 0 ? num::sx(bits, 8) : num::sx(bits, 16); }
  uint16_t bits_of(int64_t v) const { return static_cast<uint16_t>(v & (l_.format == 0 ? 0xFF : 0xFFFF)); }
  uint32_t pad_register(uint32_t n) const { return n >= 1 && n <= 7 ? l_.pad_value[n - 1] : 0u; }

  uint16_t extreme_int(Block& b, const Span& rows, const Span& cols, unsigned lane) const {
    if (rows.real() == 0 || cols.real() == 0) return 0;
    int64_t acc = element(b.at(rows.begin, cols.begin, lane));
    for (int64_t y = rows.begin; y < rows.end; ++y)
      for (int64_t x = cols.begin; x < cols.end; ++x) {
        const int64_t v = element(b.at(y, x, lane));
        acc = method_ == PoolMethod::Max ? std::max(acc, v) : std::min(acc, v);
      }
    return bits_of(acc);
  }

  uint16_t average_int(Block& b, const Span& rows, const Span& cols, unsigned lane) const {
    const IntWidths& w = int_widths_;
    // Width padding uses bits [10:0] (int8) or all 19 bits (int16) of the table entry.
    const uint32_t pw_reg = pad_register(cols.padded);
    const int64_t pad_w = l_.format == 0 ? num::sx(pw_reg & 0x7FF, 11) : num::sx(pw_reg, 19);
    int64_t total = 0;
    for (int64_t y = rows.begin; y < rows.end; ++y) {
      int64_t row = pad_w;
      for (int64_t x = cols.begin; x < cols.end; ++x) row += element(b.at(y, x, lane));
      total += num::wrap(row, w.row);
    }
    if (rows.padded > 0)
      total += num::wrap(num::sx(pad_register(rows.padded), 19) * l_.kernel_w, w.total);
    total = num::wrap(total, w.total);
    const int64_t a = round_narrow(total * int64_t{l_.recip_w}, w.after_w);
    return bits_of(round_narrow(a * int64_t{l_.recip_h}, w.out));
  }

  // The reciprocal multiply's rounding; the checker-proof plant rounds positive ties down.
  int64_t round_narrow(int64_t p, unsigned w) const {
    if (plant_recip_rounding_ && p >= 0 && (p & 0xFFFF) == 0x8000) --p;
    return num::pdp_round_narrow(p, w);
  }

  uint16_t extreme_fp16(Block& b, const Span& rows, const Span& cols, unsigned lane) const {
    if (rows.real() == 0 || cols.real() == 0) return 0;
    const bool is_max = method_ == PoolMethod::Max;
    auto op = [&](uint16_t a, uint16_t c) { return is_max ? num::max16(a, c) : num::min16(a, c); };
    uint16_t acc = 0;
    for (int64_t y = rows.begin; y < rows.end; ++y) {
      uint16_t row = b.at(y, cols.begin, lane);
      for (int64_t x = cols.begin + 1; x < cols.end; ++x) row = op(row, b.at(y, x, lane));
      acc = y == rows.begin ? row : op(row, acc);  // height pass: the newer row is the first operand
    }
    return acc;
  }

  uint16_t average_fp16(Block& b, const Span& rows, const Span& cols, unsigned lane) const {
    const uint32_t pad_w = cols.padded > 0 ? pad_register(cols.padded) & 0x1FFFFu : 0u;
    uint32_t acc = 0;
    for (int64_t y = rows.begin; y < rows.end; ++y) {
      uint32_t row = 0;
      for (int64_t x = cols.begin; x < cols.end; ++x) {
        const uint32_t v = num::fp16_to_fp17(b.at(y, x, lane));
        row = x == cols.begin ? v : num::add17(row, v);
      }
      row = num::add17(row, pad_w);
      acc = y == rows.begin ? row : num::add17(row, acc);  // height pass: the newer row is the first operand
    }
    const uint32_t pad_h = rows.padded > 0
                               ? num::mul17(pad_register(rows.padded) & 0x1FFFFu, fp17_of_integer(l_.kernel_w))
                               : 0u;
    acc = num::add17(acc, pad_h);
    const uint32_t t = num::mul17(acc, l_.recip_w & 0x1FFFFu);
    const uint32_t u = num::mul17(t, l_.recip_h & 0x1FFFFu);
    return num::fp17_to_fp16(u);
  }

  const PdpLayer& l_;
  PoolMethod method_;
  IntWidths int_widths_;
  bool plant_recip_rounding_;
};

}  // namespace

PdpCounters run_pdp_layer(const PdpLayer& l, unsigned atom_bytes, PdpInput& in, SparseMemory& out) {
  const unsigned eb = l.elem_bytes();
  const unsigned lanes = atom_bytes / eb;
  const uint32_t surfaces = (l.channels + lanes - 1) / lanes;
  const bool from_memory = in.from_memory();
  const bool flush_nan = l.is_fp16() && l.nan_to_zero && from_memory;
  const Pooler pooler(l);
  PdpCounters counters;
  uint64_t nan_in = 0, inf_in = 0, nan_out = 0;
  std::vector<uint8_t> atom(atom_bytes), row_bytes;

  std::vector<PdpStripe> stripes = pdp_stripes(l);
  if (planted("pdp.split_boundary"))  // checker proof: later stripes start one column late
    for (size_t i = 1; i < stripes.size(); ++i) ++stripes[i].in_start;
  for (const PdpStripe& st : stripes) {
    row_bytes.assign(size_t{st.out_width} * atom_bytes, 0);
    for (uint32_t s = 0; s < surfaces; ++s) {
      // PDP_RDMA order: line by line, the stripe's columns left to right.
      Block block(l.height, st.in_width, lanes);
      for (uint32_t h = 0; h < l.height; ++h)
        for (uint32_t x = 0; x < st.in_width; ++x) {
          in.read_atom(s, h, st.in_start + x, atom.data());
          for (unsigned lane = 0; lane < lanes; ++lane) {
            uint16_t v = eb == 1 ? atom[lane] : static_cast<uint16_t>(atom[2 * lane] | atom[2 * lane + 1] << 8);
            if (l.is_fp16()) {
              if (from_memory && kFp16.is_nan(v)) ++nan_in;
              if (from_memory && kFp16.is_inf_pattern(v)) ++inf_in;
              if (flush_nan && kFp16.is_nan(v)) v = 0;
            }
            block.at(h, x, lane) = v;
          }
        }
      for (uint32_t oy = 0; oy < l.out_height; ++oy) {
        const Span rows = span(int64_t{oy} * l.stride_h - l.pad_top, l.kernel_h, l.height);
        for (uint32_t ox = 0; ox < st.out_width; ++ox) {
          const Span cols = span(int64_t{ox} * l.stride_w - st.pad_left, l.kernel_w, st.in_width);
          uint8_t* dst = &row_bytes[size_t{ox} * atom_bytes];
          for (unsigned lane = 0; lane < lanes; ++lane) {
            const uint16_t r = pooler.pool(block, rows, cols, lane);
            if (l.is_fp16() && kFp16.is_nan(r)) ++nan_out;
            dst[lane * eb] = static_cast<uint8_t>(r);
            if (eb == 2) dst[lane * eb + 1] = static_cast<uint8_t>(r >> 8);
          }
        }
        if (!row_bytes.empty())
          out.write(l.dst + s * l.dst_surface + oy * l.dst_line + uint64_t{st.out_start} * atom_bytes, row_bytes);
      }
    }
  }
  counters.nan_input = pdp_counter_add(0, nan_in);
  counters.inf_input = pdp_counter_add(0, inf_in);
  counters.nan_output = pdp_counter_add(0, nan_out);
  return counters;
}

}  // namespace dla::golden
