package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/textfmt"
	"dynascope/ui/pane"
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

// itemsFollowUp is what the items pane needs next: the next chunk of the
// filter's scan, and the re-fetch of a released page the user looks at.
// One request at a time: a page already on its way goes first.
func (m Model) itemsFollowUp() (Model, tea.Cmd) {
	var scan tea.Cmd
	m.items, scan = m.items.ScanCmd()
	if m.screen != screenPartition || m.flight.busy(flightQuery) || m.results.pages() == 0 {
		return m, scan
	}
	i := m.items.WantPage(m.layout().itemRows)
	if i < 0 {
		return m, scan
	}
	m, fetch := m.refetch(m.items.Store.Pages[i])
	return m, tea.Batch(scan, fetch)
}

// refetch reads a released page again with the ExclusiveStartKey it was
// first read with; the log shows it as a re-fetch of its page.
func (m Model) refetch(pg pane.StoredPage) (Model, tea.Cmd) {
	m.cancelInflight()
	id, ctx := m.flight.start(m.ctx, flightQuery)
	m.flight.next = true
	m.items.Refetching = pg.No
	q := pageQuery(m.results.q, m.results.first, pg.No, pg.StartKey)
	return m, tea.Batch(refetchCmd(m.observe(ctx, id), m.store, id, q, pg.No), m.after(id))
}

// refetchErrPrefix starts the sentence of a failed re-read of page no; the
// hint comes first, since the end of a long error may be cut.
func refetchErrPrefix(no int) string {
	return fmt.Sprintf("reading page %d again failed (n tries again): ", no)
}

// refetchFailed is the sentence of a failed re-read: the prefix whole,
// then the error's own sentence, cut with an ellipsis where the two would
// pass textfmt.MaxSentence (its whole text stays in the request log).
func refetchFailed(prefix string, err error) string {
	return textfmt.FitSentence(prefix, strings.TrimRight(sanitize(err.Error()), "."), ".")
}

func refetchCmd(ctx context.Context, s Store, id int, q dynamo.QueryInput, pageNo int) tea.Cmd {
	return func() tea.Msg {
		p, err := s.Query(ctx, q)
		return queryDoneMsg{id: id, q: q, next: true, refetch: true, pageNo: pageNo, page: p, err: err}
	}
}

// refetchDone puts a page read again back in its place.
func (m Model) refetchDone(msg queryDoneMsg) (Model, tea.Cmd) {
	m.items.Refetching = 0
	failed := refetchErrPrefix(msg.pageNo)
	if msg.err != nil {
		m.status.Err = refetchFailed(failed, msg.err)
		m.items.RefetchFailed = msg.pageNo
		return m, nil
	}
	if strings.HasPrefix(m.status.Err, failed) {
		m.status.Err = "" // the page is back: its failure is history (the log keeps it)
	}
	m.noteColours(msg.page.Items)
	items, before, ok := m.items.RestorePage(msg.pageNo, msg.page.Items, m.maxLoaded(), m.layout().itemRows)
	m.items = items
	if ok && before != len(msg.page.Items) {
		m.status.Info = fmt.Sprintf("page %d changed since it was first read: %d items now, %d before", msg.pageNo, len(msg.page.Items), before)
	}
	return m.maybeLoadMore()
}

// HeldItemBytes is the DynamoDB size of the items in memory now, pages
// released by the item cap left out: what bench/rss bounds peak RSS by.
func (m Model) HeldItemBytes() int {
	n := 0
	for r := range m.items.Store.Total {
		if it, ok := m.items.Store.Item(r); ok {
			n += itemcodec.ItemSize(it)
		}
	}
	return n
}
