package ui

import (
	"context"
	"fmt"
	"math"
	"sync"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/explain"
	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
	"dynascope/ui/pane"
)

// Why a query finds nothing: on a partition whose Query came back with no
// items, w explains it as `dynascope explain` does (package explain): the
// key as typed, the nearest keys that exist on each side by sort order and
// what differs. The Queries go only on that key, are said with their bound
// first (in the status line and the overlay), and each is logged with what
// it cost. This is the root's side; ui/overlay's explain.go shows it.

// emptyResult tells whether the partition screen shows a Query's complete
// answer that holds no item: the state where w applies.
func (m Model) emptyResult() bool {
	r := m.results
	return m.screen == screenPartition && r.q.PK != "" && r.get == nil && r.pages() > 0 && !r.more() &&
		r.kept() == 0 && !m.flight.busy(flightQuery)
}

// emptyTip is the hint line's advice on an empty result.
func (m Model) emptyTip() string {
	return fmt.Sprintf("no items: %s why empty — the nearest keys that exist and what differs", m.keymap.WhyEmpty.Help().Key)
}

// whyEmptyKey is w in the partition's panes, on an empty result only.
var whyEmptyKey = keymap.InBar("whyEmpty", "why empty").OnlyIf(func(st keymap.State) bool { return st.Empty })

// explainDoneMsg answers explainCmd: what the reads found, each Query
// with its page for the log, and the error that ended them, if any.
type explainDoneMsg struct {
	id    int
	ex    explain.Explanation
	qs    []dynamo.QueryInput
	pages []dynamo.Page
	err   error
}

// recordingStore is the store as explain's Querier, keeping every Query
// and its page for the request log.
type recordingStore struct {
	s     Store
	mu    sync.Mutex
	qs    []dynamo.QueryInput
	pages []dynamo.Page
}

func (r *recordingStore) Query(ctx context.Context, q dynamo.QueryInput) (dynamo.Page, error) {
	p, err := r.s.Query(ctx, q)
	r.mu.Lock()
	r.qs, r.pages = append(r.qs, q), append(r.pages, p)
	r.mu.Unlock()
	return p, err
}

func explainCmd(ctx context.Context, s Store, id int, plan explain.Plan, ex explain.Explanation) tea.Cmd {
	return func() tea.Msg {
		rec := &recordingStore{s: s}
		err := plan.Run(ctx, rec, &ex)
		return explainDoneMsg{id: id, ex: ex, qs: rec.qs, pages: rec.pages, err: err}
	}
}

// openExplain builds the key of the empty result's Query as typed, says
// the reads and their bound, and sends them.
func (m Model) openExplain() (Model, tea.Cmd) {
	if !m.emptyResult() {
		return m, nil
	}
	q := m.results.q
	ks, err := m.table.Schema(q.Index)
	if err != nil {
		m.status.Err = sanitize(err.Error())
		return m, nil
	}
	sk, hasSK := "", q.SK.Op != "" && len(q.SK.Values) > 0 && ks.SK != nil
	if hasSK {
		sk = q.SK.Values[0]
	}
	built, err := explain.Typed(m.table, ks, q.PK, sk, hasSK)
	if err != nil {
		m.status.Err = sanitize(err.Error())
		return m, nil
	}
	plan := explain.NewPlan(m.table, ks, built)
	words := explainPlanWords(plan, m.table)
	var notes []string
	if q.Filter != "" {
		notes = append(notes, "The query's FilterExpression is not sent with them: they read keys.")
	}
	if hasSK && q.SK.Op != dynamo.SKEq {
		notes = append(notes, fmt.Sprintf("The sort-key condition's value %s stands for the sort key: the keys beside it are read.", sanitize(sk)))
	}
	var declared explain.Declared
	hasEntities := m.patterns != nil && m.patterns.HasEntities()
	if hasEntities {
		declared = explain.Declare(m.patterns.Entities, built)
	}
	id, ctx := m.flight.start(m.ctx, flightExplain)
	ex := explain.Explanation{Table: m.table.Name, Index: q.Index, Built: built}
	m.status.Err, m.status.Info = "", "why empty: "+words
	o := overlay.NewExplain(id, explainAsked(ks, q), explain.Where(m.table.Name, q.Index), declared, hasEntities, words, notes)
	return m.push(o), explainCmd(m.observe(ctx, id), m.store, id, plan, ex)
}

// explainAsked is the key asked for as typed, in DynamoDB's words:
// "PK = CUST|42, SK begins_with ORDER|".
func explainAsked(ks dynamo.KeySchema, q dynamo.QueryInput) string {
	s := ks.PK.Name + " = " + q.PK
	if q.SK.Op != "" && ks.SK != nil {
		s += ", " + ks.SK.Name + " " + string(q.SK.Op)
		for i, v := range q.SK.Values {
			if i > 0 {
				s += " and"
			}
			s += " " + v
		}
	}
	return s
}

// explainPlanWords says the reads before they go, with their bound:
// "2 Queries of Limit 3, one each side by sort order, then only if the
// partition holds nothing up to 8 of Limit 1 (its variants and the other
// indexes): at most 10 Queries, 550 RCU (items of 400 KB; about 5 at the
// table's 174 B average)". The bound is what the largest items could cost;
// the table's average item (DescribeTable's figures, refreshed about every
// six hours, so no bound) says what to expect.
func explainPlanWords(p explain.Plan, t dynamo.Table) string {
	s := fmt.Sprintf("%s of Limit %d", plural(len(p.Near), "Query", "Queries"), explain.Near)
	if len(p.Near) == 2 {
		s += ", one each side by sort order"
	}
	if len(p.Variants) > 0 {
		s += fmt.Sprintf(", then, only if the partition holds nothing, up to %d of Limit 1 (its variants and the other indexes)", len(p.Variants))
	}
	s += fmt.Sprintf(": at most %s, %s RCU (items of 400 KB", plural(p.Queries(), "Query", "Queries"), fmtRCU(p.MaxRCU()))
	if t.ItemCount > 0 && t.SizeBytes > 0 {
		avg := float64(t.SizeBytes) / float64(t.ItemCount)
		s += fmt.Sprintf("; about %s at the table's %s average", fmtRCU(p.RCUAt(avg)), humanBytes(int64(math.Round(avg))))
	}
	return s + ")"
}

// explainDone logs the reads and shows what they found.
func (m Model) explainDone(msg explainDoneMsg) (Model, tea.Cmd) {
	rcu, unknown := 0.0, 0
	for i, p := range msg.pages {
		if p.Request.Operation != "" {
			m.log = m.log.Add(p.Request, "why empty", 1, m.queryInput(msg.qs[i]))
			rcu += p.Request.Capacity.Total
			if p.Request.NoCapacity {
				unknown++
			}
		}
	}
	if !m.flight.waits(flightExplain, msg.id) {
		return m, nil // stopped: logged, not shown
	}
	m.flight.stop(flightExplain)
	m.status.Throttle = pane.Throttled(msg.err)
	o, ok := findOverlay[overlay.Explain](m)
	if !ok || o.Req() != msg.id {
		return m, nil
	}
	n := len(msg.ex.Requests)
	cost := fmt.Sprintf("read in %s, %s RCU, each in the request log", plural(n, "Query", "Queries"), fmtRCU(rcu))
	switch {
	case unknown > 0 && unknown == n:
		cost = fmt.Sprintf("read in %s, their capacity not reported, each in the request log", plural(n, "Query", "Queries"))
	case unknown > 0:
		cost = fmt.Sprintf("read in %s, ≥ %s RCU (%d reported none), each in the request log", plural(n, "Query", "Queries"), fmtRCU(rcu), unknown)
	}
	errText := ""
	if msg.err != nil {
		errText = sanitize(msg.err.Error())
	}
	m.status.Info = "why empty: " + cost
	return replaceOverlay(m, o.Answered(msg.ex, cost, errText)), nil
}
