#!/usr/bin/env bash
# Skip-scan against a full read on three shapes of partition (labels, 20,000
# timestamps, mixed) and the demo's CUST#7, in a DynamoDB Local of its own
# (started on a free port and stopped afterwards, also on failure). Prints
# requests, RCUs and their ratio; fails if skip-scan costs 1% of the full
# read's RCUs or more, or finds other types; then times CUST#7's skip-scan
# through the fault proxy with 50 ms a request. Extra arguments go to the
# bench program (e.g. -items 100000 -workers 32). make bench runs it too.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/dynamodb-local.sh install
DYNASCOPE_LOCAL_RUN=$(mktemp -d)
export DYNASCOPE_LOCAL_RUN
cleanup() {
  scripts/dynamodb-local.sh stop || true
  rm -rf "$DYNASCOPE_LOCAL_RUN"
}
trap cleanup EXIT
endpoint=$(scripts/dynamodb-local.sh start)
go run ./bench/skipscan -endpoint "$endpoint" "$@"
