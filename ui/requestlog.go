package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/ui/request"
	"dynascope/ui/widget"
)

// requestLog is every request of the session with what it returned and what
// it cost. The figures are DynamoDB's own, from ConsumedCapacity.
type requestLog struct {
	reqs  []dynamo.Request
	kinds []string        // what each request was for besides the query: "skip-scan", "COUNT"
	pages []int           // the page of its query or count each request asked for: 1, 2, ...
	ins   []request.Input // what each request asked, for its code
	total dynamo.Capacity // of the reads
	// unknown counts the reads whose answer reported no capacity: the
	// total is then a lower bound ("at least"), never a 0 nobody said.
	unknown int
	writes  int     // the writes among reqs (addWrite)
	wcu     float64 // what they consumed, as reported
	// wcuUnknown counts the writes whose answer reported no capacity (a
	// refusal, which DynamoDB Local answers without a figure, or no
	// answer at all): the writes' sum is then at least wcu, never a 0
	// nobody said.
	wcuUnknown int
	cursor     int // in the expanded log
	offset     int
}

// queryInput is the log's record of a Query sent on the current table.
// A late reply for a table left since has no schema here: no code for it.
func (m Model) queryInput(q dynamo.QueryInput) request.Input {
	ks, err := m.table.Schema(q.Index)
	if err != nil || q.Table != m.table.Name {
		return request.Input{}
	}
	return request.Input{KS: ks, Table: m.table, Q: &q}
}

// getInput is the log's record of a GetItem sent on the current table.
func (m Model) getInput(g dynamo.GetInput) request.Input {
	if g.Table != m.table.Name {
		return request.Input{}
	}
	return request.Input{Table: m.table, G: &g}
}

func (l requestLog) add(r dynamo.Request, kind string, page int, in request.Input) requestLog {
	l.reqs = append(l.reqs, r)
	l.kinds = append(l.kinds, kind)
	l.pages = append(l.pages, page)
	l.ins = append(l.ins, in)
	l.total = l.total.Add(r.Capacity)
	if r.NoCapacity {
		l.unknown++
	}
	l.cursor = len(l.reqs) - 1
	return l
}

// totalText is the reads' total for the status line: "≥ 1.5 RCU" when
// some reported no capacity, "unknown RCU" when all of them did.
func (l requestLog) totalText() string {
	switch {
	case l.unknown > 0 && l.unknown == len(l.reqs)-l.writes:
		return "unknown RCU"
	case l.unknown > 0:
		return "≥ " + fmtRCU(l.total.Total) + " RCU"
	}
	return fmtRCU(l.total.Total) + " RCU"
}

// reqCapacity is one request's capacity for its log line: "unknown" when
// the endpoint did not report it.
func reqCapacity(r dynamo.Request, parts bool) string {
	if r.NoCapacity {
		return "unknown RCU"
	}
	return capacityText(r.Capacity, parts)
}

// opName is the operation as the log shows it: ExecuteStatement is PartiQL.
func opName(r dynamo.Request) string {
	if r.Operation == "ExecuteStatement" {
		return "PartiQL"
	}
	return r.Operation
}

// addWrite logs a request of guarded editing: a write, kept apart from
// the reads (its own kind and colour, its WCU outside the reads' total),
// or the read after a failed condition, which is a read like any other.
func (l requestLog) addWrite(r dynamo.Request) requestLog {
	if !edit.IsWriteNote(r.Note) {
		return l.add(r, "read again after a write", 1, request.Input{})
	}
	l = l.add(r, "write", 1, request.Input{})
	l.total = l.total.Add(dynamo.Capacity{Total: -r.Capacity.Total, Table: -r.Capacity.Table})
	l.writes++
	l.wcu += r.Capacity.Total
	if r.NoCapacity {
		l.unknown-- // a write's, not a read's: the reads' total stays as it is
		l.wcuUnknown++
	}
	return l
}

// wcuTotalText is the writes' sum for the log's title: "≥ 2 WCU" when
// some reported no capacity, "unknown WCU" when none did.
func (l requestLog) wcuTotalText() string {
	switch {
	case l.wcuUnknown > 0 && l.wcuUnknown == l.writes:
		return "unknown WCU"
	case l.wcuUnknown > 0:
		return "≥ " + fmtRCU(l.wcu) + " WCU"
	}
	return fmtRCU(l.wcu) + " WCU"
}

// writeLine is one write of the log: what, where, the WCU it consumed
// ("unknown" where its answer said nothing, or none came).
func (l requestLog) writeLine(st styles, n, w int) string {
	r := l.reqs[n-1]
	head := widget.PadLeft(fmt.Sprintf("%d", n), 3) + " " + st.WritesOn.Render(writeLabel(r)) + " " + widget.Fit(r.Operation, 18) + " "
	units := fmtRCU(r.Capacity.Total) + " WCU"
	if r.NoCapacity {
		units = "unknown WCU"
	}
	right := fmt.Sprintf("  %s  %7s", units, fmtDuration(r.Duration))
	if r.Err != nil {
		right = "  " + st.Err.Render(writeFailure(r.Err)) + right
	}
	return widget.Fit(head+widget.Fit(sanitize(r.KeyCondition), max(8, w-widget.Width(head)-widget.Width(right)))+right, w)
}

func (l requestLog) move(delta, h int) requestLog {
	l.cursor = clamp(l.cursor+delta, 0, len(l.reqs)-1)
	l.offset = scrollOffset(l.offset, l.cursor, h, len(l.reqs))
	return l
}

// fmtDuration shows a request's duration to a useful precision.
func fmtDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "—"
	case d < 10*time.Millisecond:
		return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000)
	case d < 10*time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	default:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
}

// line formats one request for w cells. The table is named only when it is
// not the one open; the condition gets the room the figures leave.
func (l requestLog) line(st styles, n int, table string, cw colWidths, w int) string {
	if l.kinds[n-1] == "write" {
		return l.writeLine(st, n, w)
	}
	if l.kinds[n-1] == "stream" {
		return streamLogLine(st, n, l.reqs[n-1], w) // live_log.go
	}
	r := l.reqs[n-1]
	seq := widget.PadLeft(fmt.Sprintf("%d", n), 3)
	target := ""
	if r.Table != table {
		target = sanitize(r.Table)
	}
	if r.Index != "" {
		if target != "" {
			target += "/"
		}
		target += sanitize(r.Index)
	}
	if target != "" {
		target += " "
	}
	// The kind (skip-scan, COUNT) and the page stay when the condition is cut.
	kind, page := "", ""
	kindText := l.kinds[n-1]
	if kindText != "" {
		kind = st.Accent.Render(kindText) + " "
	}
	if p := l.pages[n-1]; p > 1 {
		page = st.Muted.Render(fmt.Sprintf(" · page %d", p))
	}
	condText := sanitize(r.KeyCondition)
	if r.Filter != "" {
		condText += " filter " + sanitize(r.Filter)
	}
	cond := func(w int) string {
		if widget.Width(kind)+widget.Width(condText)+widget.Width(page) <= w {
			return widget.Fit(kind+condText+page, w)
		}
		// A long kind (the prediction beside a read's last request) gives
		// way to the condition, a PartiQL statement: it keeps at most a
		// third of the room, in whole parts ("Scan · predicted ≤ 450 RCU"
		// keeps "Scan"; a figure is never cut), so the statement and the
		// columns after it (returned, capacity) stay on the line.
		k := kind
		if kw := max(12, w/3); widget.Width(k) > kw {
			k = ""
			parts := strings.Split(kindText, " · ")
			for i := len(parts); i > 0; i-- {
				if head := strings.Join(parts[:i], " · "); widget.Width(head) < kw {
					k = st.Accent.Render(head) + " "
					break
				}
			}
		}
		return k + widget.Fit(condText, max(1, w-widget.Width(k)-widget.Width(page))) + page
	}
	head := seq + " "
	wide := w >= 100
	if wide {
		head += widget.Fit(opName(r), 7) + " "
	}
	if r.Err != nil {
		// The error sentence echoes keys and names: it is data too.
		tail := st.Err.Render("✗ " + sanitize(r.Err.Error()))
		return widget.Fit(head+target+cond(max(10, w/3))+"  "+tail, w)
	}
	dir := "fwd"
	if !r.Forward {
		dir = "rev"
	}
	if r.Consistent {
		dir += " SC"
	} else {
		dir += "   "
	}
	limit := "no limit"
	if r.Limit > 0 {
		limit = fmt.Sprintf("Limit %d", r.Limit)
	}
	if r.Operation == "GetItem" {
		// One item by its key: no direction, no Limit.
		dir, limit = "get"+dir[3:], "—"
	}
	more := "    "
	if r.More {
		more = "more"
	}
	counts := countsText(r)
	var right string
	if wide {
		right = fmt.Sprintf("%s  %-9s %s  %s  %7s %s", dir, limit, widget.PadLeft(counts, cw.counts),
			st.Bold.Render(widget.Fit(reqCapacity(r, true), cw.capacity)), fmtDuration(r.Duration), more)
	} else {
		right = fmt.Sprintf("%s %-4s %s %s %6s %s", dir[:3], strings.Replace(strings.Replace(limit, "Limit ", "L", 1), "no limit", "L—", 1), widget.PadLeft(counts, cw.counts),
			st.Bold.Render(widget.PadLeft(reqCapacity(r, false), 9)), fmtDuration(r.Duration), more)
	}
	// Fit by priority: a long table or index name gives way to the key
	// condition, down to 12 cells of its own.
	if need, room := widget.Width(kind)+widget.Width(condText)+widget.Width(page), w-widget.Width(head)-widget.Width(right)-2; widget.Width(target) > 13 && room-widget.Width(target) < need {
		target = widget.Trunc(strings.TrimSuffix(target, " "), max(12, room-need-1)) + " "
	}
	condW := max(8, w-widget.Width(head)-widget.Width(target)-widget.Width(right)-2)
	return widget.Fit(head+target+cond(condW)+"  "+right, w)
}

// countsText is returned/scanned. A GetItem reads the one item it returns,
// and DynamoDB reports no ScannedCount for it: a recorder that leaves it 0
// (the read again after a failed write) must not show 1/0.
// ExecuteStatement answers no scanned count.
func countsText(r dynamo.Request) string {
	switch r.Operation {
	case "GetItem":
		return fmt.Sprintf("%d/%d", r.Count, r.Count)
	case "ExecuteStatement":
		return fmt.Sprintf("%d/?", r.Count)
	}
	return fmt.Sprintf("%d/%d", r.Count, r.ScannedCount)
}

// colWidths are the widths of the columns that vary, over the lines shown,
// so that they line up.
type colWidths struct{ counts, capacity int }

// widths measures the columns over requests [from, to).
func (l requestLog) widths(from, to int) colWidths {
	cw := colWidths{counts: 7, capacity: 7}
	for i := from; i < to; i++ {
		r := l.reqs[i]
		cw.capacity = max(cw.capacity, widget.Width(reqCapacity(r, true)))
		cw.counts = max(cw.counts, widget.Width(countsText(r)))
	}
	cw.capacity = min(cw.capacity, 40)
	return cw
}

// tail is the last n requests, oldest first, for the collapsed log.
func (l requestLog) tail(st styles, table string, n, w int) []string {
	var out []string
	start := max(0, len(l.reqs)-n)
	cw := l.widths(start, len(l.reqs))
	for i := start; i < len(l.reqs); i++ {
		out = append(out, l.line(st, i+1, table, cw, w))
	}
	if len(l.reqs) == 0 && n > 0 {
		out = append(out, st.Muted.Render("    no requests yet"))
	}
	return out
}

// title of the log section, with the legend of its columns.
func (l requestLog) title(w int) string {
	if w >= 100 {
		return "Requests — key condition · direction · Limit · returned/scanned · consumed capacity · duration"
	}
	return "Requests — returned/scanned · capacity · duration"
}

// collapsed is the log under the panes: a rule with the title, then the tail.
func (l requestLog) collapsed(st styles, table string, n, w int) string {
	t := " " + l.title(w) + " "
	head := st.Faint.Render("──") + st.Muted.Render(widget.Trunc(t, w-2))
	if rest := w - widget.Width(head); rest > 0 {
		head += st.Faint.Render(strings.Repeat("─", rest))
	}
	lines := append([]string{head}, l.tail(st, table, n, w)...)
	for len(lines) < n+1 {
		lines = append(lines, "")
	}
	for i := range lines {
		lines[i] = widget.Fit(lines[i], w)
	}
	return strings.Join(lines, "\n")
}

// expanded is the whole log in a box of w×h, scrollable.
func (l requestLog) expanded(st styles, table string, w, h int) string {
	inner := w - 2
	shown := max(1, h-2)
	offset := scrollOffset(l.offset, l.cursor, shown, len(l.reqs))
	var lines []string
	cw := l.widths(offset, min(len(l.reqs), offset+shown))
	for i := offset; i < len(l.reqs) && i < offset+shown; i++ {
		s := l.line(st, i+1, table, cw, inner)
		if i == l.cursor {
			s = st.Sel.Render(ansi.Strip(widget.Fit(s, inner)))
		}
		lines = append(lines, s)
	}
	if len(l.reqs) == 0 {
		lines = append(lines, st.Muted.Render("    no requests yet"))
	}
	// The figures before the legend: where the title is cut, the legend goes.
	title := fmt.Sprintf("Requests · %s · %s — %s", plural(len(l.reqs), "request", "requests"), l.totalText(), strings.TrimPrefix(l.title(inner), "Requests — "))
	if l.writes > 0 {
		// The writes first: the legend after them may be cut.
		title = fmt.Sprintf("Requests · %s · %s · %s, %s — %s", plural(len(l.reqs), "request", "requests"), l.totalText(),
			plural(l.writes, "write", "writes"), l.wcuTotalText(), strings.TrimPrefix(l.title(inner), "Requests — "))
	}
	return widget.Box(st, title, lines, w, h, true)
}
