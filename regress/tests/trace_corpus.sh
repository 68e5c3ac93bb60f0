#!/usr/bin/env bash
# Plays NVDLA's public regression traces and checks every verdict against the expectation
# table. Skips (exit 77, ctest SKIP_RETURN_CODE) when the trace folder is absent.
# Usage: trace_corpus.sh DLAVERIF TRACE_DIR EXPECT_FILE [dlaverif trace options...]
# DLA_TRACE_GROUPS (default "nv_small:small nvdlav1:v1"): the <folder>:<configuration> pairs played.
set -u
dla=$1 dir=$2 expect=$3
shift 3
if [ ! -d "$dir" ]; then
  echo "SKIP: NVDLA trace folder '$dir' not found (configure with -DDLA_NVDLA_TRACES=<path to nvdla_traces>)"
  exit 77
fi
# Each group with its configuration: nv_small traces on small, nvdlav1 traces on v1.
rc=0
for pair in ${DLA_TRACE_GROUPS:-nv_small:small nvdlav1:v1}; do
  group=${pair%%:*} config=${pair##*:}
  [ -d "$dir/$group" ] || { echo "note: $dir/$group absent"; continue; }
  "$dla" trace "$dir/$group" --config "$config" --expect "$expect" "$@" || rc=1
done
exit $rc
