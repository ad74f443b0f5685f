package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/ui/widget"
)

// DefaultMaxLoadedItems is the cap on items kept in memory when
// Options.MaxLoadedItems is 0: the settings file's default.
const DefaultMaxLoadedItems = config.DefaultMaxLoadedItems

// maxLoaded is the cap on items in memory; 0 for none.
func (m Model) maxLoaded() int {
	switch n := m.opts.MaxLoadedItems; {
	case n < 0:
		return 0
	case n == 0:
		return DefaultMaxLoadedItems
	default:
		return n
	}
}

// refetchable tells whether a page can be read again: the first page with no
// ExclusiveStartKey, any other with the one it was read with.
func (p storedPage) refetchable() bool { return p.no == 1 || p.startKey != nil }

// trim releases whole pages, farthest from the cursor first, until what is
// in memory is within maxItems (0: no cap). It never releases page keep (the
// one just read), the cursor's or one with rows among the shown rows on
// screen: those would be read again at once, and with a cap smaller than a
// screen two pages would push each other out for ever, a request each time.
// It tells whether it released any.
func (p itemsPane) trim(maxItems, keep, shown int) (itemsPane, bool) {
	if maxItems <= 0 || p.store.inMemory <= maxItems {
		return p, false
	}
	cur := p.cursorItem()
	onScreen := p.pagesOnScreen(shown)
	released := false
	for p.store.inMemory > maxItems {
		far, dist := -1, -1
		for i, pg := range p.store.pages {
			if i == keep || slices.Contains(onScreen, i) || !pg.resident() || !pg.refetchable() {
				continue
			}
			d := 0
			if cur < pg.first {
				d = pg.first - cur
			} else if last := pg.first + pg.n - 1; cur > last {
				d = cur - last
			}
			if d > dist {
				far, dist = i, d
			}
		}
		if far < 0 {
			break
		}
		p.store = p.store.release(far)
		released = true
	}
	return p, released
}

// pagesOnScreen are the indexes of the pages with a row among the shown
// rows on screen, the cursor's first.
func (p itemsPane) pagesOnScreen(shown int) []int {
	if p.store.total == 0 {
		return nil
	}
	out := []int{p.store.pageOf(p.cursorItem())}
	from, to := p.nav().SetHeight(shown).Window()
	for r := from; r < to; r++ {
		if i := p.store.pageOf(p.at(r)); !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out
}

// cursorItem is the store row under the cursor, 0 when there is none.
func (p itemsPane) cursorItem() int {
	if row, ok := p.nav().Selected(); ok {
		return p.at(row)
	}
	return 0
}

// wantPage is the index of a released page the user looks at (the cursor's,
// or one on screen), or -1.
func (p itemsPane) wantPage(shown int) int {
	if p.filter != "" || p.store.total == 0 {
		return -1
	}
	off := p.nav().SetHeight(shown).Offset()
	rows := []int{p.cursorItem()}
	for r := off; r < min(off+shown, p.store.total); {
		rows = append(rows, r)
		pg := p.store.pages[p.store.pageOf(r)]
		r = pg.first + pg.n
	}
	for _, r := range rows {
		i := p.store.pageOf(r)
		if pg := p.store.pages[i]; !pg.resident() && pg.refetchable() && pg.no != p.refetchFailed {
			return i
		}
	}
	return -1
}

// restorePage puts page no back with its items read again, and trims around
// it. It returns how many items the page had before.
func (p itemsPane) restorePage(no int, items []dynamo.Item, maxItems, shown int) (itemsPane, int, bool) {
	i := -1
	for j, pg := range p.store.pages {
		if pg.no == no {
			i = j
		}
	}
	if i < 0 || p.store.pages[i].resident() {
		return p, 0, false // results changed or the page is back already
	}
	before := p.store.pages[i].n
	p.store = p.store.restore(i, items)
	p.refetchFailed = 0
	p, _ = p.trim(maxItems, i, shown)
	// Column stats stay: they counted the page when it first came.
	return p.rescan(), before, true
}

// placeholder is the row of an item whose page was released.
func (p itemsPane) placeholder(st styles, r, inner int, base lipgloss.Style) string {
	pg := p.store.pages[p.store.pageOf(r)]
	var s string
	switch {
	case p.refetching == pg.no:
		s = fmt.Sprintf("page %d · re-fetching…", pg.no)
	case p.refetchFailed == pg.no:
		s = fmt.Sprintf("page %d · released; reading it again failed — n tries again", pg.no)
	default:
		s = fmt.Sprintf("page %d · released to keep memory within the cap", pg.no)
	}
	return base.Render(" " + widget.Fit(st.Muted.Render("  ⋯ "+s), inner-1))
}

// failedRefetch is the released page whose re-read failed, if it is still
// out of memory: what n tries again.
func (p itemsPane) failedRefetch() (storedPage, bool) {
	for _, pg := range p.store.pages {
		if pg.no == p.refetchFailed && !pg.resident() && pg.refetchable() {
			return pg, true
		}
	}
	return storedPage{}, false
}

// itemsFollowUp is what the items pane needs next: the next chunk of the
// filter's scan, and the re-fetch of a released page the user looks at.
// One request at a time: a page already on its way goes first.
func (m Model) itemsFollowUp() (Model, tea.Cmd) {
	var scan tea.Cmd
	m.items, scan = m.items.scanCmd()
	if m.screen != screenPartition || m.flight.busy(flightQuery) || m.results.pages() == 0 {
		return m, scan
	}
	i := m.items.wantPage(m.layout().itemRows)
	if i < 0 {
		return m, scan
	}
	m, fetch := m.refetch(m.items.store.pages[i])
	return m, tea.Batch(scan, fetch)
}

// refetch reads a released page again with the ExclusiveStartKey it was
// first read with; the log shows it as a re-fetch of its page.
func (m Model) refetch(pg storedPage) (Model, tea.Cmd) {
	m.cancelInflight()
	id, ctx := m.flight.start(m.ctx, flightQuery)
	m.flight.next = true
	m.items.refetching = pg.no
	q := m.results.q
	q.StartKey = pg.startKey
	return m, tea.Batch(refetchCmd(m.observe(ctx, id), m.store, id, q, pg.no), m.after(id))
}

// refetchErrPrefix starts the sentence of a failed re-read of page no; the
// hint comes first, since the end of a long error may be cut.
func refetchErrPrefix(no int) string {
	return fmt.Sprintf("reading page %d again failed (n tries again): ", no)
}

func refetchCmd(ctx context.Context, s Store, id int, q dynamo.QueryInput, pageNo int) tea.Cmd {
	return func() tea.Msg {
		p, err := s.Query(ctx, q)
		return queryDoneMsg{id: id, q: q, next: true, refetch: true, pageNo: pageNo, page: p, err: err}
	}
}

// refetchDone puts a page read again back in its place.
func (m Model) refetchDone(msg queryDoneMsg) (Model, tea.Cmd) {
	m.items.refetching = 0
	failed := refetchErrPrefix(msg.pageNo)
	if msg.err != nil {
		m.status.Err = sanitize(fmt.Sprintf("%s%v", failed, msg.err))
		m.items.refetchFailed = msg.pageNo
		return m, nil
	}
	if strings.HasPrefix(m.status.Err, failed) {
		m.status.Err = "" // the page is back: its failure is history (the log keeps it)
	}
	m.noteColours(msg.page.Items)
	items, before, ok := m.items.restorePage(msg.pageNo, msg.page.Items, m.maxLoaded(), m.layout().itemRows)
	m.items = items
	if ok && before != len(msg.page.Items) {
		m.status.Info = fmt.Sprintf("page %d changed since it was first read: %d items now, %d before", msg.pageNo, len(msg.page.Items), before)
	}
	return m.maybeLoadMore()
}
