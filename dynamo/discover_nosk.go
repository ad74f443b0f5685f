package dynamo

import (
	"context"

	"dynascope/keys"
)

// noSortKey is the walk for a key without a sort key: the partition of a
// table keyed so holds its one item (a secondary index's, any number),
// found with one Limit 1 query and reported as one group, named by the
// partition key's family (keys.WholeItemEntity; the key is of type
// pkType), so groups and the UI show it instead of an empty partition. --count counts
// the index partition like any group.
func (s *skipScan) noSortKey(ctx context.Context, pkType string) error {
	p, err := s.query(ctx, QueryInput{Table: s.in.Table, Index: s.in.Index, PK: s.in.PK, Limit: 1, Consistent: s.in.Consistent})
	if err != nil || len(p.Items) == 0 {
		return err
	}
	g := keys.Group{Entity: keys.WholeItemEntity(s.in.PK, pkType), Kind: keys.KindValue, Count: -1}
	if s.in.Index == "" {
		g.Count = 1 // a table's key names one item
	} else if s.in.Count {
		if g.Count, err = s.countItems(ctx); err != nil {
			return err
		}
	}
	s.d.Groups = []keys.Group{g}
	return nil
}

// countItems reads the whole index partition page by page and counts its
// items, stopping as every announced read does when it spends far more
// than CountEst (or reaches CountMaxRCU).
func (s *skipScan) countItems(ctx context.Context) (int, error) {
	q := QueryInput{Table: s.in.Table, Index: s.in.Index, PK: s.in.PK, Consistent: s.in.Consistent}
	n := 0
	err := s.readWhole(ctx, q, "count "+s.in.PK+" on "+tableAndIndex(s.in.Table, s.in.Index), func(p Page) { n += len(p.Items) })
	return n, err
}
