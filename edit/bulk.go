package edit

// A bulk change: many items' plans sent as one journal entry. Each item
// goes through the single write's path (apply without a journal of its
// own: the same condition on the image read, the same look at the item
// after a refusal or a lost answer), so there is one write path. The entry
// is written before the first item is sent, every item in doubt, and one
// mark after the last says each item's state: a run that ends in between
// leaves them in doubt, which never claims less than the truth.

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// BulkOutcome is what came of one item of a bulk change.
type BulkOutcome struct {
	Plan   *Plan
	Result Result
	Err    error // the item's error: ConflictError, InDoubtError, ...; nil when written
	Sent   bool  // false: left, not sent (the change was stopped first)
}

// BulkResult is what a bulk change did, item by item in the plans' order.
type BulkResult struct {
	Items []BulkOutcome
	Entry *Entry // the one journal entry; nil without a journal
	// WCU is the units the answers reported, summed; Unknown counts the
	// items sent whose answer reported none (their units are unknown, so
	// WCU is then a lower bound).
	WCU     float64
	Unknown int
	// Throttled counts the attempts DynamoDB refused for capacity, which
	// the SDK sent again (each item's Result.Throttled, summed).
	Throttled int
	// First and Last are when the first write went out and the last
	// answer came: the change's own clock, for its rate.
	First, Last time.Time
}

// Pace paces a bulk change: Wait returns once the next write, of
// predicted wcu, may go out, or with ctx's error; Answered is told of each
// write once it has ended, so a pace can slow down when DynamoDB
// throttles. Both are called from the change's workers at once.
type Pace interface {
	Wait(ctx context.Context, wcu float64) error
	Answered(o BulkOutcome)
}

// BulkWorkers is how many writes of a bulk change may be in flight at
// once: enough to keep a rate of a few hundred WCU per second over a
// round trip of tens of milliseconds; the pace, not the workers, sets the
// rate.
const BulkWorkers = 8

// ApplyBulk sends the plans at pace (nil for no pace), under one journal
// entry: the first write alone, so that an error every item would meet
// (access denied, a missing table) is met once, then up to BulkWorkers at
// once, taken in the plans' order. A cancelled ctx stops it after the
// writes in flight; the items not sent are left (Sent false) and
// journalled failed (not applied). each, when not nil, is told of every
// item as it ends, one at a time.
func (w *Writer) ApplyBulk(ctx context.Context, plans []*Plan, pace Pace, each func(BulkOutcome)) (BulkResult, error) {
	return w.applyBulk(ctx, plans, pace, each, entryLinks{})
}

// ContinueBulk is ApplyBulk of the rest of bulk entry continues, stopped
// with items left: its entry records the link (Entry.Continues), so that
// one undo takes back both.
func (w *Writer) ContinueBulk(ctx context.Context, plans []*Plan, continues int, pace Pace, each func(BulkOutcome)) (BulkResult, error) {
	return w.applyBulk(ctx, plans, pace, each, entryLinks{continues: continues})
}

// entryLinks are the entries a bulk change's entry names: the one it
// undoes (with each item's own, for the undo of a chain), the one it
// continues.
type entryLinks struct {
	undoes, continues int
	undo              *bulkSend // an undo's sending: the entry of each item it takes back
}

// UndoBulk takes back bulk entry e with plans (UndoPlans), as ApplyBulk
// sends them, under one entry that undoes e: each item only if it is still
// as e left it; those changed since are refused and left.
// items are e's items the plans take back, in their order (UndoPlans
// gives both): an item in doubt that is found as it was before e never
// landed, and its undo says so (a *NotLandedError, nothing written).
func (w *Writer) UndoBulk(ctx context.Context, plans []*Plan, items []EntryItem, e Entry, pace Pace, each func(BulkOutcome)) (BulkResult, error) {
	of := make([]Entry, len(items))
	for i := range of {
		of[i] = e
	}
	return w.UndoChain(ctx, plans, items, of, pace, each)
}

// UndoChain is UndoBulk of the items of several bulk entries at once (a
// Chain: a change stopped and continued), under one entry: of[i] is the
// entry items[i] is of. The entry undoes of[0]; each item of another
// entry names its own (EntryItem.Undoes).
func (w *Writer) UndoChain(ctx context.Context, plans []*Plan, items []EntryItem, of []Entry, pace Pace, each func(BulkOutcome)) (BulkResult, error) {
	if len(items) != len(plans) || len(of) != len(plans) {
		return BulkResult{}, fmt.Errorf("undo: %d plans for %d items of %d entries", len(plans), len(items), len(of))
	}
	s := &bulkSend{undo: make([]*Entry, len(plans))}
	for i, it := range items {
		// The item's own state, and no ID: its mark is the bulk entry's
		// one mark, not one of its own.
		e := of[i]
		s.undo[i] = &Entry{Number: max(e.Number, 1), State: it.State, Operation: e.Operation, Table: e.Table, Items: []EntryItem{it}}
	}
	undoes := 0
	if len(of) > 0 {
		undoes = max(of[0].Number, 1)
	}
	return w.applyBulk(ctx, plans, pace, each, entryLinks{undoes: undoes, undo: s})
}

func (w *Writer) applyBulk(ctx context.Context, plans []*Plan, pace Pace, each func(BulkOutcome), links entryLinks) (BulkResult, error) {
	var res BulkResult
	if len(plans) == 0 {
		return res, nil
	}
	if w.journal != nil {
		e := newEntry(plans[0], w.target, links.undoes)
		e.Items, e.PredictedWCU, e.Continues = nil, 0, links.continues
		for i, p := range plans {
			e.Items = append(e.Items, newEntry(p, w.target, links.undoes).Items...)
			e.PredictedWCU += p.PredictedWCU
			if links.undo != nil && links.undo.undo[i].Number != links.undoes {
				e.Items[i].Undoes = links.undo.undo[i].Number
			}
		}
		if err := w.journal.Begin(&e); err != nil {
			return res, fmt.Errorf("bulk %s on %s: the journal could not be written, so nothing was sent: %w", plans[0].Op, plans[0].Table, err)
		}
		res.Entry = &e
	}
	res.Items = make([]BulkOutcome, len(plans))
	s := &bulkSend{}
	if links.undo != nil {
		s = links.undo
	}
	s.w, s.plans, s.pace, s.each, s.res = &Writer{api: w.api, target: w.target, timeout: w.timeout, observe: w.observe}, plans, pace, each, &res
	if s.one(ctx) {
		var wg sync.WaitGroup
		for range min(BulkWorkers, len(plans)-1) {
			wg.Go(func() {
				for s.one(ctx) {
				}
			})
		}
		wg.Wait()
	}
	for i, o := range res.Items {
		if o.Plan == nil { // never taken: the change stopped first
			s.end(i, BulkOutcome{Plan: plans[i], Result: Result{Plan: plans[i], State: StateFailed}})
		}
	}
	return res, w.markBulk(&res)
}

// bulkSend is one bulk change's sending, shared by its workers.
type bulkSend struct {
	w     *Writer
	plans []*Plan
	pace  Pace
	each  func(BulkOutcome)
	undo  []*Entry // an undo's entry per plan (the item's state); nil for a change
	mu    sync.Mutex
	next  int // the next plan to take
	res   *BulkResult
}

// one takes the next plan and sends it once the pace lets it out; false
// when none is left or the change was stopped.
func (s *bulkSend) one(ctx context.Context) bool {
	s.mu.Lock()
	i := s.next
	if i >= len(s.plans) || ctx.Err() != nil {
		s.mu.Unlock()
		return false
	}
	s.next++
	s.mu.Unlock()
	p := s.plans[i]
	o := BulkOutcome{Plan: p}
	if s.pace != nil && s.pace.Wait(ctx, p.PredictedWCU) != nil {
		s.end(i, BulkOutcome{Plan: p, Result: Result{Plan: p, State: StateFailed}})
		return false
	}
	s.mu.Lock()
	if s.res.First.IsZero() {
		s.res.First = time.Now()
	}
	s.mu.Unlock()
	o.Sent = true
	// The writes in flight are let finish: a cancel stops the change
	// between items, never one item half-way.
	var undo *Entry
	if s.undo != nil {
		undo = s.undo[i]
	}
	o.Result, o.Err = s.w.apply(context.WithoutCancel(ctx), p, undo)
	if s.pace != nil {
		s.pace.Answered(o)
	}
	s.end(i, o)
	return true
}

// end records item i's outcome and tells each of it.
func (s *bulkSend) end(i int, o BulkOutcome) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.res.Items[i] = o
	if o.Sent {
		s.res.Last = time.Now()
		s.res.Throttled += o.Result.Throttled
		if o.Result.NoWCU {
			s.res.Unknown++
		} else {
			s.res.WCU += o.Result.WCU
		}
	}
	if s.each != nil {
		s.each(o)
	}
}

// markBulk writes the entry's one mark: each item's state, the images
// DynamoDB reported of those written, and the units when every answer
// reported them.
func (w *Writer) markBulk(res *BulkResult) error {
	if res.Entry == nil {
		return nil
	}
	m := Mark{State: StateDone}
	var done, doubt int
	for _, o := range res.Items {
		im := ItemMark{State: o.Result.State}
		var nl *NotLandedError
		switch {
		case !o.Sent:
			im.Note = NoteLeft
		case errors.As(o.Err, &nl):
			im.Note = nl.Error()
		}
		if o.Result.State == StateDone {
			done++
			im.Old, im.New, im.Images = o.Result.Old, o.Result.New, true
		}
		if o.Result.State == StateInDoubt {
			doubt++
		}
		m.Items = append(m.Items, im)
	}
	switch {
	case doubt > 0:
		m.State = StateInDoubt
	case done == 0:
		m.State = StateRefused
		if res.Items[0].Result.State == StateFailed {
			m.State = StateFailed
		}
	}
	if res.Unknown == 0 {
		u := res.WCU
		m.WCU = &u
	}
	m.Note = fmt.Sprintf("bulk: %d of %d items written", done, len(res.Items))
	if err := w.journal.Mark(res.Entry, m); err != nil {
		return fmt.Errorf("the bulk change was sent, but the journal could not record it (its entry %d stays in doubt): %w", res.Entry.Number, err)
	}
	return nil
}

// DefaultBulkWCU is the pace of a bulk change when the user names none, in
// predicted WCU per second: low enough not to crowd out an on-demand
// table's other writers, or to throttle a provisioned table of 100 WCU or
// more.
const DefaultBulkWCU = 100

// RatePace holds a bulk change to a rate of predicted WCU per second. A
// write goes out once the units reserved before it fit in the time since
// the first at the current rate, with at most a second's worth of units
// of credit after a slow stretch, so no second of the change goes much
// faster than the rate. A throttled write (DynamoDB refused an attempt
// for capacity) halves the current rate, at most once per answer and
// never below a 64th of PerSecond; each second without throttling gives
// back a tenth of PerSecond, up to PerSecond.
type RatePace struct {
	PerSecond float64

	mu     sync.Mutex
	due    time.Time // when the next write may go out
	rate   float64   // the rate since since; 0 before the first write
	since  time.Time
	lowest float64
	now    func() time.Time // time.Now; a test's clock
}

func (r *RatePace) clock() time.Time {
	if r.now != nil {
		return r.now()
	}
	return time.Now()
}

// current is the rate at now: the rate set at since, recovered by a
// tenth of PerSecond per second after it. r.mu is held.
func (r *RatePace) current(now time.Time) float64 {
	if r.rate == 0 {
		return r.PerSecond
	}
	return min(r.PerSecond, r.rate+r.PerSecond/10*now.Sub(r.since).Seconds())
}

// Wait implements Pace.
func (r *RatePace) Wait(ctx context.Context, wcu float64) error {
	if !(r.PerSecond > 0) {
		return errors.New("a rate of WCU per second above 0 is needed")
	}
	r.mu.Lock()
	now := r.clock()
	if r.rate == 0 {
		r.rate, r.since, r.lowest, r.due = r.PerSecond, now, r.PerSecond, now
	}
	if credit := now.Add(-time.Second); r.due.Before(credit) {
		r.due = credit
	}
	due := r.due
	r.due = r.due.Add(time.Duration(wcu / r.current(now) * float64(time.Second)))
	r.mu.Unlock()
	if d := due.Sub(now); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return ctx.Err()
}

// Answered implements Pace: a write that met throttling halves the rate,
// and what was reserved at the old rate waits as the new one would have.
func (r *RatePace) Answered(o BulkOutcome) {
	if o.Result.Throttled == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.clock()
	r.rate, r.since = max(r.current(now)/2, r.PerSecond/64), now
	r.lowest = min(r.lowest, r.rate)
	if r.due.Before(now) {
		r.due = now
	}
}

// Rate is the rate a write would go out at now, in WCU per second.
func (r *RatePace) Rate() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.current(r.clock())
}

// Lowest is the lowest rate throttling brought the change down to:
// PerSecond when it never did.
func (r *RatePace) Lowest() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.rate == 0 {
		return r.PerSecond
	}
	return r.lowest
}
