package cli

// After a bulk change was stopped (Ctrl-C, SIGTERM): the command that
// sends only the items it left. Their keys go to a file beside the
// journal, and the command is the one given with --keys of that file in
// place of its selector, so that it reads those items again (each write
// conditional on the item as it is then) and touches nothing the stopped
// run wrote, refused or left in doubt. The journal entry holds what was
// done, item by item, and the command names it (--continues N), so the
// rest's entry records the link and one undo takes back both (bulk_chain.go).

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// stoppedBulk is the error of a bulk change that a signal stopped with
// items left: what came of it, and the command that sends the rest.
func stoppedBulk(ctx context.Context, opts *writeOptions, res edit.BulkResult, journal string, n bulkCounts) error {
	err := fmt.Errorf("bulk %s: stopped by %s after the writes in flight: %d written, %d refused, %d in doubt, %d left (not sent)",
		opts.Command, stoppedBy(ctx)(), n.written, n.refused, n.inDoubt, n.left)
	path, werr := writeLeftKeys(res, journal)
	if werr != nil {
		return fmt.Errorf("%w; the keys of the items left could not be written to a file (%v), so no command sends only them", err, werr)
	}
	add := []string{"--keys", path}
	if res.Entry != nil { // the entry of this run, which the rest continues: one undo takes back both
		add = append(add, "--continues", fmt.Sprint(res.Entry.Number))
	}
	return goOnError{err: err, cmd: goOnLine(opts.Bulk.Line, add...),
		lead: fmt.Sprintf("to send only the %s left, run: ", textfmt.Plural(n.left, "item", "items"))}
}

// writeLeftKeys writes the keys of the items not sent, one plain JSON key
// a line as --keys reads them, to a new file beside the journal (named by
// its entry) or, without one, in the temporary directory.
func writeLeftKeys(res edit.BulkResult, journal string) (string, error) {
	var b bytes.Buffer
	for _, o := range res.Items {
		if !o.Sent {
			b.Write(itemcodec.PlainJSON(planKey(o.Plan)))
			b.WriteByte('\n')
		}
	}
	dir, pattern := os.TempDir(), "dynascope-bulk-left-*.jsonl"
	if journal != "" && res.Entry != nil {
		dir, pattern = filepath.Dir(journal), fmt.Sprintf("bulk-%d-left-*.jsonl", res.Entry.Number)
	}
	return writeNewFile(dir, pattern, b.Bytes())
}

// planKey is the key of the item a plan writes: from the image read, or,
// for a new item (the undo of a delete), the image it leaves.
func planKey(p *edit.Plan) dynamo.Item {
	if p.Old == nil {
		return edit.KeyOf(p.Keys, p.New)
	}
	return edit.KeyOf(p.Keys, p.Old)
}
