// Convolution figures (golden model): multiply-accumulates per second of the golden model on
// large conv.random layers per configuration and precision, and, when NVIDIA's traces and its
// nv_small RTL are available, how much faster a golden-only replay of each public conv trace
// is than its RTL simulation (the goal: at least 100x).
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <filesystem>
#include <string>
#include <vector>

#include "dla/conv_layer.h"
#include "dla/simulation.h"
#include "dla/test_generator.h"
#include "dla/test_runner.h"
#include "dla/trace_cfg.h"
#include "dla/trace_compile.h"

namespace {

using namespace dla;

// MACs of the completed conv layers of a run (one per CACC record; W_out x H_out x K x the
// kernel's R x S x C, batches included; Winograd counted as its direct equivalent 3x3).
double macs_of(const HwConfig& cfg, const std::vector<LayerRecord>& layers) {
  double macs = 0;
  for (const golden::CompletedConvLayer& c : golden::completed_conv_layers(cfg, layers)) {
    const golden::ConvLayer& l = c.layer;
    const double kernel = l.kind == golden::ConvInputKind::Winograd ? 9.0 * l.csc_channels
                                                                    : double(l.kernel_width) * l.kernel_height * l.kernel_channels;
    macs += double(l.out_width) * l.out_height * l.kernels * l.batches * kernel;
  }
  return macs;
}

void golden_speed(const std::string& config, const std::string& precision) {
  const HwConfig& cfg = HwConfig::get(config);
  double macs = 0, seconds = 0;
  int layers = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    RunRequest req;
    req.config = config;
    req.test = "conv.random";
    req.seed = seed;
    req.golden_only = true;
    req.knobs = {{"size", "large"}, {"layers", "2"}, {"precision", precision}, {"mode", "direct"}};
    const RunResult r = run_test(req);
    if (r.verdict != Verdict::Pass) {
      fmt::print("  {:<6} {:<6} seed {}: {} ({})\n", config, precision, seed, verdict_name(r.verdict), r.summary);
      continue;
    }
    macs += macs_of(cfg, r.layers);
    seconds += r.golden_seconds;
    for (const LayerRecord& l : r.layers) layers += l.completed && l.unit == Unit::CACC;
  }
  if (seconds > 0)
    fmt::print("  {:<6} {:<6} {:>3} layers  {:>8.1f} MMAC  {:>7.3f} s  {:>8.1f} MMAC/s\n", config, precision, layers,
               macs / 1e6, seconds, macs / 1e6 / seconds);
}

void trace_ratio(const std::filesystem::path& dir) {
  if (!tb::find_simulation_model("small", "nvdla")) {
    fmt::print("  (no NVIDIA nv_small model: configure with -DDLA_NVDLA_RTL to compare with RTL time)\n");
    return;
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("dc_", 0) != 0 && name.rfind("img_", 0) != 0) continue;
    const auto cfg_file = entry.path() / (name + ".cfg");
    const trace::CompiledTrace ct =
        trace::compile_trace(trace::read_cfg_file(cfg_file.string()), HwConfig::get("small"), trace::CompileOptions{});
    RunRequest req;
    req.config = "small";
    req.test = name;
    req.golden_only = true;
    const RunResult g = run_program(req, ct.program);
    req.golden_only = false;
    req.dut = "nvdla";
    const RunResult r = run_program(req, ct.program);
    const double rtl = r.wall_seconds - r.golden_seconds;
    fmt::print("  {:<46} golden {:>7.4f} s  RTL {:>7.3f} s ({:>7} cycles)  {:>6.0f}x\n", name, g.golden_seconds, rtl,
               r.cycles, g.golden_seconds > 0 ? rtl / g.golden_seconds : 0.0);
  }
}

// Atomic operations of the completed conv layers (the MAC array's work at one per clock) and
// the bytes CDMA reads (input cube and weights).
struct LayerWork {
  double ops = 0, bytes = 0, out_beats = 0;
};
LayerWork work_of(const HwConfig& cfg, const std::vector<LayerRecord>& layers) {
  LayerWork w;
  for (const golden::CompletedConvLayer& c : golden::completed_conv_layers(cfg, layers)) {
    const golden::ConvLayer& l = c.layer;
    const double ak = cfg.conv_kernels_per_group(l.proc), ac = cfg.conv_mac_atomic_c;
    const double groups = std::ceil(l.kernels / ak);
    const bool image = l.kind == golden::ConvInputKind::Image;
    const double es = l.proc == Precision::Int8 ? 1 : 2;   // direct layers: input in the processing precision
    const double chans = image ? l.kernel_channels : l.channels;
    const double per_pixel = l.post_rows() > 1 ? std::ceil(double(l.kernel_height) / l.post_rows())
                                               : std::ceil(chans / ac) * l.kernel_height * (image ? 1 : l.kernel_width);
    const double pixels = double(l.out_width) * l.out_height * l.batches;
    w.ops += groups * pixels * per_pixel;
    w.bytes += double(l.weight_bytes) + (image ? double(l.line_stride) * l.height
                                               : std::ceil(double(l.channels) * es / cfg.atom_bytes) * l.width * l.height *
                                                     l.batches * cfg.atom_bytes);
    w.out_beats += groups * pixels * ak / cfg.sdp_throughput;
  }
  return w;
}

// Cycles of a run's conv layer windows (the layer from the register write that starts it to
// its done; the run's performance windows, docs/scoreboard.md).
double conv_window_cycles(const RunResult& r) {
  double cycles = 0;
  if (r.details.contains("perf"))
    for (const auto& w : r.details.at("perf"))
      if (w.at("unit") == "conv") cycles += w.at("cycles").get<double>();
  return cycles;
}

// The RTL on conv layers, per precision the configuration's conv RTL runs: MAC utilisation of
// compute-bound layers, for random medium layers the cycles against the layer's own bound
// (MAC operations, DBB bytes, SDP beats: the largest), and for weight-streaming layers the
// cycles against the DBB bound (the goal is 1.25x), on a memory that never stalls; simulated
// cycles per second of the whole NV_nvdla. Direct layers, no batching or compression (the
// figures the performance goals of docs/conv-rtl.md are about).
void rtl_figures(const std::string& config) {
  const auto model = tb::find_simulation_model(config, "rtl");
  if (!model || !model->conv) {
    fmt::print("  {:<6} (the RTL of this configuration has no convolution pipeline yet)\n", config);
    return;
  }
  const HwConfig& cfg = HwConfig::get(config);
  // `window`: count the conv layers' own windows (from the write that starts the layer to its
  // done, details "perf") instead of the whole run with its register programming.
  auto run = [&](std::map<std::string, std::string> knobs, const std::string& precision, uint64_t seeds, LayerWork& w,
                 double& cycles, double& seconds, bool window = false) {
    knobs["precision"] = precision;
    if (cfg.conv_batching) knobs["batch_percent"] = "0";
    if (cfg.conv_compression) knobs["compression_percent"] = "0";
    for (uint64_t seed = 1; seed <= seeds; ++seed) {
      RunRequest req;
      req.config = config;
      req.test = "conv.random";
      req.seed = seed;
      req.axi_profile = "fast";
      req.knobs = knobs;
      const RunResult r = run_test(req);
      if (r.verdict != Verdict::Pass) {
        fmt::print("  {} seed {}: {} ({})\n", config, seed, verdict_name(r.verdict), r.summary);
        continue;
      }
      const LayerWork lw = work_of(cfg, r.layers);
      w.ops += lw.ops;
      w.bytes += lw.bytes;
      w.out_beats += lw.out_beats;
      cycles += window ? conv_window_cycles(r) : double(r.cycles);
      seconds += r.wall_seconds - r.golden_seconds;
    }
  };
  double all_cycles = 0, all_seconds = 0;
  for (Precision p : {Precision::Int8, Precision::Int16, Precision::Fp16}) {
    if (!cfg.supports(p)) continue;
    const std::string prec = precision_name(p);
    LayerWork cb;
    double cb_cycles = 0, cb_seconds = 0;
    run({{"shape", "compute_bound"}, {"layers", "1"}, {"size", "large"}}, prec, 4, cb, cb_cycles, cb_seconds);
    fmt::print("  {:<6} {:<5} compute-bound 3x3 layers: {:>9.0f} MAC ops in {:>9.0f} cycles, MAC utilisation {:>5.1f} %\n",
               config, prec, cb.ops, cb_cycles, cb_cycles > 0 ? 100.0 * cb.ops / cb_cycles : 0.0);
    LayerWork any;
    double cycles = 0, seconds = 0;
    run({{"layers", "1"}, {"size", "medium"}, {"mode", "direct"}}, prec, 8, any, cycles, seconds);
    const double bound = std::max({any.ops, any.bytes / cfg.dbb_bytes(), any.out_beats});
    fmt::print("  {:<6} {:<5} random medium direct layers: {:>9.0f} cycles, bound {:>9.0f} (ops {:.0f}, DBB {:.0f}, "
               "SDP {:.0f}), {:.2f}x the bound\n",
               config, prec, cycles, bound, any.ops, any.bytes / cfg.dbb_bytes(), any.out_beats,
               bound > 0 ? cycles / bound : 0.0);
    LayerWork mb;
    double mb_cycles = 0, mb_seconds = 0;
    run({{"shape", "memory_bound"}, {"layers", "1"}, {"sram_percent", "0"}}, prec, 4, mb, mb_cycles, mb_seconds, true);
    const double dbb_bound = mb.bytes / cfg.dbb_bytes();
    fmt::print("  {:<6} {:<5} memory-bound (weight-streaming) layers: {:>9.0f} layer cycles, DBB bound {:>9.0f}, {:.2f}x "
               "the bound (goal <= 1.25x)\n",
               config, prec, mb_cycles, dbb_bound, dbb_bound > 0 ? mb_cycles / dbb_bound : 0.0);
    all_cycles += cb_cycles + cycles + mb_cycles;
    all_seconds += cb_seconds + seconds + mb_seconds;
  }
  fmt::print("  {:<6} simulation speed on these conv layers: {:>8.0f} cycles/s\n", config,
             all_seconds > 0 ? all_cycles / all_seconds : 0.0);
}

}  // namespace

int main() {
  fmt::print("RTL convolution pipeline (fast memory):\n");
  for (const HwConfig& cfg : HwConfig::all()) rtl_figures(cfg.name);
  fmt::print("golden model, conv.random size=large direct layers (8 seeds x 2 layers):\n");
  for (const HwConfig& cfg : HwConfig::all())
    for (Precision p : {Precision::Int8, Precision::Int16, Precision::Fp16})
      if (cfg.supports(p)) golden_speed(cfg.name, precision_name(p));
  const char* traces = std::getenv("DLA_NVDLA_TRACES");
  const std::filesystem::path dir = std::filesystem::path(traces ? traces : DLA_NVDLA_TRACES_DEFAULT) / "nv_small";
  fmt::print("public nv_small conv traces: golden-only replay against NVIDIA's RTL ({}):\n", dir.string());
  if (std::filesystem::is_directory(dir)) trace_ratio(dir);
  else fmt::print("  (trace folder not found; set DLA_NVDLA_TRACES)\n");
  return 0;
}
