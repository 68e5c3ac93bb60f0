#!/usr/bin/env bash
# `make report-check`: runs a small regression with one planted failure twice (so the trend
# plots have two points), renders its HTML report in headless Chromium and saves a
# screenshot. Installs Debian's chromium on demand. Usage: scripts/report-check.sh DLAVERIF OUTDIR
set -euo pipefail
dlaverif=$1 out=$2
mkdir -p "$out"
out=$(cd "$out" && pwd)

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "report-check: installing chromium (Debian package)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  browser=$(command -v chromium)
fi

cat >"$out/plan.yaml" <<'PLAN'
plan: report-check
description: a few BDMA and register tests plus one planted failure (a 1-cycle watchdog)
tests:
  - {name: regs-small, test: regs.access, config: small, seeds: 2}
  - {name: bdma, test: bdma.random, seeds: 6, covergroups: [bdma.op, bdma.batch]}
  - {name: bdma-large, test: bdma.random, seeds: 1, knobs: {max_line_bytes: 262144, max_lines: 1, max_surfaces: 1, batches: 1}}
  - {name: planted-hang, test: bdma.random, seeds: 1, watchdog: 1}
PLAN
for run in 1 2; do
  "$dlaverif" regress --plan "$out/plan.yaml" -j 2 --out "$out/regress" --quiet --seeds "$run" >"$out/regress-$run.log" 2>&1 || true
done
html="$out/regress/report.html"
[ -s "$html" ] || { echo "report-check: no report ($html)"; cat "$out/regress-2.log"; exit 1; }

flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,2600)
"$browser" "${flags[@]}" --dump-dom "file://$html" 2>/dev/null >"$out/dom.html"
for key in "Failures by signature" "hang" "Functional coverage" "bdma.op" "Trends over past runs"; do
  grep -q "$key" "$out/dom.html" || { echo "report-check: rendered page lacks '$key'"; exit 1; }
done
"$browser" "${flags[@]}" --screenshot="$out/report.png" "file://$html" >/dev/null 2>&1
size=$(stat -c %s "$out/report.png" 2>/dev/null || echo 0)
[ "$size" -gt 20000 ] || { echo "report-check: screenshot missing or blank ($size bytes)"; exit 1; }
echo "report-check: $html renders; screenshot $out/report.png"
