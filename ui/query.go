package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/keys"
	"dynascope/textfmt"
)

// The query in flight: sending it (cancelling the one before), its reply,
// the next page when the cursor nears the end, and what the status line
// says is in flight.

// startQuery sends a query, cancelling the one in flight. next asks for a
// further page of the results shown rather than new results.
func (m Model) startQuery(q dynamo.QueryInput, next bool) (Model, tea.Cmd) {
	m.cancelInflight()
	m.seq++
	id := m.seq
	ctx, cancel := context.WithCancel(m.ctx)
	m.cancel, m.inflight, m.inflightNext = cancel, id, next
	if !next {
		m.query = q
	}
	if !next {
		m.get = nil
	}
	m.status.err, m.status.info = "", ""
	return m, tea.Batch(queryCmd(m.observe(ctx, id), m.store, id, q, next, m.results.pages+1), m.after(id))
}

// cancelInflight cancels the query in flight, if any; its reply will be
// logged but not shown.
func (m *Model) cancelInflight() {
	if m.cancel != nil {
		m.cancel()
	}
	m.status.clearRetry(m.inflight)
	m.cancel, m.inflight, m.inflightNext, m.inflightGet, m.inflightPattern = nil, 0, false, false, ""
	m.items.refetching = 0
	m.settle()
}

// cancelAll cancels the query, the skip-scan and the count in flight.
func (m *Model) cancelAll() {
	m.cancelInflight()
	m.disc = m.disc.stop()
	m.count = m.count.stop()
	if m.sample.id != 0 {
		m.overview.phase, m.overview.stopping = ovSetup, false
	}
	m.sample = m.sample.stop()
	m.settle()
}

// busy tells whether any request is in flight.
func (m Model) busy() bool {
	return m.inflight != 0 || m.disc.id != 0 || m.count.id != 0 || m.sample.id != 0
}

// settle stops the spinner once nothing is in flight.
func (m *Model) settle() {
	if !m.busy() {
		m.status.spinning = false
		m.status.retry, m.status.retryID = "", 0
	}
}

// busyText says what is in flight: the query, the skip-scan, a count, a
// sample, an export that reads released pages again.
func (m Model) busyText() string {
	var parts []string
	if m.inflight != 0 {
		if m.inflightGet {
			parts = append(parts, "GetItem")
		} else if m.items.refetching != 0 {
			parts = append(parts, fmt.Sprintf("re-fetch page %d", m.items.refetching))
		} else if m.inflightNext {
			parts = append(parts, fmt.Sprintf("Query, page %d", m.results.pages+1))
		} else {
			parts = append(parts, "Query")
		}
	}
	if m.disc.id != 0 {
		parts = append(parts, "skip-scan")
	}
	if m.count.id != 0 {
		parts = append(parts, m.count.progress())
	}
	if m.sample.id != 0 {
		parts = append(parts, "sampling")
	}
	if m.export.running && m.export.src.released > 0 {
		parts = append(parts, "export, reading released pages again")
	}
	return strings.Join(parts, " · ")
}

func (m Model) queryDone(msg queryDoneMsg) (Model, tea.Cmd) {
	if msg.page.Request.Operation != "" {
		page := 1
		if msg.next {
			page = msg.pageNo
		}
		kind := ""
		if msg.refetch {
			kind, page = fmt.Sprintf("re-fetch page %d", msg.pageNo), 1 // the page in the kind, once
		}
		m.log = m.log.add(msg.page.Request, kind, page, m.queryInput(msg.q))
	}
	if msg.id != m.inflight {
		return m, nil // cancelled or superseded: logged, not shown
	}
	pattern := m.inflightPattern
	m.cancelInflight() // releases the context; the request is done
	m.status.clearRetry(msg.id)
	m.status.throttle = throttled(msg.err)
	if msg.refetch {
		return m.refetchDone(msg)
	}
	if msg.err != nil {
		m.status.err = sanitize(msg.err.Error())
		if msg.next {
			m.results.failed = true
			m.status.err += " — n, pgdn or G tries the next page again"
		} else if m.results.pages > 0 {
			m.query, m.get = m.results.q, m.results.get // the query line keeps describing what is shown
		}
		return m, nil
	}
	p := msg.page
	lay := m.layout()
	more := p.LastEvaluatedKey != nil
	var disc tea.Cmd
	if !msg.next {
		q := msg.q
		q.StartKey = nil
		// A filtered or projected first page is not the partition's: it
		// cannot tell its entity types.
		m.results = result{q: q, lastKey: p.LastEvaluatedKey, more: more, pages: 1, base: q.SK.Op == dynamo.SKNone && q.Filter == "" && q.Project == ""}
		if m.results.base {
			if m.delim == "" && m.schema.SK != nil {
				sks := make([]string, len(p.Items))
				for i, it := range p.Items {
					sks[i] = keyOf(it, m.schema.SK.Name)
				}
				m.delim = keys.InferDelimiter(sks)
			}
			m.groups = m.groups.reset(q.PK, p.Items, m.items.keyName, m.delim, more, q.Reverse)
			// A first page that is the whole partition lists every type
			// with its exact count; only a bigger partition needs the
			// skip-scan to find the types beyond it.
			if more && !m.groups.tbl.Listed() && !m.groups.finding && !m.groups.scanErr {
				m, disc = m.startDiscover(q, p, m.scanBudget(q, p))
			}
		}
		m.noteColours(p.Items)
		m.items = m.items.setItems(p.Items, lay.itemsW-2)
		m = m.reselectWritten(p.Items)
	} else {
		m.results.lastKey, m.results.more, m.results.failed = p.LastEvaluatedKey, more, false
		m.results.pages++
		if m.results.base {
			m.groups = m.groups.add(p.Items, m.items.keyName, m.delim, more)
		}
		m.noteColours(p.Items)
		m.items = m.items.appendPage(p.Items, msg.q.StartKey, msg.pageNo, m.maxLoaded(), lay.itemsW-2, lay.itemRows)
		if m.results.toEnd > 0 {
			m.items, m.results.toEnd = m.items.move(1<<30, lay.itemRows), m.results.toEnd-1
		}
	}
	m.results.kept += int(p.Count)
	m.results.read += int(p.ScannedCount)
	m.results.rcu += p.Request.Capacity.Total
	m.groups.active = m.groups.rowFor(m.results.q.SK)
	if pattern != "" {
		m.status.info = patternDone(pattern, p)
		if !msg.next {
			m.results.proj = m.patternProjection(pattern)
		}
	}
	m, load := m.maybeLoadMore()
	return m, tea.Batch(disc, load)
}

// maybeLoadMore asks for the next page when the cursor is within one screen
// of the end of what is loaded: one request at a time, never twice for the
// same LastEvaluatedKey, and not when the user set a Limit (then n pages).
// Without a Limit, pages are DynamoDB's own: up to 1 MB each.
func (m Model) maybeLoadMore() (Model, tea.Cmd) {
	if m, cmd := m.itemsFollowUp(); cmd != nil {
		return m, cmd // the filter's scan, or a released page read again
	}
	if m.screen != screenPartition || m.inflight != 0 || !m.results.more || m.results.failed ||
		m.results.q.Limit > 0 || m.items.filter != "" || m.results.asked == m.results.pages {
		return m, nil
	}
	if m.items.rows()-1-m.items.cursor > m.layout().itemRows {
		return m, nil
	}
	return m.loadNext()
}

func (m Model) loadNext() (Model, tea.Cmd) {
	if !m.results.more {
		return m, nil
	}
	m.results.asked = m.results.pages
	q := m.results.q
	q.StartKey = m.results.lastKey
	return m.startQuery(q, true)
}

// runQuery runs a changed version of the current request, if it is valid.
func (m Model) runQuery(q dynamo.QueryInput) (Model, tea.Cmd) {
	if q.PK == "" {
		return m, nil
	}
	q.StartKey = nil
	if _, err := dynamo.BuildQuery(m.schema, q); err != nil {
		m.status.err = sanitize(err.Error())
		return m, nil
	}
	return m.startQuery(q, false)
}

// readNote says, under the query line, what a filtered request kept of what
// it read and that every item read was paid for; "" without a filter.
func (m Model) readNote() string {
	if m.results.pages == 0 || m.results.q.Filter == "" && m.results.q.Project == "" {
		return ""
	}
	var parts []string
	if m.results.q.Filter != "" {
		more := ""
		if m.results.more {
			more = " so far"
		}
		why := ": a filter does not lower the cost"
		if m.results.q.Project != "" {
			why = "" // the projection's note needs the room
		}
		parts = append(parts, fmt.Sprintf("kept %s of %s read%s · the %s RCU were charged for all %s read%s",
			textfmt.Count(m.results.kept), textfmt.Count(m.results.read), more, fmtRCU(m.results.rcu), textfmt.Count(m.results.read), why))
	}
	if m.results.q.Project != "" {
		parts = append(parts, "projection saves bandwidth, not capacity")
	}
	return strings.Join(parts, " · ")
}
