#!/bin/sh
# ctest "vscode-extension": editors/vscode builds into an npm package that
# carries its language client. usage: vscode_pack.sh SOURCE_DIR WORKDIR.
# Exit 77 (skipped) without npm.
set -eu
src=$1/editors/vscode work=$2
if ! command -v npm >/dev/null 2>&1; then
  echo "vscode-extension: npm not found; skipped"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work" && cp -R "$src"/. "$work"/ && rm -rf "$work/node_modules"
cd "$work"
node --check extension.js
npm install --no-audit --no-fund --loglevel=error
tgz=$(npm pack --loglevel=error | tail -n 1)
tar -tzf "$tgz" > contents.txt
for f in package/package.json package/extension.js package/language-configuration.json \
         package/node_modules/vscode-languageclient/package.json \
         package/node_modules/vscode-languageclient/node.js; do
  grep -qx "$f" contents.txt || { echo "vscode-extension: $tgz lacks $f"; exit 1; }
done
echo "vscode-extension: ok ($tgz, $(wc -l < contents.txt) files)"
