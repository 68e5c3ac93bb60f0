#!/usr/bin/env bash
# dlaverif's exit codes and error lines: 0 pass, 1 test failure, 2 usage/input error with a
# one-line message naming the bad input. Usage: cli_exit_codes.sh DLAVERIF
set -u
dla=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# expect RC PATTERN ARGS...: exit code RC; PATTERN (grep -E) in the combined output.
expect() {
  local want=$1 pattern=$2
  shift 2
  "$dla" "$@" >"$tmp/out" 2>&1
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL: dlaverif $* -> exit $rc, want $want"; sed 's/^/  | /' "$tmp/out"; failures=$((failures + 1))
  elif ! grep -Eq -- "$pattern" "$tmp/out"; then
    echo "FAIL: dlaverif $* -> output lacks /$pattern/"; sed 's/^/  | /' "$tmp/out"; failures=$((failures + 1))
  else
    echo "ok: dlaverif $* -> $rc"
  fi
}
# Errors are one line on stderr.
one_line_error() {
  "$dla" "$@" >/dev/null 2>"$tmp/err"
  local n
  n=$(wc -l <"$tmp/err")
  if [ "$n" -ne 1 ]; then echo "FAIL: dlaverif $* -> $n error lines"; cat "$tmp/err"; failures=$((failures + 1)); fi
}

expect 2 "unknown configuration 'nv_huge'.*v1" run --config nv_huge --test regs.access --seed 1
one_line_error run --config nv_huge --test regs.access --seed 1
expect 2 "unknown test 'no.such'" run --test no.such --seed 1
one_line_error run --test no.such --seed 1
expect 2 "seed" run --test regs.access --seed banana
expect 2 "seed" run --test regs.access
expect 2 "not NAME=VALUE" run --test bdma.random --seed 1 --knob oops
expect 2 "unknown knob 'speed'" run --test bdma.random --seed 1 --knob speed=9
expect 2 "max_lines" run --test bdma.random --seed 1 --knob max_lines=0
expect 2 "does not support configuration 'small'" run --config small --test bdma.random --seed 1
touch "$tmp/file"
expect 2 "out dir" run --test regs.access --seed 1 --out "$tmp/file/sub"
one_line_error run --test regs.access --seed 1 --out "$tmp/file/sub"
expect 2 "profile" run --test bdma.random --seed 1 --axi-profile warp
expect 2 "" frobnicate
expect 0 "^PASS v1 bdma.random seed=3" run --test bdma.random --seed 3 --out "$tmp/r"
expect 0 "^repro: dlaverif run --config v1 --test bdma.random --seed 3$" run --test bdma.random --seed 3
for key in '"verdict": "pass"' '"name": "bdma.random"' '"seed": 3' '"git_revision"' '"command_line"' '"cycles"' '"wall_seconds"' '"verilator"'; do
  grep -q "$key" "$tmp/r/result.json" || { echo "FAIL: result.json lacks $key"; failures=$((failures + 1)); }
done
# A test failure is exit 1 with a signature: here a watchdog of 1 cycle forces a hang.
expect 1 "^FAIL .*hang" run --test bdma.random --seed 3 --watchdog 1 --out "$tmp/h"
grep -q '"signature": "hang' "$tmp/h/result.json" || { echo "FAIL: hang signature missing"; failures=$((failures + 1)); }
expect 0 "^PASS small regs.access" run --config small --test regs.access --seed 2 --golden-only
expect 0 "v1.*default" list

echo "cli: $failures failures"
[ "$failures" -eq 0 ]
