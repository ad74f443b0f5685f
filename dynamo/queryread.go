package dynamo

// A Query read page by page, shaped like a Scan (scan.go): what to read
// and where to stop (QueryRead), the read in progress (QueryPager: the
// request of the next page and what each answer does to the read), and
// the whole read in one call (Client.ReadQuery). Every read that follows
// LastEvaluatedKey goes through it: query, patterns run and check, the
// whole reads of groups --count and --by attribute, and the UI's pages and
// counts, which step a QueryPager one message at a time. So the rules of
// paging live here once: a page's Limit under a cap or a pattern's limit,
// the stop reasons as values, the key a stopped read goes on from, the
// estimate's and the cap's sentences. A check every paged read must make
// of its answers belongs in QueryPager.Page.

import (
	"context"
	"errors"
	"math"
)

// The stops of a Query read besides StopComplete, StopMaxRCU,
// StopEstimate, StopCancelled and StopError. StopMaxItems is a read that
// returned the items the AWS CLI's --max-items asked for (MaxReturn),
// cutting a page if it had to; its GoOnAt is where the rest starts.
const (
	// StopLimit: the read evaluated the items it asked for (MaxItems), so
	// its LastKey is where a next page would start, not a stop short.
	StopLimit StopReason = "limit"
	// StopPages: the page cap (MaxPages) stopped it with more to read.
	StopPages StopReason = "pages"
)

// QueryRead is one Query read page by page: what it reads and where it
// stops. The zero caps read to the end.
type QueryRead struct {
	// Query is the request of the first page. Its StartKey goes on from
	// where a read stopped; its Limit bounds every page (0: DynamoDB's
	// pages of up to 1 MB).
	Query QueryInput
	// MaxPages stops the read after that many pages with more to read
	// (StopPages); 0 for no cap.
	MaxPages int
	// MaxItems is how many items the read evaluates in all, counted as
	// Limit counts them (before a filter drops any): each page's Limit is
	// what is left of it, and the read ends once it is met (StopLimit).
	// 0 for no such bound.
	MaxItems int32
	// MaxReturn is how many items the read returns in all, as the AWS
	// CLI's --max-items counts them (after a filter): a page that would
	// pass it is cut, and the read stops (StopMaxItems). 0 for no bound.
	MaxReturn int
	// Skip drops the first items the read returns, whatever page they
	// come in: a NextToken's boto_truncate_amount, the part of a cut page
	// read before.
	Skip int
	// MaxRCU caps the read's cost as it caps a Scan's: each page's Limit
	// is sized (CapSizer) so that only an item larger than any read before
	// it can pass the cap (StopMaxRCU). 0 for no cap.
	MaxRCU float64
	// AvgItem is DescribeTable's average item size in bytes, which sizes
	// the first page under MaxRCU; 0 when unknown.
	AvgItem float64
	// Est is the bound announced before the read (EstimateRead): a read
	// that spends clearly more (Guard) stops with StopEstimate and an
	// *EstimateError naming What, keeping what it read. With MaxRCU set
	// the cap alone decides. The zero Estimate stops nothing.
	Est Estimate
	// What names the read in the sentence of an estimate overrun: "query
	// --all-pages", "count CUST#7 on App".
	What string
	// OnPage receives each page as it arrives; an error stops the read
	// (StopError) with that error. The pages' items are kept nowhere else.
	OnPage func(Page) error
}

// QueryResult is what a Query read read and what it cost.
type QueryResult struct {
	Requests []Request // each answered page's request, in order
	// Failed is the record of the request the read stopped on when it
	// failed after it was sent; nil otherwise.
	Failed  *Request
	Pages   int // answered pages: len(Requests)
	Count   int // items returned (kept by a filter)
	Scanned int // items read, each charged for
	Stop    StopReason
	// LastKey is where a next page would start: the last page's
	// LastEvaluatedKey, or the ExclusiveStartKey of the page that a stop
	// kept from being read or that failed. nil when the read is complete.
	LastKey Item
	// Left is what is left of MaxItems, counted as Limit counts; 0
	// without MaxItems.
	Left int32
	// Skip is how many items a read going on from LastKey drops first
	// (Position.Skip): after a cut page LastKey is that page's own start
	// key (nil for the first page of a read from the start).
	Skip int
	// Spent is the read's cost as the cap counts it: each page at least
	// DynamoDB's minimum, whatever it says it cost.
	Spent  float64
	MaxRCU float64 // the cap it read under; 0 for none
	// KeyCondition, Filter and Projection are the pages' request in
	// DynamoDB's and filterexpr's words; "" before any page.
	KeyCondition, Filter, Projection string
	// OneMB is what DynamoDB's 1 MB page rule says of the pages: those
	// that read more than one DynamoDB page may (DynamoDB Local does not
	// stop a filtered page at 1 MB), and the requests DynamoDB would take.
	OneMB OneMB
}

// Capacity is the sum of the read's consumed capacity.
func (r QueryResult) Capacity() Capacity { return TotalCapacity(r.Requests) }

// GoOn is the key a read that stopped short goes on from (its LastKey),
// nil when it is complete or met its MaxItems: then nothing is left that
// it was asked to read.
func (r QueryResult) GoOn() Item {
	if r.Stop == StopComplete || r.Stop == StopLimit {
		return nil
	}
	return r.LastKey
}

// GoOnAt is where a read that stopped short goes on, as a NextToken
// holds it; ok is false when nothing is left that it was asked to read
// (complete, or MaxItems met).
func (r QueryResult) GoOnAt() (Position, bool) {
	if r.Stop == StopComplete || r.Stop == StopLimit || (r.LastKey == nil && r.Skip == 0) {
		return Position{}, false
	}
	return Position{Key: r.LastKey, Skip: r.Skip}, true
}

// OverCapText is the sentence of a capped read that spent past its cap
// (OverCapText), "" when it held: name is the cap's ("--max-rcu cap"),
// rcu writes a figure as the caller prints RCU.
func (r QueryResult) OverCapText(name string, rcu func(float64) string) string {
	if r.MaxRCU <= 0 || r.Spent <= r.MaxRCU {
		return ""
	}
	return OverCapText(rcu(r.Spent-r.MaxRCU), name)
}

// QueryPager is a QueryRead in progress: Next says the request of the next
// page, Page takes its answer. It is a value with no goroutine or context
// of its own, so a caller may drive it one message at a time (the UI) and
// keep a copy from before a failed page to try that page again.
type QueryPager struct {
	in        QueryRead
	next      QueryInput // the request of the next page, before its Limit
	res       QueryResult
	unit      float64 // RCU per 4 KB
	sizer     CapSizer
	guard     Guard
	evaluated int32 // items the pages evaluated, as Limit counts them
	window    itemWindow
}

// NewQueryPager starts a read; no request is sent until a caller sends
// what Next returns.
func NewQueryPager(in QueryRead) QueryPager {
	p := QueryPager{in: in, next: in.Query, unit: 0.5, window: itemWindow{skip: in.Skip, max: in.MaxReturn}}
	if in.Query.Consistent {
		p.unit = 1
	}
	p.res.MaxRCU = max(in.MaxRCU, 0)
	p.sizer = NewCapSizer(p.unit, in.AvgItem)
	if in.MaxRCU <= 0 {
		p.guard.Est = in.Est
	}
	return p
}

// Next is the request of the next page, its Limit sized for what is left
// of MaxItems and of the cap; false when the read is done (Result's Stop
// says why). It sends nothing, and says the same until Page is called.
func (p *QueryPager) Next() (QueryInput, bool) {
	if p.res.Stop != "" {
		return QueryInput{}, false
	}
	q := p.next
	q.Limit = p.in.Query.Limit
	if p.in.MaxItems > 0 && (q.Limit <= 0 || p.in.MaxItems-p.evaluated < q.Limit) {
		q.Limit = p.in.MaxItems - p.evaluated
	}
	if p.in.Query.Filter == "" {
		q.Limit = p.window.limit(q.Limit)
	}
	if p.in.MaxRCU > 0 {
		n, _, ok := p.sizer.Next(p.in.MaxRCU-p.res.Spent, 1, q.Limit, p.res.Spent == 0)
		if !ok {
			p.stop(StopMaxRCU, p.next.StartKey)
			return QueryInput{}, false
		}
		q.Limit = n
	}
	return q, true
}

// Page takes the answer to the request Next returned: the page (whose
// Request is the record even when err is set) or err. It returns the error
// that stopped the read, if any: err itself, OnPage's, or an
// *EstimateError when the read spent clearly more than it announced. A
// read stops on any error; one cancelled by its context stops as
// StopCancelled.
func (p *QueryPager) Page(pg Page, err error) error {
	if p.res.Stop != "" {
		return nil
	}
	if err != nil {
		if pg.Request.Operation != "" {
			r := pg.Request
			p.res.Failed = &r
		}
		stop := StopError
		if errors.Is(err, context.Canceled) {
			stop = StopCancelled
		}
		p.stop(stop, p.next.StartKey)
		return err
	}
	start, read := p.next.StartKey, pg
	pg, cut, cutAt := p.window.cut(pg)
	p.take(read, pg.Count)
	if cut {
		var err error
		if p.in.OnPage != nil {
			err = p.in.OnPage(pg)
		}
		p.stop(map[bool]StopReason{true: StopError, false: StopMaxItems}[err != nil], start)
		p.res.Skip = cutAt
		return err
	}
	if p.in.OnPage != nil {
		if err := p.in.OnPage(pg); err != nil {
			p.stop(StopError, pg.LastEvaluatedKey)
			return err
		}
	}
	return p.after(pg)
}

// take adds an answered page to the read (pg as DynamoDB answered it;
// kept: the items of it the read returns).
func (p *QueryPager) take(pg Page, kept int32) {
	r := &p.res
	r.Requests = append(r.Requests, pg.Request)
	r.Pages++
	r.Count += int(kept)
	r.Scanned += int(pg.ScannedCount)
	r.KeyCondition, r.Filter, r.Projection = pg.Request.KeyCondition, pg.Request.Filter, pg.Request.Projection
	r.LastKey = pg.LastEvaluatedKey
	q := p.in.Query
	r.OneMB.add(pg, r.Pages, p.unit, q.Filter == "" && q.Project == "" && !q.CountOnly)
	// Each page counts at least DynamoDB's minimum, whatever it says it
	// cost: pages that claim to be free still reach the cap.
	r.Spent += math.Max(pg.Request.Capacity.Total, p.unit)
	p.sizer.Read(pg, p.in.Query.Project != "")
	// Limit counts the items a page reads, before a filter drops any.
	if p.in.Query.Filter != "" {
		p.evaluated += pg.ScannedCount
	} else {
		p.evaluated += pg.Count
	}
	p.next.StartKey = pg.LastEvaluatedKey
}

// after decides, once a page is taken, whether the read goes on. The
// estimate stops only a read with more to read: a read that reached its
// end has nothing left to save.
func (p *QueryPager) after(pg Page) error {
	switch {
	case pg.LastEvaluatedKey == nil:
		p.stop(StopComplete, nil)
	case p.in.MaxItems > 0 && p.evaluated >= p.in.MaxItems:
		p.stop(StopLimit, pg.LastEvaluatedKey)
	case p.window.full():
		p.stop(StopMaxItems, pg.LastEvaluatedKey)
	case p.in.MaxPages > 0 && p.res.Pages >= p.in.MaxPages:
		p.stop(StopPages, pg.LastEvaluatedKey)
	case p.guard.Page(pg.Request.Capacity.Total, int(pg.ScannedCount)):
		p.stop(StopEstimate, pg.LastEvaluatedKey)
		return p.guard.Stop(p.in.What)
	}
	return nil
}

func (p *QueryPager) stop(why StopReason, at Item) {
	p.res.Stop, p.res.LastKey, p.res.Skip = why, at, p.window.skip
	if p.in.MaxItems > 0 {
		p.res.Left = max(p.in.MaxItems-p.evaluated, 0)
	}
}

// Result is the read so far; its Stop is "" while it goes on.
func (p QueryPager) Result() QueryResult { return p.res }

// Pages is how many pages were answered.
func (p QueryPager) Pages() int { return p.res.Pages }

// LastKey is where the next page would start; nil once the read is
// complete (QueryResult.LastKey).
func (p QueryPager) LastKey() Item { return p.res.LastKey }

// ReadQuery reads in.Query page by page until a stop (QueryRead), handing
// each page to in.OnPage. It returns what it read even when it stops on an
// error, with the error.
func (c *Client) ReadQuery(ctx context.Context, in QueryRead) (QueryResult, error) {
	return readPages(ctx, in, c.Query)
}

// readPages drives a QueryPager with send, one page after another.
func readPages(ctx context.Context, in QueryRead, send func(context.Context, QueryInput) (Page, error)) (QueryResult, error) {
	p := NewQueryPager(in)
	for {
		q, ok := p.Next()
		if !ok {
			return p.Result(), nil
		}
		pg, err := send(ctx, q)
		if err := p.Page(pg, err); err != nil {
			return p.Result(), err
		}
	}
}

// itemWindow is the part of a read's items the AWS CLI's --starting-token
// and --max-items keep, as botocore's paginator keeps it: the first skip
// items returned are dropped, and once max are returned the read stops,
// cutting the page that passes it. The Query reader and the one-segment
// Scan apply it to their pages alike.
type itemWindow struct {
	skip     int // items still to drop
	max      int // items to return in all; 0 for no bound
	returned int
}

// limit is a page's Limit when every item it reads is returned (no
// filter): no more than the window still takes, so a read stops at a page
// boundary rather than paying for items it cuts.
func (w itemWindow) limit(l int32) int32 {
	if w.max <= 0 {
		return l
	}
	want := int64(w.skip) + int64(w.max-w.returned)
	if want < 1 || want > math.MaxInt32 {
		return l
	}
	if l <= 0 || int32(want) < l {
		return int32(want)
	}
	return l
}

// cut takes one answered page into the window: the page with only the
// items it keeps (Count with them), and when it passes max, true and how
// many items of the page, from its start, a read going on drops
// (botocore's boto_truncate_amount: those skipped and those kept).
func (w *itemWindow) cut(pg Page) (Page, bool, int) {
	if w.skip == 0 && w.max == 0 {
		return pg, false, 0
	}
	n := len(pg.Items)
	d := min(w.skip, n)
	w.skip -= d
	items := pg.Items[d:]
	if w.max > 0 && w.returned+len(items) > w.max {
		keep := w.max - w.returned
		items = items[:keep]
		w.returned = w.max
		pg.Items, pg.Count = items, int32(len(items))
		return pg, true, d + keep
	}
	w.returned += len(items)
	pg.Items, pg.Count = items, int32(len(items))
	return pg, false, 0
}

// full tells whether the window returned all it takes.
func (w itemWindow) full() bool { return w.max > 0 && w.returned >= w.max }
