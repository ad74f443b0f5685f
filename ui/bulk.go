package ui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/partiql"
	"dynascope/ui/overlay"
	"dynascope/ui/request"
)

// The root's side of a bulk read (ui/overlay's bulk.go is the overlay): the
// commands that plan and send a Scan or a PartiQL SELECT with the ids the
// root hands out, and the handlers of their replies, which log every
// request and give the overlay what was read.

// bulkPlannedMsg answers bulkPlanCmd: the table's description and, for
// PartiQL, the plan.
type bulkPlannedMsg struct {
	id   int
	plan partiql.Plan
	desc dynamo.Table
	err  error
}

// bulkDoneMsg answers bulkRunCmd with what was read, even when stopped.
type bulkDoneMsg struct {
	id      int
	items   []dynamo.Item
	count   int
	scanned int
	reqs    []dynamo.Request
	stop    dynamo.StopReason
	err     error
	// resume and nextToken: where it would go on (ScanResult.Resume,
	// PartiQLResult.NextToken).
	resume    map[int]dynamo.Item
	nextToken string
}

// bulkPlanCmd plans the read in asks for: a SELECT's plan, or a Scan's
// filter and projection checked, then its table described.
func bulkPlanCmd(ctx context.Context, s Store, id int, in request.Input) tea.Cmd {
	return func() tea.Msg {
		msg := bulkPlannedMsg{id: id}
		var table string
		if in.Scan == nil {
			msg.plan, msg.err = s.PlanPartiQL(ctx, in.Stmt)
			if msg.err != nil {
				return msg
			}
			table = msg.plan.Table
		} else if err := dynamo.CheckShape(in.Scan.Filter, in.Scan.Project); err != nil {
			msg.err = err
			return msg
		} else {
			table = in.Scan.Table
		}
		msg.desc, msg.err = s.DescribeTable(ctx, table)
		return msg
	}
}

// bulkPageMsg reports one page of a read in flight as it completes, so
// that the overlay and the request log count each request then, not only
// at the end.
type bulkPageMsg struct {
	id    int
	items int
	req   dynamo.Request
}

// bulkRunCmd sends the read r asks for, reporting each page through send.
func bulkRunCmd(ctx context.Context, s Store, send *sender, id int, r overlay.RunBulk) tea.Cmd {
	return func() tea.Msg {
		msg := bulkDoneMsg{id: id}
		page := func(p dynamo.Page) {
			msg.items = append(msg.items, p.Items...)
			send.deliver(bulkPageMsg{id: id, items: len(p.Items), req: p.Request})
		}
		if r.PartiQL != nil {
			in := *r.PartiQL
			in.OnPage = func(p dynamo.Page) error { page(p); return nil }
			res, err := s.RunPartiQL(ctx, in)
			msg.count, msg.scanned, msg.reqs, msg.stop, msg.err, msg.nextToken = res.Count, -1, res.Requests, res.Stop, err, res.NextToken
			return msg
		}
		in := *r.Scan
		in.OnPage = func(p dynamo.ScanPage) error { page(p.Page); return nil }
		res, err := s.Scan(ctx, in)
		msg.count, msg.scanned, msg.reqs, msg.stop, msg.err, msg.resume = res.Count, res.Scanned, res.Requests, res.Stop, err, res.Resume
		return msg
	}
}

// bulkPlanned shows the plan and the bound, waiting for a yes.
func (m Model) bulkPlanned(msg bulkPlannedMsg) Model {
	o, ok := findOverlay[overlay.Bulk](m)
	if !ok || !m.flight.waits(flightBulk, msg.id) {
		return m
	}
	m.flight.stop(flightBulk)
	return replaceOverlay(m, o.Planned(msg.plan, msg.desc, msg.err))
}

// bulkDone shows what was read and logs every request, the last with what
// was predicted beside what it cost.
func (m Model) bulkDone(msg bulkDoneMsg) Model {
	o, open := findOverlay[overlay.Bulk](m)
	for i, r := range msg.reqs {
		if open && m.flight.waits(flightBulk, msg.id) && i < o.Logged() {
			continue // logged as it completed (bulkPage)
		}
		kind, in := "Scan", request.Input{}
		if open {
			kind, in = o.LogKind(i == len(msg.reqs)-1, msg.reqs), o.Input()
		}
		m.log = m.log.Add(r, kind, i+1, in)
	}
	if !open || !m.flight.waits(flightBulk, msg.id) {
		return m
	}
	m.flight.stop(flightBulk)
	read := overlay.BulkRead{Items: msg.items, Count: msg.count, Scanned: msg.scanned, Reqs: msg.reqs, Stop: msg.stop,
		Resume: msg.resume, NextToken: msg.nextToken}
	if msg.err != nil {
		var over *dynamo.EstimateError
		var capped *dynamo.CapStop
		// The UI has no --max-rcu: its way on is n, under the same bound.
		switch {
		case errors.As(msg.err, &over):
			over.Kept, over.Next, over.Resume = "what was read is shown", "press n, which reads on up to the same bound again", ""
		case errors.As(msg.err, &capped):
			capped.Next = "press n (up to the same limit again)"
		}
		read.Err = sanitize(msg.err.Error())
	}
	return replaceOverlay(m, o.Done(read))
}

// bulkPage counts and logs one page of the read in flight as it completes.
func (m Model) bulkPage(msg bulkPageMsg) Model {
	o, ok := findOverlay[overlay.Bulk](m)
	if !ok || !m.flight.waits(flightBulk, msg.id) {
		return m
	}
	o, log := o.Paged(msg.items, msg.req.More)
	if log {
		// The last page is logged at the end, with the prediction beside it.
		m.log = m.log.Add(msg.req, o.PageKind(), o.Logged(), o.Input())
	}
	return replaceOverlay(m, o)
}
