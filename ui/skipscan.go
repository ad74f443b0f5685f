package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/keys"
	"dynascope/ui/pane"
	"dynascope/ui/request"
)

// discoverRequestMsg brings one request of skip-scan id to the request log
// and the session total as soon as it completes.
type discoverRequestMsg struct {
	id int
	r  dynamo.Request
}

// discoverGroupMsg brings one type the skip-scan id completed to the
// groups pane as soon as it is found.
type discoverGroupMsg struct {
	id int
	g  keys.Group
}

// discoverDoneMsg answers discoverCmd with everything the skip-scan found
// and every request it sent, even when it failed part way.
type discoverDoneMsg struct {
	id  int
	d   dynamo.Discovery
	err error
}

func discoverCmd(ctx context.Context, s Store, send *sender, id int, in dynamo.DiscoverInput) tea.Cmd {
	return func() tea.Msg {
		if send != nil && send.connected() {
			in.OnRequest = func(r dynamo.Request) { send.deliver(discoverRequestMsg{id: id, r: r}) }
			in.OnGroup = func(g keys.Group) { send.deliver(discoverGroupMsg{id: id, g: g}) }
		}
		d, err := s.Discover(ctx, in)
		return discoverDoneMsg{id: id, d: d, err: err}
	}
}

// scanBudget is what the skip-scan of the partition q opens may spend: the
// settings' request cap, and, once the first page p came back full (stopped
// by its 1 MB, not by a Limit), a tenth of what that page cost, so finding
// the types never costs more than a small share of reading them.
func (m Model) scanBudget(q dynamo.QueryInput, p dynamo.Page) dynamo.Budget {
	b := dynamo.Budget{MaxRequests: m.opts.Settings.SkipScanMaxRequests}
	full := p.LastEvaluatedKey != nil && (q.Limit == 0 || int32(len(p.Items)) < q.Limit)
	if full && p.Request.Capacity.Total > 0 {
		b.MaxRCU = dynamo.SkipScanShareOfPage * p.Request.Capacity.Total
	}
	return b
}

// discoverRequest logs one skip-scan request as it completes.
func (m Model) discoverRequest(msg discoverRequestMsg) Model {
	m.log = m.log.Add(msg.r, "skip-scan", 1, request.Input{})
	if m.flight.waits(flightDiscover, msg.id) {
		m.groups.scanLogged++
		m.groups.scanReqs++
		m.groups.scanCap = m.groups.scanCap.Add(msg.r.Capacity)
	}
	return m
}

// discoverGroup lists a type of the running skip-scan as it is found.
func (m Model) discoverGroup(msg discoverGroupMsg) Model {
	if m.flight.waits(flightDiscover, msg.id) {
		m.groups = m.groups.arrived(msg.g, m.delim)
		m.noteTypeColours()
	}
	return m
}

// startDiscover runs the skip-scan of the partition q opens, once its first
// page p has shown that the partition is bigger than a page. The walk goes
// on after p's last key, so no item p holds is read again. A key without
// sort key has no types to find.
func (m Model) startDiscover(q dynamo.QueryInput, p dynamo.Page, b dynamo.Budget) (Model, tea.Cmd) {
	m.flight.stop(flightDiscover)
	if m.schema.SK == nil {
		return m, nil
	}
	id, ctx := m.flight.start(m.ctx, flightDiscover)
	m.groups.finding = true
	m.groups.scanLogged, m.groups.scanReqs, m.groups.scanCap = 0, 0, dynamo.Capacity{}
	in := dynamo.DiscoverInput{Table: q.Table, Index: q.Index, PK: q.PK, Delimiter: m.delim, Budget: b}
	if !q.Reverse {
		in.First = &p // the walk is forward: it starts past this page
	}
	return m, tea.Batch(discoverCmd(m.observe(ctx, id), m.store, m.send, id, in), m.after(id))
}

// discoverDone logs the requests of the skip-scan not logged as they came,
// then, unless the partition changed meanwhile, lists the types it found.
func (m Model) discoverDone(msg discoverDoneMsg) (Model, tea.Cmd) {
	logged := 0
	if m.flight.waits(flightDiscover, msg.id) {
		logged = min(m.groups.scanLogged, len(msg.d.Requests))
	}
	for _, r := range msg.d.Requests[logged:] {
		m.log = m.log.Add(r, "skip-scan", 1, request.Input{})
	}
	if !m.flight.waits(flightDiscover, msg.id) {
		return m, nil // cancelled or another partition: logged, not shown
	}
	m.flight.stop(flightDiscover)
	m.status.ClearRetry(msg.id)
	m.settle()
	m.groups.finding = false
	m.groups.scanReqs, m.groups.scanCap = len(msg.d.Requests), msg.d.Capacity()
	m.groups.more, m.groups.resume, m.groups.until = msg.d.Partial, msg.d.Continue, msg.d.Until
	m.groups.stepped = msg.d.SteppedNote()
	if msg.err != nil {
		m.groups.scanErr = true
		m.status.Err = sanitize(msg.err.Error())
		m.status.Throttle = pane.Throttled(msg.err)
		return m, nil
	}
	if m.delim == "" {
		m.delim = msg.d.Delimiter
	}
	m.groups = m.groups.discovered(msg.d, m.delim)
	switch {
	case msg.d.Partial:
		m.status.Info = "skip-scan budget spent: more types may follow from SK " + resumeText(msg.d.Continue) + untilText(msg.d.Until)
	case m.groups.stepped != "":
		m.status.Info = m.groups.stepped
	}
	m.noteTypeColours()
	m.groups.active = m.groups.rowFor(m.results.q.SK)
	return m, nil
}
