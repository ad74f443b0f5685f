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
	start   Item      // where its next page starts
	seen    seenKeys  // the keys it was sent on from
	keys    *scanKeys // the items' keys read, none read twice (nil until its first page)
	ended   bool      // read to its end
	dropped bool      // a page held more items than its share, which were left out
	sizer   CapSizer  // sizes its pages by the items it read
	charged float64   // what the RCU cap counts of its pages
	// This round's share of what is left of the caps, and what it read of it.
	shareItems int
	shareRCU   float64
	readItems  int
	spentRCU   float64
	first      bool // the sample's first page: one item even if it costs more than assumed
}

// sampler is the state the segments share; mu guards what every segment
// writes (the totals, the requests, the first error). A segment alone
// writes its own segmentResult, and only during a round.
type sampler struct {
	c      *Client
	in     SampleInput
	ks     KeySchema
	t      Table
	proj   string
	names  map[string]string
	cancel context.CancelFunc
	// avgItem is DynamoDB's average item size of the table (or index),
	// which sizes each segment's first page; 0 when unknown.
	avgItem float64
	// whole: DescribeTable says the table fits the caps, so no page is
	// held to PageLimit: the pages are as large as the caps allow.
	whole   bool
	limited bool // the caller chose the page size: no whole read
	segs    []segmentResult

	mu      sync.Mutex
	out     Sample
	items   int
	rcu     float64 // what the pages cost, as answered
	charged float64 // what the RCU cap counts: each page at least 0.5 (see page)
	done    int     // segments read to their end
	dropped bool    // some items read were left out (segmentResult.dropped)
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

// read runs the sample in rounds. In each, every segment still reading
// gets an equal share of what is left of both caps and reads it in
// parallel with the others, its pages sized to its share (CapSizer, as the
// capped reads size theirs); when all are back, what the segments that
// ended or fell short of their share left is shared again among those
// that can still read. So the item cap is met exactly unless the RCU cap
// or the table ends first, and each segment's requests depend only on its
// share and its own pages, never on which segment answered first: the same
// table gives the same sample, requests and RCU every run.
func (s *sampler) read(ctx context.Context) {
	for round := 0; round < 2*len(s.segs)+8; round++ {
		part := s.share()
		if len(part) == 0 {
			return
		}
		items, done := s.items, s.done
		var wg sync.WaitGroup
		for _, seg := range part {
			wg.Go(func() { s.segment(ctx, seg) })
		}
		wg.Wait()
		if s.err != nil || ctx.Err() != nil || s.items == items && s.done == done {
			return // failed, cancelled, or no share could buy a page
		}
	}
}

// share divides what is left of the caps among the segments still
// reading, in segment order, and returns those that take part. A share
// must buy a page of one item as large as the segment has read (before
// any, four times DynamoDB's average: CapSizer's assumption); when the RCU
// left is too little for every segment, it goes to the first ones that can
// use it. The sample's very first page reads one item whatever it costs,
// as a capped read's first page does, so that a cap smaller than one item
// still samples one (and Spent says by how much it passed).
func (s *sampler) share() []int {
	leftItems, leftRCU := s.in.MaxItems-s.items, s.in.MaxRCU-s.charged
	var open []int
	for seg := range s.segs {
		r := &s.segs[seg]
		r.shareItems, r.shareRCU, r.readItems, r.spentRCU, r.first = 0, 0, 0, 0, false
		if !r.ended {
			open = append(open, seg)
		}
	}
	if leftItems <= 0 || leftRCU < 0.5 || len(open) == 0 {
		return nil
	}
	k := min(len(open), leftItems)
	for ; k > 0; k-- {
		most := 0.0
		for _, seg := range open[:k] {
			most = math.Max(most, s.segs[seg].sizer.itemCost())
		}
		if leftRCU/float64(k) >= most {
			break
		}
	}
	part := open[:k]
	if k == 0 {
		// Too little for the first segment: the cheapest that can still
		// buy one page, or the first page of all.
		best := -1
		for _, seg := range open {
			if c := s.segs[seg].sizer.itemCost(); leftRCU >= c && (best < 0 || c < s.segs[best].sizer.itemCost()) {
				best = seg
			}
		}
		if best < 0 {
			if s.charged > 0 {
				return nil
			}
			best = open[0]
			s.segs[best].first = true
		}
		part = []int{best}
	}
	for i, seg := range part {
		r := &s.segs[seg]
		r.shareItems = leftItems / len(part)
		if i < leftItems%len(part) {
			r.shareItems++
		}
		r.shareRCU = leftRCU / float64(len(part))
	}
	return part
}

// segment reads one segment's share of a round page by page: each page's
// Limit is what is left of its share of the items (and of PageLimit, unless
// the table is read whole), sized by CapSizer to what is left of its share
// of the RCU, so that only an item larger than any it read before can pass
// it. A table read whole is read without a Limit while a full 1 MB page
// fits what is left of the share (CapSizer.FullPage), as a Scan of the
// table would read it; such a page keeps no more items than the share (on
// DynamoDB's stale figures it may hold more). It stops at its share, at
// its end, or on an error.
func (s *sampler) segment(ctx context.Context, seg int) {
	r := &s.segs[seg]
	if r.keys == nil {
		r.keys = newScanKeys()
	}
	for {
		if ctx.Err() != nil || s.failedAlready() {
			return
		}
		limit := int32(min(r.shareItems-r.readItems, math.MaxInt32))
		if !s.whole {
			limit = min(limit, s.in.PageLimit)
		}
		if limit <= 0 {
			return
		}
		left := r.shareRCU - r.spentRCU
		n, _, ok := r.sizer.Next(left, 1, limit, r.first && len(r.pages) == 0)
		if s.whole && r.sizer.FullPage() <= left {
			n, ok = 0, true
		}
		if !ok {
			return
		}
		out, req, err := s.scan(ctx, seg, n, r.start, r.keys)
		if err == nil {
			if problem := r.seen.repeat(out.LastEvaluatedKey); problem != "" {
				err = Explain(&BadAnswerError{Op: "Scan", Problem: problem}, s.what(seg), s.c.opts.Endpoint)
				req.Err = err
			}
		}
		if err != nil {
			s.failed(req, err, ctx)
			return
		}
		s.page(seg, req, out)
		if r.ended {
			return
		}
	}
}

func (s *sampler) failedAlready() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err != nil
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
func (s *sampler) page(seg int, req Request, out *dynamodb.ScanOutput) {
	r := &s.segs[seg]
	converted := make([]keys.KeyItem, len(out.Items))
	for i, it := range out.Items {
		converted[i] = s.keyItem(it)
	}
	r.sizer.Read(Page{Items: out.Items, Count: out.Count, ScannedCount: out.ScannedCount, Request: req}, !s.in.ItemSizes)
	if room := r.shareItems - r.readItems; len(converted) > room {
		// A page without a Limit held more than the share: the sample
		// keeps the first of them, and is not the whole table.
		converted, r.dropped = converted[:max(room, 0)], true
	}
	r.pages = append(r.pages, SamplePage{First: len(r.items), Count: len(converted), Capacity: req.Capacity})
	r.items = append(r.items, converted...)
	r.readItems += len(converted)
	// A page costs DynamoDB's minimum at least, whatever the answer says:
	// a server answering empty pages at 0 RCU, each with a new key, would
	// otherwise keep the sample reading for ever below its cap.
	charged := max(req.Capacity.Total, 0.5)
	r.charged += charged
	r.spentRCU += charged
	r.start = out.LastEvaluatedKey
	r.ended = len(out.LastEvaluatedKey) == 0
	s.mu.Lock()
	defer s.mu.Unlock()
	s.record(req)
	s.items += len(converted)
	s.rcu += req.Capacity.Total
	s.charged += charged
	if r.ended {
		s.done++
	}
	s.dropped = s.dropped || r.dropped
	s.progress()
}

func (s *sampler) failed(req Request, err error, ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.record(req)
	if ctx.Err() == nil && s.err == nil && !errors.Is(err, context.Canceled) {
		s.err = err
		s.cancel() // the sample has failed: stop the other segments
	}
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
