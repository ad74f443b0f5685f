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

// bottomPages is how many pages one G follows to their end: 4 pages of up
// to 1 MB, at most 512 RCU eventually consistent, beyond the one it asks for
// by reaching the end, as scrolling there would read them; further pages
// load as usual when G is pressed again or the cursor scrolls on.
const bottomPages = 4

// pagePolicy is where the asking for pages stands.
type pagePolicy struct {
	asked  int  // pages when the next page was last asked for: never twice for one key
	failed bool // the last next-page request failed: no automatic retries
	toEnd  int  // pages G still follows: each takes the cursor to its end as it arrives
}

// moved is the policy after the items pane's cursor moved: a deliberate
// move towards the end (pgdn, G) tries a failed page again, as n does,
// where scrolling line by line does not; one G ends at the last item, so
// the pages it brings in (or the one already on its way) take the cursor
// to their end too, up to bottomPages of them, and G alone never reads a
// huge partition to its end.
func (p pagePolicy) moved(r result, pageDown, bottom bool) pagePolicy {
	if p.failed && (pageDown || bottom) {
		p.failed, p.asked = false, -1
	}
	p.toEnd = 0
	if bottom && r.more() && r.q.Limit == 0 {
		p.toEnd = bottomPages
	}
	return p
}

// automatic tells whether r's next page may be asked for without a key
// for it: the cursor's nearness to the end is the caller's to judge.
func (p pagePolicy) automatic(r result) bool {
	return r.more() && !p.failed && r.q.Limit == 0 && p.asked != r.pages()
}

// arrived is the policy once a next page is in, and whether the cursor
// follows it to its end (a G's).
func (p pagePolicy) arrived() (pagePolicy, bool) {
	p.failed = false
	if p.toEnd > 0 {
		p.toEnd--
		return p, true
	}
	return p, false
}

// maybeLoadMore asks for the next page when the cursor is within one screen
// of the end of what is loaded and the policy allows it.
func (m Model) maybeLoadMore() (Model, tea.Cmd) {
	if m, cmd := m.itemsFollowUp(); cmd != nil {
		return m, cmd // the filter's scan, or a released page read again
	}
	if m.screen != screenPartition || m.flight.busy(flightQuery) || m.items.filter != "" || !m.results.paging.automatic(m.results) {
		return m, nil
	}
	if m.items.rows()-1-m.items.cursor() > m.layout().itemRows {
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
