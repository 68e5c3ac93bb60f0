#!/bin/sh
# Fails when a Boost.Test suite has a case that none of the ctest entries running it names
# (a case added to the suite but not to CMake would otherwise never run).
# Usage: boost_cases_registered.sh TEST_BINARY SUITE CASE[,CASE...]
set -eu
bin=$1 suite=$2 registered=$3
listed=$("$bin" --list_content 2>&1 |
         awk -v s="$suite*" '/^[^ ]/ {in_suite = ($0 == s)} in_suite && /^    / {sub(/^ +/, ""); sub(/\*$/, ""); print}' |
         sort)
named=$(echo "$registered" | tr ',' '\n' | sed '/^$/d' | sort)
if [ -z "$listed" ]; then
  echo "suite $suite: no cases listed by $bin --list_content" >&2
  exit 1
fi
if [ "$listed" != "$named" ]; then
  echo "suite $suite: the cases of the binary and those the ctest entries run differ" >&2
  echo "only in the binary:" >&2
  echo "$listed" | grep -vxF "$named" >&2 || true
  echo "only in CMake:" >&2
  echo "$named" | grep -vxF "$listed" >&2 || true
  exit 1
fi
echo "suite $suite: all $(echo "$listed" | wc -l) cases run by a ctest entry"
