#!/usr/bin/env bash
# Plays NVDLA's public regression traces and checks every verdict against the expectation
# table. Skips (exit 77, ctest SKIP_RETURN_CODE) when the trace folder is absent.
# Usage: trace_corpus.sh DLAVERIF TRACE_DIR EXPECT_FILE [dlaverif trace options...]
# DLA_TRACE_GROUPS (default "nv_small nvdlav1"): the folders played, each on the configuration its
# name gives (NVDLA's folder-per-configuration layout; docs/configurations.md), or <folder>:<configuration>.
set -u
dla=$1 dir=$2 expect=$3
shift 3
if [ ! -d "$dir" ]; then
  echo "SKIP: NVDLA trace folder '$dir' not found (configure with -DDLA_NVDLA_TRACES=<path to nvdla_traces>)"
  exit 77
fi
# Each group without --config: the folder picks it (nv_small traces on small, nvdlav1 on v1).
rc=0
for pair in ${DLA_TRACE_GROUPS:-nv_small nvdlav1}; do
  group=${pair%%:*} config=()
  [ "$pair" != "$group" ] && config=(--config "${pair#*:}")
  [ -d "$dir/$group" ] || { echo "note: $dir/$group absent"; continue; }
  "$dla" trace "$dir/$group" "${config[@]}" --expect "$expect" "$@" || rc=1
done
exit $rc
