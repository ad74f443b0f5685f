package ui

import (
	"context"
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/ui/overlay"
)

// The root's side of a bulk change of the marked items (ui/overlay's
// bulkedit.go is the overlay): B opens it with the marked items in memory,
// as read; the command sends the plans through the Editor's ApplyBulk at
// the settings' rate, reporting progress as items end; the reply logs
// every request and shows what was done. Without --allow-writes B only
// says that writes are off: no Editor, nothing to send with.

// bulkWriteProgressMsg is how far the bulk change in flight has got.
type bulkWriteProgressMsg struct {
	id int
	p  overlay.BulkProgress
}

// bulkWrittenMsg answers bulkWriteCmd: what the change did.
type bulkWrittenMsg struct {
	id   int
	undo *edit.Entry // the entry undone; nil for a change
	res  edit.BulkResult
	err  error
}

// progressEvery is how often the bulk change's progress is drawn, at most.
const progressEvery = 100 * time.Millisecond

// bulkWriteCmd sends plans at rate predicted WCU per second, telling send
// of its progress.
func bulkWriteCmd(ctx context.Context, e Editor, send *sender, id int, a overlay.SendBulkChange) tea.Cmd {
	plans := a.Plans
	return func() tea.Msg {
		pace := &edit.RatePace{PerSecond: a.Rate}
		start := time.Now()
		var last time.Time
		p := overlay.BulkProgress{Total: len(plans)}
		var leftWCU float64
		for _, pl := range plans {
			leftWCU += pl.PredictedWCU
		}
		each := func(o edit.BulkOutcome) {
			// Called one item at a time: p is this goroutine's own.
			p.Done++
			leftWCU -= o.Plan.PredictedWCU
			switch o.Result.State {
			case edit.StateDone:
				p.Written++
			case edit.StateRefused:
				p.Refused++
			case edit.StateInDoubt:
				p.InDoubt++
			}
			now := time.Now()
			if now.Sub(last) < progressEvery && p.Done < p.Total {
				return
			}
			last = now
			p.Elapsed, p.Rate = now.Sub(start), pace.Rate()
			if p.Rate > 0 {
				p.Left = edit.WriteTime(max(0, leftWCU), p.Rate)
			}
			send.deliver(bulkWriteProgressMsg{id: id, p: p})
		}
		msg := bulkWrittenMsg{id: id, undo: a.Undo}
		if a.Undo != nil {
			msg.res, msg.err = e.UndoBulk(ctx, plans, a.Items, *a.Undo, pace, each)
		} else {
			msg.res, msg.err = e.ApplyBulk(ctx, plans, pace, each)
		}
		return msg
	}
}

// openBulkEdit is B: the bulk change of the marked items in memory, on
// the base table, with writes on.
func (m Model) openBulkEdit() Model {
	switch {
	case m.opts.Editor == nil:
		m.status.Info = "writes are off: start with --allow-writes to change the marked items (nothing was sent)"
		return m
	case m.items.MarkCount() == 0:
		m.status.Info = "no item is marked: space marks one, A every loaded result"
		return m
	case !m.haveTable || m.index != "":
		m.status.Err = "a bulk change is made on the base table, where items are whole: i chooses it."
		return m
	}
	items := m.markedItems()
	if len(items) == 0 {
		m.status.Info = fmt.Sprintf("none of the %d marked items is in memory here: open their partition first", m.items.MarkCount())
		return m
	}
	return m.push(overlay.NewBulkEdit(items, m.items.MarkCount()-len(items), m.table, m.bulkRate()))
}

// markedItems are the marked items the items pane holds in memory, as
// they were read, in the pane's order.
func (m Model) markedItems() []dynamo.Item {
	var out []dynamo.Item
	for i := range m.items.Store.Total {
		if it, ok := m.items.Store.Item(i); ok && m.items.List.Marked(m.items.ItemID(it)) {
			out = append(out, it)
		}
	}
	return out
}

// sendBulkChange sends the plans the overlay asked for.
func (m Model) sendBulkChange(a overlay.SendBulkChange) (Model, tea.Cmd) {
	if m.opts.Editor == nil {
		return m, nil // never reached: B opens nothing without a writer
	}
	id, ctx := m.flight.start(m.ctx, flightBulkWrite)
	return m, bulkWriteCmd(ctx, m.opts.Editor, m.send, id, a)
}

// bulkWriteProgress shows how far the change has got.
func (m Model) bulkWriteProgress(msg bulkWriteProgressMsg) Model {
	o, ok := findOverlay[overlay.BulkEdit](m)
	if !ok || !m.flight.waits(flightBulkWrite, msg.id) {
		return m
	}
	return replaceOverlay(m, o.Progress(msg.p))
}

// bulkWritten logs every write of the change, shows what it did, and
// reads the partition again to show the items as they are now.
func (m Model) bulkWritten(msg bulkWrittenMsg) (Model, tea.Cmd) {
	for _, o := range msg.res.Items {
		for _, r := range o.Result.Requests {
			m.log = m.log.AddWrite(r)
		}
	}
	o, ok := findOverlay[overlay.BulkEdit](m)
	if !m.flight.waits(flightBulkWrite, msg.id) {
		return m, nil
	}
	m.flight.stop(flightBulkWrite)
	if ok {
		m = replaceOverlay(m, o.Sent(msg.res, msg.err))
	}
	m = m.noteBulkEntry(msg)
	if !m.haveTable || m.query.PK == "" {
		return m, nil
	}
	return m.runQuery(m.query)
}

// noteBulkEntry keeps a bulk change's entry for u, each item's state as
// the change left it (the journal's mark says the same); an undo done
// takes its entry off.
func (m Model) noteBulkEntry(msg bulkWrittenMsg) Model {
	if msg.undo != nil {
		if n := len(m.edits); msg.err == nil && n > 0 && m.edits[n-1].Number == msg.undo.Number {
			m.edits = m.edits[:n-1]
		}
		return m
	}
	if msg.res.Entry == nil || len(msg.res.Items) != len(msg.res.Entry.Items) {
		return m
	}
	e := *msg.res.Entry
	e.Items = slices.Clone(e.Items)
	landed := false
	for i, o := range msg.res.Items {
		e.Items[i].State = o.Result.State
		landed = landed || o.Result.State == edit.StateDone || o.Result.State == edit.StateInDoubt
	}
	if landed {
		m.edits = append(m.edits, e)
	}
	return m
}

// undoBulk shows the undo of bulk entry e for confirmation.
func (m Model) undoBulk(e edit.Entry, t dynamo.Table) Model {
	plans, items, err := edit.UndoPlans(e, t)
	if err != nil {
		m.status.Err = sanitize(err.Error())
		return m
	}
	return m.push(overlay.NewBulkUndo(plans, items, e, t, m.bulkRate()))
}

// bulkRate is the pace of a bulk change: the settings', in predicted WCU
// per second.
func (m Model) bulkRate() float64 {
	if rate := m.opts.Settings.MaxWCUPerSecond; rate > 0 {
		return rate
	}
	return config.DefaultMaxWCUPerSecond // settings made without DefaultSettings
}
