#!/usr/bin/env bash
# Builds the trace-reader fuzz targets with clang's libFuzzer (+ASan/UBSan) and runs each for
# a bounded time, seeded with the shipped traces and the corpus (when present). A crash
# leaves its input in OUT/<target>/; copy it under stimulus/tests/trace_fuzz/regressions/
# (replayed by this script before fuzzing) and add a reader test for it.
# Usage: run_fuzz.sh OUT_DIR [SECONDS_PER_TARGET=60] [NVDLA_TRACES_DIR]
set -eu
out=$1 secs=${2:-60} traces=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cxx=${CXX_FUZZ:-clang++}
mkdir -p "$out"
flags="-std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I$root/stimulus/include -I$root/stimulus/src -I$root/golden/memory/include"
srcs="$root/stimulus/src/trace_cfg_reader.cpp $root/stimulus/src/trace_txn_reader.cpp $root/stimulus/src/trace_surface.cpp"
rc=0
for t in cfg txn; do
  "$cxx" $flags "$here/${t}_fuzz.cpp" $srcs -lfmt -o "$out/${t}_fuzz"
  mkdir -p "$out/$t/corpus" "$out/$t/crashes"
  find "$root/regress/tests/trace_data" ${traces:+"$traces"} -name "*.$t" -o -name "*.dat" -size -64k 2>/dev/null |
    head -200 | while read -r f; do cp "$f" "$out/$t/corpus/" 2>/dev/null || true; done
  if [ -d "$here/regressions/$t" ]; then
    "$out/${t}_fuzz" "$here/regressions/$t"/* || rc=1
  fi
  "$out/${t}_fuzz" -max_total_time="$secs" -timeout=10 -max_len=4096 -artifact_prefix="$out/$t/crashes/" \
    "$out/$t/corpus" || rc=1
done
exit $rc
