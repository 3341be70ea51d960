#!/usr/bin/env bash
# Installs every build and test dependency from Debian packages. Safe to rerun:
# apt-get skips what is already installed, and nothing is installed when all
# the tools are present already.
set -euo pipefail

PACKAGES=(cmake ninja-build g++ antlr4 libantlr4-runtime-dev llvm-dev llvm-14-tools
          doctest-dev python3 python3-dev pybind11-dev neovim pre-commit git
          python3-jsonschema patch lld)

have_all() {
  command -v cmake >/dev/null && command -v ninja >/dev/null && command -v g++ >/dev/null &&
  command -v antlr4 >/dev/null && [ -f /usr/include/antlr4-runtime/antlr4-runtime.h ] &&
  [ -d /usr/lib/llvm-14/lib/cmake/llvm ] && command -v FileCheck-14 >/dev/null &&
  [ -f /usr/lib/llvm-14/build/utils/lit/lit.py ] && [ -f /usr/include/doctest/doctest.h ] &&
  command -v pre-commit >/dev/null && command -v patch >/dev/null && command -v ld.lld >/dev/null &&
  dpkg -s python3-jsonschema >/dev/null 2>&1 && [ -d /usr/lib/cmake/pybind11 ] &&
  command -v nvim >/dev/null
}

if have_all; then
  echo "install-deps: all dependencies present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" >/dev/null
echo "install-deps: installed ${PACKAGES[*]}"
if [ -x /usr/local/cuda/bin/ptxas ] || command -v ptxas >/dev/null; then
  echo "install-deps: ptxas found (cross-checks enabled)"
else
  echo "install-deps: ptxas not found (optional: cross-checks are skipped)"
fi
