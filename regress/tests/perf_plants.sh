#!/usr/bin/env bash
# The performance checks can fail (docs/scoreboard.md, "Performance budget"): on the planted
# slow-down model (dlaverif-plant-<cfg>, rtl/mutation/plant_models.cmake) each planted
# slow-down is caught with the signature perf:<unit> ..., the planted stall counter with its
# bound signature, and with no plant enabled the same tests pass and agree with the normal
# model (same verdict, cycles and output digest). Seeds are fixed: the same run gives the
# same cycles.
# Usage: perf_plants.sh DLAVERIF PLANT_BINARY [CONFIG]   (CONFIG: small (default) or v1)
#        perf_plants.sh --skip MESSAGE                   (the plant model is not built: exit 77)
set -u
if [[ ${1:-} == --skip ]]; then
  echo "skipped: $2"
  exit 77
fi
dla=$1 plant=$2 cfg=${3:-small}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
field() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null || echo missing; }
# Every selector of the configuration's plant model (an unset one starts random): v1 also has
# RUBIK's.
selectors=(plant_cdp plant_pdp plant_sdp plant_cdp_wdma plant_pdp_rdma)
[[ $cfg == v1 ]] && selectors+=(plant_rubik plant_rubik_stall)
sel() {  # every selector, $1 set to 1
  for s in "${selectors[@]}"; do
    if [[ $s == "$1" ]]; then echo "--set-signal $s=1"; else echo "--set-signal $s=0"; fi
  done
}
# test seed plant [profile] expected-signature-prefix (profile fast unless named: the memory
# withholds nothing; plant_pdp_rdma, reads one at a time, costs cycles only when reads wait, so it
# runs on the latency profile, whose read waits the budget charges instead of excusing)
if [[ $cfg == v1 ]]; then
  cases=(
    "rubik.random 10 plant_rubik perf:rubik "
    "rubik.illegal 1 plant_rubik_stall rbk.write_stall rtl="
  )
else
  cases=(
    "cdp.random 3 plant_cdp perf:cdp "
    "pdp.random 1 plant_pdp perf:pdp "
    "sdp.random 2 plant_sdp perf:sdp "
    "cdp.random 3 plant_cdp_wdma cdp.write_stall rtl="
    "pdp.random 1 plant_pdp_rdma@latency perf:pdp "
  )
fi
for c in "${cases[@]}"; do
  read -r t s p want <<<"$c"
  want=${c#* * * }
  profile=fast
  if [[ $p == *@* ]]; then profile=${p#*@} p=${p%@*}; fi
  d=$tmp/$p-$t-$s
  # shellcheck disable=SC2046
  "$plant" run --config "$cfg" --test "$t" --seed "$s" --axi-profile "$profile" $(sel "$p") --out "$d" >/dev/null 2>&1
  rc=$?
  sig=$(field "$d/result.json" 'j["signature"]')
  if [[ $rc == 1 && $sig == "$want"* ]]; then
    echo "ok: $p caught on $t seed $s ($profile): $sig"
  else
    fail "$p on $t seed $s ($profile): exit $rc, signature '$sig', expected exit 1 and '$want...'"
  fi
  # No plant: passes, and is the normal model (same verdict, cycles, digest).
  # shellcheck disable=SC2046
  "$plant" run --config "$cfg" --test "$t" --seed "$s" --axi-profile "$profile" $(sel none) --out "$d-none" >/dev/null 2>&1
  "$dla" run --config "$cfg" --test "$t" --seed "$s" --axi-profile "$profile" --out "$d-normal" >/dev/null 2>&1
  a=$(field "$d-none/result.json" 'j["verdict"], j["cycles"], j["details"]["sim"]["output_digest"], len(j["details"]["perf"])')
  b=$(field "$d-normal/result.json" 'j["verdict"], j["cycles"], j["details"]["sim"]["output_digest"], len(j["details"]["perf"])')
  if [[ $a == "('pass'"* && $a == "$b" ]]; then
    echo "ok: $t seed $s without plants passes, as on the normal model $a"
  else
    fail "$t seed $s without plants: plant model $a, normal model $b"
  fi
  # The read-latency term is charged on the latency profile only (docs/scoreboard.md).
  charged=$(field "$d-normal/result.json" 'all(w["latency_cycles"] > 0 for w in j["details"]["perf"])')
  [[ $charged == $([[ $profile == latency ]] && echo True || echo False) ]] ||
    fail "$t seed $s ($profile): every window charged read latency: $charged"
done
if [[ $cfg == small ]]; then
  # Paced by the program: pdp.random seed 14 with tiny layers arms seven PDP layers in one window,
  # programming each while the earlier ones run, so the DUT idles between them. Measured against
  # the whole window's budget it fails; each later layer's budget counts from its arming write
  # (docs/scoreboard.md), so it passes, while the planted slow-down is still caught on that seed.
  tiny=(--knob layers=16 --knob max_width=6 --knob max_height=6 --knob max_channels=8)
  "$dla" run --config small --test pdp.random --seed 14 "${tiny[@]}" --axi-profile fast --out "$tmp/paced" >/dev/null 2>&1
  rc=$?
  paced=$(field "$tmp/paced/result.json" '[w["measured"] for w in j["details"]["perf"] if w["paced_from"] > 0 and w["measured"] <= w["budget"] and w["measured"] > w["fixed_cycles"] + -(-3 * (max(w["memory_cycles"], w["compute_cycles"]) + w["latency_cycles"]) // 2)]')
  if [[ $rc == 0 && $paced == \[[0-9]* ]]; then
    echo "ok: a window paced by the program passes (measured $paced, over its unpaced budget)"
  else
    fail "paced window: exit $rc, windows over their unpaced budget within the paced one: $paced"
  fi
  # shellcheck disable=SC2046
  "$plant" run --config small --test pdp.random --seed 14 "${tiny[@]}" --axi-profile fast $(sel plant_pdp) \
    --out "$tmp/paced-plant" >/dev/null 2>&1
  rc=$?
  sig=$(field "$tmp/paced-plant/result.json" 'j["signature"]')
  [[ $rc == 1 && $sig == perf:pdp* ]] && echo "ok: plant_pdp still caught on the paced program: $sig" ||
    fail "plant_pdp on the paced program: exit $rc, signature '$sig'"
fi
if [[ $cfg == v1 ]]; then
  # The tolerance can switch the check off: the planted RUBIK slow-down then passes.
  # shellcheck disable=SC2046
  "$plant" run --config v1 --test rubik.random --seed 10 --axi-profile fast $(sel plant_rubik) --perf-tolerance off \
    --out "$tmp/off" >/dev/null 2>&1 || fail "plant_rubik with --perf-tolerance off does not pass"
else
  # A stall counter whose enable bit is 0 must read 0: plant_cdp_wdma=2 counts write stalls with
  # DMA_EN 0; seed 3's layer has DMA_EN 0 and the slow profile withholds write cycles.
  sel_wdma2="--set-signal plant_cdp=0 --set-signal plant_pdp=0 --set-signal plant_sdp=0"
  # shellcheck disable=SC2086
  "$plant" run --config small --test cdp.random --seed 3 --axi-profile slow $sel_wdma2 --set-signal plant_cdp_wdma=2 \
    --out "$tmp/wdma2" >/dev/null 2>&1
  rc=$?
  sig=$(field "$tmp/wdma2/result.json" 'j["signature"]')
  if [[ $rc == 1 && $sig == "cdp.write_stall rtl="* && $sig == *" bound=0" ]]; then
    echo "ok: plant_cdp_wdma=2 caught on cdp.random seed 3 (slow): $sig"
  else
    fail "plant_cdp_wdma=2 on cdp.random seed 3 (slow): exit $rc, signature '$sig', expected exit 1 and 'cdp.write_stall rtl=N bound=0'"
  fi
  # shellcheck disable=SC2086
  "$plant" run --config small --test cdp.random --seed 3 --axi-profile slow $sel_wdma2 --set-signal plant_cdp_wdma=0 \
    --out "$tmp/wdma0" >/dev/null 2>&1 || fail "cdp.random seed 3 (slow) without plants does not pass"
  # The tolerance can switch the check off: the planted CDP slow-down then passes.
  # shellcheck disable=SC2046
  "$plant" run --config small --test cdp.random --seed 3 --axi-profile fast $(sel plant_cdp) --perf-tolerance off \
    --out "$tmp/off" >/dev/null 2>&1 || fail "plant_cdp with --perf-tolerance off does not pass"
  # A bad tolerance is an input error naming the rule.
  out=$("$dla" run --config small --test cdp.random --seed 1 --perf-tolerance 0.5 2>&1)
  rc=$?
  [[ $rc == 2 && $out == *"must be a number >= 1"* ]] || fail "--perf-tolerance 0.5: exit $rc, '$out'"
fi
if ((failures)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "perf plants: all checks passed"
