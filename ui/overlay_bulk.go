package ui

import (
	"context"
	"fmt"
	"maps"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/textfmt"
	"dynascope/ui/widget"
)

// The bulk-read overlay: a Scan of a whole table (ctrl+s in the table
// picker or the partition prompt) or a PartiQL SELECT (P on a partition).
// Nothing is read before its cost is said and confirmed:
//
//   - ask: the Scan's filter and projection, or the statement;
//   - confirm: the plan (a PartiQL statement that fixes the partition key
//     runs as a Query, anything else as a Scan) and the upper bound from
//     DescribeTable, in RCU and money; enter runs it, esc goes back;
//   - running: esc stops it and keeps what was read;
//   - done: the items, kept of read, predicted beside actual.

type bulkKind int

const (
	bulkScan bulkKind = iota
	bulkPartiQL
)

type bulkPhase int

const (
	bulkAsk bulkPhase = iota
	bulkPlanning
	bulkConfirm
	bulkRunning
	bulkDone
)

type bulkOverlay struct {
	kind  bulkKind
	table string // the Scan's table; a statement names its own
	form  form
	phase bulkPhase
	err   string // sanitised

	plan dynamo.PartiQLPlan
	desc dynamo.Table
	est  dynamo.Estimate // the one estimate of the read (dynamo.EstimateRead)

	got     []dynamo.Item
	count   int
	scanned int // -1: PartiQL reports none
	reqs    []dynamo.Request
	stop    dynamo.StopReason
	offset  int
	// The read in flight as its pages complete: items and requests so far,
	// the requests already in the log.
	liveItems, liveReqs, logged int
	// Where a read that stopped early would go on: n goes on from there,
	// keeping what was read.
	resume    map[int]dynamo.Item
	nextToken string
}

func (bulkOverlay) id() overlayID { return overlayBulk }
func (o bulkOverlay) mode(Model) mode {
	if o.phase == bulkAsk {
		return modeBulkAsk
	}
	return modeBulk
}
func (bulkOverlay) hides() hidden { return hidden{query: true, log: true} }

// openScan asks for the filter and projection of a Scan of table.
func (m Model) openScan(table string) Model {
	return m.push(bulkOverlay{kind: bulkScan, table: table, form: widget.NewForm([]string{"filter", "projection"}, nil)})
}

// openPartiQL asks for a SELECT, starting from one on the current table.
func (m Model) openPartiQL() Model {
	stmt := ""
	if m.table.Name != "" {
		stmt = `SELECT * FROM "` + m.table.Name + `"`
		if m.query.PK != "" && m.query.Index == "" {
			stmt += ` WHERE "` + m.table.PK.Name + `" = '` + strings.ReplaceAll(m.query.PK, "'", "''") + `'`
		}
	}
	return m.push(bulkOverlay{kind: bulkPartiQL, form: widget.NewForm([]string{"SELECT"}, []string{stmt})})
}

// input is the read as the code view and the request log keep it.
func (o bulkOverlay) input() reqInput {
	if o.kind == bulkPartiQL {
		return reqInput{stmt: o.form.Value("SELECT")}
	}
	in := dynamo.ScanInput{Table: o.table, Filter: o.form.Value("filter"), Project: o.form.Value("projection")}
	return reqInput{table: o.desc, scan: &in}
}

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

func bulkPlanCmd(ctx context.Context, s Store, id int, o bulkOverlay) tea.Cmd {
	return func() tea.Msg {
		msg := bulkPlannedMsg{id: id}
		table := o.table
		if o.kind == bulkPartiQL {
			msg.plan, msg.err = s.PlanPartiQL(ctx, o.form.Value("SELECT"))
			if msg.err != nil {
				return msg
			}
			table = msg.plan.Table
		} else if err := dynamo.CheckShape(o.form.Value("filter"), o.form.Value("projection")); err != nil {
			msg.err = err
			return msg
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

func bulkRunCmd(ctx context.Context, s Store, send *sender, id int, o bulkOverlay) tea.Cmd {
	return func() tea.Msg {
		msg := bulkDoneMsg{id: id}
		page := func(p dynamo.Page) {
			msg.items = append(msg.items, p.Items...)
			send.deliver(bulkPageMsg{id: id, items: len(p.Items), req: p.Request})
		}
		if o.kind == bulkPartiQL {
			in := dynamo.PartiQLInput{Plan: o.plan, Est: o.est, NextToken: o.nextToken, OnPage: func(p dynamo.Page) error { page(p); return nil }}
			res, err := s.RunPartiQL(ctx, in)
			msg.count, msg.scanned, msg.reqs, msg.stop, msg.err, msg.nextToken = res.Count, -1, res.Requests, res.Stop, err, res.NextToken
			return msg
		}
		in := dynamo.ScanInput{Table: o.table, Filter: o.form.Value("filter"), Project: o.form.Value("projection"), Est: o.est, Start: o.resume,
			OnPage: func(p dynamo.ScanPage) error { page(p.Page); return nil }}
		res, err := s.Scan(ctx, in)
		msg.count, msg.scanned, msg.reqs, msg.stop, msg.err, msg.resume = res.Count, res.Scanned, res.Requests, res.Stop, err, res.Resume
		return msg
	}
}

func (o bulkOverlay) update(e overlayEnv, msg tea.Msg) (overlay, want) {
	km := e.keys
	if o.phase == bulkAsk {
		f, ev := o.form.Handle(msg, formKeys(km))
		o.form = f
		switch ev {
		case widget.FormSubmit:
			o.phase, o.err = bulkPlanning, ""
			return o, planBulk{o}
		case widget.FormCancel:
			return o, closeOverlay{}
		case widget.FormTyped:
			o.err = ""
		}
		return o, nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return o, nil
	}
	switch {
	case key.Matches(k, km.Cancel):
		switch o.phase {
		case bulkRunning, bulkPlanning:
			return o, stopBulk{} // the reply brings what was read
		case bulkConfirm:
			o.phase = bulkAsk
			return o, nil
		}
		return o, closeOverlay{}
	case key.Matches(k, km.Open), key.Matches(k, km.Confirm):
		if o.phase != bulkConfirm {
			return o, nil
		}
		o.phase, o.stop, o.resume, o.nextToken = bulkRunning, "", nil, "" // a fresh read
		o.err, o.liveItems, o.liveReqs, o.logged = "", 0, 0, 0
		return o, runBulk{o}
	case key.Matches(k, km.NextPage):
		if o.phase != bulkDone || !o.goesOn() {
			return o, nil
		}
		// Go on from where it stopped, keeping what was read.
		o.phase, o.err, o.liveItems, o.liveReqs, o.logged = bulkRunning, "", 0, 0, 0
		return o, runBulk{o}
	case key.Matches(k, km.Code):
		if o.phase == bulkConfirm || o.phase == bulkDone {
			return o, openCode{o.input(), "this " + map[bulkKind]string{bulkScan: "Scan", bulkPartiQL: "SELECT"}[o.kind]}
		}
		return o, nil
	case key.Matches(k, km.Down):
		o.offset = min(o.offset+1, max(0, len(o.got)-1))
	case key.Matches(k, km.Up):
		o.offset = max(0, o.offset-1)
	case key.Matches(k, km.PageDown):
		o.offset = min(o.offset+10, max(0, len(o.got)-1))
	case key.Matches(k, km.PageUp):
		o.offset = max(0, o.offset-10)
	}
	return o, nil
}

// bulkPlanned shows the plan and the bound, waiting for a yes.
func (m Model) bulkPlanned(msg bulkPlannedMsg) Model {
	o, ok := findOverlay[bulkOverlay](m)
	if !ok || !m.flight.waits(flightBulk, msg.id) {
		return m
	}
	m.flight.stop(flightBulk)
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
		if open && m.flight.waits(flightBulk, msg.id) && i < o.logged {
			continue // logged as it completed (bulkPage)
		}
		k := kind
		if i == len(msg.reqs)-1 && open {
			k = strings.TrimPrefix(k+" · "+predictedText(o.est.RCU, msg.reqs), " · ")
		}
		in := reqInput{}
		if open {
			in = o.input()
		}
		m.log = m.log.add(r, k, i+1, in)
	}
	if !open || !m.flight.waits(flightBulk, msg.id) {
		return m
	}
	m.flight.stop(flightBulk)
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
	if !ok || !m.flight.waits(flightBulk, msg.id) {
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

// predictedText is the bound said before a read beside what it cost.
func predictedText(bound float64, reqs []dynamo.Request) string {
	for _, r := range reqs {
		if r.NoCapacity {
			return fmt.Sprintf("predicted ≤ %s RCU · actual unknown (the endpoint sent no ConsumedCapacity, as DynamoDB Local does for PartiQL)", fmtRCU(bound))
		}
	}
	return fmt.Sprintf("predicted ≤ %s RCU · actual %s", fmtRCU(bound), fmtRCU(dynamo.TotalCapacity(reqs).Total))
}

func (o bulkOverlay) view(m Model, w, h int) string {
	st := m.st
	inner := w - 2
	var lines []string
	say := func(style func(...string) string, s string) {
		for _, l := range widget.WrapLines(s, inner-2) {
			lines = append(lines, " "+style(l))
		}
	}
	title := "Scan of " + sanitize(o.table)
	if o.kind == bulkPartiQL {
		title = "PartiQL SELECT"
	}
	switch o.phase {
	case bulkAsk, bulkPlanning:
		if o.kind == bulkScan {
			say(st.Muted.Render, "A Scan reads, and is charged for, every item of the table, whatever the filter keeps. Filter: DynamoDB's condition language with values in place (status = \"OPEN\" AND total > 1000); projection: a, b, c.d. Its cost is said before anything is read.")
		} else {
			say(st.Muted.Render, "Only SELECT runs. A WHERE that fixes the partition key by equality runs as a Query of that partition; anything else as a Scan of the whole table. Its plan and cost are said before anything is read.")
		}
		lines = append(lines, "")
		lines = append(lines, o.form.View(st, inner)...)
		if o.phase == bulkPlanning {
			lines = append(lines, "", " "+st.Muted.Render("reading the table's description…"))
		}
	case bulkConfirm:
		if o.kind == bulkPartiQL {
			say(st.QueryKey.Render, planLine(o.plan))
		}
		if o.est.Known {
			say(st.Bold.Render, fmt.Sprintf("At most the whole table, %s items / %s: predicted ≤ %s RCU %s", textfmt.Count(int(o.est.Items)), textfmt.HumanBytes(o.est.Bytes), fmtRCU(o.est.RCU), m.costText(o.est.RCU)))
		} else {
			say(st.Bold.Render, fmt.Sprintf("The table's size is unknown (DescribeTable gives none yet): it reads at most %s RCU %s, then stops and keeps what it read", fmtRCU(o.est.RCU), m.costText(o.est.RCU)))
		}
		if o.kind == bulkPartiQL && o.plan.Query {
			say(st.Muted.Render, "One partition is usually far less; its size is not known before it is read.")
		}
		say(st.Muted.Render, "DescribeTable's figures, refreshed by DynamoDB about every 6 hours. Enter runs it; esc goes back; esc while it runs stops it and keeps what was read.")
	case bulkRunning:
		if o.liveReqs > 0 {
			say(st.Muted.Render, fmt.Sprintf("reading… %s · %s so far; esc stops and keeps what was read", plural(o.liveItems, "item", "items"), plural(o.liveReqs, "request", "requests")))
		} else {
			say(st.Muted.Render, "reading… esc stops and keeps what was read")
		}
	case bulkDone:
		lines = append(lines, o.summary(m, inner-2)...)
		if o.err != "" {
			// Before the items, so that no list of them pushes it off.
			say(st.Err.Render, "✗ "+o.err)
			if o.goesOn() {
				say(st.Muted.Render, "what was read is kept; n goes on from where it stopped")
			}
		}
		lines = append(lines, "")
		rows := max(1, h-len(lines)-3)
		for i := o.offset; i < len(o.got) && i < o.offset+rows; i++ {
			lines = append(lines, " "+widget.Fit(o.itemLine(o.got[i]), inner-2))
		}
	}
	if o.err != "" && o.phase != bulkDone {
		lines = append(lines, "")
		say(st.Err.Render, o.err)
	}
	return widget.Box(st, title, lines, w, h, true)
}

// summary is what was kept of what was read, and what it cost.
func (o bulkOverlay) summary(m Model, w int) []string {
	st := m.st
	rcu := dynamo.TotalCapacity(o.reqs).Total
	var out []string
	head := fmt.Sprintf("%s · %s · %s", plural(o.count, "item", "items"), plural(len(o.reqs), "request", "requests"), predictedText(o.est.RCU, o.reqs))
	// First, so that a long cost text never cuts it off.
	switch o.stop {
	case dynamo.StopCancelled:
		head = "stopped: kept what was read · " + head
	case dynamo.StopError, dynamo.StopEstimate:
		head = "incomplete: kept what was read · " + head
	}
	out = append(out, " "+st.Bold.Render(widget.Fit(head, w)))
	if o.scanned >= 0 {
		out = append(out, " "+st.Accent.Render(widget.Fit(fmt.Sprintf("kept %s of %s read; the %s RCU were charged for all %s read", textfmt.Count(o.count), textfmt.Count(o.scanned), fmtRCU(rcu), textfmt.Count(o.scanned)), w)))
	}
	return out
}

// goesOn tells whether a read stopped short with somewhere to go on from.
func (o bulkOverlay) goesOn() bool {
	if o.stop != dynamo.StopError && o.stop != dynamo.StopEstimate {
		return false
	}
	// A PartiQL run without a NextToken failed on its first page: it
	// starts again, having kept nothing.
	return o.kind == bulkPartiQL || len(o.resume) > 0
}

// planLine is a PartiQL plan in one sentence.
func planLine(p dynamo.PartiQLPlan) string {
	if p.Query {
		return "Plan: a Query of one partition of " + sanitize(p.Table) + " (" + sanitize(p.Why) + ")."
	}
	return "Plan: a Scan of the whole " + sanitize(tableAndIndexName(p.Table, p.Index)) + " (" + sanitize(p.Why) + ")."
}

func tableAndIndexName(table, index string) string {
	if index == "" {
		return "table " + table
	}
	return "index " + index + " of table " + table
}

// The bulk overlay's keys: a form while asking, then run, stop and scroll.
var (
	bulkAskMode = formMode("scan or PartiQL", "say its plan and cost", "close")
	bulkMode    = modeDef{name: "scan or PartiQL", keys: keysOf(
		[]binding{inBar("open", "run it"), inBar("cancel", "stop (keeps what was read) / back / close"), inBar("code", "code"), bind("nextPage", "go on after a failure")},
		moveKeys,
	)}
)

// itemLine is one item: its key values first, then the other attributes
// as plain JSON, sanitised.
func (o bulkOverlay) itemLine(it dynamo.Item) string {
	rest := maps.Clone(it)
	var keys []string
	for _, k := range []*dynamo.KeyAttr{&o.desc.PK, o.desc.SK} {
		if k != nil && it[k.Name] != nil {
			keys = append(keys, itemcodec.KeyString(it[k.Name]))
			delete(rest, k.Name)
		}
	}
	return sanitize(strings.Join(keys, "  ") + "  " + string(itemcodec.PlainJSON(rest)))
}
