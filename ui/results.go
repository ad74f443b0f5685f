package ui

import (
	"dynascope/dynamo"
	"dynascope/patterns"
)

// The results the items pane shows (result) and when their next page is
// asked for (pagePolicy; paging.go asks): values the model holds, which
// know nothing of it.

// bottomPages is how many pages one G follows to their end: 4 pages of up
// to 1 MB, at most 512 RCU eventually consistent, beyond the one it asks for
// by reaching the end, as scrolling there would read them; further pages
// load as usual when G is pressed again or the cursor scrolls on.
const bottomPages = 4

// emptyPages is how many pages in a row that hold no item are asked for
// without a key for each: a server (or a filter) answering empty pages
// that only move the key on would otherwise be followed as long as it
// sends them, each one paid for. n (or pgdn, G) reads on.
const emptyPages = 4

// pagePolicy is where the asking for pages stands.
type pagePolicy struct {
	asked  int  // pages when the next page was last asked for: never twice for one key
	failed bool // the last next-page request failed: no automatic retries
	toEnd  int  // pages G still follows: each takes the cursor to its end as it arrives
	empty  int  // the pages in a row, up to the last, that held no item
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
	if pageDown || bottom {
		p.empty = 0 // asked for by a key: the user reads on
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
	return r.more() && !p.failed && r.q.Limit == 0 && p.asked != r.pages() && !p.stalled()
}

// stalled tells whether the pages in a row without an item reached
// emptyPages: none more is asked for until a key asks.
func (p pagePolicy) stalled() bool { return p.empty >= emptyPages }

// page is the policy once a page holding n items is in.
func (p pagePolicy) page(n int) pagePolicy {
	if n > 0 {
		p.empty = 0
	} else {
		p.empty++
	}
	return p
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

// result is what the items pane shows: the query that produced it, its
// read page by page (a dynamo.QueryPager stepped one reply at a time) and
// when the next page is asked for (paging.go).
type result struct {
	q      dynamo.QueryInput // as the user set it; StartKey nil
	first  int32             // the Limit its first page was read with when sized to the screen (paging.go); 0 otherwise
	pager  dynamo.QueryPager // its pages: where the next starts, what they kept, read and cost
	paging pagePolicy
	base   bool             // no sort-key condition: its pages feed the entity types
	get    *dynamo.GetInput // the results are one GetItem's (a pattern's); q is its key as a Query
	// proj compares the pattern that made these results with its KEYS_ONLY
	// or INCLUDE index; its note stays under the query line while they are
	// shown. nil for a hand-made request, the base table, an ALL index.
	proj *patterns.Projection
}

// more tells whether the results have another page.
func (r result) more() bool { return r.pager.LastKey() != nil }

// pages is how many pages are shown: a GetItem's item is one.
func (r result) pages() int {
	if r.get != nil {
		return 1
	}
	return r.pager.Pages()
}

// kept is what the pages returned (a filter's keep), scanned what they
// read and rcu what they cost: every item read is paid for.
func (r result) kept() int { return r.pager.Result().Count }

func (r result) scanned() int { return r.pager.Result().Scanned }

func (r result) rcu() float64 { return r.pager.Result().Capacity().Total }
