package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/keys"
	"dynascope/ui/overlay"
	"dynascope/ui/request"
)

// The live pane's plumbing: T on a partition tails the table's stream
// (dynamo.StreamClient) on a goroutine of its own; each GetRecords's
// records come back as a message, the partition's lines join the pane and
// its items change in place in the items pane, without a re-query.

var _ LiveStream = (*dynamo.StreamClient)(nil)

// maxLiveLines bounds the pane's memory: a tail left open for hours keeps
// the newest lines only.
const maxLiveLines = 500

// liveMarkFor is how long a changed item stays marked in the items pane.
const liveMarkFor = 2 * time.Second

// liveMarkDoneMsg ends the mark of generation gen.
type liveMarkDoneMsg struct{ gen int }

type liveStartedMsg struct {
	id   int
	info dynamo.StreamInfo
	ch   <-chan liveEvent
	err  error
}

type liveEventMsg struct {
	id int
	ev liveEvent
}

// liveStartCmd describes the table's stream and starts the tail.
func liveStartCmd(ctx context.Context, s LiveStream, table string, id int) tea.Cmd {
	return func() tea.Msg {
		info, err := s.Stream(ctx, table)
		if err != nil {
			return liveStartedMsg{id: id, err: err}
		}
		ch := make(chan liveEvent, 64)
		send := func(ev liveEvent) bool {
			select {
			case ch <- ev:
				return true
			case <-ctx.Done():
				return false
			}
		}
		go func() {
			err := s.Tail(ctx, info, dynamo.TailOptions{From: dynamo.TailLatest,
				OnRequest: func(r dynamo.Request) { send(liveEvent{req: &r}) },
				OnNotice:  func(n dynamo.TailNotice) { send(liveEvent{notice: &n}) }},
				func(recs []dynamo.StreamRecord) error {
					send(liveEvent{recs: recs})
					return nil
				})
			if dynamo.IsTailEnd(err) && ctx.Err() != nil {
				err = nil
			}
			send(liveEvent{end: true, err: err})
		}()
		return liveStartedMsg{id: id, info: info, ch: ch}
	}
}

// liveNextCmd waits for the tail's next event.
func liveNextCmd(id int, ch <-chan liveEvent) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			ev = liveEvent{end: true}
		}
		return liveEventMsg{id: id, ev: ev}
	}
}

// openLive opens the pane, starting the tail when none runs.
func (m Model) openLive() (Model, tea.Cmd) {
	if m.opts.Streams == nil {
		m.status.Err = "the live pane needs DynamoDB Streams, which this connection does not offer."
		return m, nil
	}
	m = m.push(overlay.Live{})
	if m.live.id != 0 {
		return m, nil
	}
	ctx, cancel := context.WithCancel(m.ctx)
	m.live = liveState{id: m.flight.newID(), cancel: cancel, starting: true}
	return m, liveStartCmd(ctx, m.opts.Streams, m.table.Name, m.live.id)
}

// stopLive ends the tail; its lines stay for the next opening.
func (m Model) stopLive() Model {
	if m.live.cancel != nil {
		m.live.cancel()
	}
	m.live.id, m.live.cancel, m.live.ch = 0, nil, nil
	return m
}

func (m Model) liveStarted(msg liveStartedMsg) (Model, tea.Cmd) {
	if msg.id != m.live.id {
		return m, nil
	}
	m.live.starting = false
	if msg.err != nil {
		m.live.err = sanitize(msg.err.Error())
		return m.stopLive(), nil
	}
	m.live.info, m.live.ch, m.live.err = msg.info, msg.ch, ""
	return m, liveNextCmd(msg.id, msg.ch)
}

func (m Model) liveEvent(msg liveEventMsg) (Model, tea.Cmd) {
	if msg.id != m.live.id {
		return m, nil
	}
	ev := msg.ev
	switch {
	case ev.end:
		if ev.err != nil {
			m.live.err = sanitize(ev.err.Error())
		}
		return m.stopLive(), nil
	case ev.notice != nil:
		// What the stream's checks left out joins the pane as a line of its
		// own (sanitised by the tail), and the status says it.
		m.live.lines = append(m.live.lines, liveLine{Text: "! " + ev.notice.Text})
		if n := len(m.live.lines); n > maxLiveLines {
			m.live.lines = slices.Clone(m.live.lines[n-maxLiveLines:])
		}
		m.status.Info = "live: " + ev.notice.Counts.String()
	case ev.req != nil:
		if ev.req.Operation == "GetRecords" {
			m.live.polls++
		}
		// An idle shard answers empty once a second: the log keeps the
		// stream requests that brought records or set the tail up, under
		// their own kind; the pane counts every GetRecords.
		if ev.req.Operation != "GetRecords" || ev.req.Count > 0 || ev.req.Err != nil {
			m.log = m.log.Add(*ev.req, "stream", 1, request.Input{})
		}
	default:
		before := m.live.markGen
		m = m.liveRecords(ev.recs)
		if gen := m.live.markGen; gen != before {
			return m, tea.Batch(liveNextCmd(msg.id, m.live.ch),
				tea.Tick(liveMarkFor, func(time.Time) tea.Msg { return liveMarkDoneMsg{gen: gen} }))
		}
	}
	return m, liveNextCmd(msg.id, m.live.ch)
}

// liveMarkDone clears the mark of a changed item, unless a later record
// marked another meanwhile.
func (m Model) liveMarkDone(msg liveMarkDoneMsg) Model {
	if msg.gen == m.live.markGen {
		m.items.Changed = ""
	}
	return m
}

// liveRecords adds the partition's records to the pane and applies their
// images to the items pane.
func (m Model) liveRecords(recs []dynamo.StreamRecord) Model {
	info := m.live.info
	// Named by the types pane beside it: the live pane is the partition's,
	// and its rows are the partition's names (the same for the whole batch).
	names := m.groups.keyNames(m.delim)
	applied := false
	for _, r := range recs {
		if r.Event == "REMOVE" {
			m.items = m.items.Unmark(r.Keys) // the item is gone, in whichever partition
		}
		if info.PartitionKey(r) != m.query.PK || m.query.Index != "" {
			m.live.others++
			continue
		}
		m.live.seen++
		sk := info.SortKey(r)
		entity := names.Marked(sk) // ~ when declarations are in use and none matches
		if m.schema.SK == nil {
			entity = keys.FamilyEntity(info.PartitionKey(r), info.PK.Type)
		}
		line := liveLine{Text: info.StreamLine(r, entity), Colour: m.colourOf(sk), Mine: m.writtenHere(r.Keys)}
		m.live.lines = append(m.live.lines, line)
		if n := len(m.live.lines); n > maxLiveLines {
			m.live.lines = slices.Clone(m.live.lines[n-maxLiveLines:])
		}
		var ok bool
		if m.items, ok = m.items.ApplyRecord(r, m.schema, m.query, m.results.more(), m.layout().itemsW); ok {
			applied = true
			m.status.Info = fmt.Sprintf("live: %s %s", r.Event, sanitize(sk))
			if r.Event != "REMOVE" && m.schema.SK != nil {
				m.items.Changed, m.items.ChangedAttr = sk, m.schema.SK.Name
				m.live.markGen++
			}
		}
	}
	if applied {
		m = m.recountLoaded()
	}
	return m
}

// recountLoaded gives the types pane the counts of the items loaded now,
// after live records changed them: the pane counts the whole-partition
// read's items, and a record applied to the items pane (which holds the
// whole read then: ApplyRecord says so) changes what that read holds. A
// count of the partition from a COUNT is outrun by the same records.
func (m Model) recountLoaded() Model {
	if !m.results.base {
		return m
	}
	items, ok := m.items.Store.All()
	if !ok {
		return m
	}
	m.groups = m.groups.reset(m.query.PK, items, m.items.KeyName, m.delim, m.results.more(), m.query.Reverse)
	m.groups.partExact = -1
	if !m.results.more() {
		// The whole partition is loaded: its items are the exact counts now,
		// and a type's own COUNT, read before the records, is outrun.
		for _, r := range m.groups.types() {
			if r.Count >= 0 {
				m.groups.tbl = m.groups.tbl.Counted(r.ID(), r.Loaded)
			}
		}
	}
	return m
}

// writtenHere tells a record of an item this session's editor wrote: its
// key is that of a write in the request log (the journal's entries of this
// session). A write by someone else to the same item since is not told
// apart: the stream does not say who wrote.
func (m Model) writtenHere(keys dynamo.Item) bool {
	if m.opts.Editor == nil {
		return false
	}
	k := edit.KeyText(m.table, keys, nil)
	for i := len(m.log.Reqs) - 1; i >= 0; i-- {
		r := m.log.Reqs[i]
		if m.log.Kinds[i] != "write" || r.Err != nil || r.Table != m.table.Name {
			continue
		}
		if slices.Contains(strings.Split(r.KeyCondition, " → "), k) {
			return true
		}
	}
	return false
}
