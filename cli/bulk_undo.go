package cli

// undo of a bulk entry: each item it wrote (or may have) put back as it
// found it, only if it is still as the change left it. An undo stopped by
// a signal says what it undid, refused and left, and prints the command
// that undoes only the items left (undo --entry N --keys FILE); an undo
// of an entry that earlier undos took part of leaves their items be, so
// no item is written twice. A bulk change stopped and continued (its rest
// sent with --continues) is a chain: undo takes back all its entries,
// newest first, as one undo with one journal entry.

import (
	"context"
	"fmt"
	"strings"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// undoItems are the plans that take back the items of a chain's entries,
// each with the item and the entry it is of.
type undoItems struct {
	plans []*edit.Plan
	items []edit.EntryItem
	of    []edit.Entry
}

// keep is u with only the items keep tells.
func (u undoItems) keep(keep func(i int) bool) undoItems {
	var k undoItems
	for i := range u.plans {
		if keep(i) {
			k.plans, k.items, k.of = append(k.plans, u.plans[i]), append(k.items, u.items[i]), append(k.of, u.of[i])
		}
	}
	return k
}

// chainText names the entries of a chain, newest first: "entry 4", or
// "entries 4 and 3".
func chainText(chain []edit.Entry) string {
	ns := make([]int, len(chain))
	for i, e := range chain {
		ns[i] = e.Number
	}
	if len(ns) == 1 {
		return fmt.Sprintf("entry %d", ns[0])
	}
	return "entries " + numbersText(ns)
}

// numbersText is "4", "4 and 3", "5, 4 and 3".
func numbersText(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// undoBulk takes back bulk entry chain[0] and the entries it continues
// (the rest of chain): the preview first, as a bulk change's, and with
// --dry-run only that.
func undoBulk(ctx context.Context, opts *undoOptions, client *dynamo.Client, t dynamo.Table, chain []edit.Entry, entries []edit.Entry) error {
	name := chainText(chain)
	var u undoItems
	for _, e := range chain {
		if !e.Undoable() {
			continue
		}
		plans, items, err := edit.UndoPlans(e, t)
		if err != nil {
			return fmt.Errorf("undo entry %d: %w.", e.Number, err)
		}
		for i := range plans {
			u.plans, u.items, u.of = append(u.plans, plans[i]), append(u.items, items[i]), append(u.of, e)
		}
	}
	selector := "journal " + name
	if len(chain) > 1 {
		selector += " (a bulk change stopped and continued)"
	}
	if opts.Keys != "" {
		var err error
		if u, err = undoKeys(opts, t, name, u); err != nil {
			return err
		}
		selector += ", the items of --keys " + opts.Keys
	}
	for _, e := range chain {
		undone := edit.UndoneItems(entries, e.Number)
		before := len(u.plans)
		u = u.keep(func(i int) bool { return u.of[i].Number != e.Number || !undone[u.items[i].KeyID()] })
		if n := before - len(u.plans); n > 0 {
			fmt.Fprintf(opts.Err, "%s of entry %d were taken back by an earlier undo: left be, not sent again\n", textfmt.Plural(n, "item", "items"), e.Number)
		}
	}
	if err := oneEntryEach(u); err != nil {
		return err
	}
	pre := bulkPreview{command: "undo", table: t.Name, selector: selector, plans: u.plans, sending: !opts.DryRun, rate: opts.MaxWCU,
		target: edit.Target{Endpoint: client.Endpoint(), Region: client.Region(), Profile: client.Profile()}}
	if opts.DryRun || opts.Output != "json" {
		if err := pre.print(opts.Out, opts.Output); err != nil {
			return err
		}
	}
	if opts.DryRun || len(u.plans) == 0 {
		return nil
	}
	w, err := opts.ConnectWriter(ctx)
	if err != nil {
		return err
	}
	pace := &edit.RatePace{PerSecond: opts.MaxWCU}
	prog := newBulkProgress(opts.Err, pre, pace)
	res, err := w.UndoChain(ctx, u.plans, u.items, u.of, pace, prog.item)
	prog.done()
	n, err := printSent(ctx, opts.Out, opts.Output, bulkSent{pre: pre, res: res, journal: w.JournalPath(), pace: pace}, err)
	if err != nil {
		return err
	}
	if n.left > 0 && ctx.Err() != nil {
		return stoppedUndo(ctx, opts, chain, res, w.JournalPath(), n)
	}
	if n.written+n.notLanded < len(u.plans) {
		return fmt.Errorf("undo %s: %w: %d undone, %d refused (changed since), %d in doubt, %d not landed (nothing to undo), %d left", name, errBulkIncomplete, n.written, n.refused, n.inDoubt, n.notLanded, n.left)
	}
	return nil
}

// oneEntryEach refuses the undo of a chain two of whose entries wrote the
// same item: sent at once, the older one's undo would find the item as
// the newer one left it. The rest of a stopped change (--continues) holds
// only the items it left, so a chain never does unless edited by hand.
func oneEntryEach(u undoItems) error {
	seen := map[string]int{}
	for i, it := range u.items {
		if n, ok := seen[it.KeyID()]; ok && n != u.of[i].Number {
			return usageError{textfmt.Sanitize(fmt.Sprintf("entries %d and %d both wrote %s: undo them one at a time, newest first (undo --entry %d, then --entry %d).",
				n, u.of[i].Number, it.Key, n, u.of[i].Number))}
		}
		seen[it.KeyID()] = u.of[i].Number
	}
	return nil
}

// undoKeys keeps the items --keys names; a key that is no item the
// entries wrote is refused, before anything is sent.
func undoKeys(opts *undoOptions, t dynamo.Table, name string, u undoItems) (undoItems, error) {
	keys, file, err := openKeys(opts.Keys, opts.Files, t)
	if err != nil {
		return undoItems{}, err
	}
	want := map[string]bool{}
	for _, k := range keys {
		want[string(itemcodec.DynamoJSON(k))] = true
	}
	found := map[string]bool{}
	u = u.keep(func(i int) bool {
		found[u.items[i].KeyID()] = true
		return want[u.items[i].KeyID()]
	})
	for _, k := range keys {
		if !found[string(itemcodec.DynamoJSON(k))] {
			return undoItems{}, usageError{textfmt.Sanitize(fmt.Sprintf("--keys %s: %s is not an item journal %s wrote (or may have): give the file of keys its stopped undo wrote.",
				file, itemcodec.PlainJSON(k), name))}
		}
	}
	return u, nil
}

// stoppedUndo is the error of a bulk undo that a signal stopped with
// items left: what came of it, and the command that undoes the rest (of
// the whole chain, with --chain).
func stoppedUndo(ctx context.Context, opts *undoOptions, chain []edit.Entry, res edit.BulkResult, journal string, n bulkCounts) error {
	err := fmt.Errorf("undo %s: stopped by %s after the writes in flight: %d undone, %d refused (changed since), %d in doubt, %d not landed (nothing to undo), %d left (not undone)",
		chainText(chain), stoppedBy(ctx)(), n.written, n.refused, n.inDoubt, n.notLanded, n.left)
	path, werr := writeLeftKeys(res, journal)
	if werr != nil {
		return fmt.Errorf("%w; the keys of the items left could not be written to a file (%v), so no command undoes only them", err, werr)
	}
	add := []string{"--entry", fmt.Sprint(chain[0].Number)}
	if len(chain) > 1 {
		add = append(add, "--chain")
	}
	return goOnError{err: err, cmd: goOnLine(opts.Line, append(add, "--keys", path)...),
		lead: fmt.Sprintf("to undo only the %s left, run: ", textfmt.Plural(n.left, "item", "items"))}
}
