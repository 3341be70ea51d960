#!/usr/bin/env bash
# ctest "install-e2e": README's install path as a user takes it, staged under
# WORK (DESTDIR) so nothing outside it changes. scripts/install.sh (what
# `scripts/setup.sh --install` runs) installs the built tree; then, with only
# the installed bin/ on PATH (not the build tree):
#   - the documented pre-commit hooks run the installed ptxlint in a scratch
#     repository: a clean .ptx commits, a broken .ptx and a broken CUDA header
#     are blocked with their diagnostics (test/lit/cli/Inputs/precommit/e2e.sh);
#   - ptxlint-lsp answers initialize and shutdown;
#   - `python3 -m ptxlint` runs from the installed Python package.
# Usage: install_e2e.sh SOURCE_DIR BUILD_DIR WORK. Exit 77: pre-commit or git
# missing (skipped).
set -euo pipefail
SRC=$1 BUILD=$2 WORK=$3
for tool in pre-commit git; do
  command -v "$tool" >/dev/null || { echo "install-e2e: $tool not found; skipped"; exit 77; }
done
rm -rf "$WORK" && mkdir -p "$WORK"
export DESTDIR="$WORK/stage"
PREFIX=/opt/ptxlint-e2e
"$SRC/scripts/install.sh" --prefix="$PREFIX" "$BUILD" | tee "$WORK/install.out"
BIN="$DESTDIR$PREFIX/bin"
unset DESTDIR

export PATH="$BIN:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
found=$(command -v ptxlint)
[ "$found" = "$BIN/ptxlint" ] || { echo "install-e2e: ptxlint on PATH is $found"; exit 1; }
ptxlint --version

bash "$SRC/test/lit/cli/Inputs/precommit/e2e.sh" "$BIN" "$SRC" "$WORK/precommit" \
  "$SRC/test/lit/cli/Inputs" > "$WORK/precommit.log" 2>&1 || {
  cat "$WORK/precommit.log"; echo "install-e2e: the pre-commit run failed"; exit 1; }
cat "$WORK/precommit.log"
for want in 'ptxlint.*Passed' 'broken.ptx:8:6: error: .*\[S003\]' 'tma.cuh:2:41: error: .*\[Q101\]'; do
  grep -Eq "$want" "$WORK/precommit.log" || { echo "install-e2e: no '$want' in the hook's output"; exit 1; }
done

init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
down='{"jsonrpc":"2.0","id":2,"method":"shutdown"}'
bye='{"jsonrpc":"2.0","method":"exit"}'
{ for m in "$init" "$down" "$bye"; do printf 'Content-Length: %d\r\n\r\n%s' "${#m}" "$m"; done; } |
  ptxlint-lsp > "$WORK/lsp.out"
grep -q '"name":"ptxlint-lsp"' "$WORK/lsp.out" || { echo "install-e2e: ptxlint-lsp did not answer"; exit 1; }

pydir=$(sed -n 's/^install: the Python package is in //p' "$WORK/install.out")
if [ -n "$pydir" ]; then
  out=$(PYTHONPATH="$pydir" python3 -m ptxlint --version)
  echo "python3 -m ptxlint --version: $out"
  case "$out" in ptxlint*) ;; *) echo "install-e2e: python3 -m ptxlint printed '$out'"; exit 1 ;; esac
  PYTHONPATH="$pydir" python3 -c "import ptxlint, sys; sys.exit(0 if ptxlint.__file__.startswith('$pydir') else 1)" ||
    { echo "install-e2e: python3 imported a ptxlint that is not the installed one"; exit 1; }
else
  echo "install-e2e: no Python package in this build (PTXLINT_PYTHON=OFF)"
fi
echo "install-e2e: ok"
