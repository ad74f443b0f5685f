package cli

// The rest of a stopped bulk change, linked to it: the command a stop
// prints sends only the items left (--keys of their file) and names the
// entry it continues (--continues N), so that its journal entry records
// the link and one undo takes back both (undo of a chain, bulk_undo.go).
// Before anything is read, every key must be one entry N left unsent and
// no other rest of N sent already: nothing is written twice.

import (
	"fmt"
	"io"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// continuesFlags checks --continues beside the selector: it goes with
// --keys, the items left.
func (o *writeOptions) continuesFlags(given, keys bool) error {
	switch {
	case !given:
		return nil
	case !keys:
		return usageError{"--continues N sends the rest of a stopped bulk change: give it with --keys of the file of the items left, as the stopped run printed it."}
	case o.Bulk.Continues <= 0:
		return usageError{"--continues takes the number of the journal entry of the stopped bulk change, as the stopped run printed it."}
	}
	return nil
}

// continuedLeft reads the journal for --continues N: entry N must be a
// bulk change of table t where the client writes, stopped with items left;
// the keys it left (and not yet sent by another rest of it) are kept for
// checkContinued.
func (b *bulkSelect) continuedLeft(client *dynamo.Client, t dynamo.Table) error {
	if b.Continues == 0 {
		return nil
	}
	_, entries, err := readJournal(io.Discard)
	if err != nil {
		return err
	}
	n := b.Continues
	chain := edit.Chain(entries, n)
	switch {
	case chain == nil:
		return usageError{fmt.Sprintf("--continues %d: the journal has no entry %d; list them with 'dynascope journal'.", n, n)}
	case chain[0].Table != t.Name || chain[0].Endpoint != client.Endpoint() || chain[0].Region != client.Region():
		return usageError{textfmt.Sanitize(fmt.Sprintf("--continues %d: journal entry %d is a write of table %s elsewhere; give the table and connection it was written to.", n, n, chain[0].Table))}
	case chain[0].Undoes != 0 || !chain[0].Partial():
		return usageError{fmt.Sprintf("--continues %d: journal entry %d is no bulk change stopped with items left; nothing of it is left to send.", n, n)}
	}
	b.left = map[string]int{}
	for _, it := range chain[0].Items {
		if it.Left() {
			b.left[it.KeyID()] = 0
		}
	}
	for _, e := range entries {
		if e.Continues != n || e.Number <= n {
			continue
		}
		for _, it := range e.Items {
			if _, ok := b.left[it.KeyID()]; ok && !it.Left() && e.State != edit.StateFailed {
				b.left[it.KeyID()] = e.Number
			}
		}
	}
	return nil
}

// checkContinued refuses, before any is read, a key of --keys that entry
// --continues did not leave, or that another rest of it sent already.
func (b *bulkSelect) checkContinued(keys []dynamo.Item, name string) error {
	if b.Continues == 0 {
		return nil
	}
	for _, k := range keys {
		by, ok := b.left[string(itemcodec.DynamoJSON(k))]
		switch {
		case !ok:
			return usageError{textfmt.Sanitize(fmt.Sprintf("--continues %d: %s of --keys %s is not an item entry %d left unsent: give the file of keys its stopped run wrote.",
				b.Continues, itemcodec.PlainJSON(k), name, b.Continues))}
		case by != 0:
			return usageError{textfmt.Sanitize(fmt.Sprintf("--continues %d: %s was sent already by entry %d, which continues entry %d: nothing is sent twice ('dynascope journal' lists them).",
				b.Continues, itemcodec.PlainJSON(k), by, b.Continues))}
		}
	}
	return nil
}
