#!/usr/bin/env bash
# dlaverif regress --launcher slurm against a real single-node Slurm on localhost: starts
# munged, slurmctld and slurmd from Debian's munge and slurm-wlm with a private slurm.conf
# (own ports, state and spool in a temporary directory), runs a small plan with --submit
# (sbatch + squeue + collect), then submits an array held, cancels one task, releases the
# rest and collects: the cancelled task is an error result (slurm:no-result) in the store.
# Tears everything down. Exit 77 (skip) when not root or the packages are missing.
# Usage: regress_slurm.sh DLAVERIF
set -u
dla=$1
for tool in munged mungekey slurmctld slurmd sbatch squeue scancel scontrol sinfo sqlite3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool not found (apt-get install slurm-wlm munge sqlite3; scripts/setup.sh installs them)"
    exit 77
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: not root (slurmd runs jobs as their users and must be root)"
  exit 77
fi

tmp=$(mktemp -d /tmp/dla-slurm.XXXXXX)
chmod 755 "$tmp"
pids=()
teardown() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  [ -f "$tmp/munge/munged.pid" ] && kill "$(cat "$tmp/munge/munged.pid")" 2>/dev/null
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap teardown EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# ------------------------------------------------------------------ munge + Slurm
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log"
chmod 700 "$tmp/munge"
mungekey --create --keyfile="$tmp/munge/munge.key" --force >/dev/null 2>&1
chmod 600 "$tmp/munge/munge.key"
sock=$tmp/munge/munge.socket
if ! munged --key-file="$tmp/munge/munge.key" --socket="$sock" --pid-file="$tmp/munge/munged.pid" \
    --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/seed" --force; then
  echo "SKIP: munged does not start here:"; cat "$tmp/munge/munged.log"; exit 77
fi
# Ports from the process id, so that parallel runs of this test do not meet.
port=$((20000 + ($$ % 20000) * 2))
node=$(hostname)
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=dlaverif
SlurmctldHost=$node
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=300
MpiDefault=none
NodeName=$node CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -D -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
sleep 2
slurmd -D -f "$SLURM_CONF" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
up=0
for _ in $(seq 60); do
  if sinfo -h -o %t 2>/dev/null | grep -qx idle; then up=1; break; fi
  sleep 0.5
done
if [ $up -ne 1 ]; then
  echo "SKIP: the local Slurm did not come up (node state: $(sinfo -h -o %t 2>&1))"
  tail -n 20 "$tmp"/log/*
  exit 77
fi
ok "single-node Slurm up on $node (ports $port, $((port + 1)))"

cat >"$tmp/plan.yaml" <<'PLAN'
plan: slurm-small
tests:
  - {name: regs, test: regs.access, config: small, golden_only: true, seeds: 2}
  - {name: bdma, test: bdma.random, golden_only: true, seeds: 2, timeout: 60}
PLAN
db_count() { sqlite3 "$1" "$2"; }

# ------------------------------------------------------- --submit: sbatch, follow, collect
out=$tmp/run1
timeout 180 "$dla" regress --plan "$tmp/plan.yaml" --launcher slurm --submit --poll 0.5 -j 2 --out "$out" \
  >"$tmp/o1" 2>&1
rc=$?
if [ $rc -ne 0 ]; then fail "--submit: exit $rc, want 0"; sed 's/^/  | /' "$tmp/o1"; tail -n 20 "$tmp"/log/*
else ok "--submit ran the array and collected it"; fi
grep -q "submitted as Slurm job array [0-9]" "$tmp/o1" || fail "--submit does not name the array job"
n=$(db_count "$out/results.db" "select count(*) from results where status = 'pass'")
[ "$n" = 4 ] && ok "4 passing results in the store" || fail "--submit: $n passing results in the store, want 4"
ls "$out"/slurm/logs/*_*.out >/dev/null 2>&1 && ok "Slurm wrote the task logs" || fail "no Slurm task logs"
grep -q '"slurm_job": "[0-9]*_[0-9]"' "$out/tests/regs/1/exit_status.json" || fail "exit_status.json lacks the Slurm job"
[ -s "$out/report.html" ] && [ -s "$out/junit.xml" ] || fail "--submit: no report or JUnit"

# --------------------------------------- held array, one task cancelled, released, collected
out=$tmp/run2
"$dla" regress --plan "$tmp/plan.yaml" --launcher slurm -j 2 --out "$out" >"$tmp/o2" 2>&1 || fail "writing the array"
job=$(sbatch --parsable --hold "$out/slurm/array.sh" 2>"$tmp/sbatch.err")
job=${job%%;*}
if [ -z "$job" ]; then fail "sbatch --hold: $(cat "$tmp/sbatch.err")"; fi
scancel "${job}_1"
scontrol release "$job"
for _ in $(seq 240); do
  [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  sleep 0.5
done
[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] || fail "array $job still queued after 2 minutes"
"$dla" regress --collect --out "$out" >"$tmp/o3" 2>&1
rc=$?
[ $rc -eq 1 ] && ok "--collect exits 1 (a task did not run)" || { fail "--collect: exit $rc, want 1"; sed 's/^/  | /' "$tmp/o3"; }
got=$(db_count "$out/results.db" "select job || ':' || status || ':' || signature from results order by job")
want=$'bdma/1:pass:\nbdma/2:pass:\nregs/1:pass:\nregs/2:error:slurm:no-result'
# Task 1 is line 2 of commands.tsv: the plan's second job, regs/2.
if [ "$got" = "$want" ]; then ok "cancelled task recorded as error slurm:no-result, the others pass"
else fail "store after collect:"; echo "$got" | sed 's/^/  | /'; fi
grep -q "slurm:no-result" "$out/junit.xml" || fail "JUnit lacks the cancelled task"

echo "$failures failure(s)"
[ $failures -eq 0 ]
