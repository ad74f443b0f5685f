package ui

// Drawing the entity-types pane: its rows, value groups apart from label
// types, and the footer about the selected row.

import (
	"slices"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"dynascope/dynamo"
	"dynascope/keys"
	"dynascope/ui/widget"
)

// label is a type's name — its entity, as groups, layout and the Workbench
// export name it, with the facet name a model gives its prefix beside it as
// the model's own label — and the entity its items' library names when that
// says something else.
func typeLabel(t typeRow, names map[string]string) string {
	name := sanitize(t.Marked()) // ~ when declarations are in use and none matches its keys
	if f := names[t.Prefix]; f != "" && t.Prefix != "" && f != t.Entity {
		name += " (" + sanitize(f) + ")"
	}
	switch {
	case len(t.Libraries) == 1 && !t.Libraries[0].Agrees(t.Entity):
		name += " · " + sanitize(t.Libraries[0].Entity)
	case len(t.Libraries) > 1:
		var es []string
		for _, l := range t.Libraries {
			if !slices.Contains(es, l.Entity) {
				es = append(es, l.Entity)
			}
		}
		name += " · " + sanitize(strings.Join(es, ", "))
	}
	return name
}

// valueRange shows a value group by its range, lowest … highest, in w
// cells: when both do not fit, each end keeps its start ("2023-04-01 …
// 2023-06-07"), which for times and numbers is the part that tells most;
// the footer shows the whole keys. When those starts are the same (both
// ends on one day), the highest shows from the field where it differs
// ("2023-04-01T12:00 … 14:31:00Z"), so the two ends are told apart.
func valueRange(t typeRow, w int) string {
	if t.First == "" {
		return "values"
	}
	lo, hi := sanitize(min(t.First, t.Last)), sanitize(max(t.First, t.Last))
	if hi == "" || lo == hi {
		return lo
	}
	s := lo + " … " + hi
	if widget.Width(s) <= w {
		return s
	}
	room := max(2, w-3)
	half := max(1, room/2)
	a, b := ansi.Truncate(lo, half, ""), ansi.Truncate(hi, half, "")
	if a != b {
		return a + " … " + b
	}
	// Start the highest at the field boundary at or before the first byte
	// that differs, and give the lowest at least up to the end of its own
	// differing field: "2023-04-01T12 … 14:00:00".
	d := 0
	for d < len(lo) && d < len(hi) && lo[d] == hi[d] {
		d++
	}
	p, e := d, d
	for p > 0 && isDigit(hi[p-1]) {
		p--
	}
	for e < len(lo) && isDigit(lo[e]) {
		e++
	}
	tail := hi[p:]
	loW := min(room-1, max(e, room-widget.Width(tail)))
	return ansi.Truncate(lo, loW, "") + " … " + ansi.Truncate(tail, room-loW, "")
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// untilText adds where an unfinished skip-scan's gap ends, when its other
// half found the types past it: ` to SK < "PROFILE"`.
func untilText(c dynamo.SKCond) string {
	if c.Op == dynamo.SKNone {
		return ""
	}
	return " to SK " + resumeText(c)
}

// resumeText is the condition an unfinished skip-scan would go on from: >= "ORDER$".
func resumeText(c dynamo.SKCond) string {
	op := map[dynamo.SKOp]string{dynamo.SKGe: ">= ", dynamo.SKGt: "> ", dynamo.SKLt: "< "}[c.Op]
	if len(c.Values) == 0 {
		return "(the start)"
	}
	return op + sanitize(strconv.Quote(c.Values[0]))
}

// groupRowHeight is two lines (name and count; prefix) unless space is short.
func groupRowHeight(compact bool) int {
	if compact {
		return 1
	}
	return 2
}

func (g groupsPane) view(st styles, w, h int, focused, compact bool, title string, colour func(id string) int) string {
	inner := w - 2
	rh := groupRowHeight(compact)
	shown := max(1, (h-2)/rh)
	attrs := g.attrGroups() // nil: the sort key's types
	lines := g.list().SetHeight(shown).View(inner, widget.Delegate{Render: func(r widget.Row, inner int) []string {
		row, sel := r.Index, r.Cursor
		base := lipgloss.NewStyle()
		if sel && focused {
			base = st.Sel
		} else if sel {
			base = st.SelBlur
		}
		mark := " "
		if row == g.active && (attrs == nil || row == 0) {
			mark = "›"
		}
		markStyle := st.Active.Inherit(base)
		var name, sub, count string
		var block lipgloss.Style
		bar := "▌"
		switch {
		case row == 0:
			name, sub, count = "partition", "no SK condition", g.countText(0)
			block = st.Muted.Inherit(base)
		case attrs != nil:
			// The grouping by attribute: a value per row, as the loaded items hold it.
			a := attrs[row-1]
			name, count = sanitize(a.Value), strconv.Itoa(a.Count) // of the items loaded: the title says so
			sub = sanitize(g.attribute()) + " = " + sanitize(strconv.Quote(a.Value))
			block = st.Entity(row - 1).Inherit(base)
		default:
			t := g.types()[row-1]
			name, count = typeLabel(t, g.names), g.countText(row)
			switch {
			case t.Kind == keys.KindValue && g.keyType() == "S":
				sub = valueRange(t, inner-4)
			case g.keyType() == "":
				sub = "no sort key"
			case t.Prefix == "":
				sub = "all " + sanitize(t.Entity) + " keys"
			case t.Exact:
				sub = "= " + sanitize(t.Prefix)
			case t.Shared:
				sub = sanitize(t.Prefix) + " + " + g.sharers(row-1) // its condition selects them all
			default:
				sub = sanitize(t.Prefix)
			}
			// A label type keeps its name (ORDER, not ORDER#), as the wide
			// pane names it; a facet name keeps the prefix in sight.
			if compact && !t.Exact && t.Prefix != "" {
				if f := g.names[t.Prefix]; f != "" {
					name += " " + sub
				} else if t.Kind == keys.KindValue {
					name = sub
				}
			}
			block = st.Entity(colour(t.ID())).Inherit(base)
			if t.Kind == keys.KindValue {
				bar = "┊" // data, not a label: a dotted bar
			}
		}
		nameW := max(1, inner-4-widget.Width(count)-1)
		line1 := markStyle.Render(mark) + base.Render(" ") + block.Render(bar) + base.Render(" "+widget.Fit(name, nameW)+" "+count)
		if rh == 2 {
			return []string{line1, base.Render("    ") + st.Muted.Inherit(base).Render(widget.Fit(sub, inner-4))}
		}
		return []string{line1}
	}})
	if foot := g.footer(inner - 1); len(foot) > 0 && !compact && g.rows()*rh+1+len(foot) <= h-2 {
		for len(lines) < h-2-len(foot)-1 {
			lines = append(lines, "")
		}
		lines = append(lines, st.Faint.Render(strings.Repeat("─", inner)))
		for _, l := range foot {
			lines = append(lines, " "+st.Muted.Render(widget.Fit(l, inner-1)))
		}
	}
	return widget.Box(st, title, lines, w, h, focused)
}

// footer says more about the selected row, in lines of w cells: a type's
// first and last key, its library entity and what counting it cost; for the
// partition, what the skip-scan found and cost.
func (g groupsPane) footer(w int) []string {
	c := g.cursor()
	switch attrs := g.attrGroups(); {
	case attrs != nil && (c == 0 || c > len(attrs)):
		return g.attrFooter(w)
	case attrs != nil:
		return g.attrValueFooter(attrs[c-1], w)
	case g.keyType() == "":
		return nil
	case c == 0:
		return g.partitionFooter(w)
	case c > len(g.types()):
		return nil
	}
	return g.typeFooter(c-1, w)
}

// attrValueFooter is about one value of the attribute grouping: its first
// and last sort key among the items loaded.
func (g groupsPane) attrValueFooter(a keys.AttributeGroup, w int) []string {
	out := []string{"from " + sanitize(a.First), "to   " + sanitize(a.Last)}
	if !g.complete() {
		out = append(out, "among the items loaded")
	}
	return append(out, widget.WrapWords("enter: filter the request by it", w)...)
}

// countCost is what an exact count took, on one line of w cells or two.
func countCost(reqs int, c dynamo.Capacity, w int) []string {
	s := "counted: " + plural(reqs, "request", "requests") + ", " + fmtRCU(c.Total) + " RCU"
	if widget.Width(s) > w {
		return []string{"counted: " + fmtRCU(c.Total) + " RCU", "in " + plural(reqs, "request", "requests")}
	}
	return []string{s}
}

// partitionFooter is about the partition row: what the skip-scan found or
// why none ran, the attribute grouping on offer, and the count's cost.
func (g groupsPane) partitionFooter(w int) []string {
	out := g.skipScanText()
	if a := g.attribute(); a != "" {
		out = append(out, widget.WrapWords("b groups by "+sanitize(a)+", from the items loaded", w)...)
	}
	if g.stepped != "" && !g.finding {
		out = append(out, widget.WrapWords(g.stepped, w)...)
	}
	if g.partExact >= 0 {
		out = append(out, countCost(g.partReqs, g.partCap, w)...)
	}
	return out
}

// skipScanText is where the skip-scan stands: running, stopped, out of
// budget (and where it would go on), done, or not needed.
func (g groupsPane) skipScanText() []string {
	switch {
	case g.finding:
		return []string{"skip-scan: finding types… (" + plural(g.scanReqs, "request", "requests") + ")"}
	case g.scanErr:
		return []string{"skip-scan stopped: these", "are the types loaded"}
	case g.tbl.Listed() && g.more:
		out := []string{"budget spent (" + plural(g.scanReqs, "request", "requests") + "):",
			"more types may follow", "from SK " + resumeText(g.resume)}
		if g.until.Op != dynamo.SKNone {
			out = append(out, "to SK "+resumeText(g.until))
		}
		return out
	case g.tbl.Listed():
		return []string{"skip-scan: " + plural(len(g.types()), "type", "types") + " in",
			plural(g.scanReqs, "request", "requests") + ", " + fmtRCU(g.scanCap.Total) + " RCU"}
	case g.complete():
		return []string{plural(g.tbl.Pages(), "page holds", "pages hold") + " it all:", "no skip-scan needed"}
	case g.tbl.Pages() == 0 && !g.opening:
		return []string{"enter reads it all", "and lists its types"}
	}
	return nil
}

// typeFooter is about types[i]: its first and last key as far as known,
// the entities a library names in it, and its count or how to get one.
func (g groupsPane) typeFooter(i, w int) []string {
	t := g.types()[i]
	_, known := g.known(i)
	out := keyRange(t, known, w)
	for _, l := range t.Libraries {
		out = append(out, sanitize(l.String()))
	}
	switch {
	case t.Count >= 0:
		c := g.countSpent(t)
		out = append(out, countCost(c.reqs, c.cap, w)...)
	case t.Shared:
		// begins_with its prefix selects the other part too: no count of
		// it is this row's own.
		out = append(out, sanitize(t.Prefix)+" holds "+g.sharers(i), "too: # counts both")
	case !known:
		out = append(out, "# counts it exactly")
	}
	return out
}

// keyRange is a type's first and last key in lines of w cells, as far as
// they are known (known: its count is, so its last key loaded is its last).
func keyRange(t typeRow, known bool, w int) []string {
	// A key too long for the pane drops the prefix the row already shows.
	keyLine := func(label, k string) string {
		s := label + sanitize(k)
		if widget.Width(s) > w && !t.Exact && t.Prefix != "" && strings.HasPrefix(k, t.Prefix) {
			s = label + "…" + sanitize(k[len(t.Prefix):])
		}
		return s
	}
	switch {
	case t.First == "" && t.Last == "":
		return nil
	case t.First == "":
		// Found walking from the end: the skip-scan read its last key only.
		return []string{"from not known", keyLine("to   ", t.Last)}
	case t.Exact || (t.First == t.Last && (t.Discovered || known)):
		return []string{keyLine("key  ", t.First)}
	case (t.Discovered || known) && t.Last != "":
		from, to := keyLine("from ", t.First), keyLine("to   ", t.Last)
		if widget.Width(from) > w || widget.Width(to) > w {
			// Too narrow for labels: the keys alone, under a heading.
			return []string{"first and last key:", keyLine("", t.First), keyLine("", t.Last)}
		}
		return []string{from, to}
	}
	return []string{keyLine("from ", t.First), "to   not known yet"}
}
