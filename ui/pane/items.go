package pane

import (
	"fmt"
	"math"
	"strings"

	"charm.land/lipgloss/v2"

	"dynascope/dynamo"
	"dynascope/textfmt"
	"dynascope/ui/theme"
	"dynascope/ui/widget"
)

// column is one attribute shown in the items table.
type column struct {
	Name string // the attribute name as stored
	W    int
}

// Items is the items pane: it shows the loaded items: the sort key first, then the attributes
// that fit. Items are kept compact (ItemStore) and only the rows on screen
// are decoded and formatted, so a hundred thousand loaded items draw as fast
// as a hundred. Beyond a cap the pages farthest from the cursor are released
// and read again when scrolled to (items_cap.go).
type Items struct {
	Store ItemStore
	// changed marks, for a moment, the item a live record just changed:
	// its sort key under the attribute changedAttr ("" when none).
	Changed, ChangedAttr string
	Idx                  []int // rows shown when filtering: indices into the store
	Filter               string
	needle               []rune // the filter lower-cased
	Fgen                 int    // generation of the filter: chunks of an older one are dropped
	Scan                 filterScan
	Filtering            bool // the filter field has the keyboard
	Input                widget.LineEdit
	// list is the cursor and the window over the rows shown (nav), and
	// the marks, by itemID: a mark stays while its item's page is released
	// and read again, or the filter hides it.
	List   widget.List
	anchor markAnchor // where a range of marks starts (MarkRange)

	KeyName string          // the attribute shown first
	hide    map[string]bool // key attributes left out of the columns
	idKeys  []string        // the table's key attributes, which name an item (itemID)
	stats   colStats
	firstW  int
	Cols    []column

	Refetching    int // page number being read again, 0 for none
	RefetchFailed int // page number whose re-fetch failed: not retried until the cursor moves to another page
}

// Loaded is the number of items read: rows, released pages included.
func (p Items) Loaded() int { return p.Store.Total }

// Rows is how many rows are shown: the matches while filtering, else every
// item loaded.
func (p Items) Rows() int {
	if p.Filter != "" {
		return len(p.Idx)
	}
	return p.Store.Total
}

// At maps a row to its item index.
func (p Items) At(row int) int {
	if p.Filter != "" {
		return p.Idx[row]
	}
	return row
}

// Nav is the list over the rows shown now: pages and the filter's matches
// arrive without it, so it is told their number again before each use.
func (p Items) Nav() widget.List { return p.List.SetLen(p.Rows()) }

// Cursor is the row under the cursor, 0 when there is none.
func (p Items) Cursor() int { return p.Nav().Cursor() }

// Selected is the item under the cursor, if its page is in memory.
func (p Items) Selected() (dynamo.Item, bool) {
	row, ok := p.Nav().Selected()
	if !ok {
		return nil, false
	}
	return p.Store.Item(p.At(row))
}

// SetSchema names the key attributes: the sort key leads each row, and the
// keys that every row shares are not repeated as columns. Read through an
// index, items are still named by the table's key, which the index keeps.
func (p Items) SetSchema(ks dynamo.KeySchema) Items {
	p.hide = map[string]bool{ks.PK.Name: true}
	p.KeyName = ks.PK.Name
	p.idKeys = []string{ks.PK.Name}
	if ks.SK != nil {
		p.KeyName = ks.SK.Name
		p.hide[ks.SK.Name] = true
		p.idKeys = append(p.idKeys, ks.SK.Name)
	}
	if ks.Index != "" {
		p.idKeys = ks.Base
	}
	return p
}

// ItemID names an item for its mark: its table key's values in DynamoDB's
// words (strings quoted, numbers bare, binary as b"base64"; dynamo.KeyText)
// joined by a space. A quoted string ends at its one unescaped quote, so
// no two keys share an id, and the key can be read back from it with the
// table's schema; the page an item is on plays no part.
func (p Items) ItemID(it dynamo.Item) string {
	parts := make([]string, len(p.idKeys))
	for i, name := range p.idKeys {
		parts[i] = dynamo.KeyText(it[name])
	}
	return strings.Join(parts, " ")
}

// SetItems shows new results: their first page.
func (p Items) SetItems(items []dynamo.Item, w int) Items {
	p.Store, p.stats = ItemStore{}.WithNames(), colStats{}
	p = p.AddPage(items, nil, 1)
	p.List, p.Refetching = p.List.Home(), 0 // marks stay: an item keeps its id in new results
	p = p.rescan()
	return p.Relayout(w)
}

// AppendPage adds a further page, read with startKey as page no, and keeps
// what is in memory within maxItems (0: no cap) by releasing the pages
// farthest from the cursor.
func (p Items) AppendPage(items []dynamo.Item, startKey dynamo.Item, no, maxItems, w, shown int) Items {
	done := !p.Scanning()
	p = p.AddPage(items, startKey, no)
	var released bool
	p, released = p.Trim(maxItems, len(p.Store.Pages)-1, shown)
	switch {
	case released:
		p = p.rescan()
	case p.Filter != "" && done:
		p = p.advance(math.MaxInt, len(items)) // only the new rows are left
	}
	return p.Relayout(w)
}

// AddPage stores a page and folds it into the column stats, in one pass.
func (p Items) AddPage(items []dynamo.Item, startKey dynamo.Item, no int) Items {
	p.Store = p.Store.WithNames()
	f := p.stats.folder(p.Store.names, p.KeyName)
	p.Store = p.Store.Add(items, startKey, no, f.visit)
	p.stats = f.done()
	return p
}

// Move moves the cursor by delta in a window of rowsShown rows.
func (p Items) Move(delta, rowsShown int) Items {
	if p.Scanning() {
		// Matches up to a screen past where the cursor goes, if found soon.
		cur := p.Cursor()
		want := cur + widget.Clamp(delta, -cur, 1<<20) + 2*rowsShown
		p = p.advance(want, FilterSyncBudget)
	}
	before := p.Store.PageOf(p.cursorItem())
	p.List = p.Nav().SetHeight(rowsShown).Move(delta)
	if p.Store.PageOf(p.cursorItem()) != before {
		p.RefetchFailed = 0
	}
	return p
}

func (p Items) header(st theme.Styles, inner int) string {
	var b strings.Builder
	b.WriteString("  " + widget.Fit(textfmt.Sanitize(p.KeyName), p.firstW))
	for _, c := range p.Cols {
		b.WriteString("  " + widget.Fit(textfmt.Sanitize(c.Name), c.W))
	}
	return st.ColHeader.Render(widget.Fit(b.String(), inner))
}

// MarkGlyph leads a marked item's row, where an unmarked one has a space:
// seen without colour.
const MarkGlyph = "✓"

func (p Items) row(st theme.Styles, it dynamo.Item, inner int, base lipgloss.Style, marker lipgloss.Style, marked bool) string {
	var b strings.Builder
	lead := base.Render(" ")
	if marked {
		lead = st.Accent.Inherit(base).Bold(true).Render(MarkGlyph)
	}
	b.WriteString(widget.Fit(textfmt.Sanitize(KeyOf(it, p.KeyName)), p.firstW))
	for _, c := range p.Cols {
		v := ""
		if av, ok := it[c.Name]; ok {
			v = CellText(av)
		}
		b.WriteString("  " + widget.Fit(v, c.W))
	}
	return marker.Inherit(base).Render("▌") + lead + base.Render(widget.Fit(b.String(), inner-2))
}

// ItemsChrome is the lines of the pane that are not item rows: frame and header.
const ItemsChrome = 3

// View draws the pane in w×h: the title, the header and the rows on
// screen, each marked with its entity type's colour.
func (p Items) View(st theme.Styles, w, h int, focused bool, title string, colour func(sortKey string) int) string {
	inner := w - 2
	l := p.Nav().SetHeight(max(1, h-ItemsChrome))
	lines := []string{p.header(st, inner)}
	if l.Len() == 0 {
		msg := "no items"
		switch out := p.Store.Total - p.Store.InMemory; {
		case p.Filter != "" && out > 0:
			msg = fmt.Sprintf("no item in memory matches; %d in released pages were not searched", out)
		case p.Filter != "":
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
func (p Items) rowLine(st theme.Styles, r widget.Row, inner int, focused bool, colour func(sortKey string) int) string {
	base := lipgloss.NewStyle()
	if r.Cursor && focused {
		base = st.Sel
	} else if r.Cursor {
		base = st.SelBlur
	}
	it, ok := p.Store.Item(p.At(r.Index))
	if !ok {
		return p.placeholder(st, p.At(r.Index), inner, base)
	}
	if p.Changed != "" && KeyOf(it, p.ChangedAttr) == p.Changed {
		base = base.Inherit(st.OK).Bold(true) // bold too: seen without colour
	}
	return p.row(st, it, inner, base, st.Entity(colour(KeyOf(it, p.KeyName))), p.List.Marked(p.ItemID(it)))
}

// Title says what is loaded and, while filtering, what matches.
func (p Items) Title(more bool) string {
	n := fmt.Sprintf("%d", p.Store.Total)
	if more {
		n += "+"
	}
	t := "Items · " + n + " loaded"
	if p.Store.InMemory < p.Store.Total {
		t += fmt.Sprintf(" (%d in memory)", p.Store.InMemory)
	}
	if p.Filter != "" {
		t += " · /" + textfmt.Sanitize(p.Filter) + " " + p.MatchesText()
	}
	return t
}
