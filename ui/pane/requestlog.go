package pane

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/textfmt"
	"dynascope/ui/request"
	"dynascope/ui/theme"
	"dynascope/ui/widget"
)

// RequestLog is every request of the session with what it returned and what
// it cost. The figures are DynamoDB's own, from ConsumedCapacity.
type RequestLog struct {
	Reqs  []dynamo.Request
	Kinds []string        // what each request was for besides the query: "skip-scan", "COUNT"
	Pages []int           // the page of its query or count each request asked for: 1, 2, ...
	Ins   []request.Input // what each request asked, for its code
	Total dynamo.Capacity // of the reads
	// Unknown counts the reads whose answer reported no capacity: the
	// total is then a lower bound ("at least"), never a 0 nobody said.
	Unknown int
	Writes  int     // the writes among reqs (AddWrite)
	WCU     float64 // what they consumed, as reported
	// WCUUnknown counts the writes whose answer reported no capacity (a
	// refusal, which DynamoDB Local answers without a figure, or no
	// answer at all): the writes' sum is then at least wcu, never a 0
	// nobody said.
	WCUUnknown int
	Cursor     int // in the expanded log
	Offset     int
	// Whys says why a request is as it is where its line cannot (the
	// first page sized to the screen), by its index: the detail of its
	// line in the expanded log says it. A map written only through Why.
	Whys map[int]string
}

// Why notes why the request added last is as it is, for the detail of
// its line.
func (l RequestLog) Why(why string) RequestLog {
	if len(l.Reqs) == 0 {
		return l
	}
	w := make(map[int]string, len(l.Whys)+1)
	for k, v := range l.Whys {
		w[k] = v
	}
	w[len(l.Reqs)-1] = why
	l.Whys = w
	return l
}

// detailLines is the detail of request i's line in the expanded log, in
// lines of w cells: the whole of its key condition (a line cuts it),
// filter, projection or statement, and why it is as it is.
func (l RequestLog) detailLines(st theme.Styles, i, w int) []string {
	r := l.Reqs[i]
	var parts []string
	switch {
	case r.Statement != "":
		parts = append(parts, "statement "+textfmt.Sanitize(r.Statement))
	case r.KeyCondition != "":
		parts = append(parts, "key condition "+textfmt.Sanitize(r.KeyCondition))
	}
	if r.Filter != "" {
		parts = append(parts, "filter "+textfmt.Sanitize(r.Filter))
	}
	if r.Projection != "" {
		parts = append(parts, "projection "+textfmt.Sanitize(r.Projection))
	}
	if why := l.Whys[i]; why != "" {
		parts = append(parts, why)
	}
	var out []string
	for _, p := range parts {
		for _, s := range widget.WrapWords(p, max(8, w-6)) {
			out = append(out, "      "+st.Muted.Render(s))
		}
	}
	return out
}

// Add logs a read: its request, what it was for besides the query (kind:
// "skip-scan", "COUNT"), its page and what it asked, for its code.
func (l RequestLog) Add(r dynamo.Request, kind string, page int, in request.Input) RequestLog {
	l.Reqs = append(l.Reqs, r)
	l.Kinds = append(l.Kinds, kind)
	l.Pages = append(l.Pages, page)
	l.Ins = append(l.Ins, in)
	l.Total = l.Total.Add(r.Capacity)
	if r.NoCapacity {
		l.Unknown++
	}
	l.Cursor = len(l.Reqs) - 1
	return l
}

// TotalText is the reads' total for the status line: "≥ 1.5 RCU" when
// some reported no capacity, "unknown RCU" when all of them did.
func (l RequestLog) TotalText() string {
	switch {
	case l.Unknown > 0 && l.Unknown == len(l.Reqs)-l.Writes:
		return "unknown RCU"
	case l.Unknown > 0:
		return "≥ " + textfmt.Units(l.Total.Total) + " RCU"
	}
	return textfmt.Units(l.Total.Total) + " RCU"
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

// AddWrite logs a request of guarded editing: a write, kept apart from
// the reads (its own kind and colour, its WCU outside the reads' total),
// or the read after a failed condition, which is a read like any other.
func (l RequestLog) AddWrite(r dynamo.Request) RequestLog {
	if !edit.IsWriteNote(r.Note) {
		return l.Add(r, "read again after a write", 1, request.Input{})
	}
	l = l.Add(r, "write", 1, request.Input{})
	l.Total = l.Total.Add(dynamo.Capacity{Total: -r.Capacity.Total, Table: -r.Capacity.Table})
	l.Writes++
	l.WCU += r.Capacity.Total
	if r.NoCapacity {
		l.Unknown-- // a write's, not a read's: the reads' total stays as it is
		l.WCUUnknown++
	}
	return l
}

// wcuTotalText is the writes' sum for the log's title: "≥ 2 WCU" when
// some reported no capacity, "unknown WCU" when none did.
func (l RequestLog) wcuTotalText() string {
	switch {
	case l.WCUUnknown > 0 && l.WCUUnknown == l.Writes:
		return "unknown WCU"
	case l.WCUUnknown > 0:
		return "≥ " + textfmt.Units(l.WCU) + " WCU"
	}
	return textfmt.Units(l.WCU) + " WCU"
}

// writeLine is one write of the log: what, where, the WCU it consumed
// ("unknown" where its answer said nothing, or none came).
func (l RequestLog) writeLine(st theme.Styles, n, w int) string {
	r := l.Reqs[n-1]
	head := widget.PadLeft(fmt.Sprintf("%d", n), 3) + " " + st.WritesOn.Render(writeLabel(r)) + " " + widget.Fit(r.Operation, 18) + " "
	units := textfmt.Units(r.Capacity.Total) + " WCU"
	if r.NoCapacity {
		units = "unknown WCU"
	}
	right := fmt.Sprintf("  %s  %7s", units, fmtDuration(r.Duration))
	if r.Err != nil {
		right = "  " + st.Err.Render(writeFailure(r.Err)) + right
	}
	return widget.Fit(head+widget.Fit(textfmt.Sanitize(r.KeyCondition), max(8, w-widget.Width(head)-widget.Width(right)))+right, w)
}

// Move moves the expanded log's cursor by delta in a window of h lines.
func (l RequestLog) Move(delta, h int) RequestLog {
	l.Cursor = widget.Clamp(l.Cursor+delta, 0, len(l.Reqs)-1)
	l.Offset = widget.ScrollOffset(l.Offset, l.Cursor, h, len(l.Reqs))
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
func (l RequestLog) line(st theme.Styles, n int, table string, cw colWidths, w int) string {
	if l.Kinds[n-1] == "write" {
		return l.writeLine(st, n, w)
	}
	if l.Kinds[n-1] == "stream" {
		return streamLogLine(st, n, l.Reqs[n-1], w) // live_log.go
	}
	r := l.Reqs[n-1]
	seq := widget.PadLeft(fmt.Sprintf("%d", n), 3)
	target := ""
	if r.Table != table {
		target = textfmt.Sanitize(r.Table)
	}
	if r.Index != "" {
		if target != "" {
			target += "/"
		}
		target += textfmt.Sanitize(r.Index)
	}
	if target != "" {
		target += " "
	}
	// The kind (skip-scan, COUNT) and the page stay when the condition is cut.
	kind, page := "", ""
	kindText := l.Kinds[n-1]
	if kindText != "" {
		kind = st.Accent.Render(kindText) + " "
	}
	if p := l.Pages[n-1]; p > 1 {
		page = st.Muted.Render(fmt.Sprintf(" · page %d", p))
	}
	condText := textfmt.Sanitize(r.KeyCondition)
	if r.Filter != "" {
		condText += " filter " + textfmt.Sanitize(r.Filter)
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
		tail := st.Err.Render("✗ " + textfmt.Sanitize(r.Err.Error()))
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
func (l RequestLog) widths(from, to int) colWidths {
	cw := colWidths{counts: 7, capacity: 7}
	for i := from; i < to; i++ {
		r := l.Reqs[i]
		cw.capacity = max(cw.capacity, widget.Width(reqCapacity(r, true)))
		cw.counts = max(cw.counts, widget.Width(countsText(r)))
	}
	cw.capacity = min(cw.capacity, 40)
	return cw
}

// Tail is the last n requests, oldest first, for the collapsed log.
func (l RequestLog) Tail(st theme.Styles, table string, n, w int) []string {
	var out []string
	start := max(0, len(l.Reqs)-n)
	cw := l.widths(start, len(l.Reqs))
	for i := start; i < len(l.Reqs); i++ {
		out = append(out, l.line(st, i+1, table, cw, w))
	}
	if len(l.Reqs) == 0 && n > 0 {
		out = append(out, st.Muted.Render("    no requests yet"))
	}
	return out
}

// title of the log section, with the legend of its columns.
func (l RequestLog) title(w int) string {
	if w >= 100 {
		return "Requests — key condition · direction · Limit · returned/scanned · consumed capacity · duration"
	}
	return "Requests — returned/scanned · capacity · duration"
}

// Collapsed is the log under the panes: a rule with the title, then the tail.
func (l RequestLog) Collapsed(st theme.Styles, table string, n, w int) string {
	t := " " + l.title(w) + " "
	head := st.Faint.Render("──") + st.Muted.Render(widget.Trunc(t, w-2))
	if rest := w - widget.Width(head); rest > 0 {
		head += st.Faint.Render(strings.Repeat("─", rest))
	}
	lines := append([]string{head}, l.Tail(st, table, n, w)...)
	for len(lines) < n+1 {
		lines = append(lines, "")
	}
	for i := range lines {
		lines[i] = widget.Fit(lines[i], w)
	}
	return strings.Join(lines, "\n")
}

// Expanded is the whole log in a box of w×h, scrollable.
func (l RequestLog) Expanded(st theme.Styles, table string, w, h int) string {
	inner := w - 2
	shown := max(1, h-2)
	// The selected line's detail, under it, takes rows of its own (at most
	// half of them): the whole condition a line cuts (issue 37.6).
	var detail []string
	if l.Cursor >= 0 && l.Cursor < len(l.Reqs) {
		detail = l.detailLines(st, l.Cursor, inner)
		detail = detail[:min(len(detail), shown/2)]
	}
	rows := max(1, shown-len(detail))
	offset := widget.ScrollOffset(l.Offset, l.Cursor, rows, len(l.Reqs))
	var lines []string
	cw := l.widths(offset, min(len(l.Reqs), offset+rows))
	for i := offset; i < len(l.Reqs) && i < offset+rows; i++ {
		s := l.line(st, i+1, table, cw, inner)
		if i == l.Cursor {
			s = st.Sel.Render(ansi.Strip(widget.Fit(s, inner)))
			lines = append(lines, s)
			lines = append(lines, detail...)
			continue
		}
		lines = append(lines, s)
	}
	if len(l.Reqs) == 0 {
		lines = append(lines, st.Muted.Render("    no requests yet"))
	}
	// The figures before the legend: where the title is cut, the legend goes.
	title := fmt.Sprintf("Requests · %s · %s — %s", textfmt.Plural(len(l.Reqs), "request", "requests"), l.TotalText(), strings.TrimPrefix(l.title(inner), "Requests — "))
	if l.Writes > 0 {
		// The writes first: the legend after them may be cut.
		title = fmt.Sprintf("Requests · %s · %s · %s, %s — %s", textfmt.Plural(len(l.Reqs), "request", "requests"), l.TotalText(),
			textfmt.Plural(l.Writes, "write", "writes"), l.wcuTotalText(), strings.TrimPrefix(l.title(inner), "Requests — "))
	}
	return widget.Box(st, title, lines, w, h, true)
}

// capacityText is a request's consumed capacity: the total, and where it was
// consumed (the table, each index) as DynamoDB reported it.
func capacityText(c dynamo.Capacity, parts bool) string {
	s := textfmt.Units(c.Total) + " RCU"
	if !parts {
		return s
	}
	if len(c.Indexes) == 0 {
		return s + " table"
	}
	var p []string
	if c.Table != 0 {
		p = append(p, "table "+textfmt.Units(c.Table))
	}
	names := make([]string, 0, len(c.Indexes))
	for n := range c.Indexes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p = append(p, textfmt.Sanitize(n)+" "+textfmt.Units(c.Indexes[n]))
	}
	return s + " (" + strings.Join(p, ", ") + ")"
}

// writeLabel marks a write in the request log, an undo apart from an edit.
func writeLabel(r dynamo.Request) string {
	if strings.HasPrefix(r.Note, edit.NoteUndo) {
		return " UNDO  "
	}
	return " WRITE "
}

// writeFailure says what came of a write in the request log that got no
// success: refused by its condition (the item had changed), no answer (in
// doubt: it may still be applied), or failed (not applied).
func writeFailure(err error) string {
	switch edit.RequestState(err) {
	case edit.StateRefused:
		return "refused: the item had changed"
	case edit.StateInDoubt:
		return "no answer: in doubt"
	}
	return "failed"
}
