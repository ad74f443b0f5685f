package ui

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/ui/overlay"
	"dynascope/ui/request"
)

// The root's side of a bulk read (overlay_bulk.go is the overlay): the
// commands that plan and send a Scan or a PartiQL SELECT with the ids the
// root hands out, and the handlers of their replies, which log every
// request and give the overlay what was read.

// bulkPlannedMsg answers bulkPlanCmd: the table's description and, for
// PartiQL, the plan.
type bulkPlannedMsg struct {
	id   int
	plan dynamo.PartiQLPlan
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
	o, ok := findOverlay[bulkOverlay](m)
	if !ok || msg.id != m.bulk.id {
		return m
	}
	m.bulk = job{}
	if msg.err != nil {
		o.phase, o.err = bulkAsk, sanitize(msg.err.Error())
		return replaceOverlay(m, o)
	}
	o.plan, o.desc = msg.plan, msg.desc
	index := ""
	if o.kind == bulkPartiQL {
		index = msg.plan.Index
	}
	o.est = dynamo.EstimateRead(msg.desc, index, false, 1, 0)
	o.phase = bulkConfirm
	return replaceOverlay(m, o)
}

// bulkDone shows what was read and logs every request, the last with what
// was predicted beside what it cost.
func (m Model) bulkDone(msg bulkDoneMsg) Model {
	kind := "Scan"
	if o, ok := findOverlay[bulkOverlay](m); ok && o.kind == bulkPartiQL {
		kind = "" // the line says PartiQL, and its condition the plan: once each
	}
	o, open := findOverlay[bulkOverlay](m)
	for i, r := range msg.reqs {
		if open && msg.id == m.bulk.id && i < o.logged {
			continue // logged as it completed (bulkPage)
		}
		k := kind
		if i == len(msg.reqs)-1 && open {
			k = strings.TrimPrefix(k+" · "+predictedText(o.est.RCU, msg.reqs), " · ")
		}
		in := request.Input{}
		if open {
			in = o.input()
		}
		m.log = m.log.add(r, k, i+1, in)
	}
	if !open || msg.id != m.bulk.id {
		return m
	}
	m.bulk = job{}
	o.phase = bulkDone
	if !o.goesOn() {
		o.got, o.count, o.scanned, o.reqs = nil, 0, 0, nil // a fresh read, not a continuation
	}
	// A continuation adds to what was read before.
	o.got, o.count, o.reqs = append(o.got, msg.items...), o.count+msg.count, append(o.reqs, msg.reqs...)
	if msg.scanned < 0 || o.scanned < 0 {
		o.scanned = -1
	} else {
		o.scanned += msg.scanned
	}
	o.stop, o.resume, o.nextToken = msg.stop, msg.resume, msg.nextToken
	o.err = ""
	if msg.err != nil {
		o.err = sanitize(msg.err.Error())
	}
	return replaceOverlay(m, o)
}

// bulkPage counts and logs one page of the read in flight as it completes.
func (m Model) bulkPage(msg bulkPageMsg) Model {
	o, ok := findOverlay[bulkOverlay](m)
	if !ok || msg.id != m.bulk.id {
		return m
	}
	kind := "Scan"
	if o.kind == bulkPartiQL {
		kind = "PartiQL " + o.plan.Kind()
	}
	o.liveItems += msg.items
	o.liveReqs++
	if msg.req.More && o.logged == o.liveReqs-1 {
		// The last page is logged at the end, with the prediction beside it.
		o.logged++
		m.log = m.log.add(msg.req, kind, o.logged, o.input())
	}
	return replaceOverlay(m, o)
}
