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
    ("cdp flag not a bool", "out_saturation: false", "out_saturation: sometimes", "cdp.out_saturation must be true or false"),
    ("misspelt cdp key", "out_saturation: false", "out_sat: false", "unknown key 'cdp.out_sat'"),
    ("misspelt conv key", "winograd: false", "winograde: false", "unknown key 'conv.winograde'"),
    ("conv number not a power of two", "cbuf_bank_entries: 512", "cbuf_bank_entries: 500",
     "conv.cbuf_bank_entries must be a positive power of two"),
    ("conv flag not a bool", "batching: false", "batching: 1", "conv.batching must be true or false"),
    ("conv section missing", "conv: {mac_atomic_c", "convolution: {mac_atomic_c", "missing key 'conv'"),
    ("kernel group not one surface", "mac_atomic_k: 8", "mac_atomic_k: 16", "conv.mac_atomic_k must equal atom_bytes"),
]


def run(text, out):
    path = os.path.join(out, "bad.yaml")
    with open(path, "w") as fh:
        fh.write(text)
    p = subprocess.run([sys.executable, GEN, "--regs", CSV, "--configs", path, "--out-cpp", out],
                       capture_output=True, text=True)
    return path, p


failures = []
with tempfile.TemporaryDirectory() as out:
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

for f in failures:
    print("FAIL", f)
print(f"{len(CASES) + 2 - len(failures)} of {len(CASES) + 2} checks passed")
sys.exit(1 if failures else 0)
