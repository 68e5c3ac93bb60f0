#include "sdp_pdp_channel.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "dla/planted_bug.h"
#include "dla/regs.gen.h"

namespace dla::golden {

namespace P = reg::PDP;

bool pdp_armed_on_flying(UnitContext& ctx) {
  return ctx.stored(Unit::PDP, P::D_OP_ENABLE::offset) == 1 &&
         P::D_OPERATION_MODE_CFG::FLYING_MODE::get(ctx.stored(Unit::PDP, P::D_OPERATION_MODE_CFG::offset)) ==
             P::D_OPERATION_MODE_CFG::FLYING_MODE::ON_FLYING;
}

void PdpStreamInput::read_atom(uint32_t, uint32_t, int64_t, uint8_t* out) {
  size_t at = next_++;
  // Planted: PDP starts one atom into the stream and takes the first atom last.
  if (planted("sdp_pdp.stream_order") && !cube_.atoms.empty()) at = (at + 1) % cube_.atoms.size();
  if (at < cube_.atoms.size()) std::memcpy(out, cube_.atoms[at].data(), cube_.atom_bytes);
  else std::memset(out, 0, cube_.atom_bytes);  // callers check the count first
}

uint64_t pdp_input_atom_count(const PdpLayer& l, unsigned atom_bytes) {
  const uint64_t lanes = atom_bytes / l.elem_bytes(), surfaces = (l.channels + lanes - 1) / lanes;
  uint64_t columns = 0;
  for (const PdpStripe& s : pdp_stripes(l)) columns += s.in_width;
  return columns * l.height * surfaces;
}

std::optional<PdpCounters> run_on_flying_pdp_layer(const PdpLayer& l, int group, SdpPdpChannel* channel,
                                                   UnitContext& ctx) {
  if (!channel) {
    ctx.warn("PDP: on-flying input needs SDP, which configuration '" + ctx.config().name +
             "' does not have; the group stays armed");
    return std::nullopt;
  }
  if (channel->cubes.empty()) return std::nullopt;  // ready() prevents this
  const SdpPdpChannel::Cube cube = std::move(channel->cubes.front());
  channel->cubes.pop_front();
  for (const std::string& v : pdp_layer_violations(l, ctx.config()))
    ctx.warn("PDP: " + v + "; behaviour undefined, the golden model extends the arithmetic naturally");
  if (cube.out_precision != l.format)  // both codes: 0 int8, 1 int16, 2 fp16
    ctx.warn(fmt::format("PDP group {}: D_DATA_FORMAT {} differs from the OUT_PRECISION {} of the SDP layer that "
                         "feeds it on-flying; PDP interprets SDP's bytes in its own format",
                         group, l.format, cube.out_precision));
  if (l.split_num != 0)
    ctx.warn(fmt::format("PDP group {}: split mode with on-flying input is not defined by the spec (§8.12): PDP "
                         "takes every stripe's columns, overlap included, from the stream, which SDP sends once",
                         group));
  const uint64_t needed = pdp_input_atom_count(l, cube.atom_bytes);
  if (cube.atoms.size() < needed) {
    ctx.warn(fmt::format("PDP group {}: the on-flying layer reads {} atoms but SDP group {} delivers only {}; "
                         "PDP waits for the rest and never completes",
                         group, needed, cube.sdp_group, cube.atoms.size()));
    return std::nullopt;
  }
  if (cube.atoms.size() > needed)
    ctx.warn(fmt::format("PDP group {}: the on-flying layer reads {} atoms but SDP group {} delivers {}; on the "
                         "hardware SDP keeps the rest waiting for PDP (undefined programming)",
                         group, needed, cube.sdp_group, cube.atoms.size()));
  PdpStreamInput input(cube);
  return run_pdp_layer(l, cube.atom_bytes, input, ctx.memory(l.dst_port));
}

}  // namespace dla::golden
