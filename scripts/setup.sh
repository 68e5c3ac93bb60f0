#!/usr/bin/env bash
# Install the Debian packages dlaverif needs. Idempotent: does nothing when all are present.
# Uses sudo when not root. Called by `make setup` (and so by `make run` / `make test`).
# `setup.sh fuzz`: what `make fuzz` needs on top (clang with libFuzzer and the sanitizers).
set -euo pipefail

if [ "${1:-}" = fuzz ]; then
  PACKAGES=(clang libclang-rt-dev)
else
PACKAGES=(
  build-essential cmake ninja-build ccache git python3 python3-yaml
  verilator yosys zlib1g-dev
  libgtest-dev libgmock-dev libboost-test-dev libbenchmark-dev
  libcli11-dev libfmt-dev nlohmann-json3-dev libyaml-cpp-dev
  libsqlite3-dev sqlite3 lcov libxml2-utils
  slurm-wlm munge          # regress.slurm.real: a single-node Slurm on localhost
)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup: error: apt-get not found; install these packages by hand: ${missing[*]}" >&2
  exit 2
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "setup: error: not root and no sudo; install as root: ${missing[*]}" >&2
    exit 2
  fi
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
