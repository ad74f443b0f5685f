package dynamo

import (
	"context"

	"dynascope/itemcodec"
	"dynascope/keys"
)

// firstPageLimit is the Limit of the first page Discover reads itself: a
// partition of up to that many items is read whole in one request, and a
// bigger one's page costs what 20 items cost (1.5 RCU for the demo's
// ~600-byte orders, 0.5 RCU for items under 200 bytes). It is a number of
// its own, not one drawn from the table's average item size: DescribeTable's
// sizes are hours old, absent when the key schema came from the cache, and
// an average says nothing of one partition's items (the demo table's
// average is 178 bytes, CUST#7's orders ~600), so a Limit drawn from them
// made the same question cost differently cold and warm and still missed
// the partition it was sized for.
const firstPageLimit = 20

// fromFirst groups the partition's first page (the caller's, or one read
// now) and, when DynamoDB says more follows, walks on from its last key.
func (s *skipScan) fromFirst(ctx context.Context) error {
	p := s.in.First
	if p == nil {
		got, err := s.query(ctx, QueryInput{
			Table: s.in.Table, Index: s.in.Index, PK: s.in.PK,
			Reverse: s.in.Reverse, Consistent: s.in.Consistent, Limit: firstPageLimit,
		})
		if err != nil {
			return err
		}
		s.firstSent = true
		p = &got
	}
	s.take(p.Items, p.LastEvaluatedKey != nil)
	s.d.EntityAttribute = entityAttribute(p.Items)
	if p.LastEvaluatedKey == nil {
		return nil // DynamoDB's word: the page is the whole partition
	}
	if len(p.Items) == 0 {
		// An empty page that says more follows: read on from its key.
		if s.d.KeyType != "S" {
			if err := s.walkRange(ctx, p.LastEvaluatedKey); err != nil || len(s.d.Groups) == 0 {
				return err
			}
			return s.keyRange(ctx, s.d.Groups[0].First)
		}
		return s.walkOne(ctx, &half{rev: s.in.Reverse, groups: &s.d.Groups}, p.LastEvaluatedKey)
	}
	last := itemcodec.KeyString(p.Items[len(p.Items)-1][s.sk])
	if s.d.KeyType != "S" {
		return s.keyRange(ctx, last)
	}
	main := &half{rev: s.in.Reverse, groups: &s.d.Groups, cond: SKCond{Op: SKGt, Values: []string{last}}, covers: true}
	if s.in.Reverse {
		main.cond.Op = SKLt
	}
	if !keys.Classify(last, s.d.Delimiter).Exact {
		main.at = last
	}
	if s.in.OneWay {
		return s.walkOne(ctx, main, nil)
	}
	return s.walkBoth(ctx, main)
}

// walkRange finds the first value of a numeric or binary sort key after an
// empty first page.
func (s *skipScan) walkRange(ctx context.Context, start Item) error {
	s.walking = true
	defer func() { s.walking = false }()
	first, found, err := s.one(ctx, SKCond{}, s.in.Reverse, start, nil, nil)
	if err != nil || !found {
		return err
	}
	c := keys.ClassifyTyped(first, s.d.KeyType, "")
	s.d.Groups = []keys.Group{{Entity: c.Entity, Kind: c.Kind, Count: 1, First: first, Last: first}}
	return nil
}

// readAll reads the whole partition page by page (Count) and groups every
// key: the counts are DynamoDB's own items, and no skip-scan is needed.
// It stops, as every announced read does, when it spends far more than
// CountEst (or reaches CountMaxRCU). The entity attribute is the first page's read (s.in.First's
// when it is the whole partition).
func (s *skipScan) readAll(ctx context.Context) error {
	q := QueryInput{Table: s.in.Table, Index: s.in.Index, PK: s.in.PK, Reverse: s.in.Reverse, Consistent: s.in.Consistent}
	if p := s.in.First; p != nil {
		s.take(p.Items, p.LastEvaluatedKey != nil)
		s.d.EntityAttribute = entityAttribute(p.Items)
		if p.LastEvaluatedKey == nil {
			return nil
		}
		q.StartKey = p.LastEvaluatedKey
	}
	pages := 0
	return s.readWhole(ctx, q, "count "+s.in.PK+" on "+tableAndIndex(s.in.Table, s.in.Index), func(p Page) {
		s.take(p.Items, p.LastEvaluatedKey != nil)
		if pages++; pages == 1 {
			s.d.EntityAttribute = entityAttribute(p.Items)
		}
	})
}

// readWhole reads a whole partition from q on (a count's, a grouping by
// attribute's), handing each page to take, under the same bound as a
// query --all-pages: it stops when it spends clearly more than CountEst
// (an *EstimateError), or at CountMaxRCU (a *CapError), keeping the pages
// it read; what names the read in that sentence.
func (s *skipScan) readWhole(ctx context.Context, q QueryInput, what string, take func(Page)) error {
	res, err := readPages(ctx, QueryRead{Query: q, Est: s.in.CountEst, MaxRCU: s.in.CountMaxRCU, What: what,
		OnPage: func(p Page) error { take(p); return nil }}, s.query)
	if err == nil && res.Stop == StopMaxRCU {
		err = &CapError{What: what, Cap: res.MaxRCU, Spent: res.Spent, Items: res.Scanned}
	}
	return err
}

// take loads the sort keys of items read in the walk's direction into the
// partition's entity table (more: a page follows), whose types become the
// discovery's groups once the walk is done. The walk goes on from the
// page's own groups, each key classified as the walk classifies the keys
// it lands on (ids not folded yet), so its halves tell a key one of them
// read by its class. The delimiter is inferred from the first keys that
// start with a label, as the walk infers it.
func (s *skipScan) take(items []Item, more bool) {
	page := make([]keys.LoadedKey, len(items))
	sks := make([]string, len(items))
	for i, it := range items {
		sks[i] = itemcodec.KeyString(it[s.sk])
		page[i].SK = sks[i]
	}
	if s.d.Delimiter == "" && s.d.KeyType == "S" {
		for _, k := range sks {
			if k != "" && (k[0] < '0' || k[0] > '9') {
				s.d.Delimiter = keys.InferDelimiter(sks)
				break
			}
		}
	}
	s.tbl = s.tbl.Load(page, s.d.Delimiter, more)
	s.d.Groups = keys.GroupSortKeys(sks, s.d.KeyType, s.d.Delimiter)
}
