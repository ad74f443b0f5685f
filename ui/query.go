package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/keys"
	"dynascope/textfmt"
	"dynascope/ui/overlay"
	"dynascope/ui/pane"
)

// The query in flight: sending it (cancelling the one before), its reply,
// the next page when the cursor nears the end, and what the status line
// says is in flight.

// startQuery sends a query, cancelling the one in flight. next asks for a
// further page of the results shown rather than new results.
func (m Model) startQuery(q dynamo.QueryInput, next bool) (Model, tea.Cmd) {
	return m.sendQuery(q, next, false)
}

// sendQuery is startQuery; screen marks the first page of a partition
// sized to the screen (startScreenQuery), which its reply carries.
func (m Model) sendQuery(q dynamo.QueryInput, next, screen bool) (Model, tea.Cmd) {
	m.cancelInflight()
	id, ctx := m.flight.start(m.ctx, flightQuery)
	m.flight.next = next
	if !next {
		m.query = q
		m.markRest = markRead{} // marking the rest was of the results before
	}
	if !next {
		m.get = nil
	}
	m.status.Err, m.status.Info = "", ""
	send := queryCmd(m.observe(ctx, id), m.store, id, q, next, m.results.pages()+1)
	if screen {
		inner := send
		send = func() tea.Msg {
			msg := inner().(queryDoneMsg)
			msg.screen = true
			return msg
		}
	}
	return m, tea.Batch(send, m.after(id))
}

// startScreenQuery sends the first page of q, a partition opened whole,
// sized to the screen (screenSized): the query line shows q as the user
// has it, and its pages after the first are DynamoDB's own.
func (m Model) startScreenQuery(q dynamo.QueryInput) (Model, tea.Cmd) {
	sent := screenSized(q, m.screenRows())
	if sent.Limit == q.Limit {
		return m.startQuery(q, false)
	}
	m, cmd := m.sendQuery(sent, false, true)
	m.query = q
	return m, cmd
}

// cancelInflight cancels the query in flight, if any; its reply will be
// logged but not shown.
func (m *Model) cancelInflight() {
	m.status.ClearRetry(m.flight.id(flightQuery))
	m.flight.stop(flightQuery)
	m.items.Refetching = 0
	m.settle()
}

// cancelAll cancels the query, the skip-scan and the count in flight.
func (m *Model) cancelAll() {
	m.cancelInflight()
	m.flight.stop(flightDiscover)
	m.count = m.stoppedCount()
	if m.flight.busy(flightSample) {
		m.overview.Phase, m.overview.Stopping = overlay.OvSetup, false
	}
	m.flight.stop(flightSample)
	m.settle()
}

// busy tells whether any request is in flight.
func (m Model) busy() bool {
	return m.flight.busy(flightQuery, flightDiscover, flightCount, flightSample)
}

// settle stops the spinner once nothing is in flight.
func (m *Model) settle() {
	if !m.busy() {
		m.status.Spinning = false
		m.status.Retry, m.status.RetryID = "", 0
	}
}

// busyText says what is in flight: the query, the skip-scan, a count, a
// sample, an export that reads released pages again.
func (m Model) busyText() string {
	var parts []string
	if m.flight.busy(flightQuery) {
		if m.flight.get {
			parts = append(parts, "GetItem")
		} else if m.items.Refetching != 0 {
			parts = append(parts, fmt.Sprintf("re-fetch page %d", m.items.Refetching))
		} else if m.flight.next {
			parts = append(parts, fmt.Sprintf("Query, page %d", m.results.pages()+1))
		} else {
			parts = append(parts, "Query")
		}
	}
	if m.flight.busy(flightDiscover) {
		parts = append(parts, "skip-scan")
	}
	if m.flight.busy(flightCount) {
		parts = append(parts, m.count.progress())
	}
	if m.flight.busy(flightSample) {
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
		if msg.screen {
			kind = screenKind
		}
		if msg.refetch {
			kind, page = fmt.Sprintf("re-fetch page %d", msg.pageNo), 1 // the page in the kind, once
		}
		m.log = m.log.Add(msg.page.Request, kind, page, m.queryInput(msg.q))
		if msg.screen {
			m.log = m.log.Why(screenWhy(msg.q.Limit))
		}
	}
	if !m.flight.waits(flightQuery, msg.id) {
		return m, nil // cancelled or superseded: logged, not shown
	}
	pattern := m.flight.pattern
	m.cancelInflight() // releases the context; the request is done
	m.status.ClearRetry(msg.id)
	m.status.Throttle = pane.Throttled(msg.err)
	if msg.refetch {
		return m.refetchDone(msg)
	}
	// The reply goes to the read it continues, or starts a new one; a
	// read that refuses the page (or a failed request) leaves the results
	// shown as they were, so the same page can be asked for again.
	pager := m.results.pager
	if !msg.next {
		pager = dynamo.NewQueryPager(dynamo.QueryRead{Query: userQuery(msg)})
	}
	err := msg.err
	if err == nil {
		err = pager.Page(msg.page, nil)
	}
	if err != nil {
		return m.queryFailed(msg, err), nil
	}
	var disc tea.Cmd
	if !msg.next {
		m, disc = m.firstPage(msg, pager)
	} else {
		m = m.nextPage(msg, pager)
	}
	m.groups.active = m.groups.rowFor(m.results.q.SK)
	if pattern != "" {
		m.status.Info = patternDone(pattern, msg.page)
		if !msg.next {
			m.results.proj = m.patternProjection(pattern)
		}
	}
	if m.markRest.on {
		m, load := m.markArrived(msg.page.Items)
		return m, tea.Batch(disc, load)
	}
	m, load := m.maybeLoadMore()
	return m, tea.Batch(disc, load)
}

// queryFailed says why a query or its next page failed; the results
// shown stay, and the query line keeps describing them.
func (m Model) queryFailed(msg queryDoneMsg, err error) Model {
	m.markRest = markRead{} // A's read of the rest stops with the page that failed
	m.status.Err = sanitize(err.Error())
	if msg.next {
		m.results.paging.failed = true
		m.status.Err += " — n, pgdn or G tries the next page again"
	} else if m.results.pages() > 0 {
		m.query, m.get = m.results.q, m.results.get
	}
	return m
}

// firstPage shows the first page of new results, read by pager: the
// items, and for the partition's own pages its entity types, with the
// skip-scan for those beyond the page.
func (m Model) firstPage(msg queryDoneMsg, pager dynamo.QueryPager) (Model, tea.Cmd) {
	p, q := msg.page, userQuery(msg)
	more := p.LastEvaluatedKey != nil
	// A filtered or projected first page is not the partition's: it
	// cannot tell its entity types.
	m.results = result{q: q, pager: pager, base: q.SK.Op == dynamo.SKNone && q.Filter == "" && q.Project == ""}
	if msg.screen {
		m.results.first = msg.q.Limit
	}
	var disc tea.Cmd
	if m.results.base {
		if m.delim == "" && m.schema.SK != nil {
			sks := make([]string, len(p.Items))
			for i, it := range p.Items {
				sks[i] = keyOf(it, m.schema.SK.Name)
			}
			m.delim = keys.InferDelimiter(sks)
		}
		m.groups = m.groups.reset(q.PK, p.Items, m.items.KeyName, m.delim, more, q.Reverse)
		// A first page that is the whole partition lists every type
		// with its exact count; only a bigger partition needs the
		// skip-scan to find the types beyond it.
		if more && !m.groups.tbl.Listed() && !m.groups.finding && !m.groups.scanErr {
			m, disc = m.startDiscover(q, p, m.scanBudget(msg.q, p)) // the budget of the page as sent
		}
	}
	m.noteColours(p.Items)
	m.items = m.items.SetItems(p.Items, m.layout().itemsW-2)
	return m.reselectWritten(p.Items), disc
}

// userQuery is the request of a reply's results as the user has it:
// StartKey nil, and without the Limit a first page sized to the screen was
// sent with, so the pages after it are DynamoDB's own.
func userQuery(msg queryDoneMsg) dynamo.QueryInput {
	q := msg.q
	q.StartKey = nil
	if msg.screen {
		q.Limit = 0
	}
	return q
}

// nextPage adds a further page of the results shown, read by pager; a G
// in progress takes the cursor to its end.
func (m Model) nextPage(msg queryDoneMsg, pager dynamo.QueryPager) Model {
	p, lay := msg.page, m.layout()
	m.results.pager = pager
	if m.results.base {
		m.groups = m.groups.add(p.Items, m.items.KeyName, m.delim, p.LastEvaluatedKey != nil)
	}
	m.noteColours(p.Items)
	m.items = m.items.AppendPage(p.Items, msg.q.StartKey, msg.pageNo, m.maxLoaded(), lay.itemsW-2, lay.itemRows)
	var follow bool
	if m.results.paging, follow = m.results.paging.arrived(); follow {
		m.items = m.items.Move(1<<30, lay.itemRows)
	}
	return m
}

// runQuery runs a changed version of the current request, if it is valid.
func (m Model) runQuery(q dynamo.QueryInput) (Model, tea.Cmd) {
	if q.PK == "" {
		return m, nil
	}
	q.StartKey = nil
	if _, err := dynamo.BuildQuery(m.schema, q); err != nil {
		m.status.Err = sanitize(err.Error())
		return m, nil
	}
	return m.startQuery(q, false)
}

// readNote says, under the query line, what a filtered request kept of what
// it read and that every item read was paid for; "" without a filter.
func (m Model) readNote() string {
	if m.results.pages() == 0 || m.results.q.Filter == "" && m.results.q.Project == "" {
		return ""
	}
	var parts []string
	if m.results.q.Filter != "" {
		more := ""
		if m.results.more() {
			more = " so far"
		}
		why := ": a filter does not lower the cost"
		if m.results.q.Project != "" {
			why = "" // the projection's note needs the room
		}
		if paging := m.results.pager.Result().OneMB; len(paging.Over) > 0 {
			why1MB := ": it ends a page at 1 MB read"
			if m.results.q.Project != "" {
				why1MB = ""
			}
			// DynamoDB Local answered a filtered page past 1 MB read: what
			// DynamoDB would take comes first, the rest in fewer words.
			parts = append(parts, fmt.Sprintf("kept %s of %s read%s, all %s RCU charged", textfmt.Count(m.results.kept()), textfmt.Count(m.results.scanned()), more, fmtRCU(m.results.rcu())),
				fmt.Sprintf("on DynamoDB %s, not %d", plural(paging.Requests, "request", "requests"), m.results.pages())+why1MB)
		} else {
			parts = append(parts, fmt.Sprintf("kept %s of %s read%s · the %s RCU were charged for all %s read%s",
				textfmt.Count(m.results.kept()), textfmt.Count(m.results.scanned()), more, fmtRCU(m.results.rcu()), textfmt.Count(m.results.scanned()), why))
		}
	}
	if m.results.q.Project != "" {
		parts = append(parts, "projection saves bandwidth, not capacity")
	}
	return strings.Join(parts, " · ")
}
