package ui

import (
	"context"
	"errors"
	"fmt"
	"math"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/ui/keymap"
	"dynascope/ui/pane"
)

// Counting a type exactly reads every item of it (Select=COUNT costs what
// reading the items costs), so it runs only when asked, after its cost is
// announced, one page at a time, each page in the request log.

// stoppedCount stops the count in flight, if any: its request is
// cancelled, and the count is no more.
func (m *Model) stoppedCount() countJob {
	m.flight.stop(flightCount)
	return countJob{}
}

// countPageMsg answers countPageCmd with one page of a count.
type countPageMsg struct {
	id     int
	q      dynamo.QueryInput
	pageNo int
	page   dynamo.Page
	err    error
}

func countPageCmd(ctx context.Context, s Store, id int, q dynamo.QueryInput, pageNo int) tea.Cmd {
	return func() tea.Msg {
		p, err := s.Query(ctx, q)
		return countPageMsg{id: id, q: q, pageNo: pageNo, page: p, err: err}
	}
}

// askCount announces what counting the selected row would cost.
func (m Model) askCount() (Model, tea.Cmd) {
	if m.flight.busy(flightCount) {
		m.status.Info = "a count is running; esc stops it"
		return m, nil
	}
	row := m.groups.cursor()
	if m.groups.byAttribute() {
		row = 0 // a value of the attribute has no key condition to count by
	}
	t := countTarget{label: "partition", whole: row == 0,
		q: dynamo.QueryInput{Table: m.table.Name, Index: m.index, PK: m.query.PK, Consistent: m.query.Consistent, CountOnly: true, SK: m.groups.condition(row)}}
	if row > 0 {
		tr := m.groups.types()[row-1]
		t.label, t.id = sanitize(tr.Entity), tr.ID()
		if l := m.groups.sharedLabel(row - 1); l != "" {
			t.label = l // the prefix counts every part of the split type
		}
	}
	t.est = dynamo.EstimateRead(m.table, m.index, m.query.Consistent, 1, 0)
	m.ask = countAsk{on: true, target: t}
	m.status.Info = ""
	m.status.Ask = m.countAnnouncement(row)
	return m, nil
}

// confirmKey answers the announcement: y or enter counts, esc does not.
func (m Model) confirmKey(msg tea.KeyPressMsg, km keymap.KeyMap) (Model, tea.Cmd) {
	if m.ask.marks {
		return m.confirmMarkRest(msg, km)
	}
	switch {
	case key.Matches(msg, km.Confirm, km.Open):
		t := m.ask.target
		m.ask, m.status.Ask = countAsk{}, ""
		id, ctx := m.flight.start(m.ctx, flightCount)
		// The announced "at most" is a promise: a count that spends
		// clearly more stops, keeping what it counted as a lower bound.
		read := dynamo.NewQueryPager(dynamo.QueryRead{Query: t.q, Est: t.est, What: "count " + t.label})
		q, _ := read.Next()
		m.count = countJob{ctx: ctx, target: t, read: read}
		m.status.Err, m.status.Info = "", ""
		return m, tea.Batch(countPageCmd(m.observe(ctx, id), m.store, id, q, 1), m.after(id))
	case key.Matches(msg, km.Cancel):
		m.ask, m.status.Ask = countAsk{}, ""
		m.status.Info = "not counted"
	}
	return m, nil
}

// countPage logs a page of a count, then sends the next or shows the result.
func (m Model) countPage(msg countPageMsg) (Model, tea.Cmd) {
	if msg.page.Request.Operation != "" {
		m.log = m.log.Add(msg.page.Request, "COUNT", msg.pageNo, m.queryInput(msg.q))
	}
	if !m.flight.waits(flightCount, msg.id) {
		return m, nil // stopped: logged, not counted
	}
	m.status.Throttle = pane.Throttled(msg.err)
	err := m.count.read.Page(msg.page, msg.err)
	var over *dynamo.EstimateError
	switch {
	case msg.err != nil:
		m = m.stopCount("failed")
		m.status.Err = sanitize(msg.err.Error())
		return m, nil
	case errors.As(err, &over):
		over.Kept, over.Next = "what it counted is kept as a lower bound", "count it with dynascope groups --count --max-rcu N"
		m = m.stopCount("stopped")
		m.status.Err = sanitize(err.Error())
		return m, nil
	}
	if q, ok := m.count.read.Next(); ok {
		m.status.ClearRetry(msg.id)
		return m, countPageCmd(m.observe(m.count.ctx, msg.id), m.store, msg.id, q, msg.pageNo+1)
	}
	c := m.count
	m.count = m.stoppedCount()
	m.settle()
	n, reqs, spent := c.counted()
	if c.target.whole {
		m.groups.partExact, m.groups.partReqs, m.groups.partCap = n, reqs, spent
	} else {
		m.groups = m.groups.counted(c.target.id, n, reqs, spent)
	}
	m.status.Info = fmt.Sprintf("%s %d — counted in %s, %s RCU", c.target.label, n, plural(reqs, "request", "requests"), fmtRCU(spent.Total))
	return m, nil
}

// stopCount cancels the count in flight, keeping what it got as a lower bound.
func (m Model) stopCount(why string) Model {
	c, counting := m.count, m.flight.busy(flightCount)
	m.count = m.stoppedCount()
	m.settle()
	if !counting {
		return m
	}
	n, reqs, spent := c.counted()
	if !c.target.whole {
		m.groups.tbl = m.groups.tbl.CountedAtLeast(c.target.id, n)
	}
	m.status.Info = fmt.Sprintf("count %s %s after %d (%s, %s RCU)", c.target.label, why, n, plural(reqs, "request", "requests"), fmtRCU(spent.Total))
	return m
}

// rcuFor is about what reading n bytes costs: 4 KB units, half for an
// eventually consistent read. Each page of up to 1 MB rounds up on its own,
// so exactly, it costs at least lower and at most upper.
func rcuFor(n int64, consistent bool) (about, lower, upper float64) {
	if n <= 0 {
		return 0, 0, 0
	}
	unit := 0.5
	if consistent {
		unit = 1
	}
	pages := math.Ceil(float64(n) / (1 << 20))
	lower = math.Ceil(float64(n)/4096) * unit
	return lower + (pages-1)*unit, lower, lower + pages*unit
}

// countAnnouncement says what a count of a row will read, with the bounds
// of its cost that what is known allows: the loaded items' sizes below, the
// table's (or index's) size as DescribeTable reports it above.
func (m Model) countAnnouncement(row int) string {
	g := m.groups
	cons := m.query.Consistent
	what, label := "every item of the partition", "partition"
	var bytes int64
	known := g.complete()
	loaded := g.tbl.Loaded()
	if row > 0 {
		t := g.types()[row-1]
		label = sanitize(t.Entity)
		what = "every " + label + " item"
		bytes, loaded = int64(t.Bytes), t.Loaded
		_, known = g.known(row - 1)
		if rows := g.sharing(row - 1); rows != nil {
			// Its condition reads every part of the split type.
			label, what = g.sharedLabel(row-1), "every item of "+sanitize(t.Prefix)
			bytes, loaded = 0, 0
			for _, j := range rows {
				_, k := g.known(j)
				known = known && k
				bytes, loaded = bytes+int64(g.types()[j].Bytes), loaded+g.types()[j].Loaded
			}
		}
		if known && t.Loaded == 0 {
			// One item, never loaded: between one unit and 400 KB.
			_, lo, _ := rcuFor(1, cons)
			_, _, hi := rcuFor(400*1024, cons)
			return fmt.Sprintf("count %s: reads its one item — at least %s RCU, at most %s RCU (an item is up to 400 KB)",
				label, fmtRCU(lo), fmtRCU(hi))
		}
	} else {
		bytes = int64(g.tbl.Bytes())
	}
	head := fmt.Sprintf("count %s: reads %s — ", label, what)
	about, lower, _ := rcuFor(bytes, cons)
	if known {
		return head + fmt.Sprintf("about %s RCU (all %s loaded, %s)", fmtRCU(about), plural(loaded, "item", "items"), humanBytes(bytes))
	}
	s := head
	if loaded > 0 {
		s += fmt.Sprintf("at least %s RCU (%d loaded, %s), ", fmtRCU(lower), loaded, humanBytes(bytes))
	}
	size, where := m.table.SizeBytes, "table"
	if ix, ok := m.table.IndexByName(m.index); ok {
		size, where = ix.SizeBytes, "index"
	}
	switch upper := dynamo.EstimateRead(m.table, m.index, cons, 1, 0).RCU; {
	case size <= 0:
		s += fmt.Sprintf("at most: unknown (DescribeTable gives no %s size yet); it stops at %s RCU", where, fmtRCU(upper))
	case upper < lower:
		s += fmt.Sprintf("at most: unknown (the %s size DescribeTable gives, %s, is out of date)", where, humanBytes(size))
	default:
		s += fmt.Sprintf("at most %s RCU (whole %s, %s per DescribeTable)", fmtRCU(upper), where, humanBytes(size))
	}
	return s
}

var modeConfirm = &keymap.Mode{Name: "confirm", Keys: []keymap.Binding{
	keymap.InBar("confirm", "count").KeysShown("y/enter"), keymap.InBar("cancel", "don't count"), keymap.Bind("open", "count"),
}}
