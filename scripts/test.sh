#!/usr/bin/env bash
# Runs every test against a DynamoDB Local of its own, on a free port, and
# stops it afterwards, also when the tests fail.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/dynamodb-local.sh install
# The code tests run the generated `aws dynamodb` commands with the AWS CLI.
if ! command -v aws >/dev/null 2>&1; then
  echo "aws is missing; installing Debian's awscli" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if command -v apt-get >/dev/null 2>&1; then
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq awscli; } >&2 ||
      echo "installing awscli failed; the AWS CLI tests will skip (or fail under CI=true)" >&2
  else
    echo "apt-get is not available; install the AWS CLI, or the AWS CLI tests will skip (or fail under CI=true)" >&2
  fi
fi
DYNASCOPE_LOCAL_RUN=$(mktemp -d)
export DYNASCOPE_LOCAL_RUN
cleanup() {
  scripts/dynamodb-local.sh stop || true
  rm -rf "$DYNASCOPE_LOCAL_RUN"
}
trap cleanup EXIT
DYNASCOPE_TEST_ENDPOINT=$(scripts/dynamodb-local.sh start)
export DYNASCOPE_TEST_ENDPOINT
echo "DynamoDB Local for tests: $DYNASCOPE_TEST_ENDPOINT"

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.local/*'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi
go vet ./...
go test -count=1 "$@" ./...
