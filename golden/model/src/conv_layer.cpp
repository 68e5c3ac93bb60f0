#include "dla/conv_layer.h"

#include <algorithm>
#include <deque>

#include <fmt/format.h>

#include "dla/formats/pixel_format.h"
#include "dla/regs.gen.h"

namespace dla::golden {

namespace {

namespace D = reg::CDMA;
namespace C = reg::CSC;
namespace A = reg::CACC;
namespace M = reg::CMAC_A;

Precision precision_of(unsigned code) { return code <= 2 ? static_cast<Precision>(code) : Precision::Int8; }

struct Reader {
  const ConvRegReader& f;
  template <class Reg, class Field>
  uint32_t get() const { return Field::get(f(Reg::offset)); }
  uint32_t raw(uint32_t offset) const { return f(offset); }
};

uint64_t address(uint32_t low, uint32_t high) { return (uint64_t{high} << 32) | low; }

MemPort port_of(bool mc, const HwConfig& cfg) { return mc || !cfg.sram_if ? MemPort::Dbb : MemPort::Sram; }

}  // namespace

const char* conv_input_kind_name(ConvInputKind k) {
  switch (k) {
    case ConvInputKind::Feature: return "direct";
    case ConvInputKind::Image: return "image";
    case ConvInputKind::Winograd: return "winograd";
  }
  return "?";
}

ConvLayer decode_conv_layer(const HwConfig& cfg, const ConvRegReader& cdma_f, const ConvRegReader& csc_f,
                            const ConvRegReader& cmac_a_f, const ConvRegReader& cmac_b_f, const ConvRegReader& cacc_f) {
  const Reader d{cdma_f}, c{csc_f}, ma{cmac_a_f}, mb{cmac_b_f}, a{cacc_f};
  ConvLayer l;

  // CSC is the reference view of the shared fields.
  using CM = C::D_MISC_CFG;
  const unsigned conv_mode = c.get<CM, CM::CONV_MODE>();
  const bool pixel = c.get<C::D_DATAIN_FORMAT, C::D_DATAIN_FORMAT::DATAIN_FORMAT>() != 0;
  l.kind = conv_mode ? ConvInputKind::Winograd : pixel ? ConvInputKind::Image : ConvInputKind::Feature;
  l.in_code = c.get<CM, CM::IN_PRECISION>();
  l.proc_code = c.get<CM, CM::PROC_PRECISION>();
  l.in = precision_of(l.in_code);
  l.proc = precision_of(l.proc_code);
  l.data_reuse = c.get<CM, CM::DATA_REUSE>();
  l.weight_reuse = c.get<CM, CM::WEIGHT_REUSE>();
  l.skip_data_rls = c.get<CM, CM::SKIP_DATA_RLS>();
  l.skip_weight_rls = c.get<CM, CM::SKIP_WEIGHT_RLS>();
  l.compressed = c.get<C::D_WEIGHT_FORMAT, C::D_WEIGHT_FORMAT::WEIGHT_FORMAT>() != 0;
  l.data_bank = c.get<C::D_BANK, C::D_BANK::DATA_BANK>();
  l.weight_bank = c.get<C::D_BANK, C::D_BANK::WEIGHT_BANK>();
  l.entries = c.get<C::D_ENTRY_PER_SLICE, C::D_ENTRY_PER_SLICE::ENTRIES>();
  l.batches = c.get<C::D_BATCH_NUMBER, C::D_BATCH_NUMBER::BATCHES>() + 1;

  // CDMA.
  l.width = d.get<D::D_DATAIN_SIZE_0, D::D_DATAIN_SIZE_0::DATAIN_WIDTH>() + 1;
  l.height = d.get<D::D_DATAIN_SIZE_0, D::D_DATAIN_SIZE_0::DATAIN_HEIGHT>() + 1;
  l.channels = d.get<D::D_DATAIN_SIZE_1, D::D_DATAIN_SIZE_1::DATAIN_CHANNEL>() + 1;
  l.width_ext = d.get<D::D_DATAIN_SIZE_EXT_0, D::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT>() + 1;
  l.height_ext = d.get<D::D_DATAIN_SIZE_EXT_0, D::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT>() + 1;
  const bool data_mc = d.get<D::D_DAIN_RAM_TYPE, D::D_DAIN_RAM_TYPE::DATAIN_RAM_TYPE>() != 0;
  l.data_port = port_of(data_mc, cfg);
  l.data_port_is_sram = !data_mc;
  l.data_addr0 = address(d.raw(D::D_DAIN_ADDR_LOW_0::offset), d.raw(D::D_DAIN_ADDR_HIGH_0::offset));
  l.data_addr1 = address(d.raw(D::D_DAIN_ADDR_LOW_1::offset), d.raw(D::D_DAIN_ADDR_HIGH_1::offset));
  l.line_stride = d.raw(D::D_LINE_STRIDE::offset);
  l.uv_line_stride = d.raw(D::D_LINE_UV_STRIDE::offset);
  l.surf_stride = d.raw(D::D_SURF_STRIDE::offset);
  l.batch_stride = d.raw(D::D_BATCH_STRIDE::offset);
  l.line_packed = d.get<D::D_DAIN_MAP, D::D_DAIN_MAP::LINE_PACKED>();
  l.surf_packed = d.get<D::D_DAIN_MAP, D::D_DAIN_MAP::SURF_PACKED>();
  using DF = D::D_DATAIN_FORMAT;
  l.pixel_format = d.get<DF, DF::PIXEL_FORMAT>();
  l.pixel_mapping = d.get<DF, DF::PIXEL_MAPPING>();
  l.pixel_sign_override = d.get<DF, DF::PIXEL_SIGN_OVERRIDE>();
  l.pixel_x_offset = d.get<D::D_PIXEL_OFFSET, D::D_PIXEL_OFFSET::PIXEL_X_OFFSET>();
  l.pixel_y_offset = d.get<D::D_PIXEL_OFFSET, D::D_PIXEL_OFFSET::PIXEL_Y_OFFSET>();
  l.mean_format = d.get<D::D_MEAN_FORMAT, D::D_MEAN_FORMAT::MEAN_FORMAT>();
  l.mean[0] = static_cast<int16_t>(d.get<D::D_MEAN_GLOBAL_0, D::D_MEAN_GLOBAL_0::MEAN_RY>());
  l.mean[1] = static_cast<int16_t>(d.get<D::D_MEAN_GLOBAL_0, D::D_MEAN_GLOBAL_0::MEAN_GU>());
  l.mean[2] = static_cast<int16_t>(d.get<D::D_MEAN_GLOBAL_1, D::D_MEAN_GLOBAL_1::MEAN_BV>());
  l.mean[3] = static_cast<int16_t>(d.get<D::D_MEAN_GLOBAL_1, D::D_MEAN_GLOBAL_1::MEAN_AX>());
  l.cvt_en = d.get<D::D_CVT_CFG, D::D_CVT_CFG::CVT_EN>();
  l.cvt_truncate = d.get<D::D_CVT_CFG, D::D_CVT_CFG::CVT_TRUNCATE>();
  l.cvt_offset = static_cast<int16_t>(d.get<D::D_CVT_OFFSET, D::D_CVT_OFFSET::CVT_OFFSET>());
  l.cvt_scale = static_cast<int16_t>(d.get<D::D_CVT_SCALE, D::D_CVT_SCALE::CVT_SCALE>());
  l.cdma_stride_x = d.get<D::D_CONV_STRIDE, D::D_CONV_STRIDE::CONV_X_STRIDE>() + 1;
  l.cdma_stride_y = d.get<D::D_CONV_STRIDE, D::D_CONV_STRIDE::CONV_Y_STRIDE>() + 1;
  using ZP = D::D_ZERO_PADDING;
  l.cdma_pad_left = d.get<ZP, ZP::PAD_LEFT>();
  l.cdma_pad_right = d.get<ZP, ZP::PAD_RIGHT>();
  l.cdma_pad_top = d.get<ZP, ZP::PAD_TOP>();
  l.cdma_pad_bottom = d.get<ZP, ZP::PAD_BOTTOM>();
  l.cdma_pad_value = static_cast<uint16_t>(d.get<D::D_ZERO_PADDING_VALUE, D::D_ZERO_PADDING_VALUE::PAD_VALUE>());
  l.nan_to_zero = d.get<D::D_NAN_FLUSH_TO_ZERO, D::D_NAN_FLUSH_TO_ZERO::NAN_TO_ZERO>();
  l.fetch_grains = d.get<D::D_FETCH_GRAIN, D::D_FETCH_GRAIN::GRAINS>();
  l.bytes_per_kernel = uint64_t{d.get<D::D_WEIGHT_SIZE_0, D::D_WEIGHT_SIZE_0::BYTE_PER_KERNEL>()} + 1;
  l.cdma_kernels = d.get<D::D_WEIGHT_SIZE_1, D::D_WEIGHT_SIZE_1::WEIGHT_KERNEL>() + 1;
  const bool weight_mc = d.get<D::D_WEIGHT_RAM_TYPE, D::D_WEIGHT_RAM_TYPE::WEIGHT_RAM_TYPE>() != 0;
  l.weight_port = port_of(weight_mc, cfg);
  l.weight_port_is_sram = !weight_mc;
  l.weight_addr = address(d.raw(D::D_WEIGHT_ADDR_LOW::offset), d.raw(D::D_WEIGHT_ADDR_HIGH::offset));
  l.wgs_addr = address(d.raw(D::D_WGS_ADDR_LOW::offset), d.raw(D::D_WGS_ADDR_HIGH::offset));
  l.wmb_addr = address(d.raw(D::D_WMB_ADDR_LOW::offset), d.raw(D::D_WMB_ADDR_HIGH::offset));
  l.weight_bytes = d.raw(D::D_WEIGHT_BYTES::offset);
  l.wmb_bytes = d.raw(D::D_WMB_BYTES::offset);

  // CSC.
  l.csc_width = c.get<C::D_DATAIN_SIZE_EXT_0, C::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT>() + 1;
  l.csc_height = c.get<C::D_DATAIN_SIZE_EXT_0, C::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT>() + 1;
  l.csc_channels = c.get<C::D_DATAIN_SIZE_EXT_1, C::D_DATAIN_SIZE_EXT_1::DATAIN_CHANNEL_EXT>() + 1;
  l.y_extension = c.get<C::D_POST_Y_EXTENSION, C::D_POST_Y_EXTENSION::Y_EXTENSION>();
  l.kernel_width = c.get<C::D_WEIGHT_SIZE_EXT_0, C::D_WEIGHT_SIZE_EXT_0::WEIGHT_WIDTH_EXT>() + 1;
  l.kernel_height = c.get<C::D_WEIGHT_SIZE_EXT_0, C::D_WEIGHT_SIZE_EXT_0::WEIGHT_HEIGHT_EXT>() + 1;
  l.kernel_channels = c.get<C::D_WEIGHT_SIZE_EXT_1, C::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT>() + 1;
  l.kernels = c.get<C::D_WEIGHT_SIZE_EXT_1, C::D_WEIGHT_SIZE_EXT_1::WEIGHT_KERNEL>() + 1;
  l.out_width = c.get<C::D_DATAOUT_SIZE_0, C::D_DATAOUT_SIZE_0::DATAOUT_WIDTH>() + 1;
  l.out_height = c.get<C::D_DATAOUT_SIZE_0, C::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT>() + 1;
  l.out_channels = c.get<C::D_DATAOUT_SIZE_1, C::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL>() + 1;
  l.atomics = c.get<C::D_ATOMICS, C::D_ATOMICS::ATOMICS>() + 1;
  l.release_slices = c.get<C::D_RELEASE, C::D_RELEASE::RLS_SLICES>() + 1;
  l.stride_x = c.get<C::D_CONV_STRIDE_EXT, C::D_CONV_STRIDE_EXT::CONV_X_STRIDE_EXT>() + 1;
  l.stride_y = c.get<C::D_CONV_STRIDE_EXT, C::D_CONV_STRIDE_EXT::CONV_Y_STRIDE_EXT>() + 1;
  l.dilation_x = c.get<C::D_DILATION_EXT, C::D_DILATION_EXT::X_DILATION_EXT>() + 1;
  l.dilation_y = c.get<C::D_DILATION_EXT, C::D_DILATION_EXT::Y_DILATION_EXT>() + 1;
  l.pad_left = c.get<C::D_ZERO_PADDING, C::D_ZERO_PADDING::PAD_LEFT>();
  l.pad_top = c.get<C::D_ZERO_PADDING, C::D_ZERO_PADDING::PAD_TOP>();
  l.pad_value = static_cast<uint16_t>(c.get<C::D_ZERO_PADDING_VALUE, C::D_ZERO_PADDING_VALUE::PAD_VALUE>());
  l.pra_truncate = c.get<C::D_PRA_CFG, C::D_PRA_CFG::PRA_TRUNCATE>();

  // CACC.
  l.clip_truncate = a.get<A::D_CLIP_CFG, A::D_CLIP_CFG::CLIP_TRUNCATE>();

  // Cross-unit consistency (every copy must hold CSC's value).
  auto check = [&](const char* what, uint64_t have, uint64_t want) {
    if (have != want) l.mismatches.push_back(fmt::format("{} is {} but CSC holds {}", what, have, want));
  };
  using DM = D::D_MISC_CFG;
  check("CDMA CONV_MODE", d.get<DM, DM::CONV_MODE>(), conv_mode);
  check("CDMA DATAIN_FORMAT", d.get<DF, DF::DATAIN_FORMAT>(), pixel);
  check("CDMA IN_PRECISION", d.get<DM, DM::IN_PRECISION>(), l.in_code);
  check("CDMA PROC_PRECISION", d.get<DM, DM::PROC_PRECISION>(), l.proc_code);
  check("CDMA DATA_REUSE", d.get<DM, DM::DATA_REUSE>(), l.data_reuse);
  check("CDMA WEIGHT_REUSE", d.get<DM, DM::WEIGHT_REUSE>(), l.weight_reuse);
  check("CDMA SKIP_DATA_RLS", d.get<DM, DM::SKIP_DATA_RLS>(), l.skip_data_rls);
  check("CDMA SKIP_WEIGHT_RLS", d.get<DM, DM::SKIP_WEIGHT_RLS>(), l.skip_weight_rls);
  check("CDMA WEIGHT_FORMAT", d.get<D::D_WEIGHT_FORMAT, D::D_WEIGHT_FORMAT::WEIGHT_FORMAT>(), l.compressed);
  check("CDMA D_BANK.DATA_BANK", d.get<D::D_BANK, D::D_BANK::DATA_BANK>(), l.data_bank);
  check("CDMA D_BANK.WEIGHT_BANK", d.get<D::D_BANK, D::D_BANK::WEIGHT_BANK>(), l.weight_bank);
  check("CDMA ENTRY_PER_SLICE", d.get<D::D_ENTRY_PER_SLICE, D::D_ENTRY_PER_SLICE::ENTRIES>(), l.entries);
  check("CDMA BATCHES", d.get<D::D_BATCH_NUMBER, D::D_BATCH_NUMBER::BATCHES>() + 1, l.batches);
  check("CDMA WEIGHT_BYTES", l.weight_bytes, c.raw(C::D_WEIGHT_BYTES::offset));
  check("CDMA WMB_BYTES", l.wmb_bytes, c.raw(C::D_WMB_BYTES::offset));
  check("CDMA WEIGHT_KERNEL", l.cdma_kernels, l.kernels);
  check("CSC DATAOUT_CHANNEL", l.out_channels, l.kernels);
  using MM = M::D_MISC_CFG;
  check("CMAC_A CONV_MODE", ma.get<MM, MM::CONV_MODE>(), conv_mode);
  check("CMAC_A PROC_PRECISION", ma.get<MM, MM::PROC_PRECISION>(), l.proc_code);
  check("CMAC_B CONV_MODE", mb.get<MM, MM::CONV_MODE>(), conv_mode);
  check("CMAC_B PROC_PRECISION", mb.get<MM, MM::PROC_PRECISION>(), l.proc_code);
  using AM = A::D_MISC_CFG;
  check("CACC CONV_MODE", a.get<AM, AM::CONV_MODE>(), conv_mode);
  check("CACC PROC_PRECISION", a.get<AM, AM::PROC_PRECISION>(), l.proc_code);
  check("CACC DATAOUT_WIDTH + 1", a.get<A::D_DATAOUT_SIZE_0, A::D_DATAOUT_SIZE_0::DATAOUT_WIDTH>() + 1, l.out_width);
  check("CACC DATAOUT_HEIGHT + 1", a.get<A::D_DATAOUT_SIZE_0, A::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT>() + 1, l.out_height);
  check("CACC DATAOUT_CHANNEL + 1", a.get<A::D_DATAOUT_SIZE_1, A::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL>() + 1,
        l.out_channels);
  check("CACC BATCHES", a.get<A::D_BATCH_NUMBER, A::D_BATCH_NUMBER::BATCHES>() + 1, l.batches);
  return l;
}

uint32_t conv_expected_entries(const ConvLayer& l, const HwConfig& cfg) {
  const unsigned entry = cfg.conv_cbuf_entry_bytes;
  const unsigned ape = entry / cfg.atom_bytes;  // atoms per CBUF entry
  const unsigned atom_elems = cfg.atom_bytes / l.in_es();
  auto ceil_div = [](uint64_t a, uint64_t b) { return (a + b - 1) / b; };
  uint64_t entries = 0;
  switch (l.kind) {
    case ConvInputKind::Feature: {
      const uint64_t n = ceil_div(l.channels, atom_elems), q = n / ape, r = n % ape;
      uint64_t extra = 0;
      if (r == 0) extra = 0;
      else if (2 * r > ape) extra = l.width;
      else if (2 * r == ape) extra = ceil_div(l.width, 2);
      else extra = ceil_div(l.width, 4);  // r = ape / 4
      entries = q * l.width + extra;
      break;
    }
    case ConvInputKind::Image: {
      const uint64_t line = uint64_t{l.cdma_pad_left} + l.width + l.cdma_pad_right;
      entries = ceil_div(line * l.channels * l.proc_es(), entry);
      break;
    }
    case ConvInputKind::Winograd: {
      const uint64_t n = l.channels / atom_elems;
      entries = uint64_t{l.width_ext} * n * l.cdma_stride_x * l.cdma_stride_y / ape;
      break;
    }
  }
  return static_cast<uint32_t>(entries == 0 ? 0 : entries - 1);
}

std::vector<std::string> conv_rule_violations(const ConvLayer& l, const HwConfig& cfg, uint32_t kept_slices,
                                              bool full_reuse) {
  std::vector<std::string> v;
  auto rule = [&](bool broken, std::string text) {
    if (broken) v.push_back(std::move(text));
  };
  for (const std::string& m : l.mismatches) v.push_back("units disagree: " + m);
  const unsigned atom = cfg.atom_bytes, entry = cfg.conv_cbuf_entry_bytes, depth = cfg.conv_cbuf_bank_entries;
  const char* mode = conv_input_kind_name(l.kind);

  // Precisions and modes the configuration has.
  rule(l.in_code > 2 || l.proc_code > 2, fmt::format("precision code 3 is undefined (IN {}, PROC {})", l.in_code, l.proc_code));
  if (l.in_code > 2 || l.proc_code > 2) return v;
  rule(!cfg.supports(l.in), fmt::format("IN_PRECISION {}: configuration '{}' has no {}", precision_name(l.in), cfg.name,
                                         precision_name(l.in)));
  rule(!cfg.supports(l.proc), fmt::format("PROC_PRECISION {}: configuration '{}' has no {}", precision_name(l.proc),
                                           cfg.name, precision_name(l.proc)));
  rule(l.kind == ConvInputKind::Winograd && !cfg.conv_winograd,
       fmt::format("CONV_MODE = Winograd: configuration '{}' has no Winograd convolution", cfg.name));
  rule(l.batches > 1 && !cfg.conv_batching,
       fmt::format("BATCHES = {}: configuration '{}' has no batching", l.batches - 1, cfg.name));
  rule(l.compressed && !cfg.conv_compression,
       fmt::format("WEIGHT_FORMAT = compressed: configuration '{}' has no weight compression", cfg.name));
  rule(l.batches > 1 && l.kind != ConvInputKind::Feature, fmt::format("batching is for direct feature input only ({} mode)", mode));
  rule(l.data_port_is_sram && !cfg.sram_if,
       fmt::format("DATAIN_RAM_TYPE = CVIF: configuration '{}' has no secondary memory interface", cfg.name));
  rule(l.weight_port_is_sram && !cfg.sram_if,
       fmt::format("WEIGHT_RAM_TYPE = CVIF: configuration '{}' has no secondary memory interface", cfg.name));
  rule(l.y_extension > 2, "Y_EXTENSION = 3 is undefined (P = 1, 2 or 4)");
  rule(l.y_extension > 0 && l.kind != ConvInputKind::Image, "post-extension (Y_EXTENSION > 0) exists only in image mode");
  rule(l.proc != Precision::Fp16 && l.clip_truncate > 16, fmt::format("CLIP_TRUNCATE = {} (valid 0..16)", l.clip_truncate));

  // Alignment of the fetched images (atom aligned starts and strides).
  auto aligned = [&](uint64_t x) { return x % atom == 0; };
  rule(!aligned(l.weight_addr), fmt::format("WEIGHT_ADDR 0x{:x} is not {}-byte aligned", l.weight_addr, atom));
  rule(!aligned(l.data_addr0), fmt::format("DAIN_ADDR_0 0x{:x} is not {}-byte aligned", l.data_addr0, atom));
  rule(!aligned(l.line_stride), fmt::format("LINE_STRIDE {} is not a multiple of {}", l.line_stride, atom));

  const uint32_t slices_this = l.kind == ConvInputKind::Winograd ? l.height_ext
                               : l.kind == ConvInputKind::Image  ? l.height
                                                                 : l.height * l.batches;
  switch (l.kind) {
    case ConvInputKind::Feature: {
      rule(l.in != l.proc, fmt::format("direct mode converts no precision: IN {} != PROC {}", precision_name(l.in),
                                       precision_name(l.proc)));
      rule(l.cvt_en && l.proc == Precision::Fp16, "CVT_EN = 1 with fp16 data (the converter is for integer data)");
      rule(l.csc_width != l.width || l.csc_channels != l.channels,
           fmt::format("CSC DATAIN {}x?x{} differs from CDMA's {}x?x{}", l.csc_width, l.csc_channels, l.width, l.channels));
      const uint32_t kept_lines = kept_slices / l.batches;
      const uint32_t lines = full_reuse ? kept_lines : l.height + kept_lines;
      rule(l.csc_height != lines, fmt::format("CSC DATAIN_HEIGHT_EXT + 1 = {} but the input has {} lines ({})",
                                              l.csc_height, lines,
                                              full_reuse       ? "all kept from the previous layer"
                                              : kept_lines > 0 ? fmt::format("{} kept + {} fetched", kept_lines, l.height)
                                                               : std::string("fetched by CDMA")));
      rule(uint64_t{l.kernel_width} * l.kernel_height * l.kernel_channels * l.proc_es() != l.bytes_per_kernel,
           fmt::format("BYTE_PER_KERNEL + 1 = {} but the CSC kernel is {}x{}x{} of {} byte(s)", l.bytes_per_kernel,
                       l.kernel_width, l.kernel_height, l.kernel_channels, l.proc_es()));
      rule(l.kernel_channels != l.channels,
           fmt::format("kernel channels {} differ from the input's {}", l.kernel_channels, l.channels));
      const uint64_t atom_line = uint64_t{l.width} * atom;
      {
        rule(l.line_stride < atom_line, fmt::format("LINE_STRIDE {} < W x atom = {}", l.line_stride, atom_line));
        rule(l.line_packed != (l.line_stride == atom_line),
             fmt::format("LINE_PACKED = {} but LINE_STRIDE {} {} W x atom = {}", l.line_packed, l.line_stride,
                         l.line_stride == atom_line ? "=" : "!=", atom_line));
        const uint64_t surf_line = uint64_t{l.height} * l.line_stride;
        const bool multi_surface = l.channels > atom / l.in_es();
        rule(multi_surface && l.surf_stride < surf_line,
             fmt::format("SURF_STRIDE {} < H x LINE_STRIDE = {}", l.surf_stride, surf_line));
        rule(!aligned(l.surf_stride), fmt::format("SURF_STRIDE {} is not a multiple of {}", l.surf_stride, atom));
        rule(l.fetch_grains + 1 > l.height, fmt::format("FETCH_GRAIN + 1 = {} > H = {}", l.fetch_grains + 1, l.height));
        rule(l.fetch_grains != 0 && !l.line_packed, "FETCH_GRAIN > 0 needs LINE_PACKED = 1");
      }
      if (l.batches > 1) {
        const uint64_t surfaces = (l.channels + atom / l.in_es() - 1) / (atom / l.in_es());
        rule(l.batch_stride < surfaces * l.surf_stride,
             fmt::format("BATCH_STRIDE {} < surfaces x SURF_STRIDE = {}", l.batch_stride, surfaces * l.surf_stride));
        rule(!aligned(l.batch_stride), fmt::format("BATCH_STRIDE {} is not a multiple of {}", l.batch_stride, atom));
      }
      break;
    }
    case ConvInputKind::Image: {
      if (l.pixel_format >= formats::kPixelFormatCount) {
        v.push_back(fmt::format("PIXEL_FORMAT {} is not a pixel format code (0..{})", l.pixel_format,
                                formats::kPixelFormatCount - 1));
        return v;
      }
      const auto& pf = formats::pixel_format_info(static_cast<formats::PixelFormat>(l.pixel_format));
      rule(l.pixel_mapping, "PIXEL_MAPPING = 1 (block linear) is not supported");
      rule(l.pixel_y_offset != 0, fmt::format("PIXEL_Y_OFFSET = {} (only pitch-linear images, offset 0)", l.pixel_y_offset));
      rule(l.channels != pf.channels,
           fmt::format("DATAIN_CHANNEL + 1 = {} but {} has {} components", l.channels, pf.name, pf.channels));
      rule(l.in != pf.precision, fmt::format("IN_PRECISION {} but {} holds {} components", precision_name(l.in), pf.name,
                                             precision_name(pf.precision)));
      rule(pf.precision == Precision::Fp16 && (l.cvt_en || l.proc != Precision::Fp16),
           fmt::format("{}: fp16 pixels are never converted (CVT_EN = 0, PROC fp16)", pf.name));
      rule(l.in != l.proc && !l.cvt_en, fmt::format("IN {} -> PROC {} needs CVT_EN = 1", precision_name(l.in),
                                                    precision_name(l.proc)));
      rule(l.pixel_x_offset >= formats::max_x_offset(pf.format, atom) + 1,
           fmt::format("PIXEL_X_OFFSET {} > {} for {}", l.pixel_x_offset, formats::max_x_offset(pf.format, atom), pf.name));
      const uint64_t need0 = (uint64_t{l.pixel_x_offset} + l.width) * pf.plane_bytes[0];
      rule(l.line_stride < need0, fmt::format("LINE_STRIDE {} < (X_OFFSET + W) x {} bytes = {}", l.line_stride,
                                              pf.plane_bytes[0], need0));
      if (pf.planes == 2) {
        const uint64_t need1 = (uint64_t{l.pixel_x_offset} + l.width) * pf.plane_bytes[1];
        rule(l.uv_line_stride < need1, fmt::format("LINE_UV_STRIDE {} < (X_OFFSET + W) x {} bytes = {}", l.uv_line_stride,
                                                   pf.plane_bytes[1], need1));
        rule(!aligned(l.data_addr1), fmt::format("DAIN_ADDR_1 0x{:x} is not {}-byte aligned", l.data_addr1, atom));
        rule(!aligned(l.uv_line_stride), fmt::format("LINE_UV_STRIDE {} is not a multiple of {}", l.uv_line_stride, atom));
        rule(uint64_t{l.pixel_x_offset} * pf.plane_bytes[1] >= atom,
             "semi-planar image with an X offset reaching past the first atom of plane 1 is not supported");
      }
      rule(l.dilation_x != 1 || l.dilation_y != 1, "image mode has no dilation (DILATION_EXT must be 0)");
      const uint32_t lines = full_reuse ? kept_slices : l.height + kept_slices;
      rule(l.csc_width != l.width || l.csc_height != lines || l.csc_channels != l.channels,
           fmt::format("CSC DATAIN {}x{}x{} differs from the input {}x{}x{} ({})", l.csc_width, l.csc_height,
                       l.csc_channels, l.width, lines, l.channels,
                       full_reuse         ? "all lines kept from the previous layer"
                       : kept_slices > 0 ? fmt::format("{} kept + {} fetched lines", kept_slices, l.height)
                                         : std::string("as CDMA fetches it")));
      rule(l.kernel_width != 1, "image mode folds the kernel width into channels (WEIGHT_WIDTH_EXT must be 0)");
      rule(l.kernel_channels % l.channels != 0,
           fmt::format("kernel channels {} are not S x {} components", l.kernel_channels, l.channels));
      rule(uint64_t{l.kernel_height} * l.kernel_channels * l.proc_es() != l.bytes_per_kernel,
           fmt::format("BYTE_PER_KERNEL + 1 = {} but the pre-extended kernel is 1x{}x{} of {} byte(s)",
                       l.bytes_per_kernel, l.kernel_height, l.kernel_channels, l.proc_es()));
      const uint64_t line = uint64_t{l.cdma_pad_left} + l.width + l.cdma_pad_right;
      const uint64_t s = l.kernel_channels / l.channels;
      rule((uint64_t{l.out_width} - 1) * l.stride_x + s > line,
           fmt::format("the last output window ends at padded pixel {} beyond the padded line of {} pixels",
                       (uint64_t{l.out_width} - 1) * l.stride_x + s, line));
      rule(l.post_rows() > 1 && l.kernel_channels > cfg.conv_mac_atomic_c / l.post_rows(),
           fmt::format("post-extension P = {} needs S x C = {} <= {}", l.post_rows(), l.kernel_channels,
                       cfg.conv_mac_atomic_c / l.post_rows()));
      break;
    }
    case ConvInputKind::Winograd: {
      const unsigned atom_elems = atom / l.in_es();
      const unsigned sx = l.cdma_stride_x, sy = l.cdma_stride_y;
      const uint64_t pw = uint64_t{l.cdma_pad_left} + l.width + l.cdma_pad_right;
      const uint64_t ph = uint64_t{l.cdma_pad_top} + l.height + l.cdma_pad_bottom;
      rule(l.in != l.proc || l.cvt_en, "Winograd converts nothing: IN = PROC and CVT_EN = 0");
      rule(l.channels % atom_elems != 0, fmt::format("Winograd input channels {} are not a multiple of {}", l.channels, atom_elems));
      rule(pw % (4 * sx) != 0 || ph % (4 * sy) != 0,
           fmt::format("padded input {}x{} is not a multiple of 4 x stride ({}x{})", pw, ph, 4 * sx, 4 * sy));
      rule(l.width_ext != pw / sx || l.height_ext != ph / sy,
           fmt::format("DATAIN_SIZE_EXT {}x{} but the stride-folded input is {}x{}", l.width_ext, l.height_ext, pw / sx,
                       ph / sy));
      rule(l.cdma_pad_left >= 3 * sx || (sx == 1 && l.cdma_pad_left > 1) || l.cdma_pad_top >= 3 * sy ||
               (sy == 1 && l.cdma_pad_top > 1),
           "Winograd left/top padding must be < 3 x stride (and <= 1 at stride 1)");
      const uint32_t rows = full_reuse ? kept_slices : l.height_ext + kept_slices;
      rule(l.csc_width != l.width_ext || l.csc_height != rows || uint64_t{l.csc_channels} != uint64_t{l.channels} * sx * sy,
           fmt::format("CSC DATAIN {}x{}x{} differs from the extended cube {}x{}x{}", l.csc_width, l.csc_height,
                       l.csc_channels, l.width_ext, rows, uint64_t{l.channels} * sx * sy));
      rule(l.kernel_width != 4 || l.kernel_height != 4 || l.kernel_channels != l.csc_channels,
           fmt::format("Winograd kernels are 4x4 x C_ext (CSC has {}x{}x{})", l.kernel_width, l.kernel_height,
                       l.kernel_channels));
      rule(uint64_t{16} * l.csc_channels * l.proc_es() != l.bytes_per_kernel,
           fmt::format("BYTE_PER_KERNEL + 1 = {} but a Winograd kernel is 16 x {} x {} bytes", l.bytes_per_kernel,
                       l.csc_channels, l.proc_es()));
      rule(l.stride_x != 1 || l.stride_y != 1 || l.dilation_x != 1 || l.dilation_y != 1,
           "Winograd CSC stride and dilation must be 1");
      rule(l.width_ext % 4 || l.height_ext % 4 || l.width_ext <= 4 || l.height_ext <= 4,
           "Winograd extended width and height must be multiples of 4 above 4");
      rule(l.out_width % 4 || l.out_height % 4 || l.out_width + 2 > l.width_ext || l.out_height + 2 > l.height_ext,
           fmt::format("Winograd output {}x{} must be multiples of 4 within the extended input minus 2", l.out_width,
                       l.out_height));
      rule(l.csc_channels % 4 != 0, "Winograd extended channels must be a multiple of 4");
      break;
    }
  }
  rule(l.atomics != l.out_width * l.out_height,
       fmt::format("ATOMICS + 1 = {} but W_out x H_out = {}", l.atomics, uint64_t{l.out_width} * l.out_height));

  // CBUF.
  const uint32_t expected = conv_expected_entries(l, cfg);
  rule(l.entries != expected, fmt::format("ENTRY_PER_SLICE = {} but a {} slice takes {} entries (program {})", l.entries,
                                          mode, uint64_t{expected} + 1, expected));
  const unsigned banks_usable = cfg.conv_cbuf_banks - (l.compressed ? 1 : 0);
  rule(l.data_bank + 1 + l.weight_bank + 1 > banks_usable,
       fmt::format("DATA_BANK + 1 + WEIGHT_BANK + 1 = {} > {} banks", l.data_bank + l.weight_bank + 2, banks_usable));
  const uint64_t data_need = (full_reuse ? kept_slices : uint64_t{slices_this} + kept_slices) * (uint64_t{l.entries} + 1);
  rule(data_need > uint64_t{l.data_bank + 1} * depth,
       fmt::format("input needs {} CBUF entries but DATA_BANK gives {}", data_need, uint64_t{l.data_bank + 1} * depth));
  const uint64_t weight_region = uint64_t{l.weight_bank + 1} * depth;
  const unsigned ak = cfg.conv_kernels_per_group(l.proc);
  const uint64_t group_bytes = uint64_t{std::min<uint32_t>(ak, l.kernels)} * l.bytes_per_kernel;
  if (l.skip_weight_rls)
    rule(l.weight_bytes / entry > weight_region,
         fmt::format("SKIP_WEIGHT_RLS keeps {} weight entries but WEIGHT_BANK gives {}", l.weight_bytes / entry, weight_region));
  else
    rule((group_bytes + entry - 1) / entry + 1 > weight_region,
         fmt::format("a kernel group needs {} CBUF entries but WEIGHT_BANK gives {}", (group_bytes + entry - 1) / entry + 1,
                     weight_region));
  if (!l.compressed) {
    const uint64_t need = uint64_t{l.kernels} * l.bytes_per_kernel;
    rule(l.weight_bytes < need, fmt::format("WEIGHT_BYTES {} < K x BPK = {}", l.weight_bytes, need));
    rule(l.weight_bytes % entry != 0, fmt::format("WEIGHT_BYTES {} is not a multiple of the {}-byte CBUF entry",
                                                  l.weight_bytes, entry));
  }
  return v;
}

std::vector<CompletedConvLayer> completed_conv_layers(const HwConfig& cfg, const std::vector<LayerRecord>& layers) {
  const Unit units[5] = {Unit::CDMA, Unit::CSC, Unit::CMAC_A, Unit::CMAC_B, Unit::CACC};
  std::deque<const LayerRecord*> pending[5];
  std::vector<CompletedConvLayer> out;
  auto reader = [](const LayerRecord* rec) { return [rec](uint32_t offset) { return rec->regs.get(offset); }; };
  for (const LayerRecord& r : layers) {
    if (!r.completed) continue;
    const auto* u = std::find(std::begin(units), std::end(units), r.unit);
    if (u == std::end(units)) continue;
    pending[u - std::begin(units)].push_back(&r);
    if (std::any_of(std::begin(pending), std::end(pending), [](const auto& q) { return q.empty(); })) continue;
    out.push_back({decode_conv_layer(cfg, reader(pending[0].front()), reader(pending[1].front()), reader(pending[2].front()),
                                     reader(pending[3].front()), reader(pending[4].front())),
                   pending[0].front(), pending[4].front()});
    for (auto& q : pending) q.pop_front();
  }
  return out;
}

}  // namespace dla::golden
