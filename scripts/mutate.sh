#!/usr/bin/env bash
# make mutate: plants gremlins' default mutants one at a time in the code
# users trust and runs the owning package's tests against each
# (scripts/mutate.go), then prints per package the test efficacy (killed of
# those a test reaches) and the mutator coverage (reached of all), with each
# survivor. Mutants written down in docs/equivalent-mutants.md (each with
# its reason) are left out. dynamo's tests need DynamoDB Local: one of its
# own is started unless DYNASCOPE_TEST_ENDPOINT is set.
#
#   scripts/mutate.sh              every package below (some minutes)
#   scripts/mutate.sh keys edit    only these
#
# MUTATE_WORKERS (default 2) mutants are tested at once; MUTATE_MIN (default
# 0) makes the run fail when a package's efficacy or coverage is below it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/local-env.sh

# Package directory, then the files (FILE or FILE:Func,Func) to mutate and
# the tests that own them. Empty: every non-test file, every test.
declare -A targets=(
  [keys]="" [itemcodec]="" [itemcodec/number]="" [filterexpr]="" [textfmt]="" [edit]=""
  # The answer checks (with the one-pass reader that makes them) and the paging stops (a key that does not move on,
  # one sent twice, a read far over its announced bound) and EstimateRead, the one estimate of every announced bound.
  [dynamo]="answer.go answer_read.go answer_decode.go answer_json.go progress.go estimate.go:EstimateRead"
)
declare -A tests=(
  [dynamo]='^(TestAnswer.*|TestKeyAdvance.*|TestEstimateRead.*|TestOverBudget.*|TestLocationText|TestFaultAnswersDynamoNeverSends|TestFaultAnswerDamagedOnce|TestFaultDescribeWithoutTable|TestFaultKeyDoesNotMove|TestFaultScanAndPartiQLPaging)$'
)
# Tests left out because a mutant's run would take them minutes and others
# check the same code: the aws CLI runs of each plan (31 s) and a transaction
# cut mid-way (8 s); TestPlanShowsDiffCommandAndUnits still reads each command.
declare -A skips=(
  [edit]='^(TestCommandDoesWhatThePlanDoes|TestKeyChangeIsAtomicWhenTheConnectionBreaks)$'
)
order=(keys itemcodec itemcodec/number filterexpr textfmt edit dynamo)
pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=("${order[@]}")
for p in "${pkgs[@]}"; do
  [ -n "${targets[$p]+x}" ] || { echo "mutate: $p is not one of ${order[*]}" >&2; exit 2; }
done

use_local
export CI=true # a test that cannot reach DynamoDB Local fails instead of skipping
out=.local/mutate
mkdir -p "$out"
go build -o "$out/mutate" scripts/mutate.go
began=$SECONDS
results=()
# Ctrl-C ends the package under test with what it tested so far, skips the
# rest and still prints the report.
interrupted=""
trap 'interrupted=1' INT
for p in "${pkgs[@]}"; do
  [ -z "$interrupted" ] || break
  files=${targets[$p]}
  if [ -z "$files" ]; then
    files=$(cd "$p" && ls *.go | grep -v '_test\.go$' | tr '\n' ' ')
  fi
  json="$out/${p//\//_}.json"
  echo "mutate: $p ($files)" >&2
  # shellcheck disable=SC2086
  "$out/mutate" run -pkg "./$p" -run "${tests[$p]:-}" -skip "${skips[$p]:-}" -workers "${MUTATE_WORKERS:-2}" -o "$json" $files || [ -n "$interrupted" ]
  results+=("$p=$json")
done
echo "mutate: ${#pkgs[@]} packages in $((SECONDS - began)) s" >&2
"$out/mutate" report -equivalent docs/equivalent-mutants.md -min "${MUTATE_MIN:-0}" "${results[@]}"
