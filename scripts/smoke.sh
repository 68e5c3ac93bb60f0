#!/usr/bin/env bash
# The main job of `make run`: a short regression on one configuration.
# Usage: scripts/smoke.sh DLAVERIF CONFIG OUTDIR
set -uo pipefail
dlaverif=$1 config=$2 out=$3
mkdir -p "$out"
pass=0 fail=0
run() {
  local test=$1 seed=$2
  local dir="$out/$config/$test/$seed"
  if "$dlaverif" run --config "$config" --test "$test" --seed "$seed" --out "$dir"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
  fi
}
run regs.access 1
if "$dlaverif" list | grep -q "bdma.random.*\b$config\b"; then
  for seed in 1 2 3 4 5 6 7 8; do run bdma.random "$seed"; done
fi
echo "smoke: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
