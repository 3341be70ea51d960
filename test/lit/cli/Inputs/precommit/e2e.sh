#!/usr/bin/env bash
# End to end: a scratch git repository uses ptxlint through pre-commit (the
# Debian package), from a local hook repository holding this project's
# .pre-commit-hooks.yaml. Offline: nothing is fetched.
# Usage: e2e.sh BINDIR SRCROOT WORKDIR INPUTS
set -euo pipefail
BIN=$1 SRC=$2 WORK=$3 INPUTS=$4
rm -rf "$WORK"
mkdir -p "$WORK/home" "$WORK/hooks" "$WORK/user"
export HOME="$WORK/home" PRE_COMMIT_HOME="$WORK/cache" PATH="$BIN:$PATH"
export GIT_CONFIG_NOSYSTEM=1 PRE_COMMIT_COLOR=never NO_COLOR=1
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
git config --global user.name "ptxlint test"
git config --global user.email "test@example.invalid"
git config --global init.defaultBranch main
git config --global commit.gpgsign false

# The hook repository: this project's hook definitions at one commit.
cp "$SRC/.pre-commit-hooks.yaml" "$WORK/hooks/"
cd "$WORK/hooks"
git init -q
git add .pre-commit-hooks.yaml
git commit -qm "ptxlint hooks"
REV=$(git rev-parse HEAD)

# A kernel repository that uses the hook.
cd "$WORK/user"
git init -q
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $WORK/hooks
    rev: $REV
    hooks:
      - id: ptxlint
      - id: ptxlint-cuda
YAML
git add .pre-commit-config.yaml
git commit -qm "use ptxlint"
pre-commit install >/dev/null

echo "== clean commit"
cp "$INPUTS/clean.ptx" kernel.ptx
git add kernel.ptx
git commit -m "add a clean kernel" 2>&1
echo "commits: $(git rev-list --count HEAD)"

echo "== broken commit"
cp "$INPUTS/fixable.ptx" broken.ptx
git add broken.ptx
if git commit -m "add a broken kernel" 2>&1; then
  echo "UNEXPECTED: the broken commit went through"
  exit 1
fi
echo "blocked; commits: $(git rev-list --count HEAD)"

echo "== broken header"
git rm -q --cached broken.ptx
rm broken.ptx
printf '__device__ void f() {\n  asm volatile("cp.async.bulk.wait_group.reed 0;");\n}\n' > tma.cuh
git add tma.cuh
if git commit -m "add a broken header" 2>&1; then
  echo "UNEXPECTED: the broken header went through"
  exit 1
fi
echo "blocked; commits: $(git rev-list --count HEAD)"
