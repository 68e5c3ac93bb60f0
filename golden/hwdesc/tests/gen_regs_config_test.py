#!/usr/bin/env python3
"""Bad configuration files are refused by gen_regs.py with exit code 2 and a message naming
the file and the rule; the shipped configurations are accepted.

usage: gen_regs_config_test.py <gen_regs.py> <registers.csv> <rtl/configs dir>"""
import os
import subprocess
import sys
import tempfile

GEN, CSV, CONFIGS = sys.argv[1:4]
SMALL = open(os.path.join(CONFIGS, "small.yaml")).read()

# (what is changed, text replaced in small.yaml, replacement, expected words of the message)
CASES = [
    ("sat_flag value", "sat_flag: range", "sat_flag: maybe", "sdp.sat_flag must be 'margin' or 'range'"),
    ("misspelt sdp key", "sat_flag: range", "sat_flg: range", "unknown key 'sdp.sat_flg'"),
    ("sdp stage not a bool", "ew: false", "ew: 0", "sdp.ew must be true or false"),
    ("line buffer not a multiple of 16", "line_buffer_atoms: 128", "line_buffer_atoms: 100",
     "pdp.line_buffer_atoms must be 0 (no limit) or a positive multiple of 16"),
    ("line buffer negative", "line_buffer_atoms: 128", "line_buffer_atoms: -16", "pdp.line_buffer_atoms"),
    ("pdp not a mapping", "pdp: {line_buffer_atoms: 128}", "pdp: 128", "'pdp' must be a mapping"),
    ("stripe columns beyond the cube", "pdp: {line_buffer_atoms: 128}", "pdp: {line_buffer_atoms: 128, max_stripe_columns: 9000}",
     "pdp.max_stripe_columns must be 0 (no limit) or 1..8192"),
    ("stripe columns not a number", "pdp: {line_buffer_atoms: 128}", "pdp: {max_stripe_columns: many}",
     "pdp.max_stripe_columns"),
    ("cdp flag not a bool", "out_saturation: false", "out_saturation: sometimes", "cdp.out_saturation must be true or false"),
    ("misspelt cdp key", "out_saturation: false", "out_sat: false", "unknown key 'cdp.out_sat'"),
    ("misspelt conv key", "winograd: false", "winograde: false", "unknown key 'conv.winograde'"),
    ("conv number not a power of two", "cbuf_bank_entries: 512", "cbuf_bank_entries: 500",
     "conv.cbuf_bank_entries must be a positive power of two"),
    ("conv flag not a bool", "batching: false", "batching: 1", "conv.batching must be true or false"),
    ("conv section missing", "conv: {mac_atomic_c", "convolution: {mac_atomic_c", "missing key 'conv'"),
    ("kernel group not one surface", "mac_atomic_k: 8", "mac_atomic_k: 16", "conv.mac_atomic_k must equal atom_bytes"),
    ("misspelt top-level key", "cfgrom: true", "cfg_rom: true", "unknown key 'cfg_rom'"),
    ("name is not the file's", "name: small\n", "name: nv_small\n", "name 'nv_small' must be the file's name"),
    ("nvdla_names not a list", "nvdla_names: [nv_small]", "nvdla_names: nv_small", "nvdla_names must be a list"),
    ("dbb width", "data_bits: 64, addr_bits: 32", "data_bits: 48, addr_bits: 32",
     "dbb.data_bits must be 64, 128, 256 or 512"),
    ("address width", "data_bits: 64, addr_bits: 32", "data_bits: 64, addr_bits: 40", "dbb.addr_bits must be 32 or 64"),
    ("beat narrower than an atom", "atom_bytes: 8", "atom_bytes: 16", "dbb.data_bits must hold at least one atom"),
    ("sram_if not a bool", "sram_if: false", "sram_if: no_way", "sram_if must be true or false"),
    ("secondary bus without sram_if", "sram_if: false", "sram_if: false\nsram: {data_bits: 64}",
     "'sram' is given but sram_if is false"),
    ("sram_if without its bus", "sram_if: false", "sram_if: true", "sram_if is true but 'sram'"),
    ("secondary bus of another width", "sram_if: false", "sram_if: true\nsram: {data_bits: 128}",
     "sram.data_bits must equal dbb.data_bits"),
    ("throughput not a power of two", "throughput: {sdp: 1,", "throughput: {sdp: 3,",
     "throughput.sdp must be a positive power of two"),
    ("throughput above an atom", "throughput: {sdp: 1,", "throughput: {sdp: 16,",
     "throughput.sdp must not exceed the elements of one atom (8)"),
    ("throughput key missing", "throughput: {sdp: 1, pdp: 1, cdp: 1}", "throughput: {sdp: 1, pdp: 1}",
     "throughput.cdp must be a positive power of two"),
    ("throughput misspelt", "throughput: {sdp: 1, pdp: 1, cdp: 1}", "throughput: {sdp: 1, pdp: 1, cdp: 1, bdma: 1}",
     "unknown key 'throughput.bdma'"),
    ("LUT without EW", "lut: false", "lut: true", "sdp.lut needs sdp.ew"),
    ("no precision", "precisions: [int8]", "precisions: []", "precisions must be a non-empty list"),
]


def run(text, out):
    path = os.path.join(out, "small.yaml")  # a configuration's name is its file's
    with open(path, "w") as fh:
        fh.write(text)
    p = subprocess.run([sys.executable, GEN, "--regs", CSV, "--configs", path, "--out-cpp", out],
                       capture_output=True, text=True)
    return path, p


failures = []
SHIPPED = sorted(f for f in os.listdir(CONFIGS) if f.endswith(".yaml"))
with tempfile.TemporaryDirectory() as out:
    for f in SHIPPED:
        p = subprocess.run([sys.executable, GEN, "--regs", CSV, "--configs", os.path.join(CONFIGS, f),
                            "--out-cpp", out], capture_output=True, text=True)
        if p.returncode != 0:
            failures.append(f"shipped {f} refused: {p.stderr.strip()}")
    path, p = run(SMALL, out)
    if p.returncode != 0:
        failures.append(f"small.yaml itself refused: {p.stderr.strip()}")
    for what, old, new, words in CASES:
        if old not in SMALL:
            failures.append(f"{what}: '{old}' not in small.yaml (update this test)")
            continue
        path, p = run(SMALL.replace(old, new, 1), out)
        if p.returncode != 2 or path not in p.stderr or words not in p.stderr:
            failures.append(f"{what}: exit {p.returncode}, stderr: {p.stderr.strip()!r} (expected exit 2, "
                            f"the file name and {words!r})")
    path, p = run("- just a list\n", out)
    if p.returncode != 2 or "a configuration is a YAML mapping" not in p.stderr:
        failures.append(f"non-mapping file: exit {p.returncode}, stderr: {p.stderr.strip()!r}")

# The CFGROM words derived from small.yaml are nv_small's ROM: the register description's values.
sys.path.insert(0, os.path.dirname(os.path.abspath(GEN)))
import gen_regs  # noqa: E402

small = gen_regs.load_config(os.path.join(CONFIGS, "small.yaml"))
rom = {r.name: r.fields[0].sreset for r in gen_regs.load_registers(CSV, small["register_variant"])["CFGROM"]}
words = gen_regs.cfgrom_words(small)
if len(words) < 20:
    failures.append(f"small: only {len(words)} derived CFGROM words")
for name, value in words.items():
    if rom.get(name) != value:
        failures.append(f"small: derived CFGROM word {name} = {value:#x}, nv_small's ROM has {rom.get(name)}")

for f in failures:
    print("FAIL", f)
total = len(CASES) + 3 + len(SHIPPED)
print(f"{total - len(failures)} of {total} checks passed")
sys.exit(1 if failures else 0)
