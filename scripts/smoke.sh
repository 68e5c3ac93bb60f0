#!/usr/bin/env bash
# The main job of `make run`: the smoke level of the default regression plan.
# Usage: scripts/smoke.sh DLAVERIF OUTDIR [JOBS]
set -uo pipefail
dlaverif=$1 out=$2 jobs=${3:-2}
src=$(cd "$(dirname "$0")/.." && pwd)
exec "$dlaverif" regress --plan "$src/regress/plans/default.yaml" --level smoke -j "$jobs" --out "$out" --quiet
