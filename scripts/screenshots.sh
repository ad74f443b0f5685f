#!/usr/bin/env bash
# Renders the README's terminal pictures into docs/img/ from real sessions.
#
# It builds dynascope, starts a DynamoDB Local of its own (its own run dir,
# like scripts/test.sh), seeds the demo table, and drives a shell and the UI
# in a private tmux server at 120x35. Each scene is captured with
# `tmux capture-pane -e` (colours kept), rewritten by scripts/ansinorm into
# the ANSI that freeze draws faithfully, drawn as SVG by freeze
# (github.com/charmbracelet/freeze, fetched through the Go module proxy) and
# rasterised by Debian's rsvg-convert with Debian's JetBrains Mono (freeze's
# own PNG writer crashes with "unsafe.Slice: len out of range" under Go 1.26,
# and rsvg reads no embedded font, so the font is installed).
# Run it again after UI changes: `make screenshots`.
#
# Nothing of the user's is read or written: no ~/.aws, no dynascope
# settings, no tmux.conf, and the UI's history goes to a temporary dir.
set -euo pipefail
cd "$(dirname "$0")/.."

FREEZE=github.com/charmbracelet/freeze@v0.2.2
WIDTH=120
HEIGHT=35
OUT=docs/img

say() { echo "screenshots: $*" >&2; }
die() { say "$*"; exit 1; }
for tool in go tmux; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is missing; install it (apt-get install $tool) and retry."
done
need=()
command -v rsvg-convert >/dev/null 2>&1 || need+=(librsvg2-bin)
fc-list 2>/dev/null | grep -qi 'JetBrains Mono' || need+=(fonts-jetbrains-mono)
if [ ${#need[@]} -gt 0 ]; then
  say "installing Debian's ${need[*]} (the SVG to PNG step and its font)"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"; } >&2 ||
    die "installing Debian's ${need[*]} failed; the pictures need them."
fi

work=$(mktemp -d)
session="dynascope-shots-$$"
export DYNASCOPE_LOCAL_RUN="$work/local"
tm() { tmux -L "$session" -f /dev/null "$@"; }
cleanup() {
  tm kill-server 2>/dev/null || true
  scripts/dynamodb-local.sh stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

scripts/dynamodb-local.sh install
endpoint=$(scripts/dynamodb-local.sh start)
mkdir -p "$work/bin" "$work/home" "$work/config" "$OUT"
say "building dynascope and freeze"
go build -o "$work/bin/dynascope" .
go build -o "$work/bin/ansinorm" ./scripts/ansinorm
GOBIN="$work/bin" go install "$FREEZE"

# The sessions' environment: this build first on the PATH, the local
# engine as the endpoint, no user configuration, a true-colour terminal.
session_env=(
  "PATH=$work/bin:/usr/local/bin:/usr/bin:/bin"
  "HOME=$work/home"
  "XDG_CONFIG_HOME=$work/config"
  "DYNASCOPE_CONFIG=none"
  "AWS_CONFIG_FILE=/dev/null"
  "AWS_SHARED_CREDENTIALS_FILE=/dev/null"
  "AWS_ENDPOINT_URL_DYNAMODB=$endpoint"
  "AWS_REGION=us-east-1"
  "TERM=xterm-256color"
  "COLORTERM=truecolor"
  "LANG=C.UTF-8"
)
say "seeding the demo table"
env -i "${session_env[@]}" dynascope seed --demo >/dev/null

tm new-session -d -s shots -x "$WIDTH" -y "$HEIGHT" \
  env -i "${session_env[@]}" PS1='$ ' bash --norc --noprofile
tm set-option -g status off
tm set-option -g window-size manual
tm resize-window -t shots -x "$WIDTH" -y "$HEIGHT"

keys() { tm send-keys -t shots "$@"; }
# quit_ui: ctrl+c, then until the pane's command is the shell again, so
# that the next line typed reaches bash and not a UI still closing.
quit_ui() {
  keys C-c
  local deadline=$((SECONDS + 10))
  until [ "$(tm display-message -p -t shots '#{pane_current_command}')" = bash ]; do
    [ "$SECONDS" -lt "$deadline" ] || die "the UI did not quit within 10 s of ctrl+c"
    sleep 0.1
  done
}
type_line() { tm send-keys -t shots -l "$1"; tm send-keys -t shots Enter; }
screen() { tm capture-pane -t shots -p; }

# wait_for TEXT [SECONDS]: until TEXT is on the screen (10 s at most, or
# SECONDS), then a moment for the frame to finish drawing.
wait_for() {
  local deadline=$((SECONDS + ${2:-10}))
  until screen | grep -qF -- "$1"; do
    [ "$SECONDS" -lt "$deadline" ] || { screen >&2; die "timed out waiting for: $1"; }
    sleep 0.1
  done
  sleep 0.4
}

# shot NAME [trim]: capture the pane with its colours and render it; trim
# drops the prompt and the empty rows under a shell session's output.
shot() {
  local ansi="$work/$1.ansi"
  # ansinorm: the capture's colours in the ANSI subset freeze draws right.
  tm capture-pane -t shots -e -p | "$work/bin/ansinorm" >"$ansi"
  if [ "${2:-}" = trim ]; then
    awk '{ line[NR] = $0; plain = $0; gsub(/\033\[[0-9;]*m/, "", plain)
           if (plain !~ /^(\$ *)? *$/) last = NR }
         END { for (i = 1; i <= last; i++) print line[i] }' "$ansi" >"$ansi.t"
    mv "$ansi.t" "$ansi"
  fi
  # Twice the usual font size at freeze's scale 1 (set by giving --height):
  # sharp on high-density screens at less than half the bytes of scale 4.
  # The right padding is larger because freeze places glyphs a little wider
  # than its width estimate.
  local rows
  rows=$(wc -l <"$ansi")
  "$work/bin/freeze" --language ansi --padding 40,104,40,48 --margin 0 \
    --border.radius 16 --font.size 28 --line-height 1.25 \
    --height $((rows * 35 + 90)) \
    --output "$work/$1.svg" "$ansi" >/dev/null
  rsvg-convert --output "$OUT/$1.png" "$work/$1.svg"
  chmod 644 "$OUT/$1.png"
  say "wrote $OUT/$1.png"
}

# 1. The access patterns, each run once: one request apiece, and its cost.
type_line clear
sleep 0.3
type_line 'dynascope patterns check'
wait_for 'patterns, each one request.'
shot patterns trim

# 2. The keys: CUST#42 as entity types (ORDER#, PROFILE) and its items.
type_line "clear; dynascope --table App --pk 'CUST#42'"
wait_for '= PROFILE'
wait_for ' RCU table'
shot partition

# 3. The access patterns of dynascope.yaml, listed in the UI.
keys a
wait_for 'Access patterns · '
shot patterns-view
keys q
wait_for '= PROFILE'

# 4. The latest order: ORDER, newest first, Limit 1 — one item, 0.5 RCU.
keys j
wait_for 'to   ORDER#2025-03-01#A17'
keys Enter
wait_for 'begins_with(SK, "ORDER#")          fwd'
keys r
wait_for 'ScanIndexForward=false'
keys l
wait_for 'apply Limit'
keys 1 Enter
wait_for 'Limit=1 '
shot latest-order

# 5. The large customer CUST#7: the first 1 MB page against skip-scan.
keys p
wait_for 'open partition'
keys C-u
tm send-keys -t shots -l 'CUST#7'
keys Enter
wait_for 'PK = "CUST#7"   ScanIndexForward'
wait_for 'loaded ─'
wait_for '= PROFILE' # skip-scan has found the last entity type
shot big-customer

# 6. The session's request log: what each of those requests cost.
keys L
wait_for 'requests · '
shot requests
keys q
wait_for 'loaded ─'

# 7. One of its orders: attributes, the item's size and what reading it costs.
keys Tab
sleep 0.3
keys Enter
wait_for 'Item · '
shot item

# 7b. The README's filter question: Big Corp's open orders over 1,000, kept
# of read, and what the read cost.
keys Escape
wait_for 'loaded ─'
keys f
wait_for 'FilterExpression ›'
type_line 'status = "OPEN" AND total > 1000'
wait_for 'kept '
shot filter


quit_ui

# 9. Guarded editing (--allow-writes): a status added to one of CUST#42's
# orders, shown before it is sent (typed diff, condition, 1 WCU, the aws
# command). esc leaves it unsent, so the demo table stays as seeded.
type_line "clear; dynascope --allow-writes --table App --pk 'CUST#42'"
wait_for 'loaded ─'
keys Tab
sleep 0.3
keys Down
sleep 0.3
keys E
wait_for 'Edit · '
keys a
wait_for 'new attribute'
tm send-keys -t shots -l status
keys Tab Tab
tm send-keys -t shots -l SHIPPED
keys Enter
wait_for 'status S'
keys w
wait_for 'shown before it is sent'
shot write
keys Escape
sleep 0.3
quit_ui

# 10. The index X-ray: an open order read through GSI1 (warehouse WH#1);
# its detail says which indexes hold it, with which keys, and what each
# projects.
type_line "clear; dynascope --table App --index GSI1 --pk 'WH#1'"
wait_for 'loaded ─'
keys Tab
sleep 0.3
keys Enter
wait_for 'In indexes'
shot xray
quit_ui

# 12. Follow the keys (F): an order of CUST#42 names its own partition
# ORDER#A17 in its sort key; the candidates come from the partitions seen
# (ORDER#A17 is opened first, so its family is known), each confirmed by
# one Limit 1 Query when the list opens.
type_line "clear; dynascope --table App --pk 'ORDER#A17'"
wait_for 'loaded ─'
keys p
wait_for 'open partition'
keys C-u
tm send-keys -t shots -l 'CUST#42'
keys Enter
wait_for '= PROFILE'
wait_for 'PK = "CUST#42"   ScanIndexForward'
keys Tab
sleep 0.3
keys Down
sleep 0.3
keys Enter
wait_for 'Item · '
keys F
wait_for '✓ there'
shot follow

# 13. The index map (M in the overview): the overview's sample of keys,
# then M, its caps said first, reads whole items and shows each index:
# members and share (sparse), partitions, the largest one, entity types.
keys Escape
sleep 0.3
keys Escape
wait_for 'loaded ─'
keys o
wait_for 'enter samples'
keys Enter
wait_for 'key-layout lint' 30
keys M
wait_for 'enter reads it'
keys Enter
wait_for 'entity types ' 30
shot indexmap
quit_ui

# 11. The live pane: `dynascope demo --traffic` (an engine of its own, the
# demo's writes a few a second), T on CUST#42: the writes as they arrive,
# the items pane changed in place, GetRecords apart in the log.
type_line "clear; env -u AWS_ENDPOINT_URL_DYNAMODB dynascope demo --traffic"
wait_for 'loaded ─' 90
keys T
wait_for 'live · ' 20
wait_for 'INSERT ORDER' 20
sleep 2.5
shot live
keys q
sleep 0.5
keys q
wait_for 'demo traffic: ' 30

# 8. A published model's partition (../shared/real-models, when the clone
# has it beside it): ChatSystem's User:UserA, whose sort keys are ISO
# timestamps: one value group with its range, not a "type" per hour.
model="$(cd .. && pwd)/shared/real-models/aws-dynamodb-examples/ChatSystemSchema.json"
if [ -f "$model" ]; then
  env -i "${session_env[@]}" dynascope seed --workbench "$model" >/dev/null
  sleep 0.5
  type_line "clear; dynascope --table Chat --pk 'User:UserA'"
  wait_for 'timestamp'
  wait_for ' RCU table'
  shot value-group
  quit_ui
else
  say "no ../shared/real-models beside the clone: docs/img/value-group.png is left as it is"
fi
say "done: $(ls "$OUT"/*.png | tr '\n' ' ')"
