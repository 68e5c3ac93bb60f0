#!/usr/bin/env bash
# dlaverif regress / repro end to end on tiny plans (seconds): plan validation, local runs,
# crash and timeout results, interrupt + resume, results store history, JUnit, HTML, Slurm
# script generation and collection, exact repro.
# Usage: regress_runner.sh DLAVERIF [plan|local|resume|crash|slurm|repro] (default: all)
set -u
dla=$1
section=${2:-all}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
cat >"$tmp/tiny.yaml" <<'PLAN'
plan: tiny
tests:
  - {name: regs-small, test: regs.access, config: small, golden_only: true, seeds: 2}
  - {name: bdma, test: bdma.random, golden_only: true, seeds: {smoke: 3, nightly: 5}, covergroups: [bdma.op, bdma.batch]}
  - {name: bdma-nightly, test: bdma.random, golden_only: true, level: nightly, seeds: 2, knobs: {ports: dbb}}
PLAN
same_results() {  # same_results DIR_A DIR_B: verdict, signature, cycles of every test agree
  python3 - "$1" "$2" <<'PY'
import json, pathlib, sys
def load(d):
    return {str(p.parent.relative_to(d)): (j["status"], j["signature"], j["cycles"])
            for p in pathlib.Path(d).glob("tests/*/*/outcome.json") for j in [json.load(open(p))]}
a, b = load(sys.argv[1]), load(sys.argv[2])
sys.exit(0 if a == b and a else 1)
PY
}

# ---------------------------------------------------------------- plan validation
section_plan() {
plan_error() {  # plan_error NAME PATTERN YAML-BODY: regress refuses the plan before running anything
  local name=$1 pattern=$2
  printf '%s\n' "$3" >"$tmp/$name.yaml"
  "$dla" regress --plan "$tmp/$name.yaml" --out "$tmp/out-$name" >"$tmp/o" 2>&1
  local rc=$?
  if [ "$rc" -ne 2 ]; then fail "plan $name: exit $rc, want 2"; sed 's/^/  | /' "$tmp/o"
  elif ! grep -Eq -- "$pattern" "$tmp/o"; then fail "plan $name: output lacks /$pattern/"; sed 's/^/  | /' "$tmp/o"
  elif ! grep -q "$name.yaml" "$tmp/o"; then fail "plan $name: error does not name the file"; sed 's/^/  | /' "$tmp/o"
  elif [ -e "$tmp/out-$name/tests" ]; then fail "plan $name: tests ran"
  else ok "plan $name refused"; fi
}
plan_error unknown_test "entry 1 \('a'\): unknown test 'no.such'" 'tests: [{name: a, test: no.such}]'
plan_error unknown_cg "entry 2 \('b'\): unknown covergroup 'bdma.nope' for configuration 'v1'" \
  'tests: [{name: a, test: regs.access}, {name: b, test: bdma.random, covergroups: [bdma.nope]}]'
plan_error cg_wrong_cfg "unknown covergroup 'bdma.op' for configuration 'small' \(known: none\)" \
  'tests: [{name: a, test: regs.access, config: small, covergroups: [bdma.op]}]'
plan_error bad_knob "unknown knob 'speed'" 'tests: [{name: a, test: bdma.random, knobs: {speed: 3}}]'
plan_error bad_knob_value "max_lines" 'tests: [{name: a, test: bdma.random, knobs: {max_lines: 0}}]'
plan_error bad_level "level 'hourly' is not smoke, nightly or weekly" 'tests: [{name: a, test: regs.access, level: hourly}]'
plan_error bad_field "unknown field 'seed'" 'tests: [{name: a, test: regs.access, seed: 3}]'
plan_error duplicate "entry name 'a' is used twice" 'tests: [{name: a, test: regs.access}, {name: a, test: regs.access}]'
plan_error unsupported "does not support configuration 'small'" 'tests: [{name: a, test: bdma.random, config: small}]'
plan_error bad_seeds "seeds.*whole number" 'tests: [{name: a, test: regs.access, seeds: many}]'
plan_error not_yaml "not valid YAML" 'tests: [{name: a'
"$dla" regress --plan "$tmp/missing.yaml" --out "$tmp/o2" >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q "cannot read plan" "$tmp/o" || fail "missing plan file"
"$dla" regress --plan "$tmp/unknown_test.yaml" --level hourly --out "$tmp/o3" >"$tmp/o" 2>&1
[ $? -eq 2 ] || fail "bad --level accepted"
}

# ---------------------------------------------------------------- a tiny plan, golden only
section_local() {
"$dla" regress --plan "$tmp/tiny.yaml" -j 2 --out "$tmp/full" >"$tmp/o" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { fail "tiny plan: exit $rc"; cat "$tmp/o"; }
grep -q "regress: 5 tests: 5 pass, 0 fail" "$tmp/o" || { fail "tiny plan summary"; cat "$tmp/o"; }
grep -q "^\[5/5\] PASS" "$tmp/o" || fail "plain progress lines when not a terminal"
for f in results.db junit.xml report.html coverage/merged.json manifest.json tests/bdma/3/coverage.json tests/bdma/3/outcome.json; do
  [ -s "$tmp/full/$f" ] || fail "tiny plan: $f missing"
done
xmllint --noout "$tmp/full/junit.xml" || fail "junit.xml is not well-formed"
grep -q '<testsuites name="dlaverif tiny smoke" tests="5" failures="0" errors="0"' "$tmp/full/junit.xml" || fail "junit totals"
for key in "Failures by signature" "No failures" "bdma.op" "bdma.batch" "ports_x_group" "<svg" "Trends over past runs"; do
  grep -q "$key" "$tmp/full/report.html" || fail "report.html lacks '$key'"
done
[ "$(sqlite3 "$tmp/full/results.db" "select count(*) from results where status='pass'")" = 5 ] || fail "store: 5 passes"
[ "$(sqlite3 "$tmp/full/results.db" "select count(*) from coverage_groups where run_id=1")" = 2 ] || fail "store: coverage groups"
# nightly adds seeds and entries; --seeds overrides the counts
"$dla" regress --plan "$tmp/tiny.yaml" --level nightly --seeds 1 --out "$tmp/n" >"$tmp/o" 2>&1
grep -q "3 tests" "$tmp/o" || { fail "--seeds 1 at nightly: 3 tests"; cat "$tmp/o"; }
# a second run in the same out dir keeps the first in the store (history for the trends)
"$dla" regress --plan "$tmp/tiny.yaml" --out "$tmp/full" >/dev/null 2>&1 || fail "second run"
[ "$(sqlite3 "$tmp/full/results.db" "select count(*) from runs where finished is not null")" = 2 ] || fail "store keeps both runs"
[ "$(grep -o '<circle' "$tmp/full/report.html" | wc -l)" = 4 ] || fail "trend plots: 2 runs x 2 plots"
}

# ---------------------------------------------------------------- interrupt and resume
section_resume() {
[ -d "$tmp/full" ] || "$dla" regress --plan "$tmp/tiny.yaml" -j 2 --out "$tmp/full" >/dev/null 2>&1  # the uninterrupted reference
"$dla" regress --plan "$tmp/tiny.yaml" -j 1 --out "$tmp/cut" --stop-after 2 >"$tmp/o" 2>&1
rc=$?
[ "$rc" -eq 130 ] || { fail "interrupted run: exit $rc, want 130"; cat "$tmp/o"; }
grep -q "interrupted with 2 of 5 tests done" "$tmp/o" || { fail "interrupt message"; cat "$tmp/o"; }
[ "$(find "$tmp/cut/tests" -name outcome.json | wc -l)" = 2 ] || fail "2 results kept"
"$dla" regress --resume --out "$tmp/cut" -j 2 >"$tmp/o" 2>&1 || { fail "resume"; cat "$tmp/o"; }
grep -q "(2 already done)" "$tmp/o" || fail "resume skips finished tests"
same_results "$tmp/full" "$tmp/cut" || fail "resumed results differ from an uninterrupted run"
[ "$(sqlite3 "$tmp/cut/results.db" "select count(*) from results")" = 5 ] || fail "resumed store has 5 results"

# A real Ctrl-C (SIGINT to the runner) and a killed runner (SIGKILL): slow fake tests.
cat >"$tmp/slow.sh" <<FAKE
#!/usr/bin/env bash
sleep 0.3
exec "$dla" "\$@"
FAKE
chmod +x "$tmp/slow.sh"
for sig in INT KILL; do
  "$dla" regress --plan "$tmp/tiny.yaml" -j 1 --out "$tmp/sig$sig" --test-binary "$tmp/slow.sh" >"$tmp/o$sig" 2>&1 &
  pid=$!
  sleep 0.9
  kill -$sig $pid
  wait $pid
  rc=$?
  want=$([ $sig = INT ] && echo 130 || echo 137)
  [ "$rc" -eq "$want" ] || { fail "SIG$sig: runner exit $rc, want $want"; cat "$tmp/o$sig"; }
  sleep 0.2
  pgrep -f "$tmp/slow.sh" >/dev/null && fail "SIG$sig: a test process outlived the runner"
  grep -rlq '"crash' "$tmp/sig$sig/tests" 2>/dev/null && fail "SIG$sig: the interrupted test was recorded as a crash"
  "$dla" regress --resume --out "$tmp/sig$sig" >/dev/null 2>&1 || fail "SIG$sig: resume"
  same_results "$tmp/full" "$tmp/sig$sig" || fail "SIG$sig: resumed results differ"
  ok "SIG$sig then --resume"
done
}

# ---------------------------------------------------------------- crash and timeout are results
section_crash() {
cat >"$tmp/fake.sh" <<FAKE
#!/usr/bin/env bash
case " \$* " in
  *" --seed 2 "*) kill -SEGV \$\$ ;;
  *" --seed 3 "*) sleep 30 ;;
  *" --seed 4 "*) exit 7 ;;
esac
exec "$dla" "\$@"
FAKE
chmod +x "$tmp/fake.sh"
printf 'tests:\n  - {name: t, test: regs.access, config: small, golden_only: true, seeds: 4, timeout: 1}\n' >"$tmp/crash.yaml"
"$dla" regress --plan "$tmp/crash.yaml" -j 4 --out "$tmp/crash" --test-binary "$tmp/fake.sh" >"$tmp/o" 2>&1
rc=$?
[ "$rc" -eq 1 ] || { fail "crash plan: exit $rc, want 1"; cat "$tmp/o"; }
for want in "t/1:pass:" "t/2:crash:crash:SIGSEGV" "t/3:timeout:timeout" "t/4:crash:crash:exit-7"; do
  got=$(sqlite3 "$tmp/crash/results.db" "select job||':'||status||':'||signature from results where job='${want%%:*}'")
  [ "$got" = "$want" ] || fail "crash plan: got '$got', want '$want'"
done
grep -q 'crash:SIGSEGV x1: e.g. dlaverif repro' "$tmp/o" || { fail "bucket line"; cat "$tmp/o"; }
grep -q '<error message="timeout" type="timeout">' "$tmp/crash/junit.xml" || fail "junit error for the timeout"
grep -q 'crash:exit-7' "$tmp/crash/report.html" || fail "report bucket for exit 7"
}

# ---------------------------------------------------------------- Slurm: script, manifest, collect
section_slurm() {
"$dla" regress --plan "$tmp/tiny.yaml" --launcher slurm -j 2 --out "$tmp/slurm" >"$tmp/o" 2>&1 || { fail "slurm generate"; cat "$tmp/o"; }
script="$tmp/slurm/slurm/array.sh"
grep -q "submit:  sbatch $script" "$tmp/o" || fail "slurm: submit line"
grep -q '^#SBATCH --array=0-4%2$' "$script" || fail "slurm: array range and throttle"
grep -q '^#SBATCH --job-name=dlaverif-tiny-smoke$' "$script" || fail "slurm: job name"
[ "$(wc -l <"$tmp/slurm/slurm/commands.tsv")" = 5 ] || fail "slurm: 5 commands"
bash -n "$script" || fail "slurm: script syntax"
# No Slurm here: play the array tasks by hand, leaving task 4 out (as if cancelled).
for i in 0 1 2 3; do SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_JOB_ID=77 bash "$script" || fail "slurm task $i"; done
"$dla" regress --collect --out "$tmp/slurm" >"$tmp/o" 2>&1
rc=$?
[ "$rc" -eq 1 ] || { fail "slurm collect: exit $rc, want 1"; cat "$tmp/o"; }
grep -q "regress: 5 tests: 4 pass, 1 fail" "$tmp/o" || { fail "slurm collect summary"; cat "$tmp/o"; }
grep -q "slurm:no-result x1" "$tmp/o" || fail "slurm: the missing task is a result"
}

# ---------------------------------------------------------------- repro: same bytes, same cycles
section_repro() {
printf 'tests:\n  - {name: b, test: bdma.random, seeds: 1, first_seed: 3}\n  - {name: hang, test: bdma.random, seeds: 1, first_seed: 3, watchdog: 1}\n' >"$tmp/rtl.yaml"
"$dla" regress --plan "$tmp/rtl.yaml" --out "$tmp/rtl" >"$tmp/o" 2>&1
[ $? -eq 1 ] || { fail "rtl plan: the planted hang must fail"; cat "$tmp/o"; }
"$dla" repro "$tmp/rtl/tests/b/3" --out "$tmp/re" >"$tmp/o" 2>&1 || { fail "repro of a pass"; cat "$tmp/o"; }
grep -q "repro check: reproduced (pass, [1-9][0-9]* cycles)" "$tmp/o" || { fail "repro line"; cat "$tmp/o"; }
strip() { python3 -c 'import json,sys
j=json.load(open(sys.argv[1]))
for k in ("wall_seconds","golden_seconds","eval_seconds","command_line"): j.pop(k, None)
j["coverage"].pop("path", None); j.get("details",{}).get("sim",{}).pop("eval_seconds",None); j.get("details",{}).get("sim",{}).pop("total_seconds",None)
print(json.dumps(j, sort_keys=True))' "$1"; }
[ "$(strip "$tmp/rtl/tests/b/3/result.json")" = "$(strip "$tmp/re/result.json")" ] || fail "repro result.json differs beyond timing"
cmp -s "$tmp/rtl/tests/b/3/coverage.json" "$tmp/re/coverage.json" || fail "repro coverage sample differs"
"$dla" repro hang/3 --from "$tmp/rtl" >"$tmp/o" 2>&1
[ $? -eq 1 ] && grep -q "repro check: reproduced (fail, .* hang" "$tmp/o" || { fail "repro of the planted hang by TEST_ID"; cat "$tmp/o"; }
"$dla" repro b/3 --from "$tmp/rtl" --waves "$tmp/w.fst" --waves-last 300 >"$tmp/o" 2>&1 || { fail "repro with waves"; cat "$tmp/o"; }
grep -q "repro check: reproduced" "$tmp/o" && [ -s "$tmp/w.fst" ] || fail "repro with waves: same cycles and an FST file"
"$dla" repro no/such --from "$tmp/rtl" >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q "neither a result directory nor a test" "$tmp/o" || fail "repro of an unknown test"
# a recorded result the rerun does not match: NOT reproduced, exit 1
sed -i 's/"cycles": [0-9]*/"cycles": 1/' "$tmp/rtl/tests/b/3/result.json"
"$dla" repro "$tmp/rtl/tests/b/3" >"$tmp/o" 2>&1
[ $? -eq 1 ] && grep -q "NOT reproduced" "$tmp/o" || { fail "a changed record must not reproduce"; cat "$tmp/o"; }
}

for s in plan local resume crash slurm repro; do
  if [ "$section" = all ] || [ "$section" = "$s" ]; then "section_$s"; fi
done
echo "regress runner ($section): $failures failures"
[ "$failures" -eq 0 ]
