package ui

import (
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

// partitionQuery is the first request of a partition opened whole: every
// opening sends it (the prefetch at start, a partition key entered, a
// jump along a link), so the prefetched page is the one the model asks
// for. Its Limit is the settings' default (0: DynamoDB's 1 MB pages).
func partitionQuery(table, index, pk string, s config.Settings) dynamo.QueryInput {
	return dynamo.QueryInput{Table: table, Index: index, PK: pk, Limit: int32(s.DefaultLimit)}
}
