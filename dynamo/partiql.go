package dynamo

// Running a PartiQL SELECT: ExecuteStatement page by page, following
// NextToken, with the consumed capacity of every request. The statement's
// plan (package partiql) decides what it may cost: a Scan plan is bounded
// like a Scan (an announced bound, a cap, the cost guard).

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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
	// MaxRCU and Est as in ScanInput; PerItem is the item size the cap
	// starts from (DescribeTable's average), 0 when unknown.
	MaxRCU, PerItem float64
	Est             Estimate
	// OnPage receives each page as it arrives; an error stops the run.
	OnPage func(Page) error
	// NextToken goes on from a stopped run's NextToken; "" starts it.
	NextToken string
}

// PartiQLResult is what a SELECT read and what it cost. ExecuteStatement
// reports no scanned count, so only the items returned are known.
type PartiQLResult struct {
	Requests  []Request
	Count     int
	Stop      StopReason
	NextToken string // where it would go on, when stopped early
}

// Capacity is the sum of the run's consumed capacity.
func (r PartiQLResult) Capacity() Capacity { return TotalCapacity(r.Requests) }

// RunPartiQL sends the planned SELECT page by page. The statement is
// checked to be a SELECT once more here, in the layer that sends it.
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
	var spent, assumed float64
	sizer := NewCapSizer(unit, in.PerItem)
	guard := Guard{}
	if in.MaxRCU <= 0 {
		guard.Est = in.Est
	}
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
		limit := in.Limit
		est := 0.0
		if in.MaxRCU > 0 {
			var ok bool
			if limit, est, ok = sizer.Next(in.MaxRCU-spent-assumed, 1, in.Limit, len(res.Requests) == 0); !ok {
				res.Stop, res.NextToken = StopMaxRCU, aws.ToString(token)
				return res, nil
			}
		}
		if limit > 0 {
			es.Limit = aws.Int32(limit)
		}
		p, err := c.statementPage(ctx, t, in.Plan, es)
		p.Request.Limit = limit
		// Each page counts at least DynamoDB's minimum: pages that say
		// they are free still reach the cap.
		spent += max(p.Request.Capacity.Total, unit)
		if p.Request.NoCapacity {
			// Unknown is not free: under a cap, count what the page was
			// sized to cost at most. The cost guard keeps to what was
			// reported.
			assumed += est
		}
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
			// count, so the items a WHERE dropped are not known, and the
			// cap also keeps the cost guard's watch. SELECT * returns them
			// whole, to be measured; else only their charge is known.
			read := p.Page
			read.ScannedCount = int32(len(p.Items))
			sizer.Read(read, !selectsAll.MatchString(in.Plan.Statement))
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
		if guard.Page(p.Request.Capacity.Total, len(p.Items)) {
			// What it read is kept; it stops where it would go on.
			res.Stop, res.NextToken = StopEstimate, p.nextToken
			ee := guard.Stop("partiql " + in.Plan.Kind() + " of " + tableAndIndex(in.Plan.Table, in.Plan.Index))
			ee.Resume = "its resume NextToken"
			return res, ee
		}
		seen[p.nextToken] = true
		token = aws.String(p.nextToken)
	}
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
