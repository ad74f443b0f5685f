package cli

// undo of a bulk entry: each item it wrote (or may have) put back as it
// found it, only if it is still as the change left it. An undo stopped by
// a signal says what it undid, refused and left, and prints the command
// that undoes only the items left (undo --entry N --keys FILE); an undo
// of an entry that earlier undos took part of leaves their items be, so
// no item is written twice.

import (
	"context"
	"fmt"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// undoBulk takes back bulk entry e: the preview first, as a bulk
// change's, and with --dry-run only that.
func undoBulk(ctx context.Context, opts *undoOptions, client *dynamo.Client, t dynamo.Table, e edit.Entry, entries []edit.Entry) error {
	plans, items, err := edit.UndoPlans(e, t)
	if err != nil {
		return fmt.Errorf("undo entry %d: %w.", e.Number, err)
	}
	selector := fmt.Sprintf("journal entry %d", e.Number)
	if opts.Keys != "" {
		if plans, items, err = undoKeys(opts, t, e, plans, items); err != nil {
			return err
		}
		selector += ", the items of --keys " + opts.Keys
	}
	plans, items, before := withoutUndone(plans, items, edit.UndoneItems(entries, e.Number))
	if before > 0 {
		fmt.Fprintf(opts.Err, "%s of entry %d were taken back by an earlier undo: left be, not sent again\n", textfmt.Plural(before, "item", "items"), e.Number)
	}
	pre := bulkPreview{command: "undo", table: t.Name, selector: selector, plans: plans, sending: !opts.DryRun, rate: opts.MaxWCU,
		target: edit.Target{Endpoint: client.Endpoint(), Region: client.Region(), Profile: client.Profile()}}
	if opts.DryRun || opts.Output != "json" {
		if err := pre.print(opts.Out, opts.Output); err != nil {
			return err
		}
	}
	if opts.DryRun || len(plans) == 0 {
		return nil
	}
	w, err := opts.ConnectWriter(ctx)
	if err != nil {
		return err
	}
	pace := &edit.RatePace{PerSecond: opts.MaxWCU}
	prog := newBulkProgress(opts.Err, pre, pace)
	res, err := w.UndoBulk(ctx, plans, items, e, pace, prog.item)
	prog.done()
	n, err := printSent(ctx, opts.Out, opts.Output, bulkSent{pre: pre, res: res, journal: w.JournalPath(), pace: pace}, err)
	if err != nil {
		return err
	}
	if n.left > 0 && ctx.Err() != nil {
		return stoppedUndo(ctx, opts, e, res, w.JournalPath(), n)
	}
	if n.written+n.notLanded < len(plans) {
		return fmt.Errorf("undo entry %d: %w: %d undone, %d refused (changed since), %d in doubt, %d not landed (nothing to undo), %d left", e.Number, errBulkIncomplete, n.written, n.refused, n.inDoubt, n.notLanded, n.left)
	}
	return nil
}

// withoutUndone leaves out the items an earlier undo of the entry took
// back (their keys in undone), and says how many.
func withoutUndone(plans []*edit.Plan, items []edit.EntryItem, undone map[string]bool) ([]*edit.Plan, []edit.EntryItem, int) {
	if len(undone) == 0 {
		return plans, items, 0
	}
	var ps []*edit.Plan
	var its []edit.EntryItem
	for i, it := range items {
		if !undone[it.KeyID()] {
			ps, its = append(ps, plans[i]), append(its, it)
		}
	}
	return ps, its, len(plans) - len(ps)
}

// undoKeys keeps the plans of the items --keys names; a key that is no
// item the entry wrote is refused, before anything is sent.
func undoKeys(opts *undoOptions, t dynamo.Table, e edit.Entry, plans []*edit.Plan, items []edit.EntryItem) ([]*edit.Plan, []edit.EntryItem, error) {
	keys, name, err := openKeys(opts.Keys, opts.Files, t)
	if err != nil {
		return nil, nil, err
	}
	want := map[string]bool{}
	for _, k := range keys {
		want[string(itemcodec.DynamoJSON(k))] = true
	}
	var ps []*edit.Plan
	var its []edit.EntryItem
	for i, it := range items {
		if want[it.KeyID()] {
			ps, its = append(ps, plans[i]), append(its, it)
			delete(want, it.KeyID())
		}
	}
	for _, k := range keys {
		if want[string(itemcodec.DynamoJSON(k))] {
			return nil, nil, usageError{textfmt.Sanitize(fmt.Sprintf("--keys %s: %s is not an item journal entry %d wrote (or may have): give the file of keys its stopped undo wrote.",
				name, itemcodec.PlainJSON(k), e.Number))}
		}
	}
	return ps, its, nil
}

// stoppedUndo is the error of a bulk undo that a signal stopped with
// items left: what came of it, and the command that undoes the rest.
func stoppedUndo(ctx context.Context, opts *undoOptions, e edit.Entry, res edit.BulkResult, journal string, n bulkCounts) error {
	err := fmt.Errorf("undo entry %d: stopped by %s after the writes in flight: %d undone, %d refused (changed since), %d in doubt, %d not landed (nothing to undo), %d left (not undone)",
		e.Number, stoppedBy(ctx)(), n.written, n.refused, n.inDoubt, n.notLanded, n.left)
	path, werr := writeLeftKeys(res, journal)
	if werr != nil {
		return fmt.Errorf("%w; the keys of the items left could not be written to a file (%v), so no command undoes only them", err, werr)
	}
	return goOnError{err: err, cmd: goOnLine(opts.Line, "--entry", fmt.Sprint(e.Number), "--keys", path),
		lead: fmt.Sprintf("to undo only the %s left, run: ", textfmt.Plural(n.left, "item", "items"))}
}
