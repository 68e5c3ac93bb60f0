#!/usr/bin/env bash
# `make bench`: print performance figures (never asserted anywhere).
# Usage: scripts/bench.sh BUILD_DIR
set -uo pipefail
build=${1:-build}
src=$(cd "$(dirname "$0")/.." && pwd)

echo "== Verilator build time per configuration (no ccache, fresh directory)"
for yaml in "$src"/rtl/configs/*.yaml; do
  cfg=$(basename "$yaml" .yaml)
  gen="$build/gen/$cfg/rtl"
  [ -f "$gen/generated.f" ] || { echo "  $cfg: not generated (run make build first)"; continue; }
  tmp=$(mktemp -d)
  start=$(date +%s.%N)
  if (cd "$src/rtl" && verilator --cc --build -j 2 --prefix "Vbench_$cfg" --top-module NV_nvdla \
        --trace-fst --x-assign unique --x-initial unique -Wno-fatal -Wno-lint -Wno-style \
        --Mdir "$tmp" -I"$gen" -f filelist.f -f "$gen/generated.f" \
        --MAKEFLAGS "OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2" >/dev/null 2>&1); then
    end=$(date +%s.%N)
    printf "  %-6s %6.1f s\n" "$cfg" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
  else
    echo "  $cfg: verilator failed"
  fi
  rm -rf "$tmp"
done

for b in "$build"/bin/dla_bench_*; do
  [ -x "$b" ] || continue
  echo "== $(basename "$b")"
  "$b"
done
