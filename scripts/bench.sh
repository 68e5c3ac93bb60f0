#!/usr/bin/env bash
# `make bench`: print performance figures (never asserted anywhere).
# Usage: scripts/bench.sh BUILD_DIR
set -uo pipefail
build=${1:-build}
src=$(cd "$(dirname "$0")/.." && pwd)

echo "== Verilator build time per configuration (the model's own build target, ccache off)"
# A build folder of its own (configured once, kept) so the measured command is exactly the
# one `make build` runs for a model (cmake/DlaVerilatedModel.cmake) and the main build's
# models are left alone. The register blocks are generated before the clock starts.
bench_build="$build/bench-verilate"
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt" 2>/dev/null; }
configs=$(cache_value DLA_CONFIGS)
configs=${configs:-small;v1}
# The main build's DUT settings, so the same models are measured.
dut_flags=()
for v in DLA_DUT_FILELIST DLA_DUT_TOP DLA_DUT_INCDIRS DLA_DUT_GENERATED DLA_DUT_CONV \
         DLA_DUT_CONV_CONFIGS DLA_DUT_RUBIK DLA_VERILATOR_JOBS; do
  value=$(cache_value "$v")
  [ -n "$value" ] && dut_flags+=("-D$v=$value")
done
if cmake -S "$src" -B "$bench_build" -G Ninja "-DDLA_CONFIGS=$configs" "${dut_flags[@]}" \
     >"$bench_build.log" 2>&1; then
  for cfg in ${configs//;/ }; do
    cmake --build "$bench_build" --target "dla_rtl_gen_$cfg" >/dev/null 2>&1
    rm -rf "$bench_build/verilated/$cfg"
    start=$(date +%s.%N)
    if CCACHE_DISABLE=1 cmake --build "$bench_build" --target "dla_dut_${cfg}_verilate" >"$bench_build/$cfg.log" 2>&1; then
      end=$(date +%s.%N)
      printf "  %-6s %6.1f s  (goal: at most 180 s on 2 cores)\n" "$cfg" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
    else
      echo "  $cfg: the model's build failed (see $bench_build/$cfg.log)"
    fi
  done
else
  echo "  could not configure $bench_build (see $bench_build.log)"
fi

for b in "$build"/bin/dla_bench_*; do
  [ -x "$b" ] || continue
  echo "== $(basename "$b")"
  "$b"
done

# ---------------------------------------------------------------- regression runner
dla="$build/bin/dlaverif"
if [ -x "$dla" ]; then
  tmp=$(mktemp -d)
  echo "== regression throughput (smoke level of regress/plans/default.yaml, -j 2)"
  start=$(date +%s.%N)
  "$dla" regress --plan "$src/regress/plans/default.yaml" --level smoke -j 2 --out "$tmp/smoke" --quiet >"$tmp/smoke.txt" 2>&1
  end=$(date +%s.%N)
  n=$(sqlite3 "$tmp/smoke/results.db" "select count(*) from results" 2>/dev/null || echo 0)
  awk -v a="$start" -v b="$end" -v n="$n" 'BEGIN { t = b - a; printf "  %d tests in %.1f s: %.0f tests per hour on 2 cores\n", n, t, n / t * 3600 }'
  # What `make run` prints: the tests' process time as the runner saw it vs the time inside the
  # tests (generation and run), and where the difference went (docs/regression.md).
  echo "== runner overhead at the smoke level (as \`make run\` reports it; goal < 5 %)"
  grep -E '^runner overhead' "$tmp/smoke.txt" | sed 's/^/  /' || echo "  (no overhead line: see $tmp/smoke.txt)"
  "$dla" regress --plan "$src/regress/plans/default.yaml" --level smoke -j 2 --out "$tmp/smoke-exec" --quiet --exec-tests \
    2>&1 | grep -E '^runner overhead' | sed 's/^/  the same, every test exec'"'"'d (--exec-tests): /'

  echo "== runner overhead per test (10 tests of known duration: 1 s sleep + a golden-only regs.access, -j 1)"
  cat >"$tmp/timed.sh" <<FAKE
#!/usr/bin/env bash
s=\$(date +%s.%N)
sleep 1
"$dla" "\$@"
rc=\$?
echo "\$s \$(date +%s.%N)" >>"$tmp/inner.txt"
exit \$rc
FAKE
  chmod +x "$tmp/timed.sh"
  printf 'tests:\n  - {name: t, test: regs.access, config: small, golden_only: true, seeds: 10}\n' >"$tmp/timed.yaml"
  start=$(date +%s.%N)
  "$dla" regress --plan "$tmp/timed.yaml" -j 1 --out "$tmp/timed" --test-binary "$tmp/timed.sh" --quiet >/dev/null 2>&1
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" '{ inner += $2 - $1; n++ } END {
    t = b - a; o = (t - inner) / n;
    printf "  %d tests: %.2f s inside the tests, %.2f s in all (runner start, plan check, reports included)\n", n, inner, t;
    printf "  overhead %.1f ms per test = %.1f%% of a %.2f s test (goal < 5%%)\n", o * 1000, 100 * o / (inner / n), inner / n }' "$tmp/inner.txt"
  rm -rf "$tmp"
fi

# ---------------------------------------------------------------- mutation grading (docs/mutation.md)
for mut in "$build"/bin/dlaverif-mut-*; do
  [[ -x "$mut" && "$mut" != *.json && -x "$dla" ]] || continue
  name=$(basename "$mut")            # dlaverif-mut-<cfg>-<unit>
  rest=${name#dlaverif-mut-}
  cfg=${rest%%-*} unit=${rest#*-}
  tmp=$(mktemp -d)
  echo "== mutation grading throughput: $unit on $cfg (first 20 mutants, nightly tests of regress/plans/mutation.yaml, -j 2)"
  "$dla" mutate --unit "$unit" --config "$cfg" --count 20 -j 2 --plan "$src/regress/plans/mutation.yaml" \
    --out "$tmp/m" --quiet >"$tmp/m.txt" 2>&1
  python3 - "$tmp/m/mutation.json" <<'PY' || { echo "  failed:"; tail -3 "$tmp/m.txt"; }
import json, sys
u = json.load(open(sys.argv[1]))["units"][0]
print(f"  {u['graded']} mutants in {u['seconds']:.1f} s: {u['mutants_per_hour']:.0f} mutants graded per hour "
      f"(kill rate {100 * u['kill_rate']:.0f} %, {u['survived']} survivors)")
PY
  rm -rf "$tmp"
done
