#!/usr/bin/env bash
# dlaverif mutate end to end on BDMA (v1: the small configuration has no BDMA) with a tiny plan
# and a handful of mutants: the first run must kill one and leave one surviving (classified);
# the second run grades exactly those two with the survivor waived. Also JSON/HTML/store
# content and bad inputs.
# Usage: mutation_flow.sh DLAVERIF [COUNT]   (grades mutants 1..COUNT, default 12)
set -u
dla=$1 count=${2:-12}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
cat >"$tmp/tiny.yaml" <<'PLAN'
plan: mutation-tiny
tests:
  - {name: bdma-regs, test: regs.access, config: v1, owner: bdma, seeds: 1}
  - {name: bdma-random, test: bdma.random, config: v1, owner: bdma, seeds: 2}
  - {name: sdp-regs, test: regs.access, config: small, owner: sdp, seeds: 1}
PLAN

# 1. Grade mutants 1..COUNT; pick the first killed and the first survivor.
"$dla" mutate --unit bdma --config v1 --count "$count" --plan "$tmp/tiny.yaml" --level smoke \
  -j 2 --budget 60 --out "$tmp/out" >"$tmp/run1.txt" 2>&1
rc=$?
[[ $rc == 0 ]] && ok "mutate exit 0" || { fail "mutate exit $rc"; cat "$tmp/run1.txt"; }
read -r killed survivor < <(python3 - "$tmp/out" "$count" <<'PY' || echo "none none"
import json, sys
out, count = sys.argv[1], int(sys.argv[2])
g = json.load(open(f"{out}/bdma-v1/grading.json"))
u = g["units"][0]
ms = {m["id"]: m for m in u["mutants"]}
assert u["graded"] == len(ms) == count, u["graded"]
assert len(g["baseline"]) == 3, g["baseline"]   # sdp-regs is not BDMA's
usable = sum(b["status"] == "pass" for b in g["baseline"])   # only baseline passes grade mutants
assert all(b["status"] == "pass" for b in g["baseline"] if b["test"].startswith("bdma-random/")), g["baseline"]
for m in ms.values():
    assert m["status"] != "survived" or m.get("class") in ("not-activated", "not-propagated", "not-detected"), m
    assert m["status"] != "survived" or m["tests_run"] == usable, m
    assert m["status"] != "killed" or (m["killed_by"]["test"] and m["killed_by"]["seed"] >= 1 and m["tests_run"] >= 1), m
    assert m["location"].startswith(("rtl/", "gen/rtl/")), m
assert abs(u["kill_rate"] - u["killed"] / u["graded"]) < 1e-9
assert sum(u["time_to_first_kill"]["tests_until_kill"].values()) == u["killed"]
j = json.load(open(f"{out}/mutation.json"))
assert j["overall"]["graded"] == count and j["units"][0]["unit"] == "bdma"
k = [m["id"] for m in u["mutants"] if m["status"] == "killed"]
s = [m["id"] for m in u["mutants"] if m["status"] == "survived"]
assert k and s, f"need a killed and a surviving mutant among 1..{count}: killed {k}, survived {s}"
print(k[0], s[0])
PY
)
if [[ $killed == none ]]; then fail "grading.json / mutation.json content (see above)"; else
  ok "mutant $killed killed, mutant $survivor survived (classified)"; fi
grep -q "Mutation grading" "$tmp/out/mutation.html" && ! grep -qi "<script" "$tmp/out/mutation.html" &&
  grep -q ">$survivor</td>" "$tmp/out/mutation.html" && ok "mutation.html: survivors listed, no scripts" ||
  fail "mutation.html content"
n=$(sqlite3 "$tmp/out/results.db" "select count(*) from mutation_results where run_id = (select max(id) from mutation_runs)")
[[ $n == "$count" ]] && ok "store: $count mutant rows" || fail "store has $n mutant rows"
ls "$tmp/out/bdma-v1/tests/m$killed" >/dev/null 2>&1 && ok "killed mutant's test directory" || fail "no tests/m$killed"

# 2. The survivor waived: class 'waived' with the reason, kill rate over the rest; the store
#    keeps both runs and the page shows the latest.
printf 'waivers:\n  - model: v1:bdma\n    mutant: %s\n    reason: proved equivalent in the flow test\n  - model: small:pdp\n    mutant: %s\n    reason: another model\n' "$survivor" "$killed" >"$tmp/waivers.yaml"
"$dla" mutate --unit bdma --config v1 --mutants "$killed,$survivor" --plan "$tmp/tiny.yaml" --level smoke \
  -j 2 --out "$tmp/out" --waivers "$tmp/waivers.yaml" --min-kill-rate 1.0 >"$tmp/run2.txt" 2>&1
rc=$?
[[ $rc == 0 ]] && ok "waived run exit 0 at --min-kill-rate 1.0" || { fail "waived run exit $rc"; cat "$tmp/run2.txt"; }
python3 - "$tmp/out" "$survivor" <<'PY' || fail "waiver in grading.json"
import json, sys
u = json.load(open(f"{sys.argv[1]}/bdma-v1/grading.json"))["units"][0]
s = [m for m in u["mutants"] if m["id"] == int(sys.argv[2])][0]
assert s["class"] == "waived" and "proved equivalent" in s["note"], s
assert u["waived"] == 1 and u["kill_rate"] == 1.0, u
PY
runs=$(sqlite3 "$tmp/out/results.db" "select count(*) from mutation_runs")
[[ $runs == 2 ]] && ok "store keeps both runs" || fail "store has $runs runs"
# A waiver of another model does not apply, even with the same id.
printf 'waivers:\n  - model: small:pdp\n    mutant: %s\n    reason: another model\n' "$survivor" >"$tmp/other-model.yaml"
"$dla" mutate --unit bdma --config v1 --mutants "$survivor" --plan "$tmp/tiny.yaml" --level smoke -j 2 \
  --out "$tmp/out3" --waivers "$tmp/other-model.yaml" >"$tmp/run2b.txt" 2>&1
grep -q "0 waived" "$tmp/run2b.txt" && ok "a waiver of another model does not waive" ||
  { fail "waiver of small:pdp applied to v1:bdma"; cat "$tmp/run2b.txt"; }
# An `explained` entry names the survivor's reason without calling it equivalent: the class and
# the kill rate stay, the reason is reported.
printf 'waivers:\n  - model: v1:bdma\n    mutant: %s\n    kind: explained\n    reason: seen only by a cycle model\n' "$survivor" >"$tmp/explained.yaml"
"$dla" mutate --unit bdma --config v1 --mutants "$killed,$survivor" --plan "$tmp/tiny.yaml" --level smoke -j 2 \
  --out "$tmp/out-ex" --waivers "$tmp/explained.yaml" >"$tmp/run-ex.txt" 2>&1
python3 - "$tmp/out-ex" "$survivor" <<'PY' && ok "an explained survivor keeps its class and the kill rate" || { fail "explained waiver"; cat "$tmp/run-ex.txt"; }
import json, sys
u = json.load(open(f"{sys.argv[1]}/bdma-v1/grading.json"))["units"][0]
s = [m for m in u["mutants"] if m["id"] == int(sys.argv[2])][0]
assert s["class"] != "waived" and s["explanation"] == "seen only by a cycle model", s
assert u["waived"] == 0 and u["explained"] == 1 and u["kill_rate"] == 0.5, u
PY
# A waiver by mutation identity (no id), written from grading.json's fields, waives the
# survivor; the same identity with another bit waives nothing (and is reported as stale).
python3 - "$tmp/out" "$survivor" "$tmp" <<'PY' || fail "identity waivers from grading.json"
import json, sys
out, sid, tmp = sys.argv[1], int(sys.argv[2]), sys.argv[3]
g = json.load(open(f"{out}/bdma-v1/grading.json"))
m = [x for x in g["units"][0]["mutants"] if x["id"] == sid][0]
def entry(bit):
    e = f"  - model: v1:bdma\n    mode: {m['mode']}\n    location: {m['location']}\n    port: {m['port']}\n    bit: {bit}\n"
    if "ctrlbit" in m: e += f"    ctrlbit: {m['ctrlbit']}\n"
    return e + "    cell: '" + m["cell"].replace("'", "''") + "'\n    reason: proved equivalent by identity\n"
open(f"{tmp}/identity.yaml", "w").write("waivers:\n" + entry(m["bit"]))
open(f"{tmp}/identity-other-bit.yaml", "w").write("waivers:\n" + entry(m["bit"] + 1))
PY
"$dla" mutate --unit bdma --config v1 --mutants "$survivor" --plan "$tmp/tiny.yaml" --level smoke -j 2 \
  --out "$tmp/out4" --waivers "$tmp/identity.yaml" >"$tmp/run2c.txt" 2>&1
grep -q "1 waived" "$tmp/run2c.txt" && grep -q "proved equivalent by identity" "$tmp/out4/bdma-v1/grading.json" &&
  ok "a waiver by mutation identity waives the survivor" || { fail "identity waiver"; cat "$tmp/run2c.txt"; }
"$dla" mutate --unit bdma --config v1 --mutants "$survivor" --plan "$tmp/tiny.yaml" --level smoke -j 2 \
  --out "$tmp/out5" --waivers "$tmp/identity-other-bit.yaml" >"$tmp/run2d.txt" 2>&1
grep -q "0 waived" "$tmp/run2d.txt" && grep -q "entry 1 matches no mutant of v1:bdma" "$tmp/run2d.txt" &&
  ok "an identity with another bit waives nothing and is reported" || { fail "identity, other bit"; cat "$tmp/run2d.txt"; }

# 2b. Formal triage (--triage) of the survivors, with stand-ins for local_equiv.py (finds every
#     mutant "not local") and formal_triage.py that record their arguments; the second calls every
#     mutant it is given equivalent (the real scripts have their own tests, mutation.local_equiv and
#     mutation.formal_triage): only survivors are triaged, the model's qualifiers are passed, the
#     verdicts reach grading.json, the store and the page, and the kill rate over non-equivalent
#     mutants excludes them. A failing triage keeps the grade (exit 1); bad settings stop it first.
mkdir -p "$tmp/model" && : >"$tmp/model/prepared.il" && : >"$tmp/model/mutate.ys" && : >"$tmp/model/mutants.json"
cat >"$tmp/stub_triage.py" <<'PY'
import json, os, sys
a = sys.argv[1:]
arg = lambda k: a[a.index(k) + 1]
out = arg("--out")
os.makedirs(out, exist_ok=True)
open(os.path.join(os.environ["STUB_ARGS"]), "w").write(" ".join(a))
if os.environ.get("STUB_FAIL"):
    print("mutant 1: something broke"); sys.exit(3)
ids = [int(x) for x in arg("--mutants").split(",")]
json.dump({"depth": int(arg("--depth")), "mutants": [{"id": i, "class": "equivalent", "depth": int(arg("--depth")),
           "seconds": 0.1} for i in ids]}, open(os.path.join(out, "triage.json"), "w"))
print(f"formal_triage: {len(ids)} mutants in 0 s")
PY
cat >"$tmp/stub_local.py" <<'PY'
import json, os, sys
a = sys.argv[1:]
arg = lambda k: a[a.index(k) + 1]
os.makedirs(arg("--out"), exist_ok=True)
open(os.environ["STUB_ARGS"] + ".local", "w").write(" ".join(a))
json.dump({"top": "dla_bdma", "mutants": [{"id": int(i), "class": "not local", "reason": "a cell of the unit's own module"}
           for i in arg("--mutants").split(",")]}, open(os.path.join(arg("--out"), "local_equiv.json"), "w"))
PY
printf 'defaults: {depth: 7, timeout: 5}\nmodels:\n  - model: v1:bdma\n    qualify: [{port: wr_dat_data, when: wr_dat_valid}]\n' >"$tmp/triage.yaml"
triage_args=(--triage --triage-script "$tmp/stub_triage.py" --local-equiv-script "$tmp/stub_local.py" --triage-model-dir "$tmp/model" --triage-settings "$tmp/triage.yaml")
STUB_ARGS="$tmp/stub_args.txt" "$dla" mutate --unit bdma --config v1 --mutants "$killed,$survivor" --plan "$tmp/tiny.yaml" \
  --level smoke -j 2 --out "$tmp/out6" "${triage_args[@]}" >"$tmp/run2e.txt" 2>&1
rc=$?
if [[ $rc == 0 ]] && grep -q -- "--mutants $survivor --depth 7 --timeout 5 " "$tmp/stub_args.txt" &&
   grep -q -- "--qualify wr_dat_data=wr_dat_valid@0" "$tmp/stub_args.txt" && grep -q -- "--jobs 2 " "$tmp/stub_args.txt" &&
   grep -q -- "--mutants $survivor --timeout 5 --out .*/triage/local" "$tmp/stub_args.txt.local" &&
   grep -q "engines local, unit" "$tmp/run2e.txt" &&
   grep -q "1 equivalent (0 by a local proof, 1 within 7 cycles, 0 for all cycles), 0 distinguishable" "$tmp/run2e.txt" &&
   python3 - "$tmp/out6" "$survivor" <<'PY'
import json, sys
u = json.load(open(f"{sys.argv[1]}/mutation.json"))["units"][0]
s = [m for m in u["mutants"] if m["id"] == int(sys.argv[2])][0]
assert s["triage"]["verdict"] == "equivalent", s
assert u["kill_rate_all"] == 0.5 and u["kill_rate_non_equivalent"] == 1.0, u
assert u["triage"] == {"triaged": 1, "equivalent": 1, "distinguishable": 0, "unknown": 0}, u["triage"]
PY
then ok "--triage: only the survivor triaged with the model's settings; verdict and both kill rates reported"
else fail "--triage plumbing: exit $rc"; cat "$tmp/run2e.txt" "$tmp/stub_args.txt" "$tmp/stub_args.txt.local"; fi
[[ $(sqlite3 "$tmp/out6/results.db" "select verdict from mutation_triage where mutant = $survivor") == equivalent ]] &&
  grep -q "equivalent (within 7 cycles)" "$tmp/out6/mutation.html" && ok "triage verdict in the store and the page" ||
  fail "triage verdict missing from the store or the page"
STUB_FAIL=1 STUB_ARGS="$tmp/stub_args.txt" "$dla" mutate --unit bdma --config v1 --mutants "$survivor" \
  --plan "$tmp/tiny.yaml" --level smoke -j 2 --out "$tmp/out6" "${triage_args[@]}" >"$tmp/run2f.txt" 2>&1
rc=$?
if [[ $rc == 1 ]] && grep -q "formal triage failed (exit 3" "$tmp/run2f.txt" && grep -q "something broke" "$tmp/run2f.txt" &&
   [[ $(sqlite3 "$tmp/out6/results.db" "select count(*) from mutation_runs") == 2 ]]; then
  ok "a failing triage exits 1 with its output and the grade is still recorded"
else fail "failing triage: exit $rc"; cat "$tmp/run2f.txt"; fi
printf 'models:\n  - {model: v1:bdma, depth: 0}\n' >"$tmp/bad-triage.yaml"
"$dla" mutate --unit bdma --config v1 --mutants "$survivor" --plan "$tmp/tiny.yaml" --level smoke --out "$tmp/out7" \
  --triage --triage-model-dir "$tmp/model" --triage-settings "$tmp/bad-triage.yaml" >"$tmp/run2g.txt" 2>&1
rc=$?
[[ $rc == 2 ]] && grep -q "models entry 1: 'depth' must be a positive number, not 0" "$tmp/run2g.txt" && [[ ! -e $tmp/out7/results.db ]] &&
  ok "bad triage settings refused before grading" || { fail "bad triage settings: exit $rc"; cat "$tmp/run2g.txt"; }
"$dla" mutate --unit bdma --config v1 --mutants "$survivor" --plan "$tmp/tiny.yaml" --level smoke --out "$tmp/out7" \
  --triage --triage-model-dir "$tmp/nowhere" --triage-settings "$tmp/triage.yaml" >"$tmp/run2h.txt" 2>&1
rc=$?
[[ $rc == 2 ]] && grep -q "nowhere/prepared.il is missing" "$tmp/run2h.txt" && ok "missing triage model dir refused" ||
  { fail "missing triage model dir: exit $rc"; cat "$tmp/run2h.txt"; }
mkdir -p "$tmp/model-noys" && : >"$tmp/model-noys/prepared.il"
"$dla" mutate --unit bdma --config v1 --mutants "$survivor" --plan "$tmp/tiny.yaml" --level smoke --out "$tmp/out7" \
  --triage --triage-model-dir "$tmp/model-noys" --triage-settings "$tmp/triage.yaml" >"$tmp/run2i.txt" 2>&1
rc=$?
[[ $rc == 2 ]] && grep -q "model-noys/mutate.ys is missing (the local engine needs" "$tmp/run2i.txt" && [[ ! -e $tmp/out7/results.db ]] &&
  ok "a model dir the local engine cannot use is refused before grading" ||
  { fail "model dir without mutate.ys: exit $rc"; cat "$tmp/run2i.txt"; }

# 3. A regression plan's gradings run before its tests, into the same out dir and store; a
#    grading whose mutant model is not built stops the regression before any test runs.
cat >"$tmp/weekly.yaml" <<'PLAN'
plan: weekly-tiny
tests:
  - {name: regs, test: regs.access, config: v1, seeds: 1}
gradings:
  - {unit: bdma, config: v1, level: smoke, plan: tiny.yaml, count: 3}
PLAN
"$dla" regress --plan "$tmp/weekly.yaml" --level smoke -j 2 --out "$tmp/reg" --quiet >"$tmp/run3.txt" 2>&1
rc=$?
if [[ $rc == 0 ]] && grep -q "mutation grading of bdma on v1" "$tmp/run3.txt" &&
   grep -q 'href="mutation.html"' "$tmp/reg/report.html" &&
   [[ $(sqlite3 "$tmp/reg/results.db" "select graded from mutation_runs") == 3 ]] &&
   [[ $(sqlite3 "$tmp/reg/results.db" "select count(*) from results") == 1 ]]; then
  ok "regress ran the plan's grading, then its test; report links mutation.html"
else fail "regress with a grading: exit $rc"; cat "$tmp/run3.txt"; fi
printf 'tests:\n  - {name: regs, test: regs.access, config: v1}\ngradings:\n  - {unit: nounit, config: v1, level: smoke, plan: tiny.yaml}\n' >"$tmp/nomodel.yaml"
"$dla" regress --plan "$tmp/nomodel.yaml" --level smoke --out "$tmp/reg2" >"$tmp/run4.txt" 2>&1
rc=$?
if [[ $rc == 2 ]] && grep -q "grades v1:nounit at level smoke, but no mutant model" "$tmp/run4.txt" && [[ ! -e $tmp/reg2/tests ]]; then
  ok "a grading without its mutant model stops the regression before any test"
else fail "missing grading model: exit $rc, $(head -2 "$tmp/run4.txt")"; fi
sed 's/ level: smoke,//' "$tmp/nomodel.yaml" >"$tmp/weekly-only.yaml"   # weekly: a grading's default level
"$dla" regress --plan "$tmp/weekly-only.yaml" --level nightly --out "$tmp/reg3" --quiet >"$tmp/run5.txt" 2>&1 &&
  ok "a weekly grading does not run at nightly" || { fail "weekly grading at nightly: exit $?"; cat "$tmp/run5.txt"; }

# 4. Bad input: exit 2 with a message naming the input and the rule.
expect2() {  # expect2 WHAT PATTERN ARGS...
  local what=$1 pat=$2
  shift 2
  "$dla" mutate "$@" >"$tmp/bad.txt" 2>&1
  local rc=$?
  if [[ $rc == 2 ]] && grep -q -- "$pat" "$tmp/bad.txt"; then ok "$what refused"; else
    fail "$what: exit $rc, output: $(head -3 "$tmp/bad.txt")"; fi
}
expect2 "unknown unit" "no mutant model for unit 'xyz'.*mutant models built here: .*v1:bdma" --unit xyz --config v1 --plan "$tmp/tiny.yaml" --out "$tmp/b"
expect2 "too many mutants" "the dlaverif-mut-v1-bdma model holds" --unit bdma --config v1 --count 100000 --plan "$tmp/tiny.yaml" --out "$tmp/b"
expect2 "mutant id outside the model" "mutant 99999 is not in the model" --unit bdma --config v1 --mutants 99999 --plan "$tmp/tiny.yaml" --out "$tmp/b"
printf 'tests:\n  - {name: x, test: regs.access, config: v1, owner: glb, seeds: 1}\n' >"$tmp/other.yaml"
expect2 "plan without the unit" "has no test for unit 'bdma'" --unit bdma --config v1 --plan "$tmp/other.yaml" --out "$tmp/b"
printf 'waivers:\n  - mutant: 3\n' >"$tmp/w1.yaml"
expect2 "waiver without reason" "entry 1: needs a 'reason'" --unit bdma --config v1 --plan "$tmp/tiny.yaml" --waivers "$tmp/w1.yaml" --out "$tmp/b"
printf 'waivers:\n  - mutnat: 3\n    reason: typo\n' >"$tmp/w2.yaml"
expect2 "waiver with unknown field" "unknown field 'mutnat' (fields: model, mutant, location, mode, port, bit, ctrlbit, cell, kind, reason)" --unit bdma --config v1 --plan "$tmp/tiny.yaml" --waivers "$tmp/w2.yaml" --out "$tmp/b"
[[ $failures == 0 ]] && echo "all passed" || { echo "$failures failure(s)"; exit 1; }
