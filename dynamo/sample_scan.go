package dynamo

// The machinery of Sample: segments that share the caps, each reading its
// part of the table page by page.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
	"dynascope/keys"
)

type segmentResult struct {
	items   []keys.KeyItem
	pages   []SamplePage
	charged float64    // what the RCU cap counts of this segment's pages
	capped  StopReason // the segment reached its share of a cap
}

// sampler is the state the segments share; mu guards everything below it.
type sampler struct {
	c      *Client
	in     SampleInput
	ks     KeySchema
	t      Table
	proj   string
	names  map[string]string
	cancel context.CancelFunc

	mu      sync.Mutex
	cond    *sync.Cond // signalled whenever a page returns or the sample stops
	segs    []segmentResult
	out     Sample
	items   int
	rcu     float64 // what the pages cost, as answered
	charged float64 // what the RCU cap counts: each page at least 0.5 (see page)
	bytes   float64 // bytes read by pages that returned items, from their capacity
	sized   int     // items of those pages: bytes/sized is the cost per item
	inItems int     // items reserved by pages in flight
	inRCU   float64 // capacity expected of pages in flight
	done    int     // segments read to their end
	// What the segments read to their end took: the caps left over are
	// shared by the others.
	doneItems   int
	doneCharged float64
	// avgItem is DynamoDB's average item size of the table (or index),
	// the cost per item before pages have told it; 0 when unknown.
	avgItem float64
	// whole: DescribeTable says the table fits the caps, so each segment
	// reads without a Limit, as a Scan of the whole table would.
	whole   bool
	limited bool // the caller chose the page size: no whole read
	stop    StopReason
	err     error
}

// projection decides which attributes a keys-only sample reads: the keys of
// the table and of the index, and the library attributes where the index
// holds them (asking a GSI for others is an error, an LSI would fetch them
// from the table at extra cost).
func (s *sampler) projection(t Table) {
	if s.in.ItemSizes {
		return
	}
	attrs := []string{t.PK.Name}
	if t.SK != nil {
		attrs = append(attrs, t.SK.Name)
	}
	attrs = append(attrs, s.ks.PK.Name)
	if s.ks.SK != nil {
		attrs = append(attrs, s.ks.SK.Name)
	}
	ix, isIndex := t.IndexByName(s.in.Index)
	for _, a := range keys.LibraryAttributes {
		if !isIndex || ix.Projection == "ALL" || ix.Projection == "INCLUDE" && slices.Contains(ix.NonKeyAttr, a) {
			attrs = append(attrs, a)
		}
	}
	s.names = map[string]string{}
	var refs []string
	seen := map[string]bool{}
	for _, a := range attrs {
		if seen[a] {
			continue
		}
		seen[a] = true
		ref := fmt.Sprintf("#k%d", len(refs))
		s.names[ref] = a
		refs = append(refs, ref)
	}
	s.proj = strings.Join(refs, ", ")
}

// segment reads one segment page by page until it ends or a cap stops it.
func (s *sampler) segment(ctx context.Context, seg int) {
	var start Item
	seen, items := seenKeys{}, newScanKeys()
	for {
		limit, est, ok := s.reserve(ctx, seg)
		if !ok {
			return
		}
		out, req, err := s.scan(ctx, seg, limit, start, items)
		if err == nil {
			if problem := seen.repeat(out.LastEvaluatedKey); problem != "" {
				err = Explain(&BadAnswerError{Op: "Scan", Problem: problem}, s.what(seg), s.c.opts.Endpoint)
				req.Err = err
			}
		}
		if err != nil {
			s.failed(req, limit, est, err, ctx)
			return
		}
		more := len(out.LastEvaluatedKey) > 0
		s.page(seg, req, out.Items, limit, est, !more)
		if !more {
			return
		}
		start = out.LastEvaluatedKey
	}
}

// reserve decides the next page's Limit (0: none) and expected cost, or
// that this segment must stop because it reached its share of a cap.
//
// Each segment still reading has an equal share of what the segments read
// to their end left of the caps. A page reads whole read units (4 KB of
// items at the cost per item known so far) up to the segment's share, so
// a segment ends at its cap with at most one smaller page, never with a
// tail of shrinking ones. A segment at its share waits while others are
// still reading: one that ends leaves more to share. While the cost of an
// item is unknown (no size from DescribeTable, no page yet), a single
// probe page of one item is in flight.
func (s *sampler) reserve(ctx context.Context, seg int) (int32, float64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := &s.segs[seg]
	for {
		if s.stop != "" || s.err != nil || ctx.Err() != nil {
			return 0, 0, false
		}
		if s.whole {
			est := itemcodec.ReadUnits(int(s.t.SizeBytes), false) / float64(s.in.Segments)
			s.inRCU += est
			return 0, est, true
		}
		perItem := s.avgItem
		if s.sized > 0 {
			perItem = s.bytes / float64(s.sized)
		}
		if perItem == 0 && s.inItems > 0 {
			s.cond.Wait() // the probe is out
			continue
		}
		// A share is rounded up, and at least one page: what is left of the
		// cap overall bounds it, so the caps hold all the same.
		active := float64(s.in.Segments - s.done)
		leftItems := min(int(math.Ceil(float64(s.in.MaxItems-s.doneItems)/active))-len(r.items), s.in.MaxItems-s.items-s.inItems)
		leftRCU := min(math.Max((s.in.MaxRCU-s.doneCharged)/active, 0.5)-r.charged, s.in.MaxRCU-s.charged-s.inRCU)
		r.capped = ""
		switch {
		case leftItems <= 0:
			r.capped = StopMaxItems
		case leftRCU < 0.5: // no page costs less than 0.5 when it reads anything
			r.capped = StopMaxRCU
		}
		if r.capped != "" {
			if s.inItems > 0 || s.inRCU > 0 || !s.allCapped() {
				s.cond.Wait() // a segment still reading may end and leave more
				continue
			}
			s.stopAt(r.capped)
			return 0, 0, false
		}
		limit := min(int(s.in.PageLimit), leftItems)
		est := 0.5
		if perItem == 0 {
			limit = min(limit, sampleProbeLimit)
		} else {
			blocks := math.Floor(leftRCU / 0.5)
			limit = max(1, min(limit, int(blocks*4096/perItem)))
			est = math.Max(0.5, 0.5*math.Ceil(float64(limit)*perItem/4096))
		}
		s.inItems += limit
		s.inRCU += est
		return int32(limit), est, true
	}
}

// allCapped tells whether every segment still reading is at its share of
// a cap, so none can leave more to share.
func (s *sampler) allCapped() bool {
	n := 0
	for _, r := range s.segs {
		if r.capped != "" {
			n++
		}
	}
	return n == s.in.Segments-s.done
}

func (s *sampler) stopAt(r StopReason) {
	if s.stop == "" {
		s.stop = r
	}
	s.cond.Broadcast()
}

func (s *sampler) scan(ctx context.Context, seg int, limit int32, start Item, seen *scanKeys) (*dynamodb.ScanOutput, Request, error) {
	in := &dynamodb.ScanInput{
		TableName:              aws.String(s.in.Table),
		Segment:                aws.Int32(int32(seg)),
		TotalSegments:          aws.Int32(int32(s.in.Segments)),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
		ExclusiveStartKey:      start,
	}
	if limit > 0 {
		in.Limit = aws.Int32(limit)
	}
	if s.in.Index != "" {
		in.IndexName = aws.String(s.in.Index)
	}
	what := "keys only"
	if s.proj != "" {
		in.ProjectionExpression = aws.String(s.proj)
		in.ExpressionAttributeNames = s.names
	} else {
		what = "whole items"
	}
	req := Request{
		Operation: "Scan", Table: s.in.Table, Index: s.in.Index,
		KeyCondition: fmt.Sprintf("segment %d of %d, %s", seg+1, s.in.Segments, what),
		Expression:   s.proj, Forward: true, Limit: limit,
	}
	cctx, cancel := s.c.withTimeout(ctx)
	defer cancel()
	req.Start = time.Now()
	out, err := s.c.api.Scan(cctx, in)
	req.Duration = time.Since(req.Start)
	if err == nil {
		if problem := seen.page(s.t, s.ks, out.Items, out.LastEvaluatedKey); problem != "" {
			err = &BadAnswerError{Op: "Scan", Problem: problem}
		}
	}
	if err != nil {
		req.Err = Explain(err, s.what(seg), s.c.opts.Endpoint)
		return nil, req, req.Err
	}
	req.Count, req.ScannedCount = out.Count, out.ScannedCount
	req.Capacity = CapacityOf(out.ConsumedCapacity, s.t, s.in.Index)
	req.More = len(out.LastEvaluatedKey) > 0
	return out, req, nil
}

// what names a segment's reads for an error sentence.
func (s *sampler) what(seg int) string {
	return fmt.Sprintf("sample %s (scan segment %d)", tableAndIndex(s.in.Table, s.in.Index), seg+1)
}

// page files one page's items and request and reports progress.
func (s *sampler) page(seg int, req Request, items []Item, limit int32, est float64, last bool) {
	converted := make([]keys.KeyItem, len(items))
	for i, it := range items {
		converted[i] = s.keyItem(it)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.record(req)
	s.inItems -= int(limit)
	s.inRCU -= est
	if room := s.in.MaxItems - s.items; len(converted) > room {
		// Only a page without a Limit (a whole read on a stale size) can
		// pass the item cap: the sample still holds no more than it.
		converted, last = converted[:max(room, 0)], false
	}
	r := &s.segs[seg]
	r.pages = append(r.pages, SamplePage{First: len(r.items), Count: len(converted), Capacity: req.Capacity})
	r.items = append(r.items, converted...)
	s.items += len(converted)
	s.rcu += req.Capacity.Total
	// A page costs DynamoDB's minimum at least, whatever the answer says:
	// a server answering empty pages at 0 RCU, each with a new key, would
	// otherwise keep the sample reading for ever below its cap.
	charged := max(req.Capacity.Total, 0.5)
	s.charged += charged
	r.charged += charged
	if len(items) > 0 {
		// A page's size is rounded up to 4 KB: half a unit over, on average.
		s.bytes += math.Max(req.Capacity.Total/0.5-0.5, 0.5) * 4096
		s.sized += len(items)
	}
	if last {
		s.done++
		s.doneItems += len(r.items)
		s.doneCharged += r.charged
	}
	s.cond.Broadcast()
	if s.items >= s.in.MaxItems {
		s.stopAt(StopMaxItems)
	} else if s.charged >= s.in.MaxRCU {
		s.stopAt(StopMaxRCU)
	}
	s.progress()
}

func (s *sampler) failed(req Request, limit int32, est float64, err error, ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.record(req)
	s.inItems -= int(limit)
	s.inRCU -= est
	if ctx.Err() == nil && s.err == nil && !errors.Is(err, context.Canceled) {
		s.err = err
		s.cancel() // the sample has failed: stop the other segments
	}
	s.cond.Broadcast()
	s.progress()
}

// record logs a request; called with mu held so observers never see two at once.
func (s *sampler) record(req Request) {
	s.c.record(&req)
	s.out.Requests = append(s.out.Requests, req)
}

func (s *sampler) progress() {
	if s.in.Progress == nil {
		return
	}
	p := SampleProgress{
		Items: s.items, MaxItems: s.in.MaxItems, RCU: s.rcu, MaxRCU: s.in.MaxRCU,
		Requests: len(s.out.Requests), Segments: s.in.Segments, SegmentsDone: s.done,
		TableItems: s.out.TableItems,
	}
	if n := len(s.out.Requests); n > 0 {
		p.Request = s.out.Requests[n-1]
	}
	s.in.Progress(p)
}

// keyItem keeps what the layout needs of one scanned item.
func (s *sampler) keyItem(it Item) keys.KeyItem {
	k := keys.KeyItem{PK: itemcodec.KeyString(it[s.ks.PK.Name])}
	if s.ks.SK != nil {
		k.SK = itemcodec.KeyString(it[s.ks.SK.Name])
	}
	attrs := map[string]string{}
	for _, a := range keys.LibraryAttributes {
		if v, ok := it[a].(*types.AttributeValueMemberS); ok {
			attrs[a] = v.Value
		}
	}
	k.Library, _ = keys.DetectLibraryEntity(attrs)
	if s.in.ItemSizes {
		k.Size = itemcodec.ItemSize(it)
	}
	return k
}
