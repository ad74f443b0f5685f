package ui

import (
	"fmt"
	"math"
	"strings"

	"charm.land/lipgloss/v2"

	"dynascope/dynamo"
	"dynascope/ui/widget"
)

// column is one attribute shown in the items table.
type column struct {
	name string // the attribute name as stored
	w    int
}

// itemsPane shows the loaded items: the sort key first, then the attributes
// that fit. Items are kept compact (itemStore) and only the rows on screen
// are decoded and formatted, so a hundred thousand loaded items draw as fast
// as a hundred. Beyond a cap the pages farthest from the cursor are released
// and read again when scrolled to (itemscap.go).
type itemsPane struct {
	store itemStore
	// changed marks, for a moment, the item a live record just changed:
	// its sort key under the attribute changedAttr ("" when none).
	changed, changedAttr string
	idx                  []int // rows shown when filtering: indices into the store
	filter               string
	needle               []rune // the filter lower-cased
	fgen                 int    // generation of the filter: chunks of an older one are dropped
	scan                 filterScan
	filtering            bool // the filter field has the keyboard
	input                widget.LineEdit
	// list is the cursor and the window over the rows shown (nav), and
	// the marks, by itemID: a mark stays while its item's page is released
	// and read again, or the filter hides it.
	list widget.List

	keyName string          // the attribute shown first
	hide    map[string]bool // key attributes left out of the columns
	idKeys  []string        // the table's key attributes, which name an item (itemID)
	stats   colStats
	firstW  int
	cols    []column

	refetching    int // page number being read again, 0 for none
	refetchFailed int // page number whose re-fetch failed: not retried until the cursor moves to another page
}

// loaded is the number of items read: rows, released pages included.
func (p itemsPane) loaded() int { return p.store.total }

func (p itemsPane) rows() int {
	if p.filter != "" {
		return len(p.idx)
	}
	return p.store.total
}

// at maps a row to its item index.
func (p itemsPane) at(row int) int {
	if p.filter != "" {
		return p.idx[row]
	}
	return row
}

// nav is the list over the rows shown now: pages and the filter's matches
// arrive without it, so it is told their number again before each use.
func (p itemsPane) nav() widget.List { return p.list.SetLen(p.rows()) }

// cursor is the row under the cursor, 0 when there is none.
func (p itemsPane) cursor() int { return p.nav().Cursor() }

func (p itemsPane) selected() (dynamo.Item, bool) {
	row, ok := p.nav().Selected()
	if !ok {
		return nil, false
	}
	return p.store.item(p.at(row))
}

// setSchema names the key attributes: the sort key leads each row, and the
// keys that every row shares are not repeated as columns. Read through an
// index, items are still named by the table's key, which the index keeps.
func (p itemsPane) setSchema(ks dynamo.KeySchema) itemsPane {
	p.hide = map[string]bool{ks.PK.Name: true}
	p.keyName = ks.PK.Name
	p.idKeys = []string{ks.PK.Name}
	if ks.SK != nil {
		p.keyName = ks.SK.Name
		p.hide[ks.SK.Name] = true
		p.idKeys = append(p.idKeys, ks.SK.Name)
	}
	if ks.Index != "" {
		p.idKeys = ks.Base
	}
	return p
}

// itemID names an item for its mark: its table key's values in DynamoDB's
// words (strings quoted, numbers bare, binary as b"base64"; dynamo.KeyText)
// joined by a space. A quoted string ends at its one unescaped quote, so
// no two keys share an id, and the key can be read back from it with the
// table's schema; the page an item is on plays no part.
func (p itemsPane) itemID(it dynamo.Item) string {
	parts := make([]string, len(p.idKeys))
	for i, name := range p.idKeys {
		parts[i] = dynamo.KeyText(it[name])
	}
	return strings.Join(parts, " ")
}

// setItems shows new results: their first page.
func (p itemsPane) setItems(items []dynamo.Item, w int) itemsPane {
	p.store, p.stats = itemStore{}.withNames(), colStats{}
	p = p.addPage(items, nil, 1)
	p.list, p.refetching = p.list.Home(), 0 // marks stay: an item keeps its id in new results
	p = p.rescan()
	return p.relayout(w)
}

// appendPage adds a further page, read with startKey as page no, and keeps
// what is in memory within maxItems (0: no cap) by releasing the pages
// farthest from the cursor.
func (p itemsPane) appendPage(items []dynamo.Item, startKey dynamo.Item, no, maxItems, w, shown int) itemsPane {
	done := !p.scanning()
	p = p.addPage(items, startKey, no)
	var released bool
	p, released = p.trim(maxItems, len(p.store.pages)-1, shown)
	switch {
	case released:
		p = p.rescan()
	case p.filter != "" && done:
		p = p.advance(math.MaxInt, len(items)) // only the new rows are left
	}
	return p.relayout(w)
}

// addPage stores a page and folds it into the column stats, in one pass.
func (p itemsPane) addPage(items []dynamo.Item, startKey dynamo.Item, no int) itemsPane {
	p.store = p.store.withNames()
	f := p.stats.folder(p.store.names, p.keyName)
	p.store = p.store.add(items, startKey, no, f.visit)
	p.stats = f.done()
	return p
}

func (p itemsPane) move(delta, rowsShown int) itemsPane {
	if p.scanning() {
		// Matches up to a screen past where the cursor goes, if found soon.
		cur := p.cursor()
		want := cur + clamp(delta, -cur, 1<<20) + 2*rowsShown
		p = p.advance(want, filterSyncBudget)
	}
	before := p.store.pageOf(p.cursorItem())
	p.list = p.nav().SetHeight(rowsShown).Move(delta)
	if p.store.pageOf(p.cursorItem()) != before {
		p.refetchFailed = 0
	}
	return p
}

func (p itemsPane) header(st styles, inner int) string {
	var b strings.Builder
	b.WriteString("  " + widget.Fit(sanitize(p.keyName), p.firstW))
	for _, c := range p.cols {
		b.WriteString("  " + widget.Fit(sanitize(c.name), c.w))
	}
	return st.ColHeader.Render(widget.Fit(b.String(), inner))
}

func (p itemsPane) row(st styles, it dynamo.Item, inner int, base lipgloss.Style, marker lipgloss.Style) string {
	var b strings.Builder
	b.WriteString(" " + widget.Fit(sanitize(keyOf(it, p.keyName)), p.firstW))
	for _, c := range p.cols {
		v := ""
		if av, ok := it[c.name]; ok {
			v = cellText(av)
		}
		b.WriteString("  " + widget.Fit(v, c.w))
	}
	return marker.Inherit(base).Render("▌") + base.Render(widget.Fit(b.String(), inner-1))
}

// itemsChrome is the lines of the pane that are not item rows: frame and header.
const itemsChrome = 3

func (p itemsPane) view(st styles, w, h int, focused bool, title string, colour func(sortKey string) int) string {
	inner := w - 2
	l := p.nav().SetHeight(max(1, h-itemsChrome))
	lines := []string{p.header(st, inner)}
	if l.Len() == 0 {
		msg := "no items"
		switch out := p.store.total - p.store.inMemory; {
		case p.filter != "" && out > 0:
			msg = fmt.Sprintf("no item in memory matches; %d in released pages were not searched", out)
		case p.filter != "":
			msg = "no loaded item matches the filter"
		}
		lines = append(lines, "  "+st.Muted.Render(msg))
	}
	lines = append(lines, l.View(inner, widget.Delegate{Render: func(r widget.Row, inner int) []string {
		return []string{p.rowLine(st, r, inner, focused, colour)}
	}})...)
	return widget.Box(st, title, lines, w, h, focused)
}

// rowLine draws row r: its item, or the placeholder of a released page.
func (p itemsPane) rowLine(st styles, r widget.Row, inner int, focused bool, colour func(sortKey string) int) string {
	base := lipgloss.NewStyle()
	if r.Cursor && focused {
		base = st.Sel
	} else if r.Cursor {
		base = st.SelBlur
	}
	it, ok := p.store.item(p.at(r.Index))
	if !ok {
		return p.placeholder(st, p.at(r.Index), inner, base)
	}
	if p.changed != "" && keyOf(it, p.changedAttr) == p.changed {
		base = base.Inherit(st.OK).Bold(true) // bold too: seen without colour
	}
	return p.row(st, it, inner, base, st.Entity(colour(keyOf(it, p.keyName))))
}

// title says what is loaded and, while filtering, what matches.
func (p itemsPane) title(more bool) string {
	n := fmt.Sprintf("%d", p.store.total)
	if more {
		n += "+"
	}
	t := "Items · " + n + " loaded"
	if p.store.inMemory < p.store.total {
		t += fmt.Sprintf(" (%d in memory)", p.store.inMemory)
	}
	if p.filter != "" {
		t += " · /" + sanitize(p.filter) + " " + p.matchesText()
	}
	return t
}
