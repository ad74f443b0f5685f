package dynamo

// Running a PartiQL SELECT: ExecuteStatement page by page, following
// NextToken, with the consumed capacity of every request. The statement's
// plan (package partiql) decides what it may cost: a Scan plan is bounded
// like a Scan (an announced bound, a cap, the cost guard).

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
	"dynascope/partiql"
)

// PlanPartiQL reads a SELECT and decides its plan against the key schema
// of the table or index it reads. It sends no request but the
// DescribeTable that finds the keys (or none, with the keys cached).
func (c *Client) PlanPartiQL(ctx context.Context, stmt string) (partiql.Plan, error) {
	sel, err := partiql.Parse(stmt)
	p := partiql.Plan{Statement: stmt, Table: sel.Table, Index: sel.Index}
	if err != nil {
		return p, err
	}
	t, err := c.DescribeTable(ctx, sel.Table)
	if err != nil {
		return p, err
	}
	ks, err := t.Schema(sel.Index)
	if err != nil {
		return p, err
	}
	skName := ""
	if ks.SK != nil {
		skName = ks.SK.Name
	}
	return sel.Item(sel.Plan(ks.PK.Name), skName), nil
}

// PartiQLInput is one run of a SELECT.
type PartiQLInput struct {
	Plan       partiql.Plan
	Consistent bool
	Limit      int32 // items evaluated per page; 0 for DynamoDB's 1 MB pages
	// MaxRCU caps the run (--max-rcu); 0: the overrun limit of the bound
	// announced from Est (PartiQLLimit: twice it and one unit, as a Scan's
	// and a Query's, since DescribeTable's sizes may be hours old), a cap
	// all the same. Either way each page's Limit is
	// sized to what the cap has left (CapSizer), and a page without
	// ConsumedCapacity counts the most it could cost: the run stops at
	// the cap, having sent at most cap / 0.5 requests (each page counts
	// at least DynamoDB's minimum). With neither, nothing bounds the run
	// but its end.
	MaxRCU float64
	// Est is the estimate of the whole table or index (EstimateRead); its
	// average item sizes the first page.
	Est Estimate
	// OnPage receives each page as it arrives; an error stops the run.
	OnPage func(Page) error
	// NextToken goes on from a stopped run's NextToken; "" starts it.
	NextToken string
}

// PartiQLBound is the bound a SELECT planned as plan announces from e, the
// estimate of its table or index: a Query plan's (QueryBound), else the
// whole table's or index's.
func PartiQLBound(plan partiql.Plan, e Estimate) float64 {
	if plan.Query {
		rcu, _ := e.QueryBound(plan.OneItem)
		return rcu
	}
	return e.RCU
}

// PartiQLLimit is what a SELECT planned as plan may spend, without
// --max-rcu, before it stops as an overrun: its bound (PartiQLBound) as
// Estimate.Limit treats a Scan's, twice it and one unit more when the
// table's size is known. A whole read of a table whose size is right costs
// its bound and a little rounding, and so ends; one whose answers never
// end stops there.
func PartiQLLimit(plan partiql.Plan, e Estimate) float64 {
	e.RCU = PartiQLBound(plan, e)
	return e.Limit()
}

// PartiQLResult is what a SELECT read and what it cost. ExecuteStatement
// reports no scanned count, so only the items returned are known.
type PartiQLResult struct {
	Requests  []Request
	Count     int
	Stop      StopReason
	NextToken string // where it would go on, when stopped early
	// Cap is the cap the run read under (PartiQLInput.MaxRCU, or the
	// announced bound), 0 for none; Spent what it spent as the cap counts
	// it: each page what DynamoDB reported, at least its minimum, or, not
	// reported, the most the page could cost (an estimate).
	Cap, Spent float64
}

// Capacity is the sum of the run's consumed capacity.
func (r PartiQLResult) Capacity() Capacity { return TotalCapacity(r.Requests) }

// RunPartiQL sends the planned SELECT page by page. The statement is
// checked to be a SELECT once more here, in the layer that sends it. A run
// its cap stops ends with StopMaxRCU (MaxRCU) or StopEstimate (the
// announced bound) and a *CapStop that says what it read and cost.
func (c *Client) RunPartiQL(ctx context.Context, in PartiQLInput) (PartiQLResult, error) {
	var res PartiQLResult
	if !partiql.IsSelect(in.Plan.Statement) {
		return res, &UserError{Msg: "only SELECT statements run here (exploring is read-only)."}
	}
	t, err := c.DescribeTable(ctx, in.Plan.Table)
	if err != nil {
		return res, err
	}
	unit := 0.5
	if in.Consistent {
		unit = 1
	}
	var token *string
	if in.NextToken != "" {
		token = aws.String(in.NextToken)
	}
	res.Cap = in.MaxRCU
	if res.Cap <= 0 && in.Est.RCU > 0 {
		res.Cap = PartiQLLimit(in.Plan, in.Est)
	}
	avg := 0.0
	if in.Est.Known && in.Est.Items > 0 {
		avg = float64(in.Est.Bytes) / float64(in.Est.Items)
	}
	sizer := NewCapSizer(unit, avg)
	whole := selectsAll.MatchString(in.Plan.Statement)
	seen := map[string]bool{}
	for {
		if ctx.Err() != nil {
			res.Stop, res.NextToken = StopCancelled, aws.ToString(token)
			return res, nil
		}
		es := &dynamodb.ExecuteStatementInput{
			Statement:              aws.String(in.Plan.Statement),
			NextToken:              token,
			ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
		}
		if in.Consistent {
			es.ConsistentRead = aws.Bool(true)
		}
		limit, worst := in.Limit, 0.0
		if res.Cap > 0 {
			var ok bool
			if limit, worst, ok = sizer.Next(res.Cap-res.Spent, 1, in.Limit, len(res.Requests) == 0); !ok {
				res.NextToken = aws.ToString(token)
				return res, res.capStop(in)
			}
		}
		if limit > 0 {
			es.Limit = aws.Int32(limit)
		}
		p, err := c.statementPage(ctx, t, in.Plan, es)
		p.Request.Limit = limit
		res.Spent += statementCost(p.Page, unit, worst, whole)
		if err == nil && p.nextToken != "" && seen[p.nextToken] {
			// A replayed page: its items came before, so none is kept.
			err = Explain(&BadAnswerError{Op: "ExecuteStatement", Problem: "a NextToken it had sent before (paging would never end)"}, "partiql on "+in.Plan.Table, c.opts.Endpoint)
		}
		if err != nil && p.Request.Err == nil {
			p.Request.Err = err
		}
		c.record(&p.Request)
		res.Requests = append(res.Requests, p.Request)
		if err != nil {
			if ctx.Err() != nil {
				res.Stop, res.NextToken = StopCancelled, aws.ToString(token)
				return res, nil
			}
			res.Stop, res.NextToken = StopError, aws.ToString(token)
			return res, err
		}
		res.Count += len(p.Items)
		if len(p.Items) > 0 {
			// Items returned, not read: ExecuteStatement reports no scanned
			// count, so the items a WHERE dropped are not known. SELECT *
			// returns them whole, to be measured; else only their charge
			// is known.
			read := p.Page
			read.ScannedCount = int32(len(p.Items))
			sizer.Read(read, !whole)
		}
		if in.OnPage != nil {
			if perr := in.OnPage(p.Page); perr != nil {
				res.Stop, res.NextToken = StopError, p.nextToken
				return res, perr
			}
		}
		if p.nextToken == "" {
			res.Stop = StopComplete
			return res, nil
		}
		seen[p.nextToken] = true
		token = aws.String(p.nextToken)
	}
}

// statementCost is what one page counts against the cap: what DynamoDB
// reported, at least its minimum; not reported (DynamoDB Local), the most
// it could cost, worst, as its Limit was sized, or what its items measure
// when that is more. A page of SELECT * that returned its whole Limit
// evaluated no item but those, so they measure its cost.
func statementCost(p Page, unit, worst float64, whole bool) float64 {
	if !p.Request.NoCapacity {
		return math.Max(p.Request.Capacity.Total, unit)
	}
	bytes := 0
	for _, it := range p.Items {
		bytes += itemcodec.ItemSize(it)
	}
	measured := unit * math.Max(1, math.Ceil(float64(bytes)/itemcodec.ReadUnitBytes))
	if whole && p.Request.Limit > 0 && len(p.Items) == int(p.Request.Limit) {
		return measured
	}
	return math.Max(worst, measured)
}

// capStop is the stop of a run that its cap leaves no room for another
// page, as a *CapStop.
func (r *PartiQLResult) capStop(in PartiQLInput) error {
	e := &CapStop{What: "partiql " + in.Plan.Kind() + " of " + tableAndIndex(in.Plan.Table, in.Plan.Index),
		Cap: r.Cap, Requests: len(r.Requests), Items: r.Count, Spent: r.Spent}
	if in.MaxRCU <= 0 {
		e.Announced = PartiQLBound(in.Plan, in.Est)
	}
	for _, q := range r.Requests {
		if q.NoCapacity {
			e.Estimated++
		}
	}
	r.Stop = StopMaxRCU
	if e.Announced > 0 {
		r.Stop = StopEstimate
	}
	return e
}

// selectsAll matches a SELECT of whole items.
var selectsAll = regexp.MustCompile(`(?is)^\s*SELECT\s+\*`)

// statementPage is one ExecuteStatement request, not yet recorded.
type statementPage struct {
	Page
	nextToken string
}

func (c *Client) statementPage(ctx context.Context, t Table, plan partiql.Plan, es *dynamodb.ExecuteStatementInput) (statementPage, error) {
	req := Request{
		Operation: "ExecuteStatement", Table: plan.Table, Index: plan.Index,
		KeyCondition: plan.Kind() + ": " + plan.Statement, Statement: plan.Statement, Forward: true, Consistent: es.ConsistentRead != nil,
	}
	cctx, cancel := c.withTimeout(ctx)
	defer cancel()
	req.Start = time.Now()
	out, err := c.api.ExecuteStatement(cctx, es)
	req.Duration = time.Since(req.Start)
	if err != nil {
		req.Err = Explain(err, fmt.Sprintf("partiql on %s", tableAndIndex(plan.Table, plan.Index)), c.opts.Endpoint)
		return statementPage{Page: Page{Request: req}}, req.Err
	}
	whole := selectsAll.MatchString(plan.Statement)
	problem := ""
	for _, it := range out.Items {
		if problem = statementItemProblem(t, plan, whole, it); problem != "" {
			break
		}
	}
	if problem == "" {
		problem = statementKeyProblem(t, plan, out.LastEvaluatedKey)
	}
	if problem != "" {
		req.Capacity = CapacityOf(out.ConsumedCapacity, t, plan.Index) // spent all the same
		req.NoCapacity = out.ConsumedCapacity == nil
		req.Err = Explain(&BadAnswerError{Op: "ExecuteStatement", Problem: problem}, fmt.Sprintf("partiql on %s", tableAndIndex(plan.Table, plan.Index)), c.opts.Endpoint)
		return statementPage{Page: Page{Request: req}}, req.Err
	}
	req.Count = int32(len(out.Items))
	req.Capacity = CapacityOf(out.ConsumedCapacity, t, plan.Index)
	req.NoCapacity = out.ConsumedCapacity == nil
	req.More = aws.ToString(out.NextToken) != ""
	p := statementPage{Page: Page{Items: out.Items, Count: req.Count, Request: req}, nextToken: aws.ToString(out.NextToken)}
	return p, nil
}
