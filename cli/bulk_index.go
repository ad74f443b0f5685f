package cli

// --index: a bulk change selected through a secondary index. --pk and the
// sort-key condition are the index's; the items are written by their
// table keys, each conditional on its image. An index that projects every
// attribute (ALL) gives that image with the read (a GSI's eventually
// consistent: an item changed since is refused by its condition, never
// overwritten); a KEYS_ONLY or INCLUDE index lacks attributes the
// condition needs, so each item's image is read from the table, one
// strongly consistent GetItem each, its cost said before the first.

import (
	"context"
	"fmt"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/textfmt"
)

// bulkIndexFlags checks --index beside the other selectors.
func (o *writeOptions) bulkIndexFlags(sk, entity bool) error {
	switch {
	case sk:
		return usageError{"--sk names one item and --index selects many: give a sort-key condition of the index instead."}
	case entity:
		return usageError{"--index and --entity together are not taken: entity types are named from a partition's table sort keys; select by the index's sort-key condition."}
	case o.Bulk.Index == "":
		return usageError{"--index takes the name of a secondary index of the table."}
	}
	return nil
}

// bulkIndex is the index of --index, or none for "".
func bulkIndex(t dynamo.Table, name string) (dynamo.Index, error) {
	if name == "" {
		return dynamo.Index{}, nil
	}
	if _, err := t.Schema(name); err != nil {
		return dynamo.Index{}, usageError{"--index: " + err.Error()}
	}
	ix, _ := t.IndexByName(name)
	return ix, nil
}

func consistency(strong bool) string {
	if strong {
		return "strongly consistent"
	}
	return "eventually consistent (a GSI offers no other)"
}

// tableImages replaces the items an index read gave by their images in
// the table when the index does not project them whole: one strongly
// consistent GetItem each, said first. An item gone since is missing.
func tableImages(ctx context.Context, client *dynamo.Client, t dynamo.Table, ix dynamo.Index, opts *writeOptions, sel *selection) error {
	if ix.Projection == "ALL" {
		if ix.Kind == dynamo.GSI {
			fmt.Fprintf(opts.Bulk.Err, "index %s projects every attribute: each write is conditional on the index's image, eventually consistent; an item changed since is refused, not overwritten\n", textfmt.Sanitize(ix.Name))
		}
		return nil
	}
	keys := make([]dynamo.Item, len(sel.items))
	for i, it := range sel.items {
		keys[i] = edit.KeyOf(t, it)
	}
	fmt.Fprintf(opts.Bulk.Err, "index %s is %s: the write's condition needs each item's whole image, so it is read from the table, strongly consistent: %s, at least %s RCU (1 per 4 KB of each item)\n",
		textfmt.Sanitize(ix.Name), ix.Projection, textfmt.Plural(len(keys), "GetItem request", "GetItem requests"), jsonFloat(float64(len(keys))))
	sel.items = nil
	if err := readImages(ctx, client, t, keys, sel); err != nil {
		return fmt.Errorf("%s: reading the items' images stopped after %d of %d: nothing planned, nothing sent: %w", opts.Command, len(sel.items)+len(sel.missing), len(keys), err)
	}
	return nil
}
