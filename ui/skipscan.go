package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
)

// job is a request in flight besides the query: its id, to drop stale
// replies, and how to cancel it.
type job struct {
	id     int
	cancel context.CancelFunc
}

// stop cancels the job, if any, and forgets it.
func (j job) stop() job {
	if j.cancel != nil {
		j.cancel()
	}
	return job{}
}

// discoverDoneMsg answers discoverCmd with everything the skip-scan found
// and every request it sent, even when it failed part way.
type discoverDoneMsg struct {
	id  int
	d   dynamo.Discovery
	err error
}

func discoverCmd(ctx context.Context, s Store, id int, in dynamo.DiscoverInput) tea.Cmd {
	return func() tea.Msg {
		d, err := s.Discover(ctx, in)
		return discoverDoneMsg{id: id, d: d, err: err}
	}
}

// startDiscover runs the skip-scan of the partition q opens, once its first
// page has shown that the partition is bigger than a page. A key without
// sort key has no types to find.
func (m Model) startDiscover(q dynamo.QueryInput) (Model, tea.Cmd) {
	m.disc = m.disc.stop()
	if m.schema.SK == nil {
		return m, nil
	}
	m.seq++
	ctx, cancel := context.WithCancel(m.ctx)
	m.disc = job{id: m.seq, cancel: cancel}
	m.groups.finding = true
	in := dynamo.DiscoverInput{Table: q.Table, Index: q.Index, PK: q.PK, Delimiter: m.delim}
	return m, tea.Batch(discoverCmd(m.observe(ctx, m.disc.id), m.store, m.disc.id, in), m.after(m.disc.id))
}

// discoverDone logs every request of the skip-scan, then, unless the
// partition changed meanwhile, lists the types it found.
func (m Model) discoverDone(msg discoverDoneMsg) (Model, tea.Cmd) {
	for _, r := range msg.d.Requests {
		m.log = m.log.add(r, "skip-scan", 1, reqInput{})
	}
	if msg.id != m.disc.id {
		return m, nil // cancelled or another partition: logged, not shown
	}
	m.disc = m.disc.stop()
	m.status.clearRetry(msg.id)
	m.settle()
	m.groups.finding = false
	m.groups.scanReqs, m.groups.scanCap = len(msg.d.Requests), msg.d.Capacity()
	if msg.err != nil {
		m.groups.scanErr = true
		m.status.err = Sanitize(msg.err.Error())
		m.status.throttle = throttled(msg.err)
		return m, nil
	}
	if m.delim == "" {
		m.delim = msg.d.Delimiter
	}
	m.groups = m.groups.discovered(msg.d, m.delim)
	m.noteTypeColours()
	m.groups.active = m.groups.rowFor(m.res.q.SK)
	return m, nil
}
