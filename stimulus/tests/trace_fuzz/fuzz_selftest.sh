#!/usr/bin/env bash
# ctest fuzz.selftest: run_fuzz.sh must save and report a crash. The targets are built with a
# planted crash (DLA_FUZZ_PLANT=1) and seeded with an input that triggers it: the run must exit
# 1, print "fuzz: reproducer: <path>", and replaying that file must crash the target again.
# Usage: fuzz_selftest.sh OUT_DIR
set -u
out=${1:?usage: fuzz_selftest.sh OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out/cfg/crashes" "$out/cfg/corpus"
DLA_FUZZ_PLANT=1 DLA_FUZZ_TARGETS=cfg "$here/run_fuzz.sh" "$out" 5 >"$out.log" 2>&1
rc=$?
cat "$out.log"
[ "$rc" -eq 77 ] && exit 77
[ "$rc" -eq 1 ] || { echo "FAIL: run_fuzz.sh exit $rc with a planted crash, want 1"; exit 1; }
repro=$(sed -n 's/^fuzz: reproducer: //p' "$out.log" | head -1)
[ -n "$repro" ] && [ -s "$repro" ] || { echo "FAIL: no reproducer path printed, or the file is missing"; exit 1; }
grep -q '^dla-planted-crash' "$repro" || { echo "FAIL: the reproducer is not the planted input"; exit 1; }
"$out/cfg_fuzz" "$repro" >/dev/null 2>&1 && { echo "FAIL: replaying $repro does not crash"; exit 1; }
echo "ok: the planted crash was saved as $repro and replays"
