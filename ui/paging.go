package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"dynascope/config"
	"dynascope/dynamo"
)

// When the items pane reads the next page of the results it shows. The
// pages themselves are a dynamo.QueryPager's (result.pager); what is
// decided here is when to ask: within a screen of the end of what is
// loaded, one request at a time, never twice for the same
// LastEvaluatedKey, not when the user set a Limit (then n asks), not again
// after a failure until the user asks, and for one G no further than
// bottomPages pages. Without a Limit, pages are DynamoDB's own: up to 1 MB
// each.

// maybeLoadMore asks for the next page when the cursor is within one screen
// of the end of what is loaded and the policy allows it.
func (m Model) maybeLoadMore() (Model, tea.Cmd) {
	if m, cmd := m.itemsFollowUp(); cmd != nil {
		return m, cmd // the filter's scan, or a released page read again
	}
	if m.screen != screenPartition || m.flight.busy(flightQuery) || m.items.Filter != "" || !m.results.paging.automatic(m.results) {
		return m, nil
	}
	if m.items.Rows()-1-m.items.Cursor() > m.layout().itemRows {
		return m, nil
	}
	return m.loadNext()
}

// loadNext asks for the next page of the results shown, from where the
// last one ended.
func (m Model) loadNext() (Model, tea.Cmd) {
	if !m.results.more() {
		return m, nil // a GetItem's item, or the results' end
	}
	q, ok := m.results.pager.Next()
	if !ok {
		return m, nil
	}
	m.results.paging.asked = m.results.pages()
	return m.startQuery(q, true)
}

// The first page of a partition opened whole is sized to the screen
// (issue 41.3): a Limit of firstPageScreens screenfuls, so the first screen
// costs what those items cost and never waits on the partition's size
// (DynamoDB Local answers a Query without a Limit in time that grows with
// the partition; DynamoDB reads up to 1 MB). The pages after it are
// DynamoDB's own, up to 1 MB, as the query line says (Limit=none): the
// user's request has no Limit. A Limit of the user's (the settings'
// defaultLimit) is sent as it is.

// firstPageScreens is how many screenfuls the first page holds: room to
// scroll before the next page is asked for.
const firstPageScreens = 3

// screenLimit is the Limit of a partition's first page on a terminal of
// rows rows (0 when not known: 50), a screenful counted as at least 24
// rows; the item rows are fewer, so it holds more than three screens of
// items.
func screenLimit(rows int) int32 {
	if rows <= 0 {
		rows = 50
	}
	return int32(firstPageScreens * max(rows, 24))
}

// screenSized is the request that reads the first page of q on a terminal
// of rows rows: q with a Limit of screenLimit when q has none, else q.
func screenSized(q dynamo.QueryInput, rows int) dynamo.QueryInput {
	if q.Limit == 0 {
		q.Limit = screenLimit(rows)
	}
	return q
}

// screenKind is the request log's word for the sized first page; its
// detail says why (screenWhy).
const screenKind = "first screen"

// screenWhy says why a partition's first page is small, in the detail of
// its log line.
func screenWhy(limit int32) string {
	return fmt.Sprintf("the first page is sized to the screen (Limit %d, %d screenfuls) so the first screen never waits on the partition's size; the next pages are DynamoDB's own, up to 1 MB", limit, firstPageScreens)
}

// screenRows is the terminal's height as the first page is sized by: the
// window's once known, else the height at start (Options.Rows), which the
// prefetched first page was sized by.
func (m Model) screenRows() int {
	if m.h > 0 {
		return m.h
	}
	return m.opts.Rows
}

// pageQuery is the request that reads page no of results of query q again
// from start: the first page with the Limit it was first read with (first,
// when sized to the screen), the others as DynamoDB pages them.
func pageQuery(q dynamo.QueryInput, first int32, no int, start dynamo.Item) dynamo.QueryInput {
	q.StartKey = start
	if no == 1 && first > 0 {
		q.Limit = first
	}
	return q
}

// partitionQuery is the first request of a partition opened whole: every
// opening sends it (the prefetch at start, a partition key entered, a
// jump along a link), so the prefetched page is the one the model asks
// for. Its Limit is the settings' default (0: DynamoDB's 1 MB pages); its
// first page is sent screenSized.
func partitionQuery(table, index, pk string, s config.Settings) dynamo.QueryInput {
	return dynamo.QueryInput{Table: table, Index: index, PK: pk, Limit: int32(s.DefaultLimit)}
}
