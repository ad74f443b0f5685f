package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
)

// column is one attribute shown in the items table.
type column struct {
	name string // the attribute name as stored
	w    int
}

// itemsPane shows the loaded items: the sort key first, then the attributes
// that fit. Items stay raw; only the rows on screen are ever formatted, so a
// hundred thousand loaded items draw as fast as a hundred.
type itemsPane struct {
	items     []dynamo.Item
	idx       []int // rows shown when filtering: indices into items
	filter    string
	filtering bool // the filter field has the keyboard
	input     lineEdit
	cursor    int
	offset    int

	keyName string          // the attribute shown first
	hide    map[string]bool // key attributes left out of the columns
	firstW  int
	cols    []column
}

// layoutSample bounds the items looked at to choose columns.
const layoutSample = 500

func (p itemsPane) rows() int {
	if p.filter != "" {
		return len(p.idx)
	}
	return len(p.items)
}

// at maps a row to its item index.
func (p itemsPane) at(row int) int {
	if p.filter != "" {
		return p.idx[row]
	}
	return row
}

func (p itemsPane) selected() (dynamo.Item, bool) {
	if p.cursor < 0 || p.cursor >= p.rows() {
		return nil, false
	}
	return p.items[p.at(p.cursor)], true
}

// setSchema names the key attributes: the sort key leads each row, and the
// keys that every row shares are not repeated as columns.
func (p itemsPane) setSchema(ks dynamo.KeySchema) itemsPane {
	p.hide = map[string]bool{ks.PK.Name: true}
	p.keyName = ks.PK.Name
	if ks.SK != nil {
		p.keyName = ks.SK.Name
		p.hide[ks.SK.Name] = true
	}
	return p
}

func (p itemsPane) setItems(items []dynamo.Item, w int) itemsPane {
	p.items = items
	p.cursor, p.offset = 0, 0
	p = p.refilter()
	return p.relayout(w)
}

func (p itemsPane) appendItems(items []dynamo.Item, w int) itemsPane {
	start := len(p.items)
	p.items = append(p.items, items...)
	if p.filter != "" {
		for i := start; i < len(p.items); i++ {
			if p.matches(p.items[i]) {
				p.idx = append(p.idx, i)
			}
		}
	}
	if start < layoutSample {
		p = p.relayout(w)
	}
	return p
}

func (p itemsPane) setFilter(f string) itemsPane {
	p.filter = f
	p.cursor, p.offset = 0, 0
	return p.refilter()
}

func (p itemsPane) refilter() itemsPane {
	p.idx = p.idx[:0]
	if p.filter == "" {
		p.idx = nil
		return p
	}
	for i, it := range p.items {
		if p.matches(it) {
			p.idx = append(p.idx, i)
		}
	}
	p.cursor = clamp(p.cursor, 0, p.rows()-1)
	return p
}

// matches looks for the filter, ignoring case, in the string and number
// values of an item, keys included.
func (p itemsPane) matches(it dynamo.Item) bool {
	f := strings.ToLower(p.filter)
	for _, av := range it {
		var s string
		switch v := av.(type) {
		case *types.AttributeValueMemberS:
			s = v.Value
		case *types.AttributeValueMemberN:
			s = v.Value
		default:
			continue
		}
		if strings.Contains(strings.ToLower(s), f) {
			return true
		}
	}
	return false
}

func (p itemsPane) move(delta, rowsShown int) itemsPane {
	p.cursor = clamp(p.cursor+delta, 0, p.rows()-1)
	p.offset = scrollOffset(p.offset, p.cursor, rowsShown, p.rows())
	return p
}

// preferredNames are attribute names that usually say the most about an
// item; among attributes equally common they come first.
var preferredNames = []string{"name", "title", "status", "state", "type", "total", "amount", "price", "qty", "quantity", "count", "email", "createdAt", "updatedAt", "date"}

// relayout chooses the columns for an inner width w: the attributes most
// items have, short scalars (a status, a total) before free text and
// documents, each as wide as its values up to a cap, as many as fit.
func (p itemsPane) relayout(w int) itemsPane {
	avail := w - 2 // the entity marker
	sample := p.items
	if len(sample) > layoutSample {
		sample = sample[:layoutSample]
	}
	p.firstW = width(Sanitize(p.keyName))
	type stat struct {
		count, widest, total, order int
		doc                         bool
	}
	stats := map[string]*stat{}
	var order []string
	for _, it := range sample {
		if av, ok := it[p.keyName]; ok {
			p.firstW = max(p.firstW, width(Sanitize(dynamo.KeyString(av))))
		}
		for _, name := range sortedKeys(it) {
			if p.hide[name] {
				continue
			}
			st := stats[name]
			if st == nil {
				st = &stat{order: len(order)}
				stats[name] = st
				order = append(order, name)
			}
			cw := width(cellText(it[name]))
			st.count++
			st.total += cw
			st.widest = max(st.widest, cw)
			switch it[name].(type) {
			case *types.AttributeValueMemberS, *types.AttributeValueMemberN, *types.AttributeValueMemberBOOL:
			default:
				st.doc = true
			}
		}
	}
	class := func(name string) int {
		st := stats[name]
		switch {
		case st.doc:
			return 2
		case st.total/st.count > 30:
			return 1 // free text
		}
		return 0
	}
	pref := func(name string) int {
		for i, p := range preferredNames {
			if strings.EqualFold(p, name) {
				return i
			}
		}
		return len(preferredNames)
	}
	sortStable(order, func(a, b string) bool {
		sa, sb := stats[a], stats[b]
		if sa.count != sb.count {
			return sa.count > sb.count
		}
		if ca, cb := class(a), class(b); ca != cb {
			return ca < cb
		}
		return pref(a) < pref(b)
	})
	p.firstW = min(p.firstW, max(12, avail*2/3))
	used := p.firstW
	p.cols = p.cols[:0]
	for _, name := range order {
		cw := clamp(max(stats[name].widest, width(Sanitize(name))), 3, 28)
		room := avail - used - 2
		if room < min(cw, 8) {
			break
		}
		if cw > room {
			cw = room
		}
		p.cols = append(p.cols, column{name: name, w: cw})
		used += 2 + cw
	}
	// Give what is left to the last column, whose values were cut to the cap.
	if n := len(p.cols); n > 0 && used < avail {
		last := &p.cols[n-1]
		if stats[last.name].widest > last.w {
			last.w += min(avail-used, stats[last.name].widest-last.w)
		}
	}
	return p
}

// sortStable is an insertion sort: the sample is small and order must hold.
func sortStable(s []string, less func(a, b string) bool) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && less(s[j], s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func (p itemsPane) header(st styles, inner int) string {
	var b strings.Builder
	b.WriteString("  " + fit(Sanitize(p.keyName), p.firstW))
	for _, c := range p.cols {
		b.WriteString("  " + fit(Sanitize(c.name), c.w))
	}
	return st.colHeader.Render(fit(b.String(), inner))
}

func (p itemsPane) row(st styles, it dynamo.Item, inner int, base lipgloss.Style, marker lipgloss.Style) string {
	var b strings.Builder
	b.WriteString(" " + fit(Sanitize(keyOf(it, p.keyName)), p.firstW))
	for _, c := range p.cols {
		v := ""
		if av, ok := it[c.name]; ok {
			v = cellText(av)
		}
		b.WriteString("  " + fit(v, c.w))
	}
	return marker.Inherit(base).Render("▌") + base.Render(fit(b.String(), inner-1))
}

// itemsChrome is the lines of the pane that are not item rows: frame and header.
const itemsChrome = 3

func (p itemsPane) view(st styles, w, h int, focused bool, title string, colour func(sortKey string) int) string {
	inner := w - 2
	shown := max(1, h-itemsChrome)
	p.offset = scrollOffset(p.offset, p.cursor, shown, p.rows())
	lines := []string{p.header(st, inner)}
	if p.rows() == 0 {
		msg := "no items"
		if p.filter != "" {
			msg = "no loaded item matches the filter"
		}
		lines = append(lines, "  "+st.muted.Render(msg))
	}
	for r := p.offset; r < p.rows() && r < p.offset+shown; r++ {
		it := p.items[p.at(r)]
		base := lipgloss.NewStyle()
		if r == p.cursor && focused {
			base = st.sel
		} else if r == p.cursor {
			base = st.selBlur
		}
		lines = append(lines, p.row(st, it, inner, base, st.entityStyle(colour(keyOf(it, p.keyName)))))
	}
	return box(st, title, lines, w, h, focused)
}

// title says what is loaded and, while filtering, what matches.
func (p itemsPane) title(more bool) string {
	n := fmt.Sprintf("%d", len(p.items))
	if more {
		n += "+"
	}
	t := "Items · " + n + " loaded"
	if p.filter != "" {
		t += fmt.Sprintf(" · /%s matches %d", Sanitize(p.filter), len(p.idx))
	}
	return t
}
