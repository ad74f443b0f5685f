# Sourced by the scripts that need DynamoDB Local (fuzz.sh, mutate.sh).
# use_local keeps DYNASCOPE_TEST_ENDPOINT when it is set (make test's own
# instance, or one a developer runs) and otherwise starts one of its own on
# a free port, stopped when the calling script exits, also on failure.
use_local() {
  if [ -n "${DYNASCOPE_TEST_ENDPOINT:-}" ]; then
    return 0
  fi
  scripts/dynamodb-local.sh install
  DYNASCOPE_LOCAL_RUN=$(mktemp -d)
  export DYNASCOPE_LOCAL_RUN
  trap 'scripts/dynamodb-local.sh stop || true; rm -rf "$DYNASCOPE_LOCAL_RUN"' EXIT
  DYNASCOPE_TEST_ENDPOINT=$(scripts/dynamodb-local.sh start)
  export DYNASCOPE_TEST_ENDPOINT
  echo "DynamoDB Local: $DYNASCOPE_TEST_ENDPOINT" >&2
}
