#!/bin/sh
# Long fuzzing campaign on one core, at the lowest priority: the targets take
# turns until TOTAL seconds have passed; each target keeps its own growing
# corpus in WORK/<target>. Crashes, timeouts and leaks land in WORK/artifacts/.
# The executions of every slice are appended to WORK/log.tsv and summed at
# the end.
#
# usage: fuzz/campaign.sh BUILD_DIR WORK TOTAL_SECONDS [SLICE_SECONDS]
#   BUILD_DIR: a build of the 'fuzz' preset (cmake --preset fuzz, then
#   cmake --build --preset fuzz-targets for the fuzz binaries alone)
# Environment: TARGETS (default: every ptxlint-fuzz-* in BUILD_DIR/bin, in
# turn; a target may be named twice to give it two slices per round),
# LEN_<target> (max_len, default 2048 for the scanner, 1024 otherwise).
set -eu
BUILD=$1 WORK=$2 TOTAL=$3 SLICE=${4:-600}
SRC=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$WORK/seeds" "$WORK/artifacts"
[ -n "$(ls "$WORK/seeds")" ] || python3 "$SRC/fuzz/make-seeds.py" "$WORK/seeds" \
  "$SRC/../shared/corpus" "$SRC/test" "$SRC/examples"
mkdir -p "$WORK/seeds-config"
[ -n "$(ls "$WORK/seeds-config")" ] || python3 "$SRC/fuzz/make-seeds.py" \
  "$WORK/seeds-config" "$SRC/test" "$SRC/docs" "$SRC/spec-tables" --suffix .yaml
TARGETS=${TARGETS:-$(cd "$BUILD/bin" && ls ptxlint-fuzz-* | sed 's/ptxlint-fuzz-//')}
START=$(date +%s)
while [ $(( $(date +%s) - START )) -lt "$TOTAL" ]; do
  for T in $TARGETS; do
    LEFT=$(( TOTAL - ($(date +%s) - START) ))
    [ "$LEFT" -gt 0 ] || break
    [ "$LEFT" -lt "$SLICE" ] && S=$LEFT || S=$SLICE
    case $T in scanner) LEN=2048 ;; *) LEN=1024 ;; esac
    LEN=$(eval echo "\${LEN_$T:-$LEN}")
    mkdir -p "$WORK/$T"
    SEEDS=$WORK/seeds DICT=$SRC/fuzz/ptx.dict
    [ "$T" = config ] && SEEDS=$WORK/seeds-config DICT=$SRC/fuzz/config.dict
    nice -n 19 "$BUILD/bin/ptxlint-fuzz-$T" "$WORK/$T" "$SEEDS" \
      -max_total_time="$S" -max_len="$LEN" -timeout=10 -rss_limit_mb=2048 \
      -dict="$DICT" -print_final_stats=1 \
      -artifact_prefix="$WORK/artifacts/$T-" >"$WORK/$T.last.log" 2>&1 || true
    RUNS=$(sed -n 's/^stat::number_of_executed_units: *//p' "$WORK/$T.last.log")
    CRASH=$(grep -c '^==.*ERROR\|^SUMMARY' "$WORK/$T.last.log" || true)
    printf '%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$T" "${RUNS:-0}" "$CRASH" >>"$WORK/log.tsv"
    if [ "$CRASH" != 0 ]; then cp "$WORK/$T.last.log" "$WORK/artifacts/$T-$(date +%s).log"; fi
  done
done
awk -F'\t' '{n[$2]+=$3; t+=$3} END {for (k in n) printf "%s\t%d\n", k, n[k]; printf "total\t%d\n", t}' "$WORK/log.tsv"
