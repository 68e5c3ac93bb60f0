#!/usr/bin/env bash
# dlaverif trace and run --export-trace: verdict lines, exit codes (0 pass, 1 fail, 2 input
# error), one clear message per kind of bad input, and export -> replay round trips on the
# RTL. Usage: trace_cli.sh DLAVERIF
set -u
dla=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# expect RC PATTERN ARGS...: exit code RC and PATTERN (grep -E) in the combined output.
expect() {
  local want=$1 pattern=$2
  shift 2
  "$dla" "$@" >"$tmp/out" 2>&1
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL: dlaverif $* -> exit $rc, want $want"; sed 's/^/  | /' "$tmp/out"; failures=$((failures + 1))
  elif ! grep -Eq -- "$pattern" "$tmp/out"; then
    echo "FAIL: dlaverif $* -> output lacks /$pattern/"; sed 's/^/  | /' "$tmp/out"; failures=$((failures + 1))
  else
    echo "ok: dlaverif $* -> $rc"
  fi
}
# trace NAME TEXT: a test directory NAME holding NAME.cfg with TEXT.
trace() { mkdir -p "$tmp/$1"; printf '%b' "$2" >"$tmp/$1/$1.cfg"; }

# A small v1 trace: BDMA copies 64 bytes, the interrupt is awaited and the copy CRC-checked.
data='{offset:0x0, size:32, payload:0x00 0x01 0x02 0x03 0x04 0x05 0x06 0x07 0x08 0x09 0x0a 0x0b 0x0c 0x0d 0x0e 0x0f 0x10 0x11 0x12 0x13 0x14 0x15 0x16 0x17 0x18 0x19 0x1a 0x1b 0x1c 0x1d 0x1e 0x1f},\n'
bdma='mem_load(pri_mem, 0x80000000, "src.dat");\nmem_init(pri_mem, 0x80100000, 0x20, ALL_ZERO);\n'
bdma+='reg_write(NVDLA_BDMA.CFG_SRC_ADDR_LOW_0, 0x80000000);\nreg_write(NVDLA_BDMA.CFG_DST_ADDR_LOW_0, 0x80100000);\n'
bdma+='reg_write(NVDLA_BDMA.CFG_LINE_0, 0x0);\nreg_write(NVDLA_BDMA.CFG_CMD_0, 0x3);\nreg_write(NVDLA_BDMA.CFG_LINE_REPEAT_0, 0x0);\n'
bdma+='reg_write(NVDLA_BDMA.CFG_SURF_REPEAT_0, 0x0);\nreg_write(NVDLA_BDMA.CFG_OP_0, 0x1);\nreg_write(NVDLA_BDMA.CFG_LAUNCH0_0, 0x1);\n'
bdma+='intr_notify(BDMA_0, done);\n'
trace copy "$bdma"'check_crc(done, pri_mem, 0x80100000, 0x20, 0x91267e8a);\n'
printf '%b' "$data" >"$tmp/copy/src.dat"
expect 0 "^pass +[^ ]*/copy .*golden-only, 1 check" trace "$tmp/copy" --config v1 --golden-only
expect 0 "^pass +[^ ]*/copy .*golden\+rtl, 1 check, [0-9]+ cycles" trace "$tmp/copy/copy.cfg" --config v1
expect 0 "^total: 1 trace: 1 pass, 0 fail, 0 error" trace "$tmp/copy" --config v1 --golden-only
# Planted bug: a wrong golden CRC fails on both sides, with both reports, exit 1.
trace wrongcrc "$bdma"'check_crc(done, pri_mem, 0x80100000, 0x20, 0x12345678);\n'
cp "$tmp/copy/src.dat" "$tmp/wrongcrc/"
expect 1 "golden model's dbb memory has CRC 0x91267e8a .* the trace expects 0x12345678" trace "$tmp/wrongcrc" --config v1
expect 1 "DUT dbb memory has CRC 0x91267e8a .*expected 0x12345678" trace "$tmp/wrongcrc" --config v1
# An interrupt that never comes: the golden model says so; the RTL wait times out (watchdog).
trace nointr 'mem_init(pri_mem, 0x80000000, 0x20, ALL_ZERO);\nintr_notify(BDMA_1, e);\ncheck_crc(e, 1, 0x80000000, 0x20, 0x0);\n'
expect 1 "intr_notify\(BDMA_1, e\) at .*nointr.cfg:2: golden model never raises interrupt status bits 0x80" trace "$tmp/nointr" --config v1 --golden-only
expect 1 "not raised within the timeout \(watchdog\)" trace "$tmp/nointr" --config v1 --intr-timeout 2000
# Unsupported and not-implemented are verdicts, not failures.
expect 0 "^unsupported \\(line 3 uses NVDLA_BDMA.CFG_SRC_ADDR_LOW_0, a unit configuration 'small' does not have\\) +[^ ]*/copy " trace "$tmp/copy" --config small
expect 0 "^total: 1 trace: 0 pass, 0 fail, 0 error, 0 not-implemented, 1 unsupported" trace "$tmp/copy" --config small
# NVDLA's folder-per-configuration layout: without --config the folder names the configuration
# (nvdlav1 = v1, nv_small = small, nv_large = nv_large); a folder that looks like one but is
# none is an input error naming it.
for folder in nvdlav1 nv_small nv_large nv_huge; do
  mkdir -p "$tmp/$folder" && cp -r "$tmp/copy" "$tmp/$folder/"
done
expect 0 "^pass +nvdlav1/copy +\\(v1, golden-only, 1 check" trace "$tmp/nvdlav1" --golden-only
expect 0 "^unsupported \\(line 3 uses NVDLA_BDMA.*configuration 'small' does not have\\) +nv_small/copy +\\(small," trace "$tmp/nv_small" --golden-only
expect 0 "^unsupported \\(line 3 uses NVDLA_BDMA.*configuration 'nv_large' does not have\\) +nv_large/copy +\\(nv_large," trace "$tmp/nv_large/copy" --golden-only
expect 0 "^pass +nv_large/copy +\\(v1, golden-only" trace "$tmp/nv_large" --golden-only --config v1
expect 2 "trace folder 'nv_huge' \\(of nv_huge/copy\\) names no hardware configuration \\(known: .*nv_large.*small \\(nv_small\\)" trace "$tmp/nv_huge" --golden-only
# (the smallest legal RUBIK layer: every field at reset but the output address, which must not
# overlap the input; both on CV-SRAM. The input atom is initialised: the RTL reads it. It passes
# on v1's RUBIK RTL)
trace rubik 'mem_init(sec_mem, 0x0, 0x20, ALL_ZERO);\nreg_write(NVDLA_RBK.D_DAOUT_ADDR_LOW_0, 0x1000);\nreg_write(NVDLA_RBK.D_OP_ENABLE_0, 0x1);\nintr_notify(RUBIK_0, e);\ncheck_nothing(e);\n'
expect 0 "^pass +[^ ]*/rubik +\\(v1, " trace "$tmp/rubik" --config v1
# Bad input: exit 2, the file, the line and what was expected.
trace semi 'reg_write(NVDLA_GLB.S_INTR_MASK_0, 0x0)\n'
expect 2 "semi.cfg:1: reg_write: missing ';' after '\)'; expected reg_write\(BLOCK.REGISTER, value\);" trace "$tmp/semi" --config small
trace unknownreg '\n\nreg_write(NVDLA_SDP.D_NO_SUCH_0, 1);\n'
expect 2 "unknownreg.cfg:3: reg_write: unknown register 'NVDLA_SDP.D_NO_SUCH_0'" trace "$tmp/unknownreg" --config small
trace badhex 'reg_write(NVDLA_SDP.S_POINTER_0, 0xfg);\n'
expect 2 "badhex.cfg:1: reg_write: value '0xfg' is not a 32-bit number" trace "$tmp/badhex" --config small
trace nodata 'mem_load(pri_mem, 0x80000000, "absent.dat");\n'
expect 2 "nodata.cfg:1: mem_load: data file 'absent.dat' not found" trace "$tmp/nodata" --config small
trace outside 'mem_init(pri_mem, 0x80000000, 0x20, ALL_ZERO);\nsync_notify(NVDLA_GLB, e);\ncheck_crc(e, 1, 0x80000010, 0x20, 0x0);\n'
expect 2 "outside.cfg:3: check_crc: window 0x80000010\+0x20 on pri_mem is not inside memory the trace initialises, loads or reserves" trace "$tmp/outside" --config small
trace baddat 'mem_load(pri_mem, 0x80000000, "x.dat");\n'
printf '{offset:0x0, size:4, payload:0x01 0x02},\n' >"$tmp/baddat/x.dat"
expect 2 "x.dat:1: payload has 2 bytes but the record's size is 4" trace "$tmp/baddat" --config small
mkdir -p "$tmp/txn" && printf 'write_reg 0xffff100b\n' >"$tmp/txn/input.txn"
expect 2 "input.txn:1: write_reg: 1 operands; expected write_reg 0xffffWWWW DATA" trace "$tmp/txn"
expect 2 "trace path '.*/absent' does not exist" trace "$tmp/absent"
expect 2 "unknown configuration 'nv_huge'" trace "$tmp/copy" --config nv_huge
mkdir -p "$tmp/empty"
expect 2 "no trace tests under" trace "$tmp/empty"
printf 'copy pass|maybe\n' >"$tmp/bad_expect.txt"
expect 2 "bad_expect.txt:1: unknown verdict 'maybe'" trace "$tmp/copy" --config v1 --expect "$tmp/bad_expect.txt"
# Expectation tables: met -> 0, not met -> 1.
printf '*/copy pass\n' >"$tmp/expect.txt"
expect 0 "expectations .*: 1 met, 0 not met" trace "$tmp/copy" --config v1 --golden-only --expect "$tmp/expect.txt"
printf '*/copy not-implemented golden-only\n* pass\n' >"$tmp/expect2.txt"
expect 1 "UNEXPECTED, expected not-implemented" trace "$tmp/copy" --config v1 --golden-only --expect "$tmp/expect2.txt"
expect 0 "1 met, 0 not met" trace "$tmp/copy" --config v1 --expect "$tmp/expect2.txt"

# Export -> replay gives the same verdict (RTL), also for a failing run.
expect 0 "exported trace: .*bdma3.cfg" run --test bdma.random --seed 3 --export-trace "$tmp/bdma3"
expect 0 "^pass +.*bdma3 +\(v1, golden\+rtl" trace "$tmp/bdma3"
expect 0 "^PASS small regs.access seed=2" run --config small --test regs.access --seed 2 --export-trace "$tmp/regs2" --golden-only
expect 0 "^pass +.*regs2 +\(small, golden\+rtl" trace "$tmp/regs2"
expect 0 "exported trace" run --test regs.access --seed 1 --golden-only --export-trace "$tmp/regs1"
expect 0 "^pass +.*regs1 +\(v1, golden-only" trace "$tmp/regs1" --golden-only
expect 1 "^FAIL .*hang" run --test bdma.random --seed 3 --watchdog 1 --export-trace "$tmp/hang"
expect 1 "^fail +.*hang +\(v1, golden\+rtl.*hang" trace "$tmp/hang" --watchdog 1
# A program the dialect cannot say (busy reads also accept 0): exit 2 naming the op, the run's
# verdict still printed.
expect 2 "^PASS small sdp.random seed=1" run --config small --test sdp.random --seed 1 --knob busy_reads=on --golden-only --export-trace "$tmp/busy"
expect 2 "export-trace .*busy: cannot export op [0-9]+: a read that also accepts 0" run --config small --test sdp.random --seed 1 --knob busy_reads=on --golden-only --export-trace "$tmp/busy"

echo "trace cli: $failures failures"
[ "$failures" -eq 0 ]
