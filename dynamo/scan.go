package dynamo

// Scan: a whole table or index, page by page, in parallel segments, with
// an optional filter and projection. A Scan is the one read whose cost
// grows with the table, so it never starts without a bound: ScanBound is
// the upper bound to announce, MaxRCU a cap that stops it before a page
// could pass it, and the cost guard (OverBudget) stops an endpoint that
// keeps sending pages. Cancelling the context stops it and keeps what was
// read.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"dynascope/itemcodec"

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
	// MaxRCU stops the Scan before a page that could pass it, by the item
	// size measured so far; 0 for no cap.
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
}

// ScanPage is one page of one segment.
type ScanPage struct {
	Segment int
	Page
}

// ScanResult is what a Scan read and what it cost.
type ScanResult struct {
	Requests   []Request
	Count      int // items kept by the filter
	Scanned    int // items read, each charged for
	Stop       StopReason
	Resume     map[int]Item // segment -> the key it would go on from, for segments not read to their end
	Filter     string       // the filter and projection as read, "" for none
	Projection string
	Segments   int
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
	in     ScanInput
	shape  ReadShape
	unit   float64 // RCU per 4 KB
	cancel context.CancelFunc

	mu       sync.Mutex
	res      ScanResult
	spent    float64
	reserved float64 // the expected cost of pages in flight
	guard    Guard
	perItem  float64 // bytes per item read: DescribeTable's, then measured
	charged  float64 // bytes charged for and items scanned so far, which measure it
	scanned  int
	active   int // segments still reading
	err      error
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
	segs := max(in.Segments, 1)
	run := &scanRun{c: c, t: t, in: in, shape: shape, unit: 0.5, active: segs}
	if in.Consistent {
		run.unit = 1
	}
	run.res = ScanResult{Filter: shape.FilterText, Projection: shape.ProjectionText, Segments: segs}
	if in.MaxRCU > 0 {
		// The cap needs an item size before the first page: DescribeTable's.
		if d, derr := c.DescribeTable(ctx, in.Table); derr == nil {
			if e := EstimateRead(d, in.Index, in.Consistent, segs, in.Limit); e.Known && e.Items > 0 {
				run.perItem = float64(e.Bytes) / float64(e.Items)
			}
		}
	} else {
		run.guard.Est = in.Est
	}
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
	seen := seenKeys{}
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
		page, err := s.page(ctx, seg, limit, start)
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
// and expected cost under the cap.
func (s *scanRun) reserve(ctx context.Context, seg int, start Item) (int32, float64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil || s.res.Stop != "" || ctx.Err() != nil {
		s.resume(seg, start)
		return 0, 0, false
	}
	limit := s.in.Limit
	if s.in.MaxRCU <= 0 {
		return limit, 0, true
	}
	left := s.in.MaxRCU - s.spent - s.reserved
	if left < s.unit {
		if s.reserved == 0 {
			s.res.Stop = StopMaxRCU
		}
		s.resume(seg, start)
		return 0, 0, false
	}
	limit, est := capLimit(left, s.unit, s.perItem, s.active, limit)
	s.reserved += est
	return limit, est, true
}

// capLimit is the Limit of a page under a cost cap: what is left, shared
// among the segments still reading, in whole 4 KB units, turned into items
// by the item size known so far (perItem bytes); never above limit when
// that is set. It returns the page's expected cost too.
func capLimit(left, unit, perItem float64, segments int, limit int32) (int32, float64) {
	blocks := math.Max(1, math.Floor(left/float64(max(segments, 1))/unit))
	per := math.Max(perItem, 1)
	n := int32(math.Min(math.Max(1, math.Floor(blocks*itemcodec.ReadUnitBytes/per)), math.MaxInt32))
	if limit == 0 || n < limit {
		limit = n
	}
	return limit, unit * math.Max(1, math.Ceil(float64(limit)*per/itemcodec.ReadUnitBytes))
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
func (s *scanRun) page(ctx context.Context, seg int, limit int32, start Item) (Page, error) {
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
	for _, it := range out.Items {
		if problem := keyProblem(s.t, s.in.Index, it); problem != "" {
			req.Err = Explain(&BadAnswerError{Op: "Scan", Problem: problem}, s.what(seg), s.c.opts.Endpoint)
			return Page{Request: req}, req.Err
		}
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
	s.res.Count += int(p.Count)
	s.res.Scanned += int(p.ScannedCount)
	if p.ScannedCount > 0 {
		// Bytes per item as charged: an overestimate (each page rounds up),
		// which keeps the cap on the safe side.
		s.charged += p.Request.Capacity.Total / s.unit * itemcodec.ReadUnitBytes
		s.scanned += int(p.ScannedCount)
		s.perItem = math.Max(s.perItem, s.charged/float64(s.scanned))
	}
	if s.in.OnPage != nil {
		if perr := s.in.OnPage(ScanPage{Segment: seg, Page: p}); perr != nil {
			s.resume(seg, p.LastEvaluatedKey)
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
	if s.guard.Page(p.Request.Capacity.Total, int(p.ScannedCount)) {
		// Kept what it read, paid for; stops every segment.
		s.resume(seg, p.LastEvaluatedKey)
		if s.err == nil {
			g := s.guard
			s.err = &EstimateError{What: "scan of " + tableAndIndex(s.in.Table, s.in.Index), Spent: g.Charged, Announced: g.Est.RCU, Known: g.Est.Known}
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

// CapLimit is the Limit of the next page of one read under a cost cap, and
// that page's expected cost, as a Scan's segment sizes its pages: left RCU
// in whole 4 KB units of unit RCU, turned into items by perItem bytes.
func CapLimit(left, unit, perItem float64, limit int32) (int32, float64) {
	return capLimit(left, unit, perItem, 1, limit)
}
