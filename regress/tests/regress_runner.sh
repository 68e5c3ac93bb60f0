#!/usr/bin/env bash
# dlaverif regress / repro end to end on tiny plans (seconds): plan validation, local runs,
# crash and timeout results, interrupt + resume, results store history, JUnit, HTML, Slurm
# script generation and collection, exact repro.
# Usage: regress_runner.sh DLAVERIF [plan|local|resume|crash|slurm|repro|closure|codecov] (default: all
# but codecov, which needs dlaverif-cov)
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
plan_error cg_wrong_cfg "unknown covergroup 'bdma.op' for configuration 'small' \(known: " \
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
"$dla" regress --plan "$tmp/tiny.yaml" --code-coverage-goals line=90 --out "$tmp/o4" >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q "need --code-coverage" "$tmp/o" && [ ! -e "$tmp/o4/tests" ] || fail "code-coverage goals without --code-coverage"
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
# --config keeps only that configuration's entries; an unknown name or an empty result is refused.
"$dla" regress --plan "$tmp/tiny.yaml" --config small --out "$tmp/onlysmall" >"$tmp/oc" 2>&1 &&
  grep -q "regress: 2 tests: 2 pass" "$tmp/oc" && [ ! -e "$tmp/onlysmall/tests/bdma" ] && ok "--config small: the regs-small entry only" ||
  { fail "--config small"; cat "$tmp/oc"; }
"$dla" regress --plan "$tmp/tiny.yaml" --config nosuch --out "$tmp/nosuch" >"$tmp/oc" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q -- "--config 'nosuch': no such configuration" "$tmp/oc" || { fail "--config nosuch: exit $rc"; cat "$tmp/oc"; }
"$dla" regress --resume --out "$tmp/onlysmall" --config small >"$tmp/oc" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q -- "--config selects the entries of a new run" "$tmp/oc" || { fail "--resume --config: exit $rc"; cat "$tmp/oc"; }
xmllint --noout "$tmp/full/junit.xml" || fail "junit.xml is not well-formed"
grep -q '<testsuites name="dlaverif tiny smoke" tests="5" failures="0" errors="0"' "$tmp/full/junit.xml" || fail "junit totals"
for key in "Failures by signature" "No failures" "bdma.op" "bdma.batch" "ports_x_group" "<svg" "Trends over past runs"; do
  grep -q "$key" "$tmp/full/report.html" || fail "report.html lacks '$key'"
done
[ "$(sqlite3 "$tmp/full/results.db" "select count(*) from results where status='pass'")" = 5 ] || fail "store: 5 passes"
[ "$(sqlite3 "$tmp/full/results.db" "select count(*) from coverage_groups where run_id=1 and covergroup like 'bdma.%'")" = 2 ] \
  || fail "store: coverage groups"
# the summary: coverage per covergroup, merged and per configuration, and the runner's overhead
grep -Eq "^  covergroup +merged +small +v1$" "$tmp/o" || { fail "summary: per-configuration coverage header"; cat "$tmp/o"; }
grep -Eq "^  bdma.op +[0-9.]+% +- +[0-9.]+%$" "$tmp/o" || fail "summary: bdma.op has no column on small"
grep -Eq "^runner overhead [0-9.]+ % \([0-9.]+ ms a test: startup [0-9.]+, setup [0-9.]+, record [0-9.]+, other" "$tmp/o" \
  || fail "summary: runner overhead line with its breakdown"
grep -q "<th>coverage (merged)</th><th>bins hit</th><th>samples</th><th>small</th><th>v1</th>" "$tmp/full/report.html" \
  || fail "report.html: per-configuration columns"
[ -s "$tmp/full/coverage/merged-small.json" ] && [ -s "$tmp/full/coverage/merged-v1.json" ] || fail "per-configuration merged files"
[ "$(sqlite3 "$tmp/full/results.db" "select count(distinct config) from coverage_config_groups where run_id=1")" = 2 ] \
  || fail "store: coverage per configuration"
# Tests are forks of the runner (no second exec); --exec-tests execs the binary as before. Both
# must give the same verdicts, cycles and byte-identical coverage samples.
"$dla" regress --plan "$tmp/tiny.yaml" -j 2 --out "$tmp/exec" --exec-tests >"$tmp/o" 2>&1 || { fail "--exec-tests"; cat "$tmp/o"; }
# Closing a run without code coverage again with a waiver file is refused, naming the run.
"$dla" regress --resume --out "$tmp/full" --code-coverage-goals line=90 >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q "the regression in '.*full' ran without --code-coverage" "$tmp/o" ||
  { fail "--resume of a plain run with code-coverage goals"; cat "$tmp/o"; }
same_results "$tmp/full" "$tmp/exec" || fail "forked and exec'd tests differ"
for f in "$tmp"/full/tests/*/*/coverage.json; do
  cmp -s "$f" "$tmp/exec/${f#"$tmp"/full/}" || fail "coverage sample differs between fork and exec: ${f#"$tmp"/full/}"
done
grep -q '"startup"' "$tmp/full/tests/bdma/3/result.json" || fail "result.json: process_seconds.startup (spawn time from the runner)"
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
# the same timeout on a forked test (no --test-binary): an RTL register test runs ~6 s
printf 'tests:\n  - {name: t, test: regs.access, config: v1, seeds: 1, timeout: 1}\n' >"$tmp/slowfork.yaml"
start=$(date +%s)
"$dla" regress --plan "$tmp/slowfork.yaml" --out "$tmp/slowfork" >"$tmp/o" 2>&1
rc=$?
[ "$rc" -eq 1 ] && [ "$(sqlite3 "$tmp/slowfork/results.db" "select status from results")" = timeout ] \
  && [ $(( $(date +%s) - start )) -lt 5 ] || { fail "forked test past its timeout: exit $rc, want 1 and a timeout"; cat "$tmp/o"; }
# a killed runner takes its forked tests along (PR_SET_PDEATHSIG, as for exec'd ones)
sed 's/timeout: 1/timeout: 300/' "$tmp/slowfork.yaml" >"$tmp/slowfork2.yaml"
"$dla" regress --plan "$tmp/slowfork2.yaml" --out "$tmp/slowfork2" >/dev/null 2>&1 &
pid=$!
sleep 1
pgrep -f "out $tmp/slowfork2" | grep -qv "^$pid$" || fail "no forked test running under the runner"
kill -KILL $pid
wait $pid 2>/dev/null
sleep 0.3
pgrep -f "out $tmp/slowfork2" >/dev/null && fail "a forked test outlived the killed runner"
# Ctrl-C: the runner stops its forked tests, records nothing for them and exits 130
"$dla" regress --plan "$tmp/slowfork2.yaml" --out "$tmp/slowfork3" >"$tmp/o" 2>&1 &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ "$rc" -eq 130 ] || { fail "SIGINT with forked tests: exit $rc, want 130"; cat "$tmp/o"; }
sleep 0.3
pgrep -f "out $tmp/slowfork3" >/dev/null && fail "a forked test outlived the interrupted runner"
[ -e "$tmp/slowfork3/tests/t/1/outcome.json" ] && fail "SIGINT: the killed forked test was recorded"
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
for k in ("wall_seconds","golden_seconds","eval_seconds","generate_seconds","process_seconds","command_line"): j.pop(k, None)
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

# ---------------------------------------------------------------- closure and ranking
section_closure() {
printf 'tests:\n  - {name: tiny, test: bdma.random, golden_only: true, seeds: 4, knobs: {ports: dbb, max_line_bytes: 32}}\n' >"$tmp/narrow.yaml"
"$dla" regress --plan "$tmp/narrow.yaml" --out "$tmp/close" --close-coverage --closure-candidates 30 --closure-tests 3 \
  >"$tmp/o" 2>&1 || { fail "closure run"; cat "$tmp/o"; }
grep -Eq "closure: screened 30 candidates golden-only \([0-9]+ rejected\); [1-3] of them hit [1-9][0-9]* of [0-9]+ holes" "$tmp/o" \
  || { fail "closure screening line"; cat "$tmp/o"; }
before=$(sqlite3 "$tmp/close/results.db" "select coverage_before from closure")
after=$(sqlite3 "$tmp/close/results.db" "select coverage_after from closure")
python3 -c "import sys; sys.exit(0 if float('$after') > float('$before') else 1)" && ok "closure: coverage $before% -> $after%" \
  || fail "closure did not raise coverage ($before -> $after)"
kept=$(sqlite3 "$tmp/close/results.db" "select count(*) from results where entry like 'closure-tiny-%'")
[ "$kept" -ge 1 ] && [ "$kept" -le 3 ] || fail "closure: $kept closure results in the store, want 1..3"
grep -q "Coverage closure and ranking" "$tmp/close/report.html" && grep -q "before closure" "$tmp/close/report.html" \
  || fail "report lacks the closure before/after"
# The closure tests rerun from their plan and hit the same bins.
"$dla" regress --plan "$tmp/close/closure/plan.yaml" --out "$tmp/close-rerun" >"$tmp/o" 2>&1 || { fail "closure plan rerun"; cat "$tmp/o"; }
hits() { python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
print(sorted(g["name"]+"."+i["name"]+"."+b["name"] for g in d["groups"] for i in g["items"] for b in i["bins"] if b["kind"]=="normal" and b["hits"]))' "$1"; }
# Ranking: the ranked plan keeps every bin the run hit, with fewer tests.
ranked="$tmp/close/coverage/ranked.yaml"
[ -s "$ranked" ] || fail "no ranked plan"
n_ranked=$(grep -c "^  - name:" "$ranked")
total=$(sqlite3 "$tmp/close/results.db" "select count(*) from results")
[ "$n_ranked" -lt "$total" ] && ok "ranking keeps $n_ranked of $total tests" || fail "ranking kept $n_ranked of $total"
"$dla" regress --plan "$ranked" --out "$tmp/ranked" >"$tmp/o" 2>&1 || { fail "ranked plan rerun"; cat "$tmp/o"; }
[ "$(hits "$tmp/close/coverage/merged.json")" = "$(hits "$tmp/ranked/coverage/merged.json")" ] \
  && ok "ranked plan hits the same bins" || fail "ranked plan does not keep the merged coverage"
# --close-coverage on a finished out dir: closes it without rerunning the plan.
"$dla" regress --plan "$tmp/narrow.yaml" --out "$tmp/close2" >/dev/null 2>&1 || fail "plain run"
"$dla" regress --resume --close-coverage --closure-candidates 10 --closure-tests 1 --out "$tmp/close2" >"$tmp/o" 2>&1 \
  || { fail "closure of a finished run"; cat "$tmp/o"; }
grep -q "(4 already done)" "$tmp/o" && grep -q "closure: screened 10" "$tmp/o" || { fail "closure of a finished run"; cat "$tmp/o"; }
"$dla" regress --plan "$tmp/narrow.yaml" --launcher slurm --close-coverage --out "$tmp/close3" >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q "needs the local launcher" "$tmp/o" || { fail "closure with slurm must be refused"; cat "$tmp/o"; }
}

# ---------------------------------------------------------------- Verilator code coverage
section_codecov() {
cov_bin="$(dirname "$dla")/dlaverif-cov"
if [ ! -x "$cov_bin" ]; then echo "SKIP: $cov_bin not built (cmake --build DIR --target dlaverif-cov)"; exit 77; fi
printf 'tests:\n  - {name: regs, test: regs.access, config: small, seeds: 1}\n  - {name: pdp, test: pdp.random, config: small, seeds: 2, knobs: {layers: 1}}\n  - {name: gold, test: regs.access, config: small, golden_only: true, seeds: 1}\n' >"$tmp/cc.yaml"
# A plan entry of a configuration with an RTL model but no coverage model is refused before
# anything runs (checked when the build has such a configuration, e.g. v1 in make test's build).
nocov=$(comm -23 <("$dla" list --models | sort) <("$cov_bin" list --models | sort) | awk '$2 == "rtl" {print $1; exit}')
if [ -n "$nocov" ]; then
  printf 'tests:\n  - {name: nomodel, test: regs.access, config: %s, seeds: 1}\n' "$nocov" >"$tmp/ccnm.yaml"
  "$dla" regress --plan "$tmp/ccnm.yaml" --code-coverage --out "$tmp/ccnm" >"$tmp/o" 2>&1
  rc=$?
  [ $rc -eq 2 ] && grep -q "has no coverage model of configuration(s) $nocov" "$tmp/o" && [ ! -e "$tmp/ccnm/tests" ] &&
    ok "$nocov, without a coverage model, is refused" || { fail "no coverage model: exit $rc"; cat "$tmp/o"; }
else echo "note: every RTL model has a coverage model: the refusal is not checked"; fi
"$dla" regress --plan "$tmp/cc.yaml" --code-coverage -j 2 --out "$tmp/cc" >"$tmp/o" 2>&1 || { fail "code coverage run"; cat "$tmp/o"; }
for t in regs/1 pdp/1 pdp/2; do
  [ -s "$tmp/cc/tests/$t/coverage.dat.gz" ] && gzip -t "$tmp/cc/tests/$t/coverage.dat.gz" || fail "$t wrote no coverage.dat.gz"
  [ -e "$tmp/cc/tests/$t/coverage.dat" ] && fail "$t left its uncompressed coverage.dat"
done
ls "$tmp"/cc/tests/gold/1/coverage.dat* >/dev/null 2>&1 && fail "a golden-only test wrote a coverage file"
for f in merged.dat merged.info lines.tsv summary.json html/index.html; do
  [ -s "$tmp/cc/coverage/code/$f" ] || fail "coverage/code/$f missing"
done
grep -Eq "^code coverage: line [0-9.]+%, toggle [0-9.]+% over 3 coverage files" "$tmp/o" || { fail "code coverage line"; cat "$tmp/o"; }
grep -q "Code coverage (Verilator line and toggle)" "$tmp/cc/report.html" || fail "report lacks code coverage"
grep -q 'href="coverage/code/html/index.html"' "$tmp/cc/report.html" || fail "report lacks the genhtml link"
[ "$(sqlite3 "$tmp/cc/results.db" "select count(*) from code_coverage where unit='pdp' and lines_hit > 0")" -ge 1 ] \
  || fail "store: no pdp line hit"
pdp_all=$(sqlite3 "$tmp/cc/results.db" "select sum(lines_hit) from code_coverage where unit='pdp'")
[ "$pdp_all" -gt 0 ] && ok "pdp lines hit: $pdp_all" || fail "pdp lines hit: $pdp_all"
# The merged lines and a single test's hits agree on a line the PDP runs only with a layer.
python3 - "$tmp/cc/coverage/code/lines.tsv" <<'PY' || fail "lines.tsv / per-test hits"
import sys
merged = {}
for l in open(sys.argv[1]):
    if l.startswith("#"): continue
    f, n, h = l.rstrip("\n").split("\t"); merged[(f, int(n))] = int(h)
assert any(h > 0 for (f, n), h in merged.items() if "/pdp/" in f), "no pdp line hit in the merge"
assert any(h == 0 for h in merged.values()), "every line hit: suspicious"
PY
# Toggles count only after reset: the random start would toggle nearly every bit at reset, so a
# regs-only test would show the PDP datapath toggled although no layer ran. Reset-phase line
# hits stay (every test runs the reset branches), and the snapshot file is gone.
ls "$tmp"/cc/tests/*/*/coverage.dat.reset >/dev/null 2>&1 && fail "a reset snapshot was left behind"
python3 - "$tmp/cc/tests/regs/1/coverage.dat.gz" <<'PY' && ok "toggles count after reset only" || fail "toggles include the reset phase"
import gzip, re, sys
tog = hit = 0
lines_hit = 0
for l in gzip.open(sys.argv[1], "rt", encoding="latin-1"):
    m = re.match(r"C '(.*)' (\d+)$", l.rstrip("\n"))
    if not m: continue
    k, n = m.group(1), int(m.group(2))
    if "\x02pdp/" in k and "page\x02v_toggle" in k: tog += 1; hit += n > 0
    if "\x02pdp/" in k and "page\x02v_line" in k: lines_hit += n > 0
assert tog and hit < 0.75 * tog, f"regs test: {hit} of {tog} PDP toggle bits toggled"
assert lines_hit > 0, "regs test: no PDP line hit (reset branches lost)"
PY
# Lines Verilator counts only when it settles the model at time 0 (combinational blocks such as
# the AXI master's burst split, which the pdp layers run through all the time) keep their hits:
# the pdp tests cover every AXI line. Zeroing the counters at reset assertion dropped them (71 %).
python3 - "$tmp/cc/coverage/code/closure.json" <<'PY' && ok "settle-time line hits kept (axi lines 100 %)" || fail "settle-time line hits lost"
import json, sys
axi = [u for u in json.load(open(sys.argv[1]))["units"] if u["unit"] == "axi"][0]
assert axi["lines"] > 0 and axi["line_percent"] == 100.0, {k: axi[k] for k in ("lines", "lines_hit", "line_percent", "uncovered_lines")}
PY
# Constant bits (the build's Yosys list) leave the toggle goal: the closure names the list and
# counts them per unit; without the list (DLA_CONSTANT_BITS_DIR elsewhere) it warns and counts none.
python3 - "$tmp/cc/coverage/code/closure.json" <<'PY' && ok "constant bits out of the toggle goal" || fail "constant bits in closure.json"
import json, sys
c = json.load(open(sys.argv[1]))
assert c["constant_bits"]["small"].endswith("gen/small/constant_bits.json"), c["constant_bits"]
top = [u for u in c["units"] if u["unit"] == "top"][0]
assert top["toggles_constant"] > 0 and top["toggles_constant"] <= top["toggles"], top
for u in c["units"]:
    n = u["toggles"] - u["toggles_waived"] - u["toggles_constant"]
    assert abs(u["toggle_percent"] - (100.0 * u["toggles_hit"] / n if n else 100)) < 1e-6, u
PY
mkdir -p "$tmp/noconst"
DLA_CONSTANT_BITS_DIR="$tmp/noconst" "$dla" regress --resume --out "$tmp/cc" >"$tmp/onc" 2>&1
grep -q "warning: no constant-bit list for configuration small ($tmp/noconst/small/constant_bits.json" "$tmp/onc" &&
  python3 -c "import json,sys; c=json.load(open(sys.argv[1])); assert c['constant_bits']['small']=='' and all(u['toggles_constant']==0 for u in c['units'])" \
    "$tmp/cc/coverage/code/closure.json" && ok "no constant-bit list: warned, none left out" || { fail "missing constant-bit list"; cat "$tmp/onc"; }
"$dla" regress --resume --out "$tmp/cc" >"$tmp/onc" 2>&1   # back to the build's list for what follows
# merged.dat holds, for every coverage point, the sum of the per-test counts (no test dropped).
cat >"$tmp/merged_is_sum.py" <<'PY'
import collections, gzip, re, sys
def points(path):
    p = collections.Counter()
    for l in (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="latin-1"):
        m = re.match(r"C '(.*)' (\d+)$", l.rstrip("\n"))
        if m: p[m.group(1)] += int(m.group(2))
    return p
merged, total = points(sys.argv[1]), collections.Counter()
for f in sys.argv[2:]: total.update(points(f))
assert total and sum(total.values()) > 0, "no coverage points in the tests' files"
diff = [k for k in set(merged) | set(total) if merged[k] != total[k]]
assert not diff, f"{len(diff)} points differ, e.g. {diff[0][:120]!r}: merged {merged[diff[0]]}, tests {total[diff[0]]}"
PY
python3 "$tmp/merged_is_sum.py" "$tmp/cc/coverage/code/merged.dat" "$tmp"/cc/tests/{regs/1,pdp/1,pdp/2}/coverage.dat.gz &&
  ok "merged.dat: the sum of the 3 tests" || fail "merged.dat is not the sum of the tests"
# A truncated compressed file is left out with a warning naming it (the others still merge);
# an uncompressed coverage.dat, as older runs wrote, is merged as it is.
cp -r "$tmp/cc" "$tmp/ccz"
head -c 2000 "$tmp/cc/tests/pdp/1/coverage.dat.gz" >"$tmp/ccz/tests/pdp/1/coverage.dat.gz"
gzip -dc "$tmp/cc/tests/pdp/2/coverage.dat.gz" >"$tmp/ccz/tests/pdp/2/coverage.dat" && rm "$tmp/ccz/tests/pdp/2/coverage.dat.gz"
"$dla" regress --resume --out "$tmp/ccz" >"$tmp/oz" 2>&1
grep -q "warning: .*ccz/tests/pdp/1/coverage.dat.gz: truncated gzip file (left out of the code coverage)" "$tmp/oz" &&
  grep -Eq "^code coverage: line [0-9.]+%, toggle [0-9.]+% over 2 coverage files" "$tmp/oz" &&
  [ ! -e "$tmp/ccz/coverage/code/expanded" ] &&
  python3 "$tmp/merged_is_sum.py" "$tmp/ccz/coverage/code/merged.dat" "$tmp"/cc/tests/{regs/1,pdp/2}/coverage.dat.gz &&
  ok "a truncated coverage.dat.gz is left out by name; a plain coverage.dat merges" || { fail "truncated / plain coverage files"; cat "$tmp/oz"; }
rm -rf "$tmp/ccz"
# Closure: the first run's uncovered PDP lines of one file waived (plus an entry that excuses
# nothing), goals not met exit 1 naming the unit, goals met exit 0; closure.json and the report
# agree; a bad waiver file is refused before any test runs.
python3 - "$tmp/cc/coverage/code/closure.json" "$tmp/ccw.yaml" <<'PY' || fail "closure.json of the plain run"
import json, sys
c = json.load(open(sys.argv[1]))
assert c["goals_enforced"] is False and c["goals"] == {"line": 95, "toggle": 90}, c
pdp = [u for u in c["units"] if u["unit"] == "pdp" and u["config"] == "small"][0]
assert pdp["uncovered_lines"] and pdp["lines_waived"] == 0, pdp
f, ranges = sorted(pdp["uncovered_lines"].items())[0]
open(sys.argv[2], "w").write(f"waivers:\n  - {{file: {f}, lines: '{ranges}', reason: waived in the runner test}}\n"
                             "  - {file: rtl/pdp/no_such_file.sv, lines: '1', reason: matches nothing}\n")
print(f, ranges, file=open(sys.argv[2] + ".what", "w"))
PY
"$dla" regress --plan "$tmp/cc.yaml" --code-coverage -j 2 --out "$tmp/cc2" --code-coverage-waivers "$tmp/ccw.yaml" \
  --code-coverage-goals line=100,toggle=100 >"$tmp/o2" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "^code coverage small pdp: line .*(goal 100%)" "$tmp/o2" && grep -q "goals missed" "$tmp/o2" &&
   grep -q "entry 2 excused nothing on any configuration" "$tmp/o2" &&
   python3 - "$tmp/cc/coverage/code/closure.json" "$tmp/cc2/coverage/code/closure.json" "$(cat "$tmp/ccw.yaml.what")" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
f = sys.argv[3].split()[0]
pa = [u for u in a["units"] if u["unit"] == "pdp"][0]
pb = [u for u in b["units"] if u["unit"] == "pdp"][0]
n = sum(int(r.split("-")[-1]) - int(r.split("-")[0]) + 1 for r in pa["uncovered_lines"][f].split(", "))
assert pb["lines_waived"] == n and f not in pb["uncovered_lines"], (n, pb)
assert pb["line_percent"] > pa["line_percent"] and not pb["goals_met"] and b["goals_enforced"], (pa, pb)
assert b["unused_waivers"] == [2], b["unused_waivers"]
PY
then ok "code coverage closure: waived lines leave the uncovered list, missed goals exit 1"
else fail "code coverage closure (exit $rc)"; cat "$tmp/o2"; fi
# The plan's code_coverage section gives the same closure without the options.
{ cat "$tmp/cc.yaml"; printf 'code_coverage:\n  waivers: %s\n  goals: {line: 100, toggle: 100}\n' "$tmp/ccw.yaml"; } >"$tmp/ccp.yaml"
"$dla" regress --plan "$tmp/ccp.yaml" --code-coverage -j 2 --out "$tmp/ccp" >"$tmp/op" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "goals missed (line=100,toggle=100)" "$tmp/op" &&
  python3 -c "import json,sys; a,b=(json.load(open(p)) for p in sys.argv[1:]); assert a['units']==b['units'] and b['goals_enforced'] and b['waivers']==a['waivers']" \
    "$tmp/cc2/coverage/code/closure.json" "$tmp/ccp/coverage/code/closure.json" &&
  ok "the plan's code_coverage section closes the run as the options do" || { fail "plan code_coverage section: exit $rc"; cat "$tmp/op"; }
rm -rf "$tmp/ccp"
# The same closure on the finished first run, by --resume with the waiver file and goals.
cp -r "$tmp/cc" "$tmp/ccr"
touch "$tmp/ccr/tests/pdp/2/coverage.dat.reset"   # as a model whose reset hits could not be added leaves it
"$dla" regress --resume --out "$tmp/ccr" --code-coverage-waivers "$tmp/ccw.yaml" --code-coverage-goals line=100,toggle=100 \
  >"$tmp/or" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "^code coverage small pdp: line .*(goal 100%)" "$tmp/or" &&
  python3 -c "import json,sys; a,b=(json.load(open(p)) for p in sys.argv[1:]); assert a['units']==b['units'] and b['goals_enforced']" \
    "$tmp/cc2/coverage/code/closure.json" "$tmp/ccr/coverage/code/closure.json" &&
  ok "--resume closes a finished run again with a waiver file and goals" || { fail "--resume with waivers: exit $rc"; cat "$tmp/or"; }
grep -q "warning: 1 coverage file(s) lack the reset phase's line hits (e.g. .*pdp/2/coverage.dat.reset" "$tmp/or" &&
  ok "a left-behind reset snapshot is reported" || { fail "no warning for a left-behind reset snapshot"; cat "$tmp/or"; }
# Another finished code-coverage run's tests join the merge and the closure (--code-coverage-from),
# kept by --resume; what is not a finished code-coverage run is refused before any test runs.
printf 'tests:\n  - {name: cdp, test: cdp.random, config: small, seeds: 1, knobs: {layers: 1}}\n' >"$tmp/ccf.yaml"
"$dla" regress --plan "$tmp/ccf.yaml" --code-coverage --out "$tmp/ccg" >"$tmp/og" 2>&1 || { fail "cdp code coverage run"; cat "$tmp/og"; }
"$dla" regress --plan "$tmp/ccf.yaml" --code-coverage --out "$tmp/ccf" --code-coverage-from "$tmp/cc" >"$tmp/of" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -Eq "^code coverage: line [0-9.]+%, toggle [0-9.]+% over 4 coverage files \(with 1 other run\)" "$tmp/of" &&
   python3 "$tmp/merged_is_sum.py" "$tmp/ccf/coverage/code/merged.dat" "$tmp"/cc/tests/{regs/1,pdp/1,pdp/2}/coverage.dat.gz \
     "$tmp/ccf/tests/cdp/1/coverage.dat.gz" &&
   python3 - "$tmp/cc/coverage/code/closure.json" "$tmp/ccg/coverage/code/closure.json" "$tmp/ccf/coverage/code/closure.json" "$tmp/cc" <<'PY'
import json, os, sys
a, g, f = (json.load(open(p)) for p in sys.argv[1:4])
hit = lambda c: {u["unit"]: u["lines_hit"] for u in c["units"]}
ha, hg, hf = hit(a), hit(g), hit(f)
assert f["merged_from"] == [os.path.abspath(sys.argv[4])] and g["merged_from"] == [], (f["merged_from"], g["merged_from"])
assert all(hf[u] >= max(ha.get(u, 0), hg.get(u, 0)) for u in hf), (ha, hg, hf)
assert hf["pdp"] > hg["pdp"] and hf["cdp"] > ha["cdp"], (ha, hg, hf)
PY
then ok "--code-coverage-from: the other run's tests merged and closed with this run's"
else fail "--code-coverage-from (exit $rc)"; cat "$tmp/of"; fi
"$dla" regress --resume --out "$tmp/ccf" >"$tmp/of" 2>&1
grep -Eq "over 4 coverage files \(with 1 other run\)" "$tmp/of" && ok "--resume keeps the runs merged in" ||
  { fail "--resume lost --code-coverage-from"; cat "$tmp/of"; }
# The other run's manifest broken after the fact: a warning naming it, this run's own coverage
# still merged and the report written (exit 0: the goals are not enforced).
cp -r "$tmp/cc" "$tmp/ccbroken" && cp -r "$tmp/ccf" "$tmp/ccf2"
python3 - "$tmp/ccf2/manifest.json" "$tmp/cc" "$tmp/ccbroken" <<'PY'
import json, os, sys
m = json.load(open(sys.argv[1])); m["code_coverage_from"] = [os.path.abspath(sys.argv[3])]
json.dump(m, open(sys.argv[1], "w"))
PY
echo '{not json' >"$tmp/ccbroken/manifest.json"
rm -f "$tmp/ccf2/report.html"
"$dla" regress --resume --out "$tmp/ccf2" >"$tmp/of" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "warning: --code-coverage-from '.*ccbroken': regression manifest .* is unreadable" "$tmp/of" &&
  grep -Eq "over 1 coverage files \(with 1 other run\)" "$tmp/of" && [ -s "$tmp/ccf2/report.html" ] &&
  ok "an unreadable other run is left out with a warning, the report still written" ||
  { fail "unreadable --code-coverage-from run (exit $rc)"; cat "$tmp/of"; }
rm -rf "$tmp/ccbroken" "$tmp/ccf2"
printf 'tests:\n  - {name: gold, test: regs.access, config: small, golden_only: true, seeds: 1}\n' >"$tmp/plain.yaml"
"$dla" regress --plan "$tmp/plain.yaml" --out "$tmp/plain" >/dev/null 2>&1 || fail "plain run"
for bad in "$tmp/plain:that regression ran without --code-coverage" "$tmp/nothing:no regression there (manifest.json is missing)" \
           "$tmp/cc $tmp/cc/:is named twice"; do
  dirs=${bad%%:*} want=${bad#*:} args=()
  for d in $dirs; do args+=(--code-coverage-from "$d"); done
  "$dla" regress --plan "$tmp/ccf.yaml" --code-coverage --out "$tmp/ccx" "${args[@]}" >"$tmp/ox" 2>&1
  rc=$?
  [ $rc -eq 2 ] && grep -qF "$want" "$tmp/ox" && [ ! -e "$tmp/ccx/tests" ] && ok "--code-coverage-from refused: $want" ||
    { fail "--code-coverage-from $dirs (exit $rc)"; cat "$tmp/ox"; }
done
"$dla" regress --resume --out "$tmp/ccf" --code-coverage-from "$tmp/ccf" >"$tmp/ox" 2>&1
[ $? -eq 2 ] && grep -q "is this run's own out dir" "$tmp/ox" && ok "--code-coverage-from refuses the run's own out dir" ||
  { fail "--code-coverage-from own out dir"; cat "$tmp/ox"; }
"$dla" regress --plan "$tmp/ccf.yaml" --out "$tmp/ccx" --code-coverage-from "$tmp/cc" >"$tmp/ox" 2>&1
[ $? -eq 2 ] && grep -q "code-coverage-from need --code-coverage" "$tmp/ox" && ok "--code-coverage-from needs --code-coverage" ||
  { fail "--code-coverage-from without --code-coverage"; cat "$tmp/ox"; }
rm -rf "$tmp/ccf" "$tmp/ccg" "$tmp/plain"
grep -q "Closure per configuration and unit" "$tmp/cc2/report.html" && grep -q ">missed<" "$tmp/cc2/report.html" ||
  fail "report lacks the closure table"
"$dla" regress --plan "$tmp/cc.yaml" --code-coverage -j 2 --out "$tmp/cc3" --code-coverage-waivers "$tmp/ccw.yaml" \
  --code-coverage-goals line=0,toggle=0 >"$tmp/o3" 2>&1 && ok "goals met: exit 0" || { fail "goals 0: exit $?"; cat "$tmp/o3"; }
printf 'waivers:\n  - {file: a.sv, lines: 3}\n' >"$tmp/ccbad.yaml"
"$dla" regress --plan "$tmp/cc.yaml" --code-coverage --out "$tmp/cc4" --code-coverage-waivers "$tmp/ccbad.yaml" >"$tmp/o4" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "ccbad.yaml: entry 1: needs a 'reason'" "$tmp/o4" && [ ! -e "$tmp/cc4/tests" ] &&
  ok "a bad code-coverage waiver file is refused before the tests" || { fail "bad waiver file: exit $rc"; cat "$tmp/o4"; }
}

for s in plan local resume crash slurm repro closure codecov; do
  if { [ "$section" = all ] && [ "$s" != codecov ]; } || [ "$section" = "$s" ]; then "section_$s"; fi
done
echo "regress runner ($section): $failures failures"
[ "$failures" -eq 0 ]
