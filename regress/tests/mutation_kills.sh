#!/usr/bin/env bash
# The checks that killed BDMA's formal-triage witnesses keep killing them (docs/mutation.md,
# "BDMA (v1): the survivors owed a test"): each case names a mutant of the v1:bdma model by its
# mutation identity (mode, location, port, bit; ids change whenever the RTL does), runs the
# test that killed it on the mutant (expect exit 1 and the signature) and on mutsel=0 (expect a
# pass). A case whose mutation the model no longer samples is reported and skipped; when none is
# sampled the test is skipped (exit 77): the model was renumbered, re-derive the cases.
# Usage: mutation_kills.sh MUTANT_BINARY   (dlaverif-mut-v1-bdma, its .mutants.json beside it)
#        mutation_kills.sh --skip MESSAGE     (the model is not built: exit 77)
set -u
if [[ ${1:-} == --skip ]]; then
  echo "skipped: $2"
  exit 77
fi
mut=$1
json=$mut.mutants.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0 ran=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
signature() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["signature"])' "$1" 2>/dev/null || echo missing; }
mutant_id() {  # mode location port bit -> id, or nothing
  python3 - "$json" "$@" <<'EOF'
import json, sys
path, mode, location, port, bit = sys.argv[1:]
ids = [m["id"] for m in json.load(open(path))["mutants"]
       if m["mode"] == mode and m["location"] == location and m["port"] == port and m["portbit"] == int(bit)]
print(ids[0] if len(ids) == 1 else "")
EOF
}
# what | identity (mode location port bit) | test and options | signature prefix
cases=(
  "STATUS.GRP0_BUSY forced 0|const0 rtl/bdma/dla_bdma.sv:300.22-300.47 Y 0|--test bdma.random --seed 1 --knob busy_status=on|reg:BDMA.STATUS"
  "a stride bit flipped by a high surface-stride bit|cnot1 rtl/common/dla_fifo.sv:30.18-30.21 DATA 79|--test bdma.random --seed 1 --knob wide_strides=on --knob max_lines=32|mem-compare:"
  "the read engine's group forced 0|const0 rtl/bdma/dla_bdma_rd_engine.sv:55.32-55.39 Q 0|--test bdma.random --seed 3 --axi-profile slow --knob stall_count=on|stall-settled:BDMA.STATUS_GRP0_"
  "CFG_OP stored without a valid write|inv gen/rtl/dla_bdma_regs.sv:111.14-111.53 A 0|--test regs.access --seed 1 --knob trigger_registers=yes|reg:BDMA.CFG_OP after a write to"
)
for c in "${cases[@]}"; do
  IFS='|' read -r what identity options want <<<"$c"
  # shellcheck disable=SC2086
  id=$(mutant_id $identity)
  if [[ -z $id ]]; then
    echo "not sampled by this model: $what ($identity)"
    continue
  fi
  ran=$((ran + 1))
  # shellcheck disable=SC2086
  "$mut" run --config v1 $options --set-signal mutsel="$id" --out "$tmp/m$id" >/dev/null 2>&1
  rc=$? sig=$(signature "$tmp/m$id/result.json")
  if [[ $rc == 1 && $sig == "$want"* ]]; then
    echo "ok: mutant $id ($what) killed: $sig"
  else
    fail "mutant $id ($what): exit $rc, signature '$sig', expected exit 1 and '$want...'"
  fi
  # shellcheck disable=SC2086
  "$mut" run --config v1 $options --set-signal mutsel=0 --out "$tmp/n$id" >/dev/null 2>&1
  rc=$?
  [[ $rc == 0 ]] || fail "$options on mutsel=0 (the design): exit $rc, signature '$(signature "$tmp/n$id/result.json")'"
done
if [[ $ran == 0 ]]; then
  echo "skipped: the model samples none of the cases' mutations (renumbered: re-derive them)"
  exit 77
fi
[[ $failures == 0 ]] || exit 1
echo "all $ran sampled cases killed, and pass on the design"
