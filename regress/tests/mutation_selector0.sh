#!/usr/bin/env bash
# Selector 0 of a mutant model is the normal design: the unit's smoke tests give the same
# verdict, cycle count and DUT output digest (AXI writes/reads, CSB read data, interrupt edges)
# on the normal dlaverif and on the mutant model with mutsel=0. Also: a mutant that changes
# the outputs shows a different digest, and a bad selector is refused (exit 2).
# Usage: mutation_selector0.sh DLAVERIF MUTANT_BINARY CONFIG TEST:SEED...
set -u
dla=$1 mut=$2 cfg=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
fields() {  # verdict cycles digest of a result.json
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["verdict"], j["cycles"], j["details"]["sim"]["output_digest"])' "$1"
}
for ts in "$@"; do
  t=${ts%%:*} s=${ts##*:}
  "$dla" run --config "$cfg" --test "$t" --seed "$s" --out "$tmp/n-$t-$s" >/dev/null 2>&1
  "$mut" run --config "$cfg" --test "$t" --seed "$s" --set-signal mutsel=0 --out "$tmp/m-$t-$s" >/dev/null 2>&1
  a=$(fields "$tmp/n-$t-$s/result.json" 2>/dev/null || echo missing)
  b=$(fields "$tmp/m-$t-$s/result.json" 2>/dev/null || echo missing)
  if [[ "$a" == "$b" && "$a" != missing ]]; then
    echo "ok: $t seed $s: normal model and mutsel=0 agree ($a)"
  else
    fail "$t seed $s: normal model '$a', mutant model with mutsel=0 '$b'"
  fi
done
# The digest sees output differences: some mutant among the first few changes it on one of the
# smoke tests (datapath tests first: which mutants touch a register-only test depends on the
# netlist's numbering, which any RTL change reshuffles).
differs=0
for (( i = $#; i >= 1 && differs == 0; i-- )); do
  ts=${!i}
  t=${ts%%:*} s=${ts##*:}
  base=$(fields "$tmp/m-$t-$s/result.json" | cut -d' ' -f3)
  for k in $(seq 1 16); do
    "$mut" run --config "$cfg" --test "$t" --seed "$s" --set-signal mutsel=$k --out "$tmp/k$k" >/dev/null 2>&1
    d=$(fields "$tmp/k$k/result.json" 2>/dev/null | cut -d' ' -f3)
    if [[ -n "$d" && "$d" != "$base" ]]; then differs=1; echo "ok: mutant $k changes the output digest of $t seed $s"; break; fi
  done
done
[[ $differs == 1 ]] || fail "none of mutants 1..16 changed the output digest of any of: $*"
t=${1%%:*} s=${1##*:}
"$mut" run --config "$cfg" --test "$t" --seed "$s" --set-signal nosuchsignal=1 >"$tmp/bad.txt" 2>&1
rc=$?
if [[ $rc == 2 ]] && grep -q "no public signal 'nosuchsignal'" "$tmp/bad.txt"; then
  echo "ok: unknown model signal refused (exit 2)"
else
  fail "unknown model signal: exit $rc, output: $(head -3 "$tmp/bad.txt")"
fi
"$dla" run --config "$cfg" --test "$t" --seed "$s" --set-signal mutsel=1 >"$tmp/bad2.txt" 2>&1
rc=$?
[[ $rc == 2 ]] && echo "ok: the normal model has no mutant selector (exit 2)" || fail "normal model with mutsel=1: exit $rc"
[[ $failures == 0 ]] && echo "all passed" || { echo "$failures failure(s)"; exit 1; }
