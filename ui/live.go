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

// LiveStream is what the live pane needs from DynamoDB Streams;
// *dynamo.StreamClient satisfies it. Both only read.
type LiveStream interface {
	Stream(ctx context.Context, table string) (dynamo.StreamInfo, error)
	Tail(ctx context.Context, info dynamo.StreamInfo, o dynamo.TailOptions, emit func([]dynamo.StreamRecord) error) error
}

var _ LiveStream = (*dynamo.StreamClient)(nil)

// maxLiveLines bounds the pane's memory: a tail left open for hours keeps
// the newest lines only.
const maxLiveLines = 500

// liveLine is one record as the pane shows it (the overlay draws them).
type liveLine = overlay.LiveLine

// liveState is the tail of one opening of the pane; it outlives the
// overlay's value because replies change it.
type liveState struct {
	id       int // of the tail running; 0 for none
	cancel   context.CancelFunc
	info     dynamo.StreamInfo
	ch       <-chan liveEvent
	lines    []liveLine // the newest last, at most maxLiveLines
	seen     int        // records of the partition
	polls    int        // GetRecords sent
	others   int        // records of other partitions, left out
	err      string
	starting bool
	markGen  int // of the latest mark on a changed item; its tick clears only its own
}

// liveMarkFor is how long a changed item stays marked in the items pane.
const liveMarkFor = 2 * time.Second

// liveMarkDoneMsg ends the mark of generation gen.
type liveMarkDoneMsg struct{ gen int }

// liveEvent is what the tail's goroutine hands over: records, a request, a
// notice of what the stream's checks left out, or its end.
type liveEvent struct {
	recs   []dynamo.StreamRecord
	req    *dynamo.Request
	notice *dynamo.TailNotice
	err    error
	end    bool
}

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
		m.status.err = "the live pane needs DynamoDB Streams, which this connection does not offer."
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
		m.status.info = "live: " + ev.notice.Counts.String()
	case ev.req != nil:
		if ev.req.Operation == "GetRecords" {
			m.live.polls++
		}
		// An idle shard answers empty once a second: the log keeps the
		// stream requests that brought records or set the tail up, under
		// their own kind; the pane counts every GetRecords.
		if ev.req.Operation != "GetRecords" || ev.req.Count > 0 || ev.req.Err != nil {
			m.log = m.log.add(*ev.req, "stream", 1, request.Input{})
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
		m.items.changed = ""
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
	for _, r := range recs {
		if info.PartitionKey(r) != m.query.PK || m.query.Index != "" {
			m.live.others++
			continue
		}
		m.live.seen++
		sk := info.SortKey(r)
		entity := names.Name(sk)
		if m.schema.SK == nil {
			entity = keys.FamilyEntity(info.PartitionKey(r), info.PK.Type)
		}
		line := liveLine{Text: info.StreamLine(r, entity), Colour: m.colourOf(sk), Mine: m.writtenHere(r.Keys)}
		m.live.lines = append(m.live.lines, line)
		if n := len(m.live.lines); n > maxLiveLines {
			m.live.lines = slices.Clone(m.live.lines[n-maxLiveLines:])
		}
		var ok bool
		if m.items, ok = m.items.applyRecord(r, m.schema, m.query, m.results.more(), m.layout().itemsW); ok {
			m.status.info = fmt.Sprintf("live: %s %s", r.Event, sanitize(sk))
			if r.Event != "REMOVE" && m.schema.SK != nil {
				m.items.changed, m.items.changedAttr = sk, m.schema.SK.Name
				m.live.markGen++
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
	for i := len(m.log.reqs) - 1; i >= 0; i-- {
		r := m.log.reqs[i]
		if m.log.kinds[i] != "write" || r.Err != nil || r.Table != m.table.Name {
			continue
		}
		if slices.Contains(strings.Split(r.KeyCondition, " → "), k) {
			return true
		}
	}
	return false
}

// applyRecord changes the loaded items as a write did, from its images: a
// MODIFY replaces the item where it is, a REMOVE takes it out, an INSERT
// goes in key order when the request would have read it (no sort-key
// condition or filter, and within what is loaded). Only while every loaded
// page is in memory; ok says whether anything changed.
func (p itemsPane) applyRecord(r dynamo.StreamRecord, ks dynamo.KeySchema, q dynamo.QueryInput, more bool, w int) (itemsPane, bool) {
	if p.store.inMemory != p.store.total || ks.SK == nil {
		return p, false
	}
	items := make([]dynamo.Item, 0, p.store.total+1)
	for row := range p.store.total {
		it, ok := p.store.item(row)
		if !ok {
			return p, false
		}
		items = append(items, it)
	}
	skOf := func(it dynamo.Item) string { return keyOf(it, ks.SK.Name) }
	want := keyOf(r.Keys, ks.SK.Name)
	at := slices.IndexFunc(items, func(it dynamo.Item) bool { return skOf(it) == want })
	switch {
	case r.Event == "REMOVE" && at >= 0:
		items = slices.Delete(items, at, at+1)
	case r.New != nil && at >= 0:
		items[at] = r.New
	case r.Event == "INSERT" && r.New != nil && q.SK.Op == dynamo.SKNone && q.Filter == "":
		cmp := func(a string) int { return keys.CompareKeys(a, want, ks.SK.Type) }
		if q.Reverse {
			cmp = func(a string) int { return -keys.CompareKeys(a, want, ks.SK.Type) }
		}
		pos := slices.IndexFunc(items, func(it dynamo.Item) bool { return cmp(skOf(it)) > 0 })
		if pos < 0 {
			if more {
				return p, false // it belongs to a page not read yet
			}
			pos = len(items)
		}
		items = slices.Insert(items, pos, r.New)
	default:
		return p, false
	}
	p.store, p.stats = itemStore{}.withNames(), colStats{}
	p = p.addPage(items, nil, 1)
	p.list = p.list.SetLen(len(items))
	p = p.rescan()
	return p.relayout(w), true
}
