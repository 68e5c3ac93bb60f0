// RUBIK coverage (pdp_cdp_bdma_rubik_glb.md §4). Two groups:
// rubik.layer, one sample per completed RUBIK layer (decoded with decode_rubik_registers):
//   mode, precision, width class (1, up to one 8-column block, below / at / above the
//   64-element chunk), width tail (split/merge: a plane row ending inside an atom), channel
//   class against the atom's lanes (contract: Co; split/merge: Ci), height, deconvolution
//   strides (contract), planes written (split: all or a subset), input and output layout
//   (every used stride at its minimum, or some gapped), CONTRACT_STRIDE_1 (sy x LO or other),
//   memory ports and group; crosses of the mode with precision, width, channels, ports and
//   output layout, precision x tail, sx x sy.
// rubik.flow, one sample per RUBIK arming (from the register traffic): group, and whether
//   the other group was armed and its done interrupt not yet waited for (back to back).
// Items that do not apply to a layer's mode sample an "n/a" ignore bin.
#include <array>
#include <map>
#include <string>

#include "dla/coverage/covergroup.h"
#include "dla/regs.gen.h"
#include "dla/rubik_layer.h"
#include "models/models.h"

namespace dla::cov {

namespace {

namespace R = reg::RBK;

constexpr int64_t kNa = -1;
enum Width : int64_t { kW1, kWBlock, kWBelowChunk, kWChunk, kWAboveChunk };
enum Channels : int64_t { kC1, kCBelowAtom, kCOneAtom, kCMultiple, kCUnaligned };
enum Layout : int64_t { kPacked, kGapped };

int64_t width_class(uint32_t w) {
  if (w == 1) return kW1;
  if (w <= 8) return kWBlock;
  if (w < kRubikChunkElements) return kWBelowChunk;
  return w == kRubikChunkElements ? kWChunk : kWAboveChunk;
}

int64_t channel_class(uint32_t c, uint32_t lanes) {
  if (c == 1) return kC1;
  if (c < lanes) return kCBelowAtom;
  if (c == lanes) return kCOneAtom;
  return c % lanes == 0 ? kCMultiple : kCUnaligned;
}

int64_t stride_class(uint32_t s) { return s == 1 ? 0 : s <= 8 ? 1 : 2; }

// Packed when every stride that separates data the layer moves is at its minimum (the
// minima of place_rubik_layer / rubik_layer_violations); strides a size-1 dimension makes
// unused do not count.
Layout layout_of(std::initializer_list<std::pair<uint64_t, uint64_t>> strides_and_minima) {
  for (const auto& [stride, minimum] : strides_and_minima)
    if (stride > minimum) return kGapped;
  return kPacked;
}

class RubikCoverage : public UnitCoverage {
 public:
  explicit RubikCoverage(const HwConfig& cfg)
      : cfg_(cfg),
        layer_("rubik.layer", "each RUBIK layer: mode, precision, width/channel/height classes, deconvolution "
                              "strides, planes, strides packed or gapped, memory ports, group"),
        flow_("rubik.flow", "each RUBIK arming: group, and whether the other group's layer was still outstanding") {
    layer_.coverpoint("mode").bin("contract", 0).bin("split", 1).bin("merge", 2).illegal("reserved", 3, 3);
    Coverpoint& prec = layer_.coverpoint("precision");
    const char* names[] = {"int8", "int16", "fp16"};
    for (int64_t v = 0; v < 3; ++v)
      if (cfg.supports(static_cast<Precision>(v))) prec.bin(names[v], v);
    prec.illegal("reserved", 3, 3);
    layer_.coverpoint("width").bin("1", kW1).bin("2-8", kWBlock).bin("9-63", kWBelowChunk).bin("64", kWChunk)
        .bin("65+", kWAboveChunk);
    layer_.coverpoint("width_tail").bin("atom_aligned", 0).bin("tail", 1).ignore("n/a", kNa, kNa);
    layer_.coverpoint("channels").bin("1", kC1).bin("below_atom", kCBelowAtom).bin("one_atom", kCOneAtom)
        .bin("multiple", kCMultiple).bin("unaligned", kCUnaligned);
    layer_.coverpoint("height").bin("1", 1).bin("2-4", 2, 4).bin("5+", 5, 8192);
    for (const char* s : {"stride_x", "stride_y"})
      layer_.coverpoint(s).bin("1", 0).bin("2-8", 1).bin("9-32", 2).ignore("n/a", kNa, kNa);
    layer_.coverpoint("planes").bin("all", 0).bin("subset", 1).ignore("n/a", kNa, kNa);
    layer_.coverpoint("in_layout").bin("packed", kPacked).bin("gapped", kGapped);
    layer_.coverpoint("out_layout").bin("packed", kPacked).bin("gapped", kGapped);
    layer_.coverpoint("contract_stride_1").bin("sy_lines", 0).bin("other", 1).ignore("n/a", kNa, kNa);
    for (const char* p : {"in_port", "out_port"}) {
      Coverpoint& c = layer_.coverpoint(p);
      if (cfg.sram_if) c.bin("sram", 0);
      c.bin("dbb", 1);
    }
    layer_.coverpoint("group").bin("0", 0).bin("1", 1);
    layer_.cross("mode_x_precision", {"mode", "precision"});
    layer_.cross("mode_x_width", {"mode", "width"});
    layer_.cross("mode_x_channels", {"mode", "channels"});
    layer_.cross("mode_x_ports", {"mode", "in_port", "out_port"});
    layer_.cross("mode_x_out_layout", {"mode", "out_layout"});
    layer_.cross("precision_x_width_tail", {"precision", "width_tail"});
    layer_.cross("stride_x_x_stride_y", {"stride_x", "stride_y"});

    flow_.coverpoint("group").bin("0", 0).bin("1", 1);
    flow_.coverpoint("back_to_back").bin("other_idle", 0).bin("other_outstanding", 1);
    flow_.cross("group_x_back_to_back", {"group", "back_to_back"});
  }

  void sample(const CoverageInput& in) override {
    for (const LayerRecord& r : in.layers)
      if (r.completed && r.unit == Unit::RBK) sample_layer(r);
    const uint32_t base = *cfg_.unit_base[static_cast<unsigned>(Unit::RBK)];
    unsigned producer = 0;
    std::array<bool, 2> outstanding{};
    for (const ControlEvent& e : in.control) {
      if (e.kind == ControlEvent::Kind::WaitIntr) {
        for (unsigned g = 0; g < 2; ++g)
          if (e.data & (1u << (8 + g))) outstanding[g] = false;
      } else if (e.kind == ControlEvent::Kind::Write && e.addr == base + R::S_POINTER::offset) {
        producer = R::S_POINTER::PRODUCER::get(e.data);
      } else if (e.kind == ControlEvent::Kind::Write && e.addr == base + R::D_OP_ENABLE::offset && (e.data & 1u)) {
        flow_.sample({{"group", producer}, {"back_to_back", outstanding[producer ^ 1u] ? 1 : 0}});
        outstanding[producer] = true;
      }
    }
  }

  std::vector<GroupData> data() const override { return {layer_.data(), flow_.data()}; }

 private:
  void sample_layer(const LayerRecord& r) {
    const RubikLayer l = decode_rubik_registers(r.regs);
    const uint64_t atom = kRubikAtom, h1 = l.height - 1, wi = uint64_t{l.width} * atom;
    std::map<std::string, int64_t> v = {{"mode", l.mode},
                                        {"precision", l.precision},
                                        {"width", width_class(l.width)},
                                        {"width_tail", kNa},
                                        {"height", l.height},
                                        {"stride_x", kNa},
                                        {"stride_y", kNa},
                                        {"planes", kNa},
                                        {"contract_stride_1", kNa},
                                        {"channels", kNa},
                                        {"in_layout", kNa},
                                        {"out_layout", kNa},
                                        {"in_port", l.in_port == MemPort::Dbb ? 1 : 0},
                                        {"out_port", l.out_port == MemPort::Dbb ? 1 : 0},
                                        {"group", r.group}};
    if (l.mode > 2 || l.precision > 2) {  // never completes; sampled for the illegal bins only
      layer_.sample(v);
      return;
    }
    const bool tall = l.height > 1;
    switch (l.rubik_mode()) {
      case RubikMode::Contract: {
        const uint64_t wo = wi * l.stride_x, group = (l.stride_y - 1) * l.out_line + wo;
        v["channels"] = channel_class(l.out_channels, l.lanes());
        v["stride_x"] = stride_class(l.stride_x);
        v["stride_y"] = stride_class(l.stride_y);
        v["contract_stride_1"] = l.contract1 == l.stride_y * l.out_line ? 0 : 1;
        v["in_layout"] = layout_of({{tall ? l.in_line : 0, wi}, {l.in_surface, l.height * l.in_line}});
        v["out_layout"] = layout_of({{l.stride_y > 1 ? l.out_line : 0, wo},
                                     {tall ? l.contract1 : 0, group},
                                     {l.out_surfaces() > 1 ? l.out_surface : 0, h1 * l.contract1 + group}});
        break;
      }
      case RubikMode::Split:
        v["channels"] = channel_class(l.channels, l.lanes());
        v["width_tail"] = (uint64_t{l.width} * l.element_bytes()) % atom != 0 ? 1 : 0;
        v["planes"] = l.out_channels < l.channels ? 1 : 0;
        v["in_layout"] = layout_of({{tall ? l.in_line : 0, wi},
                                    {l.in_surfaces() > 1 ? l.in_surface : 0, l.height * l.in_line}});
        v["out_layout"] = layout_of({{tall ? l.out_line : 0, l.plane_row_bytes()},
                                     {l.out_channels > 1 ? l.out_planar : 0, h1 * l.out_line + l.plane_row_bytes()}});
        break;
      case RubikMode::Merge:
        v["channels"] = channel_class(l.channels, l.lanes());
        v["width_tail"] = (uint64_t{l.width} * l.element_bytes()) % atom != 0 ? 1 : 0;
        v["in_layout"] = layout_of({{tall ? l.in_line : 0, l.plane_row_bytes()},
                                    {l.channels > 1 ? l.in_planar : 0, h1 * l.in_line + l.plane_row_bytes()}});
        v["out_layout"] = layout_of({{tall ? l.out_line : 0, wi},
                                     {l.in_surfaces() > 1 ? l.out_surface : 0, h1 * l.out_line + wi}});
        break;
    }
    layer_.sample(v);
  }

  const HwConfig& cfg_;
  Covergroup layer_, flow_;
};

}  // namespace

std::unique_ptr<UnitCoverage> make_rubik_coverage(const HwConfig& cfg) {
  if (!cfg.has_unit(Unit::RBK)) return nullptr;
  return std::make_unique<RubikCoverage>(cfg);
}

}  // namespace dla::cov
