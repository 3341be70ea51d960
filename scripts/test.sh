#!/usr/bin/env bash
# README command 2: build and run every test (unit, file, corpus, and the
# ptxas cross-checks when ptxas is installed).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
