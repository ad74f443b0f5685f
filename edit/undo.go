package edit

// Undo: the plan that takes a journalled write back, and sending it.

import (
	"context"

	"dynascope/dynamo"
)

// Undo sends an undo plan (UndoPlan) of the journal entry e, on the
// condition that the item is still exactly as that write left it (or, for
// a write in doubt, would leave it): a later change by anyone makes it
// refuse with an *UndoConflictError, writing nothing; a write in doubt
// that has not landed makes it a *NotLandedError, changing nothing.
func (w *Writer) Undo(ctx context.Context, p *Plan, e Entry) (Result, error) {
	return w.apply(ctx, p, &e)
}

// UndoConflictError is an undo refused because the item changed after the
// write being undone.
type UndoConflictError struct{ *ConflictError }

func (e *UndoConflictError) Error() string {
	return "nothing was undone: the item has changed since that write (by someone else, or by a later write); undo the later writes first, or edit it by hand"
}

// UndoPlan is the plan that reverses a journalled write: from the image it
// left back to the image it found. t is the table as described now, for
// its indexes' share of the predicted units; a zero t uses the key schema
// the entry recorded.
func UndoPlan(e Entry, t dynamo.Table) (*Plan, error) {
	keys := e.Keys()
	if t.PK == keys.PK && (t.SK == nil) == (keys.SK == nil) && (t.SK == nil || *t.SK == *keys.SK) {
		keys = t
	}
	old, err := e.OldItem()
	if err != nil {
		return nil, err
	}
	new, err := e.NewItem()
	if err != nil {
		return nil, err
	}
	if e.VersionAttr != "" && new != nil && old != nil {
		// Versions only go up: the undo writes the version after the one
		// the write left, so a writer holding either one is refused.
		if v, ok := new[e.VersionAttr]; ok {
			old[e.VersionAttr] = v
		}
	}
	return NewPlan(Change{Table: e.Table, Keys: keys, Old: new, New: old, Version: e.VersionAttr})
}
