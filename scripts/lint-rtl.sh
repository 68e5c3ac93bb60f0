#!/usr/bin/env bash
# Lint the RTL of one configuration: verilator --lint-only -Wall and a yosys read/elaborate.
# Usage: scripts/lint-rtl.sh GEN_DIR
#   GEN_DIR = the configuration's generated RTL folder (dla_cfg.svh, generated.f, ...).
# Exits non-zero on any warning or error of either tool.
set -euo pipefail

if [[ $# -ne 1 || ! -f "$1/dla_cfg.svh" || ! -f "$1/generated.f" ]]; then
  echo "usage: $0 GEN_DIR  (GEN_DIR must hold dla_cfg.svh and generated.f)" >&2
  exit 2
fi
caller_dir=$(pwd)
gen_dir=$(cd "$1" && pwd)
rtl_dir=$(cd "$(dirname "$0")/../rtl" && pwd)
filelist="$rtl_dir/filelist.f"
cfg=$(basename "$(dirname "$gen_dir")")
cd "$rtl_dir"

# Sources of the file list (relative to rtl/) followed by the generated register blocks.
mapfile -t sources < <(grep -vE '^[[:space:]]*($|#|//|[-+])' "$filelist")
generated=()
while read -r f; do
  # Relative entries: relative to generated.f's folder, else to the caller's directory.
  if [[ "$f" != /* ]]; then
    if [[ -f "$gen_dir/$f" ]]; then f="$gen_dir/$f"; else f="$caller_dir/$f"; fi
  fi
  generated+=("$f")
done < <(grep -vE '^[[:space:]]*($|#|//|[-+])' "$gen_dir/generated.f")

status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

if ! verilator --lint-only -Wall -I"$gen_dir" --top-module NV_nvdla \
       "${sources[@]}" "${generated[@]}" >"$log" 2>&1 || [[ -s "$log" ]]; then
  echo "lint-rtl [$cfg]: verilator -Wall failed:" >&2
  cat "$log" >&2
  status=1
else
  echo "lint-rtl [$cfg]: verilator -Wall clean"
fi

if ! yosys -q -p "read_verilog -sv -I$gen_dir ${sources[*]} ${generated[*]};
                  hierarchy -check -top NV_nvdla; proc; opt -fast" >"$log" 2>&1 \
     || grep -qiE 'warning|error' "$log"; then
  echo "lint-rtl [$cfg]: yosys failed:" >&2
  cat "$log" >&2
  status=1
else
  echo "lint-rtl [$cfg]: yosys read/elaborate clean"
fi
# Yosys 0.23 reads a unary minus or inversion before a sized cast, -N'(x) or ~N'(x), as the cast
# (-N)'(x) / (~N)'(x): Verilator and the Yosys flows (mutants, constant bits) would see other
# logic. Write -(N'(x)) and ~(N'(x)).
if grep -nP "(~|[=(\[{,?:&|^!<>+*/%]\s*-)\s*\w+'\(" "${sources[@]}" "${generated[@]}" \
     | grep -vE ":[0-9]+:[[:space:]]*//" >"$log"; then
  echo "lint-rtl [$cfg]: unary - or ~ before a sized cast (write -(N'(x)), ~(N'(x))):" >&2
  cat "$log" >&2
  status=1
else
  echo "lint-rtl [$cfg]: no unary operator before a sized cast"
fi
exit $status
