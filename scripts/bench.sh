#!/usr/bin/env bash
# The performance figures of issue 7, against a DynamoDB Local of its own
# (started on a free port, stopped afterwards, also on failure):
#
#   1. bench/load        the bench table: BENCH#BIG (100,000 items of ~300
#                        bytes), BENCH#SMALL and a long tail, with parallel
#                        BatchWriteItem
#   2. ui benchmarks     View and keys at 100 / 10,000 / 100,000 items, and
#                        key-to-frame latency with 50,000 loaded (bench/ratio)
#   3. bench/rss         peak RSS of the UI with BENCH#BIG loaded, with every
#                        item in memory and with the default cap
#   4. bench/startup     start to first results: dynascope query and UI
#                        against aws dynamodb query
#   5. bench/throughput  sampling with 4 vs 1 Scan segments, COUNT, and
#                        skip-scan vs a full read
#   6. bench/skipscan    skip-scan vs a full read on every key shape (labels,
#                        20,000 timestamps, a mix, CUST#7, BENCH#BIG), three
#                        runs through the fault proxy with 50 ms a request:
#                        RCU share (<= 1%), requests (<= types + 2), round
#                        trips (<= types/2 + 2), the three runs alike
#   7. bench/seedfile    seed --file of 2,000 generated items against a
#                        loop of aws dynamodb batch-write-item, 25 a request
#   8. bench/read        a big read's client cost (issue 41): CPU per item of
#                        query --all-pages over BENCH#BIG in jsonl, json and
#                        table against bench/floor (the bare SDK paginator
#                        writing the same bytes), both reading a replay of
#                        DynamoDB Local's own answers on loopback
#                        (bench/replay); peak RSS of reads of 1,000,000
#                        items in every format (query, scan, partiql,
#                        patterns run)
#   9. bench/firstscreen the UI's first screen of a 200,000-item partition
#                        over a 2,000-item one's (issue 41.3, bound 1.5x), in
#                        a table of their own on DynamoDB Local; the issue's
#                        1,000,000-item table is FIRSTSCREEN_TABLE_ITEMS
#                        (default 0: the two partitions only, 202,000 items,
#                        as a 1,000,000-item seed takes minutes on 2 cores);
#                        the sizes are printed with the figure
#
# Each step prints its detail; the summary at the end has one line per
# figure, with its bound and ok or FAIL. The exit code is non-zero when a
# bound failed or a step could not run.
set -euo pipefail
cd "$(dirname "$0")/.."

began=$SECONDS
scripts/dynamodb-local.sh install
# The start-up figure compares with the issue's reference, Debian's awscli
# package, installed here when it is missing (another aws on the PATH, such
# as pip's, is a different program with a different start-up).
if [ ! -x /usr/bin/aws ] && command -v apt-get >/dev/null 2>&1; then
  echo "Debian's awscli is missing; installing it" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq awscli; } >&2 ||
    echo "installing awscli failed; the start-up figure uses the aws on the PATH, if any" >&2
fi
# Debian's awscli is the issue's reference; otherwise whatever aws is on the
# PATH, run directly rather than through a pyenv shim, whose own start-up
# (a shell and pyenv) is no part of the CLI's.
aws_bin=/usr/bin/aws
[ -x "$aws_bin" ] || aws_bin=$(command -v aws || echo aws)
case "$aws_bin" in
  */.pyenv/shims/*) aws_bin=$(pyenv which aws 2>/dev/null || echo "$aws_bin") ;;
esac

work=$(mktemp -d)
DYNASCOPE_LOCAL_RUN="$work/local"
export DYNASCOPE_LOCAL_RUN
cleanup() {
  scripts/dynamodb-local.sh stop || true
  rm -rf "$work"
}
trap cleanup EXIT

# Build everything first, so compile time is in no figure.
echo "building dynascope and the bench programs" >&2
# Built as the Makefile builds it: static, without cgo.
CGO_ENABLED=0 go build -o "$work/dynascope" .
for p in load rss startup throughput ratio skipscan seedfile floor read firstscreen; do
  go build -o "$work/$p" "./bench/$p"
done
go test -c -o "$work/ui.test" ./ui/

endpoint=$(scripts/dynamodb-local.sh start)
echo "DynamoDB Local for the bench: $endpoint" >&2

summary="$work/summary"
: >"$summary"
: >"$work/times"
failed=0
# step NAME COMMAND...: runs a step, shows its output, keeps its figure lines.
step() {
  local name=$1
  shift
  echo
  echo "── $name"
  local rc=0 t0=$SECONDS
  "$@" >"$work/out" 2>&1 || rc=$?
  cat "$work/out"
  echo "   $name: $((SECONDS - t0)) s" | tee -a "$work/times" >&2
  grep '^= ' "$work/out" | sed 's/^= //' >>"$summary" || true
  if [ "$rc" -ne 0 ]; then
    failed=1
    grep -q '^= ' "$work/out" || echo "$name: did not run (exit $rc)" >>"$summary"
  fi
}

step "load" "$work/load" -endpoint "$endpoint" -table bench
# The UI benchmarks: three rounds of every size, the fastest run of each
# kept (bench/ratio). Rounds rather than -count 3, so that a burst of load
# from elsewhere slows one run of every size rather than all runs of one.
ui_bench() {
  : >"$work/ui-bench.txt"
  for round in 1 2 3; do
    (cd ui && "$work/ui.test" -test.run '^$' -test.bench '^Benchmark(View|Keys|KeyToFrame|FilterChunk|FirstFrame)$' \
      -test.benchtime 300ms -test.count 1 -test.benchmem) >>"$work/ui-bench.txt" 2>&1 || {
      cat "$work/ui-bench.txt"
      return 1
    }
  done
  grep -E '^Benchmark' "$work/ui-bench.txt"
  "$work/ratio" <"$work/ui-bench.txt"
}
step "ui benchmarks" ui_bench
# Peak RSS with every item held (no cap: the figure the bound is about), and
# with the UI's default cap on items in memory.
step "peak RSS, no cap" "$work/rss" -endpoint "$endpoint" -table bench -max-loaded -1
step "peak RSS, default cap" "$work/rss" -endpoint "$endpoint" -table bench -max-loaded 0
step "start-up" "$work/startup" -endpoint "$endpoint" -table bench -bin "$work/dynascope" -aws "$aws_bin" -runs 10
step "throughput" "$work/throughput" -endpoint "$endpoint" -table bench -sample-items 20000
step "skip-scan shapes" "$work/skipscan" -endpoint "$endpoint" -bench-table bench
step "seed --file vs aws loop" "$work/seedfile" -endpoint "$endpoint" -bin "$work/dynascope" -aws "$aws_bin" -items 2000
step "big read vs the floor" "$work/read" -endpoint "$endpoint" -table bench -bin "$work/dynascope" -floor "$work/floor" -runs 5 -laps 10
step "first screen, big partition over small" "$work/firstscreen" -endpoint "$endpoint" -bin "$work/dynascope" \
  -big 200000 -small 2000 -table-items "${FIRSTSCREEN_TABLE_ITEMS:-0}" -runs 5 -max-ratio 1.5

echo
echo "── summary: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo), $(go version | cut -d' ' -f3), $((SECONDS - began)) s"
cat "$summary"
echo "time per step:"
cat "$work/times"
if [ "$failed" -ne 0 ] || grep -q 'FAIL' "$summary"; then
  echo "some bounds failed"
  exit 1
fi
echo "all bounds hold"
