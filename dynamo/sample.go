package dynamo

// Partition sampling: a bounded, parallel, keys-only Scan that the table
// overview reconstructs the single-table layout from.

import (
	"context"
	"fmt"
	"math"

	"dynascope/itemcodec"
	"dynascope/keys"
)

// Default bounds of a sample. 250 RCU reads about 2 MB: thousands of typical
// items, a few seconds of a table's burst capacity, a tiny fraction of a cent.
const (
	DefaultSampleSegments  = 4
	DefaultSampleItems     = 10000
	DefaultSampleRCU       = 250
	DefaultSamplePageLimit = 500
	MaxSampleSegments      = 64 // more buys nothing for a bounded sample
)

// StopReason says why a sample ended.
type StopReason string

// The ways a sample ends.
const (
	StopComplete  StopReason = "complete"  // every segment was read to its end: the whole table is in the sample
	StopMaxItems  StopReason = "max-items" // the item cap was reached
	StopMaxRCU    StopReason = "max-rcu"   // the capacity cap was reached
	StopCancelled StopReason = "cancelled" // the context was cancelled
	StopError     StopReason = "error"     // a request failed
)

// SampleInput says what to sample and within which bounds.
type SampleInput struct {
	Table, Index string
	Segments     int     // parallel Scan segments; DefaultSampleSegments when 0
	MaxItems     int     // never read more items than this; DefaultSampleItems when 0
	MaxRCU       float64 // stop before reading more capacity than this (see Sample); DefaultSampleRCU when 0
	PageLimit    int32   // Limit of each Scan page; DefaultSamplePageLimit when 0
	// ItemSizes reads whole items instead of the key attributes, to measure
	// each item's size exactly. It costs the same RCU (DynamoDB charges reads
	// by the whole item either way) but moves every item over the network.
	ItemSizes bool
	// Progress, when set, is called after every page. Calls never overlap
	// and come from the goroutines of the segments, so keep it quick (a UI
	// sends a message).
	Progress func(SampleProgress)
	// Planned, when set, is called once, after DescribeTable and before the
	// first Scan, with the read Sample settled on: a table that fits the caps
	// is read whole, in one Scan when one page holds it, so what a command
	// announces before the Scan is what it sends.
	Planned func(SamplePlan)
}

// SamplePlan is how a sample will read, from DynamoDB's figures for the
// table (or index), which DynamoDB refreshes about every six hours.
type SamplePlan struct {
	Segments   int   // Scan segments in flight
	Whole      bool  // DynamoDB's figures say the caps hold the whole table: no Limit tail
	TableItems int64 // DynamoDB's item count; 0 when unknown
	TableBytes int64 // DynamoDB's size in bytes; 0 when unknown
}

// SampleProgress is how far a sample has got, for a progress bar.
type SampleProgress struct {
	Items, MaxItems        int
	RCU, MaxRCU            float64
	Requests               int
	Segments, SegmentsDone int
	TableItems             int64 // DynamoDB's estimate of the table's (or index's) items; 0 when unknown
	// Request is the request this report follows, as recorded (the last of
	// Requests); its Operation is "" for a report that follows none.
	Request Request
}

// Fraction is the sample's progress from 0 to 1: the nearer of its caps, or of
// the table's estimated size when that is smaller.
func (p SampleProgress) Fraction() float64 {
	f := 0.0
	if p.MaxItems > 0 {
		want := float64(p.MaxItems)
		if p.TableItems > 0 {
			want = math.Min(want, float64(p.TableItems))
		}
		f = float64(p.Items) / want
	}
	if p.MaxRCU > 0 {
		f = math.Max(f, p.RCU/p.MaxRCU)
	}
	if p.Segments > 0 && p.SegmentsDone == p.Segments {
		f = 1
	}
	return math.Min(f, 1)
}

// SamplePage is one Scan page of a sample.
type SamplePage struct {
	Segment      int
	First, Count int // Items[First : First+Count]
	Capacity     Capacity
}

// Sample is what a sample read: the keys of the items, in segment order, and
// every request it took.
type Sample struct {
	Table, Index string
	Keys         KeySchema
	TableItems   int64 // DynamoDB's estimate for the table or index (refreshed about every six hours on AWS)
	Segments     int
	MaxItems     int
	MaxRCU       float64
	ItemSizes    bool // each item's size was measured
	Items        []keys.KeyItem
	Pages        []SamplePage
	Requests     []Request
	Stop         StopReason
	// Spent is the sample's cost as its RCU cap counts it: each page at
	// least DynamoDB's minimum of 0.5, whatever it says it cost.
	Spent float64
}

// OverCapText is the sentence of a sample that spent past its RCU cap
// (OverCapText), "" when the cap held: name is the cap's ("RCU cap"),
// rcu writes a figure as the caller prints RCU.
func (s Sample) OverCapText(name string, rcu func(float64) string) string {
	if s.MaxRCU <= 0 || s.Spent <= s.MaxRCU {
		return ""
	}
	return OverCapText(rcu(s.Spent-s.MaxRCU), name)
}

// Capacity sums the consumed capacity of every request of the sample.
func (s Sample) Capacity() Capacity {
	return TotalCapacity(s.Requests)
}

// Layout reconstructs the table's single-table layout from the sample.
//
// Without measured item sizes the size lint uses the pages: a page that
// consumed R RCU read more than (2R-1)×4 KB, so with n items one of them is at
// least that over n. This proves large items only in pages they dominate; the
// lint never guesses beyond it. Pages of an index sample are left out: they
// measure index entries, not items.
func (s Sample) Layout(largest int) keys.Layout { return s.LayoutDeclared(largest, nil) }

// LayoutDeclared is Layout with the sort-key types named by the declared
// entities d (keys.LayoutInput.Declared).
func (s Sample) LayoutDeclared(largest int, d keys.Declared) keys.Layout {
	in := keys.LayoutInput{PKType: s.Keys.PK.Type, Items: s.Items, Largest: largest, Declared: d}
	if s.Keys.SK != nil {
		in.SKType = s.Keys.SK.Type
	}
	if s.Index == "" && !s.ItemSizes {
		for _, p := range s.Pages {
			blocks := int(math.Round(p.Capacity.Total / 0.5)) // eventually consistent: 0.5 RCU per 4 KB
			if blocks > 0 {
				in.Pages = append(in.Pages, keys.PageRead{First: p.First, Count: p.Count, MinBytes: (blocks-1)*4096 + 1})
			}
		}
	}
	return keys.AnalyzeLayout(in)
}

// Sample reads a bounded sample of a table's (or index's) keys with a parallel
// Scan, to reconstruct its layout.
//
// The segments run in parallel and share the caps in rounds (sampler.read):
// each segment reads an equal share of what is left of them, and what a
// segment leaves (it ended, or its share bought no further page) is shared
// again among the others. Items: each page's Limit is at most what is left
// of the segment's share, so the sample holds exactly MaxItems items unless
// the RCU cap or the table ends first; Stop names which. Capacity: each
// page's Limit is sized as the capped reads size theirs (CapSizer, by the
// largest item the segment has read), so only an item larger than any read
// before it can pass MaxRCU, and then Spent says by how much
// (OverCapText). Each segment's pages depend only on its share and on what
// it read, so the same table gives the same sample every run.
//
// Items are read with a ProjectionExpression of the key attributes (and the
// library entity attributes of keys.LibraryAttributes) unless in.ItemSizes is
// set. That saves bandwidth, not capacity: DynamoDB charges a Scan by the full
// items it reads.
//
// On cancellation or a failed request, Sample returns what was read before it
// together with the error, and Stop says which happened.
func (c *Client) Sample(ctx context.Context, in SampleInput) (Sample, error) {
	t, err := c.DescribeTable(ctx, in.Table)
	if err != nil {
		return Sample{}, err
	}
	ks, err := t.Schema(in.Index)
	if err != nil {
		return Sample{}, err
	}
	limited := in.PageLimit != 0 // a page size the caller chose is kept
	if err := in.defaults(); err != nil {
		return Sample{}, err
	}
	s := &sampler{c: c, in: in, ks: ks, t: t, limited: limited}
	s.plan(t)
	s.segs = make([]segmentResult, s.in.Segments)
	for seg := range s.segs {
		s.segs[seg].seen, s.segs[seg].sizer = seenKeys{}, NewCapSizer(0.5, s.avgItem)
	}
	s.out = Sample{Table: in.Table, Index: in.Index, Keys: ks, TableItems: t.ItemCount,
		Segments: s.in.Segments, MaxItems: in.MaxItems, MaxRCU: in.MaxRCU, ItemSizes: in.ItemSizes}
	if ix, ok := t.IndexByName(in.Index); ok {
		s.out.TableItems = ix.ItemCount
	}
	s.projection(t)
	if in.Planned != nil {
		plan := SamplePlan{Segments: s.in.Segments, Whole: s.whole, TableItems: t.ItemCount, TableBytes: t.SizeBytes}
		if ix, ok := t.IndexByName(in.Index); ok {
			plan.TableItems, plan.TableBytes = ix.ItemCount, ix.SizeBytes
		}
		in.Planned(plan)
	}

	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.cancel = cancel
	s.read(sctx)

	for seg, r := range s.segs {
		for _, p := range r.pages {
			p.First += len(s.out.Items)
			p.Segment = seg
			s.out.Pages = append(s.out.Pages, p)
		}
		s.out.Items = append(s.out.Items, r.items...)
	}
	s.out.Spent = s.charged
	switch {
	case ctx.Err() != nil:
		s.out.Stop = StopCancelled
		return s.out, &UserError{Msg: fmt.Sprintf("sample %s: cancelled after %d items.", tableAndIndex(in.Table, in.Index), len(s.out.Items)), Err: ctx.Err()}
	case s.err != nil:
		s.out.Stop = StopError
		return s.out, s.err
	case s.done == s.in.Segments && !s.dropped:
		// Every segment ended, even if its last page also met a cap.
		s.out.Stop = StopComplete
	case s.items >= s.in.MaxItems:
		s.out.Stop = StopMaxItems
	default:
		// What is left of the RCU cap buys no further page.
		s.out.Stop = StopMaxRCU
	}
	return s.out, nil
}

// plan reads DynamoDB's size of the table (or index): its average item
// sizes each segment's first page (CapSizer), and a table that fits the
// caps is read whole: without a Limit while a full page fits the RCU cap,
// never held to PageLimit, and in one Scan when one page holds it, so the
// sample costs what a Scan of the table costs and no more. A stale size (DynamoDB refreshes it about every six
// hours) changes only how the pages are cut: the caps hold all the same.
func (s *sampler) plan(t Table) {
	count, size := t.ItemCount, t.SizeBytes
	if ix, ok := t.IndexByName(s.in.Index); ok {
		count, size = ix.ItemCount, ix.SizeBytes
	}
	if count <= 0 || size <= 0 {
		return
	}
	s.avgItem = float64(size) / float64(count)
	s.whole = !s.limited && count <= int64(s.in.MaxItems) && itemcodec.ReadUnits(int(size), false) <= s.in.MaxRCU
	if s.whole && size <= onePage {
		// One page holds it: one request costs exactly the table's size,
		// where segments would each round their part up.
		s.in.Segments = 1
	}
}

// onePage is what one Scan page reads at most.
const onePage = 1 << 20

func (in *SampleInput) defaults() error {
	if in.Segments == 0 {
		in.Segments = DefaultSampleSegments
	}
	if in.MaxItems == 0 {
		in.MaxItems = DefaultSampleItems
	}
	if in.MaxRCU == 0 {
		in.MaxRCU = DefaultSampleRCU
	}
	if in.PageLimit == 0 {
		in.PageLimit = DefaultSamplePageLimit
	}
	switch {
	case in.Segments < 1 || in.Segments > MaxSampleSegments:
		return &UserError{Msg: fmt.Sprintf("the number of segments must be between 1 and %d, not %d.", MaxSampleSegments, in.Segments)}
	case in.MaxItems < 1:
		return &UserError{Msg: fmt.Sprintf("the item cap must be at least 1, not %d.", in.MaxItems)}
	case in.MaxRCU < 0.5 || math.IsNaN(in.MaxRCU) || math.IsInf(in.MaxRCU, 0):
		return &UserError{Msg: fmt.Sprintf("the RCU cap must be at least 0.5 (the cost of one page), not %v.", in.MaxRCU)}
	case in.PageLimit < 1:
		return &UserError{Msg: fmt.Sprintf("the page limit must be at least 1, not %d.", in.PageLimit)}
	}
	return nil
}
