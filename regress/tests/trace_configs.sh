#!/usr/bin/env bash
# NVDLA's traces of the other configurations of the configurable tree, golden-only, in NVDLA's
# folder-per-configuration layout without --config (the folder picks the configuration).
# NVDLA's nv_small_256 and nv_small_256_full trees hold the same non-convolution tests as
# nv_small (byte-identical copies in NVDLA's repository; only nv_small's are public): each
# configuration folder is rebuilt from nv_small's cdp_*, pdp_* and sdp_* tests and played on its
# configuration against EXPECT (EW/LUT traces: unsupported where the configuration has no SDP
# EW, pass where it has). trace.corpus.* play DIR's own folders (nv_small/, nvdlav1/).
# Skips (exit 77) when the trace folder is absent.
# Usage: trace_configs.sh DLAVERIF TRACE_DIR EXPECT
set -u
dla=$1 dir=$2 expect=$3
if [ ! -d "$dir" ]; then
  echo "SKIP: NVDLA trace folder '$dir' not found (configure with -DDLA_NVDLA_TRACES=<path to nvdla_traces>)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
if [ ! -d "$dir/nv_small" ]; then
  echo "SKIP: '$dir' has no nv_small folder"
  exit 77
fi
if true; then
  for config in nv_small_256 nv_small_256_full; do
    mkdir -p "$tmp/$config"
    for t in "$dir"/nv_small/cdp_* "$dir"/nv_small/pdp_* "$dir"/nv_small/sdp_*; do
      [ -d "$t" ] && ln -s "$(cd "$t" && pwd)" "$tmp/$config/$(basename "$t")"
    done
    echo "== $config (nv_small's non-convolution tests)"
    "$dla" trace "$tmp/$config" --golden-only --expect "$expect" || rc=1
  done
fi
exit $rc
