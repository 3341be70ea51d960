#!/usr/bin/env bash
# Installs a built tree (scripts/setup.sh --install calls this; so may you):
#
#   scripts/install.sh [--prefix=PREFIX] [BUILD_DIR]
#
# PREFIX defaults to /usr/local as root, ~/.local otherwise; BUILD_DIR to
# ./build. ptxlint and ptxlint-lsp go to PREFIX/bin (where the pre-commit
# hooks and editors find them), the library, headers, CMake package and
# pkg-config file under PREFIX, and the Python package into python3's
# site-packages (the user site when that one is not writable). DESTDIR, as
# cmake --install reads it, stages the whole install under another root.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="" build=build
for arg in "$@"; do
  case "$arg" in
    --prefix=*) prefix=${arg#--prefix=} ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "install: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
    *) build=$arg ;;
  esac
done
if [ -z "$prefix" ]; then
  if [ "$(id -u)" -eq 0 ]; then prefix=/usr/local; else prefix="$HOME/.local"; fi
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  echo "install: $build is not a configured build (run scripts/build.sh first)" >&2
  exit 2
fi

# The Python package goes to the interpreter's site-packages; without write
# access there (a system python3, not root), to the user site instead.
configured=$(sed -n 's/^PTXLINT_PYTHON_INSTALL_DIR:PATH=//p' "$build/CMakeCache.txt")
pydir=$configured
if [ -n "$pydir" ] && ! { mkdir -p "${DESTDIR:-}$pydir" 2>/dev/null && [ -w "${DESTDIR:-}$pydir" ]; }; then
  pydir=$(python3 -m site --user-site)
  echo "install: ${DESTDIR:-}$configured is not writable; the Python package goes to $pydir"
  cmake -S . -B "$build" -DPTXLINT_PYTHON_INSTALL_DIR="$pydir" >/dev/null
fi
echo "\$ cmake --install $build --prefix $prefix${DESTDIR:+ (DESTDIR=$DESTDIR)}"
cmake --install "$build" --prefix "$prefix" > "$build/install.log"
echo "install: installed $(wc -l < "$build/install_manifest.txt") files ($build/install_manifest.txt)"
if [ -n "$pydir" ]; then echo "install: the Python package is in ${DESTDIR:-}$pydir"; fi
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "install: $prefix/bin is not on PATH; add it (e.g. in ~/.profile):"
     echo "  export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
echo "install: ptxlint is ${DESTDIR:-}$prefix/bin/ptxlint"
