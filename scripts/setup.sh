#!/usr/bin/env bash
# README command 1: install what is needed, build, and lint the bundled example
# (which holds a real mistake, so you see a diagnostic).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
echo
echo "\$ build/bin/ptxlint examples/bulk_reduce_f16.ptx"
set +e
build/bin/ptxlint examples/bulk_reduce_f16.ptx
status=$?
set -e
# The example is wrong on purpose: exit status 1 (errors found) is success here.
if [ "$status" -ne 1 ]; then
  echo "setup: expected ptxlint to report the example's error (exit 1), got $status" >&2
  exit 1
fi
echo
echo "setup: done. ptxlint is build/bin/ptxlint; 'scripts/test.sh' runs every test."
