#!/bin/sh
# ctest "lsp-neovim": run nvim_client.lua in headless Neovim against SERVER.
# usage: run_nvim.sh SERVER WORKDIR. Exit 77 (skipped) without nvim.
set -eu
server=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v nvim >/dev/null 2>&1; then
  echo "lsp-neovim: nvim not found (Debian package neovim); skipped"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
cp "$here/nvim_fixture.ptx" "$work/k.ptx"
# A buffer is only changed, never written: the file must stay as it was.
PTXLINT_LSP="$server" PTXLINT_LSP_FILE="$work/k.ptx" \
  timeout 120 nvim --headless --clean -n -c "luafile $here/nvim_client.lua"
cmp -s "$here/nvim_fixture.ptx" "$work/k.ptx" || { echo "lsp-neovim: the file was modified"; exit 1; }
echo "lsp-neovim: ok"
