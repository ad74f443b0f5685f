#!/usr/bin/env bash
# Runs every test against a DynamoDB Local of its own, on a free port, and
# stops it afterwards, also when the tests fail.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/dynamodb-local.sh install
# The code tests run the generated code: `aws dynamodb` commands with the
# AWS CLI (binary keys need v2, which Debian's awscli is) and boto3 programs
# with python3; the completion tests run the zsh and fish scripts in those
# shells; the check tests read its JUnit XML with xmllint. What is missing
# comes from Debian's packages, and when it cannot be
# installed the tests stop here: a test that skips for want of a tool checks
# nothing.
need=()
aws_v2() { "$1" --version 2>&1 | grep -q '^aws-cli/2\.'; }
if ! { command -v aws >/dev/null 2>&1 && aws_v2 aws; } && ! { [ -x /usr/bin/aws ] && aws_v2 /usr/bin/aws; }; then
  need+=(awscli)
fi
has_boto3() { command -v "$1" >/dev/null 2>&1 && "$1" -c 'import boto3' >/dev/null 2>&1; }
if ! has_boto3 python3 && ! has_boto3 /usr/bin/python3; then
  need+=(python3-boto3)
fi
for sh in zsh fish; do
  command -v "$sh" >/dev/null 2>&1 || need+=("$sh")
done
command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing Debian's ${need[*]} for the generated-code, completion and check tests" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "make test: ${need[*]} missing and apt-get is not available; install them (Debian package names) and run make test again." >&2
    exit 1
  fi
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"; } >&2; then
    echo "make test: installing Debian's ${need[*]} failed; the generated-code and completion tests need them." >&2
    exit 1
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
# A generous time-out: on a loaded machine `make install` (TestMakeInstallStampsVersion)
# alone has taken nine minutes, past go test's default of ten for the package.
go test -count=1 -timeout 30m "$@" ./...
# Under CI each fuzz target also runs a few seconds past its seeds, so a new
# input is tried on every submission (each target is built first, so the
# phase takes minutes; fuzz.sh prints the count and the time); `make fuzz`
# runs them longer.
if [ "${CI:-}" = true ] && [ $# -eq 0 ]; then
  FUZZTIME=${FUZZTIME:-2s} scripts/fuzz.sh
fi
