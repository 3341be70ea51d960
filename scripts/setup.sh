#!/usr/bin/env bash
# README command 1: install what is needed, build, lint the bundled example
# (which holds a real mistake, so you see a diagnostic), then install.
#
#   scripts/setup.sh                  on a terminal: asks whether to install
#   scripts/setup.sh --install        install into ~/.local (/usr/local as root)
#   scripts/setup.sh --install=PREFIX install into PREFIX
#   scripts/setup.sh --no-install     build only (what CI does)
#
# Installing (scripts/install.sh) puts ptxlint and ptxlint-lsp in PREFIX/bin
# (so the pre-commit hook and editors find them), the library, headers, CMake
# package and pkg-config file under PREFIX, and the Python package into
# python3's site-packages (the user site when that one is not writable).
set -euo pipefail
cd "$(dirname "$0")/.."

install=ask prefix=""
for arg in "$@"; do
  case "$arg" in
    --install) install=yes ;;
    --install=*) install=yes prefix=${arg#--install=} ;;
    --no-install) install=no ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$prefix" ]; then
  if [ "$(id -u)" -eq 0 ]; then prefix=/usr/local; else prefix="$HOME/.local"; fi
fi

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

if [ "$install" = ask ]; then
  install=no
  if [ -t 0 ] && [ -t 1 ]; then
    read -r -p "setup: install ptxlint into $prefix (bin, lib, include, Python package)? [y/N] " reply
    case "$reply" in [yY]*) install=yes ;; esac
  fi
fi

if [ "$install" = yes ]; then
  scripts/install.sh --prefix="$prefix" build
  echo "setup: done. ptxlint is $prefix/bin/ptxlint (also build/bin/ptxlint);" \
       "'scripts/test.sh' runs every test."
else
  echo "setup: done. ptxlint is build/bin/ptxlint; 'scripts/test.sh' runs every test."
  echo "setup: to put it on PATH: scripts/setup.sh --install (or cmake --install build --prefix ~/.local)"
fi
