package ui

// The table overview: a bounded, parallel, keys-only Scan of the table (or
// of the index open) and the single-table layout it shows — partition-key
// families, their sort-key entity types, the largest partitions, and the
// key-layout lint. A Scan reads the table itself, so nothing is read before
// the user has seen the caps and the bound they set, and pressed enter.

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/keys"
	"dynascope/ui/widget"
)

type overviewPhase int

const (
	ovSetup   overviewPhase = iota // the caps, editable; nothing read yet
	ovRunning                      // the sample is in flight
	ovDone                         // the layout of what was read
)

// The labels of the caps form, also the names of its fields.
const (
	capItems    = "items"
	capRCU      = "RCU"
	capSegments = "segments"
)

// overviewPane is the overview's state: the caps, the sample in flight and
// the layout it gave.
type overviewPane struct {
	phase    overviewPhase
	form     form   // the caps as the overlay left them
	cursor   int    // where the overlay's cursor was left, over families, largest partitions, findings
	err      string // why the caps were refused, or why the sample failed; sanitised
	table    string // what the sample reads
	index    string
	in       dynamo.SampleInput // the caps the sample runs with
	prog     dynamo.SampleProgress
	stopping bool           // esc was pressed: waiting for the partial sample
	logged   []sampleLogged // per sample not yet done: its requests already in the request log
	have     bool           // smp and lay hold a sample
	smp      dynamo.Sample
	lay      keys.Layout
}

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

func capsForm(items int, rcu float64, segments int) form {
	return widget.NewForm([]string{capItems, capRCU, capSegments},
		[]string{strconv.Itoa(items), fmtRCU(rcu), strconv.Itoa(segments)})
}

// parseCaps reads the caps form; the error is a sentence for the user.
func parseCaps(f form) (dynamo.SampleInput, error) {
	var in dynamo.SampleInput
	items, err := strconv.Atoi(strings.TrimSpace(f.Value(capItems)))
	if err != nil || items < 1 {
		return in, fmt.Errorf("items must be a whole number of 1 or more, not %q", f.Value(capItems))
	}
	rcu, err := strconv.ParseFloat(strings.TrimSpace(f.Value(capRCU)), 64)
	if err != nil || !(rcu >= 0.5) || math.IsInf(rcu, 0) {
		return in, fmt.Errorf("RCU must be a number of at least 0.5 (the cost of one page), not %q", f.Value(capRCU))
	}
	segs, err := strconv.Atoi(strings.TrimSpace(f.Value(capSegments)))
	if err != nil || segs < 1 || segs > dynamo.MaxSampleSegments {
		return in, fmt.Errorf("segments must be a whole number from 1 to %d, not %q", dynamo.MaxSampleSegments, f.Value(capSegments))
	}
	return dynamo.SampleInput{MaxItems: items, MaxRCU: rcu, Segments: segs}, nil
}

// startSample sends a sample with the caps in.
func (m Model) startSample(in dynamo.SampleInput) (Model, tea.Cmd) {
	in.Table, in.Index = m.overview.table, m.overview.index
	id, ctx := m.flight.start(m.ctx, flightSample)
	m.overview.phase, m.overview.in, m.overview.err, m.overview.stopping = ovRunning, in, "", false
	m.overview.logged = append(slices.Clip(m.overview.logged), sampleLogged{id: id})
	m.overview.prog = dynamo.SampleProgress{MaxItems: in.MaxItems, MaxRCU: in.MaxRCU, Segments: in.Segments}
	m.status.err, m.status.info = "", ""
	return m, tea.Batch(sampleCmd(m.observe(ctx, id), m.store, m.send, id, in), m.after(id))
}

// sampleLogged counts a sample's requests already in the request log.
type sampleLogged struct{ id, n int }

// loggedOf is the index of sample id's count in logged, or -1.
func loggedOf(logged []sampleLogged, id int) int {
	return slices.IndexFunc(logged, func(l sampleLogged) bool { return l.id == id })
}

// sampleProgress shows how far the sample has got, and logs the Scan each
// report follows as it comes, so the log fills while the sample runs (also
// for a sample stopped but not yet done).
func (m Model) sampleProgress(msg sampleProgressMsg) Model {
	if m.flight.live(msg.id, flightSample) {
		m.overview.prog = msg.p
	}
	if i := loggedOf(m.overview.logged, msg.id); i >= 0 && msg.p.Request.Operation != "" && msg.p.Requests == m.overview.logged[i].n+1 {
		m.log = m.log.add(msg.p.Request, "sample", 1, reqInput{})
		m.overview.logged = slices.Clone(m.overview.logged) // another copy of the model may hold the old counts
		m.overview.logged[i].n++
	}
	return m
}

// sampleDone logs the Scans of the sample that no progress report logged,
// then shows the layout of what it read — all of it, or what it got before
// it was stopped or failed.
func (m Model) sampleDone(msg sampleDoneMsg) (Model, tea.Cmd) {
	from := 0
	if i := loggedOf(m.overview.logged, msg.id); i >= 0 {
		from = min(m.overview.logged[i].n, len(msg.smp.Requests))
		m.overview.logged = slices.Delete(slices.Clone(m.overview.logged), i, i+1)
	}
	for _, r := range msg.smp.Requests[from:] {
		m.log = m.log.add(r, "sample", 1, reqInput{})
	}
	if !m.flight.waits(flightSample, msg.id) {
		return m, nil
	}
	m.flight.stop(flightSample)
	m.status.clearRetry(msg.id)
	m.settle()
	m.status.throttle = throttled(msg.err)
	m.overview.stopping = false
	if msg.err != nil && msg.smp.Stop != dynamo.StopCancelled {
		m.overview.err = sanitize(msg.err.Error())
	}
	if len(msg.smp.Items) == 0 && msg.smp.Stop != dynamo.StopComplete {
		// Nothing to show: back to the caps, with what went wrong.
		m.overview.phase = ovSetup
		if m.overview.err == "" {
			m.overview.err = "stopped before any item was read."
		}
		return m, nil
	}
	m.overview.phase, m.overview.have = ovDone, true
	m.overview.smp, m.overview.lay = msg.smp, msg.lay
	m.overview.cursor = 0
	if o, ok := findOverlay[overviewOverlay](m); ok {
		o.cursor = 0
		m = replaceOverlay(m, o)
	}
	return m, nil
}

// overviewRows is how many rows the cursor moves over: families, largest
// partitions, findings.
func (o overviewPane) rows() int {
	return len(o.lay.Families) + len(o.lay.Largest) + len(o.lay.Findings)
}

// partitionAt is the partition a row opens: a family's largest, a largest
// partition, a finding's example.
func (o overviewPane) partitionAt(row int) (string, bool) {
	nf, nl := len(o.lay.Families), len(o.lay.Largest)
	switch {
	case row < 0:
	case row < nf:
		return o.lay.Families[row].Largest.PK, true
	case row < nf+nl:
		return o.lay.Largest[row-nf].PK, true
	case row < o.rows():
		return o.lay.Findings[row-nf-nl].Example.PK, true
	}
	return "", false
}

// fmtDollars is a small amount of money to three significant digits,
// without an exponent: $0.00000025.
func fmtDollars(v float64) string {
	if v <= 0 {
		return "$0"
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	return "$" + strconv.FormatFloat(r, 'f', -1, 64)
}

// costText is what rcu read request units cost on demand at the settings'
// price, "" when no price is set: DynamoDB charges on-demand reads in read
// request units, the same units ConsumedCapacity reports.
func (m Model) costText(rcu float64) string {
	p := m.opts.Settings.PricePerMillionReads
	if p <= 0 {
		return ""
	}
	return "≈ " + fmtDollars(rcu*p/1e6) + " on-demand"
}
