package dynamo

// Scan: a whole table or index, page by page, in parallel segments, with
// an optional filter and projection. A Scan is the one read whose cost
// grows with the table, so it never starts without a bound: ScanBound is
// the upper bound to announce, MaxRCU a cap that only an item larger than
// any read before it can pass (CapSizer), and the cost guard (Guard) stops an endpoint that
// keeps sending pages. Cancelling the context stops it and keeps what was
// read.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// MaxScanSegments is the most parallel segments a Scan is split into here;
// DynamoDB allows a million, a terminal tool has no use for more.
const MaxScanSegments = 64

// ScanInput is one Scan of a table or an index.
type ScanInput struct {
	Table, Index string
	// Filter and Project as in QueryInput.
	Filter, Project string
	Segments        int   // parallel segments; 1 when 0
	Consistent      bool  // ConsistentRead (tables and LSIs)
	Limit           int32 // items evaluated per page; 0 for DynamoDB's 1 MB pages
	// MaxRCU caps the Scan's cost: each page is sized so that it passes
	// the cap only with an item larger than any read before it
	// (CapSizer); 0 for no cap.
	MaxRCU float64
	// Est is the estimate announced before the Scan (EstimateRead); a
	// Scan that spends clearly more stops with an EstimateError, keeping
	// what it read. The zero Estimate stops nothing; with MaxRCU set the
	// cap alone decides, so a read the user bounded goes to that bound.
	Est Estimate
	// OnPage receives each page as it arrives, one at a time; an error
	// stops the Scan. The pages' items are not kept anywhere else.
	OnPage func(ScanPage) error
	// Start goes on from a stopped Scan's Resume: each segment from its
	// key (an empty key: from its beginning), and a segment not in it is
	// done. nil reads every segment from its beginning.
	Start map[int]Item
	// MaxReturn and Skip are QueryRead's (the AWS CLI's --max-items and
	// a NextToken's truncate amount), for a Scan of one segment only: a
	// NextToken holds one segment's place.
	MaxReturn, Skip int
}

// ScanPage is one page of one segment.
type ScanPage struct {
	Segment int
	Page
}

// ScanResult is what a Scan read and what it cost.
type ScanResult struct {
	Requests []Request
	Count    int // items kept by the filter
	Scanned  int // items read, each charged for
	Stop     StopReason
	Resume   map[int]Item // segment -> the key it would go on from, for segments not read to their end
	// Skip is how many items a Scan going on from Resume's one key drops
	// first (QueryResult.Skip).
	Skip       int
	Filter     string // the filter and projection as read, "" for none
	Projection string
	Segments   int
	// OneMB is what DynamoDB's 1 MB page rule says of the pages (as
	// QueryResult's); a page's number is its place among Requests.
	OneMB OneMB
}

// Capacity is the sum of the Scan's consumed capacity.
func (r ScanResult) Capacity() Capacity { return TotalCapacity(r.Requests) }

// BuildScan checks a Scan against the table and builds the SDK input of
// its first page in segment seg.
func BuildScan(t Table, in ScanInput, seg int) (*dynamodb.ScanInput, ReadShape, error) {
	ks, err := t.Schema(in.Index)
	if err != nil {
		return nil, ReadShape{}, err
	}
	segs := max(in.Segments, 1)
	if segs > MaxScanSegments || seg < 0 || seg >= segs {
		return nil, ReadShape{}, &UserError{Msg: fmt.Sprintf("a Scan takes 1 to %d segments, not %d.", MaxScanSegments, in.Segments)}
	}
	if in.Consistent {
		if ix, ok := t.IndexByName(in.Index); ok && ix.Kind == GSI {
			return nil, ReadShape{}, &UserError{Msg: fmt.Sprintf("index %s is a global secondary index, which cannot be read strongly consistent; drop --consistent.", in.Index)}
		}
	}
	shape, err := ParseShape(in.Filter, in.Project, KeepKeys(ks))
	if err != nil {
		return nil, ReadShape{}, err
	}
	si := &dynamodb.ScanInput{
		TableName:              aws.String(in.Table),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	}
	if in.Index != "" {
		si.IndexName = aws.String(in.Index)
	}
	if segs > 1 {
		si.Segment, si.TotalSegments = aws.Int32(int32(seg)), aws.Int32(int32(segs))
	}
	if in.Consistent {
		si.ConsistentRead = aws.Bool(true)
	}
	if in.Limit > 0 {
		si.Limit = aws.Int32(in.Limit)
	}
	if !shape.Empty() {
		x, err := shape.Add(expression.NewBuilder()).Build()
		if err != nil {
			return nil, ReadShape{}, &UserError{Msg: "could not build the filter or projection: " + err.Error(), Err: err}
		}
		si.FilterExpression, si.ProjectionExpression = x.Filter(), x.Projection()
		si.ExpressionAttributeNames, si.ExpressionAttributeValues = x.Names(), x.Values()
	}
	return si, shape, nil
}

// scanRun is the state the segments of one Scan share; mu guards all below it.
type scanRun struct {
	c      *Client
	t      Table
	ks     KeySchema // of what is read, for the answers' keys
	in     ScanInput
	shape  ReadShape
	unit   float64 // RCU per 4 KB
	cancel context.CancelFunc

	mu       sync.Mutex
	wake     *sync.Cond // a page in flight is done: what is left of the cap is known
	res      ScanResult
	spent    float64
	reserved float64 // the most the pages in flight can cost
	guard    Guard
	sizer    CapSizer
	paging   []OneMB // each segment's pages by DynamoDB's 1 MB rule
	active   int     // segments still reading
	err      error
	window   itemWindow // MaxReturn and Skip (one segment)
	cutAt    int        // the cut page's truncate amount, -1 for no cut
}

// Scan reads a table or index page by page in in.Segments parallel
// segments, handing each page to in.OnPage. It returns what it read even
// when it stops early: on the cap (Stop max-rcu), on cancel (cancelled) or
// on an error (error, with the error).
func (c *Client) Scan(ctx context.Context, in ScanInput) (ScanResult, error) {
	t, err := c.TableKeys(ctx, in.Table)
	if err != nil {
		return ScanResult{}, err
	}
	_, shape, err := BuildScan(t, in, 0)
	if err != nil {
		return ScanResult{}, err
	}
	ks, err := t.Schema(in.Index)
	if err != nil {
		return ScanResult{}, err
	}
	segs := max(in.Segments, 1)
	if segs > 1 && (in.MaxReturn > 0 || in.Skip > 0) {
		return ScanResult{}, &UserError{Msg: fmt.Sprintf("--max-items and --starting-token read one segment, as the AWS CLI's do (a NextToken holds one place), not %d segments: drop --segments.", segs)}
	}
	run := &scanRun{c: c, t: t, ks: ks, in: in, shape: shape, unit: 0.5, active: segs, paging: make([]OneMB, segs),
		window: itemWindow{skip: in.Skip, max: in.MaxReturn}, cutAt: -1}
	run.wake = sync.NewCond(&run.mu)
	if in.Consistent {
		run.unit = 1
	}
	avg := 0.0
	run.res = ScanResult{Filter: shape.FilterText, Projection: shape.ProjectionText, Segments: segs}
	if in.MaxRCU > 0 {
		// The cap needs an item size before the first page: DescribeTable's.
		if d, derr := c.DescribeTable(ctx, in.Table); derr == nil {
			if e := EstimateRead(d, in.Index, in.Consistent, segs, in.Limit); e.Known && e.Items > 0 {
				avg = float64(e.Bytes) / float64(e.Items)
			}
		}
	} else {
		run.guard.Est = in.Est
	}
	run.sizer = NewCapSizer(run.unit, avg)
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	run.cancel = cancel
	var wg sync.WaitGroup
	for seg := range segs {
		start, ok := in.Start[seg]
		if in.Start != nil && !ok {
			run.active--
			continue // read to its end before
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			run.segment(sctx, seg, start)
		}()
	}
	wg.Wait()
	res := run.res
	res.OneMB = mergeOneMB(run.paging)
	res.Skip = run.window.skip
	if run.cutAt >= 0 {
		res.Skip = run.cutAt
	}
	switch {
	case run.err != nil:
		res.Stop = StopError
		var ee *EstimateError
		if errors.As(run.err, &ee) {
			res.Stop = StopEstimate
			ee.Resume = resumeText(res.Resume)
		}
		return res, run.err
	case ctx.Err() != nil:
		res.Stop = StopCancelled
	case len(res.Resume) == 0:
		res.Stop = StopComplete
	case res.Stop == StopMaxItems:
	default:
		res.Stop = StopMaxRCU // the only other way a segment stops early
	}
	return res, nil
}

// segment reads one segment to its end or until the Scan stops.
func (s *scanRun) segment(ctx context.Context, seg int, start Item) {
	if len(start) == 0 {
		start = nil
	}
	seen, items := seenKeys{}, newScanKeys()
	defer func() {
		s.mu.Lock()
		s.active--
		s.mu.Unlock()
	}()
	for {
		limit, est, ok := s.reserve(ctx, seg, start)
		if !ok {
			return
		}
		page, err := s.page(ctx, seg, limit, start, items)
		if err == nil {
			if problem := seen.repeat(page.LastEvaluatedKey); problem != "" {
				err = Explain(&BadAnswerError{Op: "Scan", Problem: problem}, s.what(seg), s.c.opts.Endpoint)
			}
		}
		more := s.done(ctx, seg, page, est, start, err)
		if !more {
			return
		}
		start = page.LastEvaluatedKey
	}
}

// reserve decides whether segment seg may read another page, and its Limit
// and the most it can cost under the cap. A segment that finds too little
// left waits for the pages in flight, which may cost less than reserved.
func (s *scanRun) reserve(ctx context.Context, seg int, start Item) (int32, float64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if s.err != nil || s.res.Stop != "" || ctx.Err() != nil {
			s.resume(seg, start)
			return 0, 0, false
		}
		lim := s.in.Limit
		if s.shape.FilterText == "" {
			lim = s.window.limit(lim)
		}
		if s.in.MaxRCU <= 0 {
			return lim, 0, true
		}
		limit, worst, ok := s.sizer.Next(s.in.MaxRCU-s.spent-s.reserved, s.active, lim, len(s.res.Requests) == 0 && s.reserved == 0)
		if ok {
			s.reserved += worst
			return limit, worst, true
		}
		if s.reserved == 0 {
			s.res.Stop = StopMaxRCU
			s.resume(seg, start)
			return 0, 0, false
		}
		s.wake.Wait()
	}
}

// resume notes where a stopped segment would go on; start nil with no page
// read yet means from its beginning, shown as an empty key.
func (s *scanRun) resume(seg int, start Item) {
	if s.res.Resume == nil {
		s.res.Resume = map[int]Item{}
	}
	if start == nil {
		start = Item{}
	}
	s.res.Resume[seg] = start
}

func (s *scanRun) what(seg int) string {
	return fmt.Sprintf("scan %s (segment %d of %d)", tableAndIndex(s.in.Table, s.in.Index), seg+1, max(s.in.Segments, 1))
}

// page sends one Scan request.
func (s *scanRun) page(ctx context.Context, seg int, limit int32, start Item, seen *scanKeys) (Page, error) {
	si, _, err := BuildScan(s.t, s.in, seg)
	if err != nil {
		return Page{}, err
	}
	si.ExclusiveStartKey = start
	si.Limit = nil
	if limit > 0 {
		si.Limit = aws.Int32(limit)
	}
	where := "whole " + map[bool]string{true: "index", false: "table"}[s.in.Index != ""]
	if segs := max(s.in.Segments, 1); segs > 1 {
		where = fmt.Sprintf("segment %d of %d", seg+1, segs)
	}
	req := Request{
		Operation: "Scan", Table: s.in.Table, Index: s.in.Index, KeyCondition: where,
		Forward: true, Limit: limit, Consistent: s.in.Consistent,
		Filter: s.shape.FilterText, Projection: s.shape.ProjectionText,
	}
	cctx, cancel := s.c.withTimeout(ctx)
	defer cancel()
	req.Start = time.Now()
	out, err := s.c.api.Scan(cctx, si)
	req.Duration = time.Since(req.Start)
	if err != nil {
		req.Err = Explain(err, s.what(seg), s.c.opts.Endpoint)
		return Page{Request: req}, req.Err
	}
	req.Count, req.ScannedCount = out.Count, out.ScannedCount
	req.Capacity = CapacityOf(out.ConsumedCapacity, s.t, s.in.Index)
	if problem := seen.page(s.t, s.ks, out.Items, out.LastEvaluatedKey); problem != "" {
		req.Err = Explain(&BadAnswerError{Op: "Scan", Problem: problem}, s.what(seg), s.c.opts.Endpoint)
		return Page{Request: req}, req.Err
	}
	req.More = len(out.LastEvaluatedKey) > 0
	p := Page{Items: out.Items, Count: out.Count, ScannedCount: out.ScannedCount, Request: req}
	if req.More {
		p.LastEvaluatedKey = out.LastEvaluatedKey
	}
	return p, nil
}

// done files a page (or its failure) and tells whether the segment goes on.
func (s *scanRun) done(ctx context.Context, seg int, p Page, est float64, start Item, err error) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.wake.Broadcast()
	s.reserved -= est
	if p.Request.Operation != "" {
		if err != nil {
			p.Request.Err = err
		}
		s.c.record(&p.Request)
		s.res.Requests = append(s.res.Requests, p.Request)
		// Each page counts at least DynamoDB's minimum, whatever it says
		// it cost: pages that claim to be free still reach the cap.
		s.spent += math.Max(p.Request.Capacity.Total, s.unit)
	}
	if err != nil {
		s.resume(seg, start)
		if ctx.Err() != nil {
			return false // cancelled, or another segment failed: keep what was read
		}
		if s.err == nil {
			s.err = err
			s.cancel()
		}
		return false
	}
	read := p
	p, cut, cutAt := s.window.cut(p)
	s.res.Count += int(p.Count)
	s.res.Scanned += int(read.ScannedCount)
	s.paging[seg].add(read, len(s.res.Requests), s.unit, s.shape.Empty())
	s.sizer.Read(read, s.shape.ProjectionText != "")
	if cut {
		// Stopped inside this page: a Scan going on starts it again and
		// drops what was read of it.
		s.res.Stop, s.cutAt = StopMaxItems, cutAt
		s.resume(seg, start)
		p.LastEvaluatedKey = nil
	}
	if s.in.OnPage != nil {
		if perr := s.in.OnPage(ScanPage{Segment: seg, Page: p}); perr != nil {
			if !cut {
				s.resume(seg, p.LastEvaluatedKey)
			}
			if s.err == nil {
				s.err = perr
				s.cancel()
			}
			return false
		}
	}
	if p.LastEvaluatedKey == nil {
		return false
	}
	if s.window.full() {
		s.res.Stop = StopMaxItems
		s.resume(seg, p.LastEvaluatedKey)
		return false
	}
	if s.guard.Page(p.Request.Capacity.Total, int(p.ScannedCount)) {
		// Kept what it read, paid for; stops every segment.
		s.resume(seg, p.LastEvaluatedKey)
		if s.err == nil {
			s.err = s.guard.Stop("scan of " + tableAndIndex(s.in.Table, s.in.Index))
			s.cancel()
		}
		return false
	}
	if ctx.Err() != nil || s.res.Stop != "" {
		s.resume(seg, p.LastEvaluatedKey)
		return false
	}
	return true
}

// resumeText names where a stopped Scan would go on, for a sentence.
func resumeText(resume map[int]Item) string {
	switch len(resume) {
	case 0:
		return ""
	case 1:
		for _, k := range resume {
			if len(k) > 0 {
				return "the key " + keyMapText(k)
			}
		}
		return ""
	}
	return "the keys in the output's resume, one per segment"
}
