package overlay

import (
	"fmt"
	"maps"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/partiql"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/request"
	"dynascope/ui/theme"
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

// Bulk is a Scan of a whole table or a PartiQL SELECT: its cost, then
// its items.
type Bulk struct {
	kind  bulkKind
	table string // the Scan's table; a statement names its own
	form  widget.Form
	phase bulkPhase
	err   string // sanitised

	plan partiql.Plan
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

// NewScan asks for the filter and projection of a Scan of table.
func NewScan(table string) Bulk {
	return Bulk{kind: bulkScan, table: table, form: widget.NewForm([]string{"filter", "projection"}, nil)}
}

// NewPartiQL asks for a SELECT, starting from stmt.
func NewPartiQL(stmt string) Bulk {
	return Bulk{kind: bulkPartiQL, form: widget.NewForm([]string{"SELECT"}, []string{stmt})}
}

// Planned shows the plan and the bound of the read the root planned (its
// SELECT's plan and its table's description), waiting for a yes; or the
// form again with why there is none.
func (o Bulk) Planned(plan partiql.Plan, desc dynamo.Table, err error) Bulk {
	if err != nil {
		o.phase, o.err = bulkAsk, textfmt.Sanitize(err.Error())
		return o
	}
	o.plan, o.desc = plan, desc
	index := ""
	if o.kind == bulkPartiQL {
		index = plan.Index
	}
	o.est = dynamo.EstimateRead(desc, index, false, 1, 0)
	o.phase = bulkConfirm
	return o
}

// LogKind is what the request log says of a request of this read: a Scan,
// or nothing for PartiQL (its line says PartiQL, and its condition the
// plan: once each); the last one adds what was predicted beside what the
// read's requests, reqs, cost.
func (o Bulk) LogKind(last bool, reqs []dynamo.Request) string {
	kind := "Scan"
	if o.kind == bulkPartiQL {
		kind = ""
	}
	if last {
		kind = strings.TrimPrefix(kind+" · "+request.Predicted(o.bound(), reqs), " · ")
	}
	return kind
}

// Logged is how many requests of the read in flight the root logged as
// their pages came (Paged).
func (o Bulk) Logged() int { return o.logged }

// Paged counts one page of the read in flight as it completes, with its
// items, and whether more follow; log says the root logs its request now,
// as page Logged() of kind PageKind(): every page but the last, which
// comes with the answer (Done) and the prediction beside it.
func (o Bulk) Paged(items int, more bool) (next Bulk, log bool) {
	o.liveItems += items
	o.liveReqs++
	if more && o.logged == o.liveReqs-1 {
		o.logged++
		return o, true
	}
	return o, false
}

// PageKind is what the request log says of a page logged as it came.
func (o Bulk) PageKind() string {
	if o.kind == bulkPartiQL {
		return "PartiQL " + o.plan.Kind()
	}
	return "Scan"
}

// BulkRead is what a bulk read answered, stopped or not.
type BulkRead struct {
	Items          []dynamo.Item
	Count, Scanned int // Scanned is -1 for PartiQL, which reports none
	Reqs           []dynamo.Request
	Stop           dynamo.StopReason
	Err            string // sanitised; "" for none
	// Where it would go on: ScanResult.Resume, PartiQLResult.NextToken.
	Resume    map[int]dynamo.Item
	NextToken string
}

// Done shows what was read; a read that went on from where one stopped
// adds to what was read before.
func (o Bulk) Done(r BulkRead) Bulk {
	o.phase = bulkDone
	if !o.goesOn() {
		o.got, o.count, o.scanned, o.reqs = nil, 0, 0, nil // a fresh read, not a continuation
	}
	o.got, o.count, o.reqs = append(o.got, r.Items...), o.count+r.Count, append(o.reqs, r.Reqs...)
	if r.Scanned < 0 || o.scanned < 0 {
		o.scanned = -1
	} else {
		o.scanned += r.Scanned
	}
	o.stop, o.resume, o.nextToken = r.Stop, r.Resume, r.NextToken
	o.err = r.Err
	return o
}

// Read is what the read has read so far, over its continuations.
func (o Bulk) Read() BulkRead {
	return BulkRead{Items: o.got, Count: o.count, Scanned: o.scanned, Reqs: o.reqs, Stop: o.stop, Err: o.err, Resume: o.resume, NextToken: o.nextToken}
}

// ID names the overlay.
func (Bulk) ID() ID { return BulkID }

// Mode is the keymap mode the overlay is in, by its phase.
func (o Bulk) Mode(Env) *keymap.Mode {
	if o.phase == bulkAsk {
		return modeBulkAsk
	}
	return modeBulk
}

// Hides says which lines of the screen the overlay takes over.
func (Bulk) Hides() Hidden { return Hidden{Query: true, Log: true} }

// Input is the read as the code view and the request log keep it.
func (o Bulk) Input() request.Input {
	if o.kind == bulkPartiQL {
		return request.Input{Stmt: o.form.Value("SELECT")}
	}
	in := dynamo.ScanInput{Table: o.table, Filter: o.form.Value("filter"), Project: o.form.Value("projection")}
	return request.Input{Table: o.desc, Scan: &in}
}

// bound is the read's announced bound: a SELECT's by its plan
// (dynamo.PartiQLBound; RunPartiQL stops it at twice that, PartiQLLimit);
// a Scan's estimate.
func (o Bulk) bound() float64 {
	if o.kind == bulkPartiQL {
		return dynamo.PartiQLBound(o.plan, o.est)
	}
	return o.est.RCU
}

// run is the read as the root sends it (RunBulk): the SELECT by its plan,
// or the Scan, under the read's estimate, going on from where it stopped
// when it did.
func (o Bulk) run() RunBulk {
	if o.kind == bulkPartiQL {
		return RunBulk{PartiQL: &dynamo.PartiQLInput{Plan: o.plan, Est: o.est, NextToken: o.nextToken}}
	}
	return RunBulk{Scan: &dynamo.ScanInput{Table: o.table, Filter: o.form.Value("filter"), Project: o.form.Value("projection"), Est: o.est, Start: o.resume}}
}

// Update handles a key, pasted text or a wheel message and returns
// what the overlay asks of the root.
func (o Bulk) Update(e Env, msg tea.Msg) (Overlay, Want) {
	km := e.Keys
	if o.phase == bulkAsk {
		f, ev := o.form.Handle(msg, km.FormKeys())
		o.form = f
		switch ev {
		case widget.FormSubmit:
			o.phase, o.err = bulkPlanning, ""
			return o, PlanBulk{In: o.Input()}
		case widget.FormCancel:
			return o, Close{}
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
			return o, StopBulk{} // the reply brings what was read
		case bulkConfirm:
			o.phase = bulkAsk
			return o, nil
		}
		return o, Close{}
	case key.Matches(k, km.Open), key.Matches(k, km.Confirm):
		if o.phase != bulkConfirm {
			return o, nil
		}
		o.phase, o.stop, o.resume, o.nextToken = bulkRunning, "", nil, "" // a fresh read
		o.err, o.liveItems, o.liveReqs, o.logged = "", 0, 0, 0
		return o, o.run()
	case key.Matches(k, km.NextPage):
		if o.phase != bulkDone || !o.goesOn() {
			return o, nil
		}
		// Go on from where it stopped, keeping what was read.
		o.phase, o.err, o.liveItems, o.liveReqs, o.logged = bulkRunning, "", 0, 0, 0
		return o, o.run()
	case key.Matches(k, km.Code):
		if o.phase == bulkConfirm || o.phase == bulkDone {
			return o, OpenCode{In: o.Input(), From: "this " + map[bulkKind]string{bulkScan: "Scan", bulkPartiQL: "SELECT"}[o.kind]}
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

// View draws the overlay w×h from what the root gives it.
func (o Bulk) View(e Env, w, h int) string {
	st := e.St
	inner := w - 2
	var lines []string
	say := func(style func(...string) string, s string) {
		for _, l := range widget.WrapLines(s, inner-2) {
			lines = append(lines, " "+style(l))
		}
	}
	title := "Scan of " + textfmt.Sanitize(o.table)
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
		switch {
		case o.kind == bulkPartiQL && o.plan.Query && o.est.Known:
			// One partition: the table's bound, and why (or one item's).
			rcu, why := o.est.QueryBound(o.plan.OneItem)
			say(st.Bold.Render, strings.ToUpper(why[:1])+why[1:]+" "+costText(e.Price, rcu))
		case o.est.Known:
			say(st.Bold.Render, fmt.Sprintf("At most the whole table, %s items / %s: predicted ≤ %s RCU %s", textfmt.Count(int(o.est.Items)), textfmt.HumanBytes(o.est.Bytes), textfmt.Units(o.est.RCU), costText(e.Price, o.est.RCU)))
		default:
			say(st.Bold.Render, fmt.Sprintf("The table's size is unknown (DescribeTable gives none yet): it reads at most %s RCU %s, then stops and keeps what it read", textfmt.Units(o.bound()), costText(e.Price, o.bound())))
		}
		say(st.Muted.Render, "DescribeTable's figures, refreshed by DynamoDB about every 6 hours. Enter runs it; esc goes back; esc while it runs stops it and keeps what was read.")
	case bulkRunning:
		if o.liveReqs > 0 {
			say(st.Muted.Render, fmt.Sprintf("reading… %s · %s so far; esc stops and keeps what was read", textfmt.Plural(o.liveItems, "item", "items"), textfmt.Plural(o.liveReqs, "request", "requests")))
		} else {
			say(st.Muted.Render, "reading… esc stops and keeps what was read")
		}
	case bulkDone:
		lines = append(lines, o.summary(st, inner-2)...)
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
func (o Bulk) summary(st theme.Styles, w int) []string {
	rcu := dynamo.TotalCapacity(o.reqs).Total
	var out []string
	head := fmt.Sprintf("%s · %s · %s", textfmt.Plural(o.count, "item", "items"), textfmt.Plural(len(o.reqs), "request", "requests"), request.Predicted(o.bound(), o.reqs))
	// First, so that a long cost text never cuts it off.
	switch o.stop {
	case dynamo.StopCancelled:
		head = "stopped: kept what was read · " + head
	case dynamo.StopError, dynamo.StopEstimate:
		head = "incomplete: kept what was read · " + head
	}
	out = append(out, " "+st.Bold.Render(widget.Fit(head, w)))
	if o.scanned >= 0 {
		out = append(out, " "+st.Accent.Render(widget.Fit(fmt.Sprintf("kept %s of %s read; the %s RCU were charged for all %s read", textfmt.Count(o.count), textfmt.Count(o.scanned), textfmt.Units(rcu), textfmt.Count(o.scanned)), w)))
	}
	return out
}

// goesOn tells whether a read stopped short with somewhere to go on from.
func (o Bulk) goesOn() bool {
	if o.stop != dynamo.StopError && o.stop != dynamo.StopEstimate {
		return false
	}
	// A PartiQL run without a NextToken failed on its first page: it
	// starts again, having kept nothing.
	return o.kind == bulkPartiQL || len(o.resume) > 0
}

// planLine is a PartiQL plan in one sentence.
func planLine(p partiql.Plan) string {
	if p.Query {
		return "Plan: a Query of one partition of " + textfmt.Sanitize(p.Table) + " (" + textfmt.Sanitize(p.Why) + ")."
	}
	return "Plan: a Scan of the whole " + textfmt.Sanitize(request.TableAndIndex(p.Table, p.Index)) + " (" + textfmt.Sanitize(p.Why) + ")."
}

// The bulk overlay's keys: a form while asking, then run, stop and scroll.
var (
	modeBulkAsk = keymap.FormMode("scan or PartiQL", "say its plan and cost", "close")
	modeBulk    = &keymap.Mode{Name: "scan or PartiQL", Keys: keymap.KeysOf(
		[]keymap.Binding{keymap.InBar("open", "run it"), keymap.InBar("cancel", "stop (keeps what was read) / back / close"), keymap.InBar("code", "code"), keymap.Bind("nextPage", "go on after a failure")},
		keymap.MoveKeys,
	)}
)

// itemLine is one item: its key values first, then the other attributes
// as plain JSON, sanitised.
func (o Bulk) itemLine(it dynamo.Item) string {
	rest := maps.Clone(it)
	var keys []string
	for _, k := range []*dynamo.KeyAttr{&o.desc.PK, o.desc.SK} {
		if k != nil && it[k.Name] != nil {
			keys = append(keys, itemcodec.KeyString(it[k.Name]))
			delete(rest, k.Name)
		}
	}
	return textfmt.Sanitize(strings.Join(keys, "  ") + "  " + string(itemcodec.PlainJSON(rest)))
}
