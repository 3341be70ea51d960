#!/bin/bash
# Verdict check for speed work: saves ptxlint's output on every .ptx under
# test/ (with and without --tensor-box-bytes), on the corpus ($PTXLINT_CORPUS,
# else ../shared/corpus, else /work/shared/corpus), on the benchmark modules
# (attention, async-dense) and on the real modules when present
# ($PTXLINT_REALKERNELS, else /work/realkernels/ptx), then compares two such
# snapshots. A change meant only to make ptxlint faster must leave them
# byte-identical.
#
# usage: scripts/compare-outputs.sh save NAME     (into build/compare/NAME)
#        scripts/compare-outputs.sh diff OLD NEW  (exit 1 on any difference)
set -u
cd "$(dirname "$0")/.."
PTXLINT=${PTXLINT:-build/bin/ptxlint}
case "${1:-}" in
save)
  D=build/compare/$2
  rm -rf "$D" && mkdir -p "$D"
  find test -name '*.ptx' | sort | while read -r f; do
    n=$(echo "$f" | tr / _)
    "$PTXLINT" --no-config --no-source-snippet "$f" > "$D/$n.out" 2>&1
    echo "rc=$?" >> "$D/$n.out"
    "$PTXLINT" --no-config --no-source-snippet --tensor-box-bytes=4096 "$f" > "$D/$n.tb.out" 2>&1
  done
  for c in "${PTXLINT_CORPUS:-}" ../shared/corpus /work/shared/corpus; do
    if [ -n "$c" ] && [ -d "$c" ]; then
      "$PTXLINT" --no-config --no-source-snippet "$c" > "$D/corpus.out" 2>&1
      break
    fi
  done
  real=${PTXLINT_REALKERNELS:-/work/realkernels/ptx}
  for f in build/bench/attention.ptx build/bench/asyncdense-11MB.ptx "$real"/*/*.ptx; do
    [ -f "$f" ] || continue
    "$PTXLINT" --no-config --no-source-snippet "$f" > "$D/$(basename "$f").out" 2>&1
    echo "rc=$?" >> "$D/$(basename "$f").out"
  done
  echo "saved $(ls "$D" | wc -l) outputs in $D"
  ;;
diff)
  diff -r "build/compare/$2" "build/compare/$3" && echo "identical"
  ;;
*)
  sed -n '2,8p' "$0"
  exit 2
  ;;
esac
