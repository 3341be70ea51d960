#!/bin/sh
# ctest "lsp-neovim": run nvim_client.lua in headless Neovim against SERVER.
# usage: run_nvim.sh SERVER WORKDIR [FIXTURE [Q107_LINE HOVER_COL]]: the
# fixture (default nvim_fixture.ptx; a .cu is read as CUDA C++) is copied into
# WORKDIR and opened. Exit 77 (skipped) without nvim.
set -eu
server=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
fixture=${3:-$here/nvim_fixture.ptx}
export PTXLINT_LSP_LINE=${4:-12} PTXLINT_LSP_HOVER_COL=${5:-4}
if ! command -v nvim >/dev/null 2>&1; then
  echo "lsp-neovim: nvim not found (Debian package neovim); skipped"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
file="$work/k.${fixture##*.}"
cp "$fixture" "$file"
# A buffer is only changed, never written: the file must stay as it was.
PTXLINT_LSP="$server" PTXLINT_LSP_FILE="$file" \
  timeout 120 nvim --headless --clean -n -c "luafile $here/nvim_client.lua"
cmp -s "$fixture" "$file" || { echo "lsp-neovim: the file was modified"; exit 1; }
echo "lsp-neovim: ok"
