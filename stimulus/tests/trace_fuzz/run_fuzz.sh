#!/usr/bin/env bash
# Builds the trace-reader fuzz targets with clang's libFuzzer (+ASan/UBSan) and runs each for a
# bounded time, seeded with the shipped traces and, when given, NVIDIA's public trace corpus.
# `make fuzz` and the ctest label `fuzz` run it (docs/traces.md, "Fuzzing the readers").
#
# Usage: run_fuzz.sh OUT_DIR [SECONDS_PER_TARGET=60] [NVDLA_TRACES_DIR]
#   OUT_DIR/<target>_fuzz         the fuzz binaries
#   OUT_DIR/<target>/corpus/      the seeds and what libFuzzer adds (kept between runs)
#   OUT_DIR/<target>/crashes/     reproducers (crash-*, timeout-*, oom-*): their paths are printed
# Exit: 0 no crash, 1 a crash (or a replayed regression crashed), 2 usage or build error,
#       77 skipped (no clang++ with libFuzzer: `scripts/setup.sh fuzz` installs it).
# Environment: CXX_FUZZ (default clang++), DLA_FUZZ_TARGETS (default "cfg txn"),
#   DLA_FUZZ_SECONDS (replaces SECONDS_PER_TARGET),
#   DLA_FUZZ_PLANT=1 builds the targets with a planted crash on inputs starting with
#   "dla-planted-crash" and seeds one: the self-test that a crash is saved and reported.
# A crash found: keep the reproducer under stimulus/tests/trace_fuzz/regressions/<target>/
# (replayed here before fuzzing) and add a reader test for it.
set -u
out=${1:?usage: run_fuzz.sh OUT_DIR [SECONDS_PER_TARGET] [NVDLA_TRACES_DIR]}
secs=${DLA_FUZZ_SECONDS:-${2:-60}}  # the environment wins (make fuzz FUZZ_SECONDS=...)
traces=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cxx=${CXX_FUZZ:-clang++}
targets=${DLA_FUZZ_TARGETS:-cfg txn}
case $secs in '' | *[!0-9]*) echo "fuzz: SECONDS_PER_TARGET must be a whole number, not '$secs'" >&2; exit 2 ;; esac
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)

flags=(-std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -I"$root/stimulus/include" -I"$root/stimulus/src" -I"$root/golden/memory/include")
[ "${DLA_FUZZ_PLANT:-0}" = 1 ] && flags+=(-DDLA_FUZZ_PLANTED_CRASH)
srcs=("$root/stimulus/src/trace_cfg_reader.cpp" "$root/stimulus/src/trace_txn_reader.cpp" "$root/stimulus/src/trace_surface.cpp")

# libFuzzer present? (Debian: clang and libclang-rt-dev)
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' >"$probe/p.cpp"
if ! command -v "$cxx" >/dev/null 2>&1 || ! "$cxx" -fsanitize=fuzzer "$probe/p.cpp" -o "$probe/p" >"$probe/log" 2>&1; then
  echo "fuzz: SKIP: $cxx cannot build libFuzzer targets (install clang and libclang-rt-dev: scripts/setup.sh fuzz)"
  sed 's/^/  | /' "$probe/log" 2>/dev/null | head -5
  exit 77
fi

# Seeds: inputs of the target's dialect and data files, each under a name unique in the corpus
# (NVDLA's traces repeat names such as input.txn). Files over 64 KiB are left out (max_len).
seed_from() {  # seed_from TARGET DIR...
  local t=$1 d f n=0
  shift
  for d in "$@"; do
    [ -d "$d" ] || continue
    while IFS= read -r f; do
      cp "$f" "$out/$t/corpus/seed-$(printf '%s' "$f" | cksum | cut -d' ' -f1)-$(basename "$f")" && n=$((n + 1))
    done < <(find "$d" -type f \( -name "*.$t" -o -name '*.dat' \) -size -64k | sort | head -300)
  done
  echo "$n"
}

rc=0
for t in $targets; do
  [ -f "$here/${t}_fuzz.cpp" ] || { echo "fuzz: no target '$t' (have: cfg txn)" >&2; exit 2; }
  echo "== fuzz: $t (${t}_fuzz.cpp), $secs s"
  # Rebuilt when a reader source or header, the target or the flags changed.
  stamp="$out/${t}_fuzz.flags"
  if [ ! -x "$out/${t}_fuzz" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$cxx ${flags[*]}" ] ||
     [ -n "$(find "$here" "$root/stimulus/src" "$root/stimulus/include" -newer "$out/${t}_fuzz" -type f | head -1)" ]; then
    if ! "$cxx" "${flags[@]}" "$here/${t}_fuzz.cpp" "${srcs[@]}" -lfmt -o "$out/${t}_fuzz" 2>"$out/${t}_build.log"; then
      echo "fuzz: building ${t}_fuzz failed:"; sed 's/^/  | /' "$out/${t}_build.log" | head -20
      exit 2
    fi
    echo "$cxx ${flags[*]}" >"$stamp"
  fi
  mkdir -p "$out/$t/corpus" "$out/$t/crashes"
  shipped=$(seed_from "$t" "$root/regress/tests/trace_data")
  if [ -z "$traces" ]; then
    echo "fuzz: seeds: $shipped shipped trace files (no NVDLA traces folder given)"
  elif [ ! -d "$traces" ]; then
    echo "fuzz: seeds: $shipped shipped trace files; SKIP NVIDIA's traces: '$traces' not found (CMake DLA_NVDLA_TRACES, make fuzz TRACES=...)"
  else
    echo "fuzz: seeds: $shipped shipped trace files, $(seed_from "$t" "$traces") from $traces"
  fi
  if [ "${DLA_FUZZ_PLANT:-0}" = 1 ]; then printf 'dla-planted-crash\n' >"$out/$t/corpus/seed-planted"; fi
  # Known crashers first: each must now be accepted or rejected cleanly.
  if [ -d "$here/regressions/$t" ] && compgen -G "$here/regressions/$t/*" >/dev/null; then
    if ! "$out/${t}_fuzz" "$here/regressions/$t"/* >"$out/$t/regressions.log" 2>&1; then
      echo "fuzz: $t: a saved regression input crashes again (log: $out/$t/regressions.log)"
      rc=1
    fi
  fi
  before=$(find "$out/$t/crashes" -type f | sort)
  "$out/${t}_fuzz" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$out/$t/crashes/" "$out/$t/corpus" >"$out/$t/fuzz.log" 2>&1
  status=$?
  grep -E '^(stat::number_of_executed_units|stat::new_units_added)' "$out/$t/fuzz.log" | sed 's/^/  /'
  new=$(comm -13 <(printf '%s\n' "$before") <(find "$out/$t/crashes" -type f | sort) | sed '/^$/d')
  if [ "$status" -ne 0 ] || [ -n "$new" ]; then
    rc=1
    echo "fuzz: $t FOUND A CRASH (libFuzzer exit $status; log: $out/$t/fuzz.log)"
    grep -m3 -E 'ERROR: (AddressSanitizer|libFuzzer)|runtime error:|SUMMARY' "$out/$t/fuzz.log" | sed 's/^/  | /'
    for f in $new; do
      echo "fuzz: reproducer: $f"
      echo "fuzz: replay:     $out/${t}_fuzz $f"
    done
    [ -n "$new" ] || echo "fuzz: no reproducer file was written (see the log)"
  else
    echo "fuzz: $t: no crash"
  fi
done
exit $rc
