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
}

// Pace paces a bulk change: Wait returns once the next write, of
// predicted wcu, may go out, or with ctx's error.
type Pace interface {
	Wait(ctx context.Context, wcu float64) error
}

// ApplyBulk sends the plans, one after another at pace (nil for no
// pace), under one journal entry. A cancelled ctx stops it after the
// write in flight; the items not sent are left (Sent false) and journalled
// failed (not applied). each, when not nil, is told of every item as it
// ends.
func (w *Writer) ApplyBulk(ctx context.Context, plans []*Plan, pace Pace, each func(BulkOutcome)) (BulkResult, error) {
	return w.applyBulk(ctx, plans, pace, each, 0)
}

// UndoBulk takes back bulk entry e with plans (UndoPlans), as ApplyBulk
// sends them, under one entry that undoes e: each item only if it is still
// as e left it; those changed since are refused and left.
func (w *Writer) UndoBulk(ctx context.Context, plans []*Plan, e Entry, pace Pace, each func(BulkOutcome)) (BulkResult, error) {
	return w.applyBulk(ctx, plans, pace, each, max(e.Number, 1))
}

func (w *Writer) applyBulk(ctx context.Context, plans []*Plan, pace Pace, each func(BulkOutcome), undoes int) (BulkResult, error) {
	var res BulkResult
	if len(plans) == 0 {
		return res, nil
	}
	if w.journal != nil {
		e := newEntry(plans[0], w.target, undoes)
		e.Items, e.PredictedWCU = nil, 0
		for _, p := range plans {
			e.Items = append(e.Items, newEntry(p, w.target, undoes).Items...)
			e.PredictedWCU += p.PredictedWCU
		}
		if err := w.journal.Begin(&e); err != nil {
			return res, fmt.Errorf("bulk %s on %s: the journal could not be written, so nothing was sent: %w", plans[0].Op, plans[0].Table, err)
		}
		res.Entry = &e
	}
	single := &Writer{api: w.api, target: w.target, timeout: w.timeout, observe: w.observe}
	for _, p := range plans {
		o := BulkOutcome{Plan: p}
		if ctx.Err() == nil && (pace == nil || pace.Wait(ctx, p.PredictedWCU) == nil) {
			o.Sent = true
			// The write in flight is let finish: a cancel stops the
			// change between items, never one item half-way.
			o.Result, o.Err = single.apply(context.WithoutCancel(ctx), p, nil)
			if o.Result.NoWCU {
				res.Unknown++
			} else {
				res.WCU += o.Result.WCU
			}
		} else {
			o.Result = Result{Plan: p, State: StateFailed}
		}
		res.Items = append(res.Items, o)
		if each != nil {
			each(o)
		}
	}
	return res, w.markBulk(&res)
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
		if !o.Sent {
			im.Note = "left: not sent"
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

// RatePace holds a bulk change to a rate of predicted WCU per second: a
// write goes out once the units sent before it fit in the time since the
// first at that rate, so no stretch of the change goes faster.
type RatePace struct {
	PerSecond float64
	start     time.Time
	spent     float64
}

// Wait implements Pace.
func (r *RatePace) Wait(ctx context.Context, wcu float64) error {
	if r.PerSecond <= 0 {
		return errors.New("a rate of WCU per second above 0 is needed")
	}
	now := time.Now()
	if r.start.IsZero() {
		r.start = now
	}
	due := r.start.Add(time.Duration(r.spent / r.PerSecond * float64(time.Second)))
	if d := due.Sub(now); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	r.spent += wcu
	return nil
}
