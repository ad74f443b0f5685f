package ui

// The table overview: a bounded, parallel, keys-only Scan of the table (or
// of the index open) and the single-table layout it shows — partition-key
// families, their sort-key entity types, the largest partitions, and the
// key-layout lint. A Scan reads the table itself, so nothing is read before
// the user has seen the caps and the bound they set, and pressed enter.
// The index map's Scan (ui/overlay's indexmap.go) is sent and answered here too.

import (
	"context"
	"slices"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/indexes"
	"dynascope/keys"
	"dynascope/ui/overlay"
	"dynascope/ui/pane"
	"dynascope/ui/request"
)

// sampleProgressMsg reports how far sample id has got; it comes from the
// sample's goroutines through the program's sender.
type sampleProgressMsg struct {
	id int
	p  dynamo.SampleProgress
}

// sampleDoneMsg answers sampleCmd: what was read (also when cancelled or
// failed part way), its layout, and every request it sent.
type sampleDoneMsg struct {
	id  int
	smp dynamo.Sample
	lay keys.Layout
	err error
}

// sampleCmd samples in and reconstructs the layout off the UI goroutine.
// Progress goes through send as sampleProgressMsg.
func sampleCmd(ctx context.Context, s Store, send *sender, id int, in dynamo.SampleInput) tea.Cmd {
	return func() tea.Msg {
		in.Progress = func(p dynamo.SampleProgress) { send.deliver(sampleProgressMsg{id: id, p: p}) }
		smp, err := s.Sample(ctx, in)
		return sampleDoneMsg{id: id, smp: smp, lay: smp.Layout(keys.DefaultLargest), err: err}
	}
}

// startSample sends a sample with the caps in.
func (m Model) startSample(in dynamo.SampleInput) (Model, tea.Cmd) {
	in.Table, in.Index = m.overview.Table, m.overview.Index
	id, ctx := m.flight.start(m.ctx, flightSample)
	m.overview.Phase, m.overview.In, m.overview.Err, m.overview.Stopping = overlay.OvRunning, in, "", false
	m.sampled = append(slices.Clip(m.sampled), sampleLogged{id: id})
	m.overview.Prog = dynamo.SampleProgress{MaxItems: in.MaxItems, MaxRCU: in.MaxRCU, Segments: in.Segments}
	m.status.Err, m.status.Info = "", ""
	return m, tea.Batch(sampleCmd(m.observe(ctx, id), m.store, m.send, id, in), m.after(id))
}

// loggedOf is the index of sample id's count in logged, or -1.
func loggedOf(logged []sampleLogged, id int) int {
	return slices.IndexFunc(logged, func(l sampleLogged) bool { return l.id == id })
}

// sampleProgress shows how far the sample has got, and logs the Scan each
// report follows as it comes, so the log fills while the sample runs (also
// for a sample stopped but not yet done).
func (m Model) sampleProgress(msg sampleProgressMsg) Model {
	if m.flight.live(msg.id, flightSample) {
		m.overview.Prog = msg.p
	}
	if i := loggedOf(m.sampled, msg.id); i >= 0 && msg.p.Request.Operation != "" && msg.p.Requests == m.sampled[i].n+1 {
		m.log = m.log.Add(msg.p.Request, "sample", 1, request.Input{})
		m.sampled = slices.Clone(m.sampled) // another copy of the model may hold the old counts
		m.sampled[i].n++
	}
	return m
}

// sampleDone logs the Scans of the sample that no progress report logged,
// then shows the layout of what it read — all of it, or what it got before
// it was stopped or failed.
func (m Model) sampleDone(msg sampleDoneMsg) (Model, tea.Cmd) {
	from := 0
	if i := loggedOf(m.sampled, msg.id); i >= 0 {
		from = min(m.sampled[i].n, len(msg.smp.Requests))
		m.sampled = slices.Delete(slices.Clone(m.sampled), i, i+1)
	}
	for _, r := range msg.smp.Requests[from:] {
		m.log = m.log.Add(r, "sample", 1, request.Input{})
	}
	if !m.flight.waits(flightSample, msg.id) {
		return m, nil
	}
	m.flight.stop(flightSample)
	m.status.ClearRetry(msg.id)
	m.settle()
	m.status.Throttle = pane.Throttled(msg.err)
	m.overview.Stopping = false
	if msg.err != nil && msg.smp.Stop != dynamo.StopCancelled {
		m.overview.Err = sanitize(msg.err.Error())
	}
	if len(msg.smp.Items) == 0 && msg.smp.Stop != dynamo.StopComplete {
		// Nothing to show: back to the caps, with what went wrong.
		m.overview.Phase = overlay.OvSetup
		if m.overview.Err == "" {
			m.overview.Err = "stopped before any item was read."
		}
		return m.samplePrompted(), nil
	}
	m.overview.Phase, m.overview.Have = overlay.OvDone, true
	m.overview.Smp, m.overview.Lay = msg.smp, msg.lay
	m.overview.Cursor = 0
	if o, ok := findOverlay[overlay.Overview](m); ok {
		m = replaceOverlay(m, o.AtStart())
	}
	return m.samplePrompted(), nil
}

// samplePrompted offers a sample's partitions in the prompt shown, once the
// sample ends (also when it read nothing: the prompt says why).
func (m Model) samplePrompted() Model {
	if m.screen == screenPrompt {
		m.prompt = m.prompt.WithSample(m.promptSample())
	}
	return m
}

// indexMapDoneMsg answers the map's Scan.
type indexMapDoneMsg struct {
	id    int
	items []dynamo.Item
	res   dynamo.ScanResult
	err   error
}

// scanIndexMap sends the map's Scan; the overlay knows it by its id.
func (m Model) scanIndexMap(a overlay.ScanIndexMap) (Model, tea.Cmd) {
	o, ok := findOverlay[overlay.IndexMap](m)
	if !ok {
		return m, nil
	}
	id := m.flight.newID()
	o = o.Sent(id)
	store, ctx := m.store, m.observe(m.ctx, id)
	cmd := func() tea.Msg {
		items, res, err := dynamo.SampleItems(ctx, store.Scan, a.Table, a.MaxItems, a.MaxRCU)
		return indexMapDoneMsg{id: id, items: items, res: res, err: err}
	}
	return replaceOverlay(m, o), cmd
}

// indexMapDone logs the Scan's requests and shows the map.
func (m Model) indexMapDone(msg indexMapDoneMsg) (Model, tea.Cmd) {
	for i, r := range msg.res.Requests {
		m.log = m.log.Add(r, "index map", i+1, request.Input{})
	}
	o, ok := findOverlay[overlay.IndexMap](m)
	if !ok || o.Req() != msg.id {
		return m, nil
	}
	why := ""
	if msg.err != nil {
		why = sanitize(msg.err.Error())
	}
	o = o.Done(indexes.Compute(m.table, msg.items, m.declaredOnTable()), msg.res.Capacity().Total, len(msg.res.Requests), string(msg.res.Stop), why)
	return replaceOverlay(m, o), nil
}
