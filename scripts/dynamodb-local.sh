#!/usr/bin/env bash
# DynamoDB Local in one command: install | start [PORT] | stop | status | endpoint | dir
#
# The emulator is AWS's own DynamoDB Local, shipped inside the npm package
# amplify-dynamodb-simulator. We fetch that one tarball with `npm pack` (no
# dependency install), check its sha256, and unpack only package/emulator/.
#
# Where it lives is where the dynascope binary looks (dynamolocal/places.go;
# a test holds the two to the same answers), so either one's install serves
# both, and `dynascope demo` finds it from any folder:
#   $DYNASCOPE_LOCAL_DIR/dynamodb-local when that is set (the only place);
#   else the user's cache folder, $XDG_CACHE_HOME/dynascope/dynamodb-local
#   (an absolute $XDG_CACHE_HOME), else ~/.cache/dynascope/dynamodb-local,
#   where installs go; a checkout's .local/dynamodb-local (this checkout's
#   or a folder's above it), where this script installed before, when the
#   cache folder has none.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)

has_engine() { [ -f "$1/DynamoDBLocal.jar" ] && [ -d "$1/DynamoDBLocal_lib" ]; }

if [ -n "${DYNASCOPE_LOCAL_DIR:-}" ]; then
  local_dir="$DYNASCOPE_LOCAL_DIR"
else
  cache_home="${XDG_CACHE_HOME:-}"
  case "$cache_home" in
    /*) ;;
    *) cache_home="${HOME:?neither HOME nor XDG_CACHE_HOME is set: set one, or DYNASCOPE_LOCAL_DIR}/.cache" ;;
  esac
  local_dir="$cache_home/dynascope"
fi
dir="$local_dir/dynamodb-local"
if [ -z "${DYNASCOPE_LOCAL_DIR:-}" ] && ! has_engine "$dir"; then
  d="$root"
  while :; do
    if has_engine "$d/.local/dynamodb-local"; then dir="$d/.local/dynamodb-local"; break; fi
    [ "$d" = / ] && break
    d=$(dirname "$d")
  done
fi
# Where the running instance's pid, port and log live: the checkout's own
# .local, so that each checkout runs its own instance; a separate run dir
# lets `make test` own an instance of its own beside a developer's.
run_dir="${DYNASCOPE_LOCAL_RUN:-$root/.local}"
pid_file="$run_dir/dynamodb-local.pid"
port_file="$run_dir/dynamodb-local.port"
log_file="$run_dir/dynamodb-local.log"

pkg="amplify-dynamodb-simulator@2.9.30"
tarball="amplify-dynamodb-simulator-2.9.30.tgz"
sha="3503ffac19f183407909fecdacf4db51ab1fdad1da7b2f177016670b2d80e4b9"

say() { echo "dynamodb-local: $*" >&2; }
die() { say "$*"; exit 1; }

ensure_java() {
  command -v java >/dev/null 2>&1 && return 0
  say "java is missing; installing Debian's default-jre-headless"
  command -v apt-get >/dev/null 2>&1 || die "java is missing and apt-get is not available; install a Java 17+ runtime and retry."
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq default-jre-headless; } >&2 ||
    die "installing Debian's default-jre-headless failed; DynamoDB Local needs a Java 17+ runtime."
  command -v java >/dev/null 2>&1 || die "installing default-jre-headless did not provide java."
}

install() {
  if has_engine "$dir"; then
    ensure_java
    return 0
  fi
  command -v npm >/dev/null 2>&1 || die "npm is missing; it is needed to fetch $pkg (apt-get install npm)."
  mkdir -p "$local_dir"
  local tmp
  tmp=$(mktemp -d "$local_dir/.dynamodb-local-install-XXXXXX")
  say "fetching $pkg with npm pack into $dir"
  (cd "$tmp" && npm pack --silent --prefer-offline "$pkg" >/dev/null) || { rm -rf "$tmp"; die "npm pack $pkg failed; is the npm registry reachable?"; }
  local got
  got=$(sha256sum "$tmp/$tarball" | cut -d' ' -f1)
  if [ "$got" != "$sha" ]; then
    rm -rf "$tmp"
    die "checksum mismatch for $tarball: got $got, want $sha."
  fi
  tar -xzf "$tmp/$tarball" -C "$tmp" package/emulator
  if has_engine "$dir"; then
    rm -rf "$tmp" # another install got there first
  else
    rm -rf "$dir"
    mv "$tmp/package/emulator" "$dir"
    rm -rf "$tmp"
  fi
  say "installed into $dir"
  ensure_java
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

free_port() {
  local p i
  for i in $(seq 1 200); do
    p=$((20000 + RANDOM % 40000))
    if port_free "$p"; then echo "$p"; return 0; fi
  done
  die "no free loopback port found."
}

# answers: ListTables returns a TableNames array. The request is written by
# bash itself over /dev/tcp, so no HTTP client (curl, wget) is needed: a
# machine without curl used to wait the whole minute and blame the engine.
answers() {
  local body='{}'
  timeout 2 bash -c '
    exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
    printf "POST / HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nAuthorization: AWS4-HMAC-SHA256 Credential=local/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0\r\nContent-Length: %s\r\nConnection: close\r\n\r\n%s" "$1" "${#2}" "$2" >&3
    cat <&3
  ' _ "$1" "$body" 2>/dev/null | grep -q TableNames
}

running_pid() {
  [ -f "$pid_file" ] || return 1
  local pid
  pid=$(cat "$pid_file")
  kill -0 "$pid" 2>/dev/null || return 1
  echo "$pid"
}

start() {
  install
  if running_pid >/dev/null && answers "$(cat "$port_file")"; then
    echo "http://127.0.0.1:$(cat "$port_file")"
    return 0
  fi
  local port="${1:-}"
  [ -n "$port" ] || port=$(free_port)
  port_free "$port" || die "port $port on 127.0.0.1 is already in use; pick another or omit it."
  mkdir -p "$run_dir"
  # setsid: the emulator must not die with the shell that started it, and must
  # not receive the terminal's signals (Ctrl-C in the UI).
  # It writes a metadata file into its working directory: keep that in run_dir.
  (cd "$run_dir" && exec setsid java -Djava.library.path="$dir/DynamoDBLocal_lib" -jar "$dir/DynamoDBLocal.jar" \
    -inMemory -sharedDb -port "$port" >"$log_file" 2>&1 </dev/null) &
  local pid=$!
  echo "$pid" >"$pid_file"
  echo "$port" >"$port_file"
  local deadline=$((SECONDS + 60))
  until answers "$port"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$pid_file"
      die "DynamoDB Local exited during start-up; see $log_file."
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      kill "$pid" 2>/dev/null || true
      rm -f "$pid_file"
      die "DynamoDB Local did not answer ListTables on port $port within 60 s; see $log_file."
    fi
    sleep 0.2
  done
  say "running on port $port (pid $pid)"
  echo "http://127.0.0.1:$port"
}

stop() {
  local pid
  if pid=$(running_pid); then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    say "stopped pid $pid"
  fi
  rm -f "$pid_file" "$port_file"
}

status() {
  if running_pid >/dev/null && answers "$(cat "$port_file")"; then
    echo "running: http://127.0.0.1:$(cat "$port_file") (pid $(cat "$pid_file"))"
  else
    echo "stopped"
    return 1
  fi
}

case "${1:-}" in
  install) install ;;
  start) start "${2:-}" ;;
  stop) stop ;;
  status) status ;;
  endpoint) running_pid >/dev/null && echo "http://127.0.0.1:$(cat "$port_file")" ;;
  dir) echo "$dir" ;; # where the engine is, or where install puts it
  *) echo "usage: $0 install | start [PORT] | stop | status | endpoint | dir" >&2; exit 2 ;;
esac
