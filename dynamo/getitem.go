package dynamo

// GetItem: one item by its full primary key, built and checked as a Query
// is (query.go).

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// BuiltGetItem is a validated GetItem: the SDK input and its key in
// DynamoDB's words.
type BuiltGetItem struct {
	Input        *dynamodb.GetItemInput
	KeyCondition string // PK = "ORDER#A17" AND SK = "ITEM#1"
}

// BuildGetItem checks g against the table's primary key and builds the SDK
// input, as BuildQuery does for a Query.
func BuildGetItem(t Table, g GetInput) (BuiltGetItem, error) {
	pkv, err := KeyValue(t.PK, "partition key", g.PK)
	if err != nil {
		return BuiltGetItem{}, err
	}
	key := Item{t.PK.Name: pkv}
	text := t.PK.Name + " = " + KeyText(pkv)
	if t.SK != nil {
		skv, err := KeyValue(*t.SK, "sort key", g.SK)
		if err != nil {
			return BuiltGetItem{}, err
		}
		key[t.SK.Name] = skv
		text += " AND " + t.SK.Name + " = " + KeyText(skv)
	}
	in := &dynamodb.GetItemInput{
		TableName:              aws.String(g.Table),
		Key:                    key,
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	}
	if g.Consistent {
		in.ConsistentRead = aws.Bool(true)
	}
	return BuiltGetItem{Input: in, KeyCondition: text}, nil
}

// GetItem reads one item by its full primary key, with the key schema
// from TableKeys as Query does.
func (c *Client) GetItem(ctx context.Context, g GetInput) (Page, error) {
	var p Page
	err := c.withKeys(ctx, g.Table, func(t Table) (doubt, error) {
		var d doubt
		var err error
		p, d, err = c.getItem(ctx, t, g)
		return d, err
	})
	return p, err
}

func (c *Client) getItem(ctx context.Context, t Table, g GetInput) (Page, doubt, error) {
	b, err := BuildGetItem(t, g)
	if err != nil {
		return Page{}, inputDoubt, err
	}
	req := Request{Operation: "GetItem", Table: g.Table, KeyCondition: b.KeyCondition, Forward: true, Consistent: g.Consistent}
	cctx, cancel := c.withTimeout(ctx)
	defer cancel()
	req.Start = time.Now()
	out, err := c.api.GetItem(cctx, b.Input)
	req.Duration = time.Since(req.Start)
	if err != nil {
		req.Err = Explain(err, fmt.Sprintf("get %s on %s", b.KeyCondition, g.Table), c.opts.Endpoint)
		c.record(&req)
		return Page{Request: req}, answerDoubtOf(err), req.Err
	}
	if len(out.Item) > 0 {
		if problem := getItemProblem(t, b.Input.Key, out.Item); problem != "" {
			req.Capacity = CapacityOf(out.ConsumedCapacity, t, "")
			req.Err = Explain(&BadAnswerError{Op: "GetItem", Problem: problem}, fmt.Sprintf("get %s on %s", b.KeyCondition, g.Table), c.opts.Endpoint)
			c.record(&req)
			d := noDoubt
			if !t.fits("", out.Item) {
				d = answerDoubt
			}
			return Page{Request: req}, d, req.Err
		}
	}
	req.Capacity = CapacityOf(out.ConsumedCapacity, t, "")
	p := Page{Request: req}
	d := noDoubt
	if len(out.Item) > 0 {
		p.Items = []Item{out.Item}
		p.Count, p.ScannedCount = 1, 1
		if !t.fits("", out.Item) {
			d = answerDoubt
		}
	}
	p.Request.Count, p.Request.ScannedCount = p.Count, p.ScannedCount
	c.record(&p.Request)
	return p, d, nil
}
