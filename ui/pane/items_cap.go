package pane

import (
	"dynascope/dynamo"
	"dynascope/ui/theme"
	"dynascope/ui/widget"
	"fmt"
	"slices"

	"charm.land/lipgloss/v2"
)

// refetchable tells whether a page can be read again: the first page with no
// ExclusiveStartKey, any other with the one it was read with.
func (p StoredPage) refetchable() bool { return p.No == 1 || p.StartKey != nil }

// Trim releases whole pages, farthest from the cursor first, until what is
// in memory is within maxItems (0: no cap). It never releases page keep (the
// one just read), the cursor's or one with rows among the shown rows on
// screen: those would be read again at once, and with a cap smaller than a
// screen two pages would push each other out for ever, a request each time.
// It tells whether it released any.
func (p Items) Trim(maxItems, keep, shown int) (Items, bool) {
	if maxItems <= 0 || p.Store.InMemory <= maxItems {
		return p, false
	}
	cur := p.cursorItem()
	onScreen := p.pagesOnScreen(shown)
	released := false
	for p.Store.InMemory > maxItems {
		far, dist := -1, -1
		for i, pg := range p.Store.Pages {
			if i == keep || slices.Contains(onScreen, i) || !pg.Resident() || !pg.refetchable() {
				continue
			}
			d := 0
			if cur < pg.First {
				d = pg.First - cur
			} else if last := pg.First + pg.N - 1; cur > last {
				d = cur - last
			}
			if d > dist {
				far, dist = i, d
			}
		}
		if far < 0 {
			break
		}
		p.Store = p.Store.Release(far)
		released = true
	}
	return p, released
}

// pagesOnScreen are the indexes of the pages with a row among the shown
// rows on screen, the cursor's first.
func (p Items) pagesOnScreen(shown int) []int {
	if p.Store.Total == 0 {
		return nil
	}
	out := []int{p.Store.PageOf(p.cursorItem())}
	from, to := p.Nav().SetHeight(shown).Window()
	for r := from; r < to; r++ {
		if i := p.Store.PageOf(p.At(r)); !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out
}

// cursorItem is the store row under the cursor, 0 when there is none.
func (p Items) cursorItem() int {
	if row, ok := p.Nav().Selected(); ok {
		return p.At(row)
	}
	return 0
}

// WantPage is the index of a released page the user looks at (the cursor's,
// or one on screen), or -1.
func (p Items) WantPage(shown int) int {
	if p.Filter != "" || p.Store.Total == 0 {
		return -1
	}
	off := p.Nav().SetHeight(shown).Offset()
	rows := []int{p.cursorItem()}
	for r := off; r < min(off+shown, p.Store.Total); {
		rows = append(rows, r)
		pg := p.Store.Pages[p.Store.PageOf(r)]
		r = pg.First + pg.N
	}
	for _, r := range rows {
		i := p.Store.PageOf(r)
		if pg := p.Store.Pages[i]; !pg.Resident() && pg.refetchable() && pg.No != p.RefetchFailed {
			return i
		}
	}
	return -1
}

// RestorePage puts page no back with its items read again, and trims around
// it. It returns how many items the page had before.
func (p Items) RestorePage(no int, items []dynamo.Item, maxItems, shown int) (Items, int, bool) {
	i := -1
	for j, pg := range p.Store.Pages {
		if pg.No == no {
			i = j
		}
	}
	if i < 0 || p.Store.Pages[i].Resident() {
		return p, 0, false // results changed or the page is back already
	}
	before := p.Store.Pages[i].N
	p.Store = p.Store.Restore(i, items)
	p.RefetchFailed = 0
	p, _ = p.Trim(maxItems, i, shown)
	// Column stats stay: they counted the page when it first came.
	return p.rescan(), before, true
}

// placeholder is the row of an item whose page was released.
func (p Items) placeholder(st theme.Styles, r, inner int, base lipgloss.Style) string {
	pg := p.Store.Pages[p.Store.PageOf(r)]
	var s string
	switch {
	case p.Refetching == pg.No:
		s = fmt.Sprintf("page %d · re-fetching…", pg.No)
	case p.RefetchFailed == pg.No:
		s = fmt.Sprintf("page %d · released; reading it again failed — n tries again", pg.No)
	default:
		s = fmt.Sprintf("page %d · released to keep memory within the cap", pg.No)
	}
	return base.Render(" " + widget.Fit(st.Muted.Render("  ⋯ "+s), inner-1))
}

// FailedRefetch is the released page whose re-read failed, if it is still
// out of memory: what n tries again.
func (p Items) FailedRefetch() (StoredPage, bool) {
	for _, pg := range p.Store.Pages {
		if pg.No == p.RefetchFailed && !pg.Resident() && pg.refetchable() {
			return pg, true
		}
	}
	return StoredPage{}, false
}
