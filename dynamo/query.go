package dynamo

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec/number"
)

// KeyValue converts the text a user typed into a key value of the attribute's
// type, or says in one sentence why it does not fit. role is "partition key"
// or "sort key"; it only shapes the message.
func KeyValue(attr KeyAttr, role, text string) (types.AttributeValue, error) {
	switch attr.Type {
	case "N":
		// The grammar and limits items are decoded and sized by.
		t := strings.TrimSpace(text)
		d, err := number.ParseSyntax(t)
		switch {
		case err != nil:
			return nil, &UserError{Msg: fmt.Sprintf("the %s %s is a number (N); %q is not a number.", role, attr.Name, text)}
		case len(d.Digits) > number.MaxDigits:
			return nil, &UserError{Msg: fmt.Sprintf("the %s %s is a number (N); %q has %d significant digits and DynamoDB keeps at most %d.", role, attr.Name, text, len(d.Digits), number.MaxDigits)}
		case d.Check() != nil:
			return nil, &UserError{Msg: fmt.Sprintf("the %s %s is a number (N); %q is outside DynamoDB's range (magnitudes from 1E-130 up to, not including, 1E+126).", role, attr.Name, text)}
		}
		return &types.AttributeValueMemberN{Value: t}, nil
	case "B":
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(text))
		if err != nil {
			return nil, &UserError{Msg: fmt.Sprintf("the %s %s is binary (B); give its value as base64 (%q is not base64).", role, attr.Name, text)}
		}
		if len(b) == 0 {
			return nil, &UserError{Msg: fmt.Sprintf("the %s %s cannot be empty.", role, attr.Name)}
		}
		return &types.AttributeValueMemberB{Value: b}, nil
	default:
		if text == "" {
			return nil, &UserError{Msg: fmt.Sprintf("the %s %s cannot be empty.", role, attr.Name)}
		}
		if !utf8.ValidString(text) {
			// The SDK would send U+FFFD in place of the bad bytes: a key
			// nobody asked for.
			return nil, &UserError{Msg: fmt.Sprintf("the %s %s is a string and %q is not valid UTF-8.", role, attr.Name, text)}
		}
		return &types.AttributeValueMemberS{Value: text}, nil
	}
}

// KeyText renders a key value in DynamoDB's words: strings quoted, numbers
// bare, binary as base64 in b"...".
func KeyText(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return quote(v.Value)
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberB:
		return `b"` + base64.StdEncoding.EncodeToString(v.Value) + `"`
	}
	return "?"
}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// avMarshaler hands an already-typed value to the expression builder, which
// otherwise only knows Go values.
type avMarshaler struct{ av types.AttributeValue }

func (m avMarshaler) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) { return m.av, nil }

// BuiltQuery is a validated query: the SDK input and its description.
type BuiltQuery struct {
	Input        *dynamodb.QueryInput
	KeyCondition string            // PK = "CUST#42" AND begins_with(SK, "ORDER#")
	Expression   string            // as sent, with placeholders
	Values       map[string]string // placeholder -> value in DynamoDB's words
	Names        map[string]string // placeholder -> attribute name
	// Filter and Projection are the filter and projection asked for, in
	// filterexpr's words; "" for none.
	Filter, Projection string
}

// BuildQuery validates a query against the key schema and builds the SDK
// input. Every problem is found here, before any request is sent: the
// partition key's value, then the filter and projection, then the sort-key
// condition.
func BuildQuery(ks KeySchema, q QueryInput) (BuiltQuery, error) {
	pkv, err := KeyValue(ks.PK, "partition key", q.PK)
	if err != nil {
		return BuiltQuery{}, err
	}
	project := q.Project
	if q.CountOnly {
		project = "" // DynamoDB refuses a projection with Select=COUNT, and a count returns no attributes
	}
	shape, err := ParseShape(q.Filter, project, KeepKeys(ks))
	if err != nil {
		return BuiltQuery{}, err
	}
	kc, err := buildKeyCond(ks, q, pkv)
	if err != nil {
		return BuiltQuery{}, err
	}
	in := queryInputOf(q)
	if err := kc.addTo(in, shape); err != nil {
		return BuiltQuery{}, err
	}
	vals := make(map[string]string, len(in.ExpressionAttributeValues))
	for k, v := range in.ExpressionAttributeValues {
		vals[k] = valueText(v)
	}
	return BuiltQuery{
		Input:        in,
		KeyCondition: kc.text,
		Expression:   aws.ToString(in.KeyConditionExpression),
		Values:       vals,
		Names:        in.ExpressionAttributeNames,
		Filter:       shape.FilterText,
		Projection:   shape.ProjectionText,
	}, nil
}

// queryInputOf is the SDK input of q but for its expressions.
func queryInputOf(q QueryInput) *dynamodb.QueryInput {
	in := &dynamodb.QueryInput{
		TableName:              aws.String(q.Table),
		ScanIndexForward:       aws.Bool(!q.Reverse),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
		ExclusiveStartKey:      q.StartKey,
	}
	if q.Index != "" {
		in.IndexName = aws.String(q.Index)
	}
	if q.Limit > 0 {
		in.Limit = aws.Int32(q.Limit)
	}
	if q.Consistent {
		in.ConsistentRead = aws.Bool(true)
	}
	if q.CountOnly {
		in.Select = types.SelectCount
	}
	return in
}

// keyCond is a query's key condition: for the expression builder, in
// DynamoDB's words (text), and its values.
type keyCond struct {
	ks     KeySchema
	cond   expression.KeyConditionBuilder
	text   string // PK = "CUST#42" AND begins_with(SK, "ORDER#")
	pk     types.AttributeValue
	skVals []types.AttributeValue
	// binary: begins_with on a binary key, which the builder cannot
	// express, so the expression is written by hand.
	binary bool
}

// buildKeyCond checks q's sort-key condition against the key schema and
// builds the key condition with the partition key's value pkv.
func buildKeyCond(ks KeySchema, q QueryInput, pkv types.AttributeValue) (keyCond, error) {
	kc := keyCond{ks: ks, pk: pkv, text: ks.PK.Name + " = " + KeyText(pkv),
		cond: expression.Key(ks.PK.Name).Equal(expression.Value(avMarshaler{pkv}))}
	if q.SK.Op == SKNone {
		return kc, nil
	}
	vals, err := skValues(ks, q)
	if err != nil {
		return kc, err
	}
	kc.skVals = vals
	skCond, err := kc.skCondition(q.SK)
	if err != nil {
		return kc, err
	}
	if !kc.binary {
		kc.cond = kc.cond.And(skCond)
	}
	switch sk := ks.SK.Name; q.SK.Op {
	case SKBetween:
		kc.text += fmt.Sprintf(" AND %s BETWEEN %s AND %s", sk, KeyText(vals[0]), KeyText(vals[1]))
	case SKBeginsWith:
		kc.text += fmt.Sprintf(" AND begins_with(%s, %s)", sk, KeyText(vals[0]))
	default:
		kc.text += fmt.Sprintf(" AND %s %s %s", sk, q.SK.Op, KeyText(vals[0]))
	}
	return kc, nil
}

// skValues are the sort-key condition's values in the key's type, or why
// the condition does not fit the key.
func skValues(ks KeySchema, q QueryInput) ([]types.AttributeValue, error) {
	if ks.SK == nil {
		where := "table " + q.Table
		if ks.Index != "" {
			where = "index " + ks.Index
		}
		return nil, &UserError{Msg: fmt.Sprintf("%s has no sort key, so a sort-key condition cannot be used.", where)}
	}
	want := 1
	if q.SK.Op == SKBetween {
		want = 2
	}
	if len(q.SK.Values) != want {
		return nil, &UserError{Msg: fmt.Sprintf("the sort-key condition %s takes %d value(s), not %d.", q.SK.Op, want, len(q.SK.Values))}
	}
	var vals []types.AttributeValue
	for _, v := range q.SK.Values {
		av, err := KeyValue(*ks.SK, "sort key", v)
		if err != nil {
			return nil, err
		}
		vals = append(vals, av)
	}
	return vals, nil
}

// skCondition is the sort-key condition for the expression builder; for
// begins_with on a binary key it sets kc.binary instead.
func (kc *keyCond) skCondition(c SKCond) (expression.KeyConditionBuilder, error) {
	sk := expression.Key(kc.ks.SK.Name)
	v0 := expression.Value(avMarshaler{kc.skVals[0]})
	switch c.Op {
	case SKEq:
		return sk.Equal(v0), nil
	case SKLt:
		return sk.LessThan(v0), nil
	case SKLe:
		return sk.LessThanEqual(v0), nil
	case SKGt:
		return sk.GreaterThan(v0), nil
	case SKGe:
		return sk.GreaterThanEqual(v0), nil
	case SKBetween:
		return sk.Between(v0, expression.Value(avMarshaler{kc.skVals[1]})), nil
	case SKBeginsWith:
		switch kc.ks.SK.Type {
		case "N":
			return expression.KeyConditionBuilder{}, &UserError{Msg: fmt.Sprintf("begins_with does not apply to the number sort key %s; use <, >, or between.", kc.ks.SK.Name)}
		case "B":
			kc.binary = true
			return expression.KeyConditionBuilder{}, nil
		}
		return sk.BeginsWith(c.Values[0]), nil
	}
	return expression.KeyConditionBuilder{}, &UserError{Msg: fmt.Sprintf("unknown sort-key operator %q; use =, <, <=, >, >=, between or begins_with.", c.Op)}
}

// addTo writes the key condition, filter and projection into in.
func (kc keyCond) addTo(in *dynamodb.QueryInput, shape ReadShape) error {
	if !kc.binary {
		expr, err := shape.Add(expression.NewBuilder().WithKeyCondition(kc.cond)).Build()
		if err != nil {
			return &UserError{Msg: "could not build the key condition: " + err.Error(), Err: err}
		}
		in.KeyConditionExpression = expr.KeyCondition()
		in.FilterExpression, in.ProjectionExpression = expr.Filter(), expr.Projection()
		in.ExpressionAttributeNames = expr.Names()
		in.ExpressionAttributeValues = expr.Values()
		return nil
	}
	in.KeyConditionExpression = aws.String("#pk = :pk AND begins_with(#sk, :sk)")
	in.ExpressionAttributeNames = map[string]string{"#pk": kc.ks.PK.Name, "#sk": kc.ks.SK.Name}
	in.ExpressionAttributeValues = map[string]types.AttributeValue{":pk": kc.pk, ":sk": kc.skVals[0]}
	if !shape.Empty() {
		expr, err := shape.Add(expression.NewBuilder()).Build()
		if err != nil {
			return &UserError{Msg: "could not build the filter or projection: " + err.Error(), Err: err}
		}
		in.FilterExpression, in.ProjectionExpression = expr.Filter(), expr.Projection()
		in.ExpressionAttributeNames, in.ExpressionAttributeValues = mergeNames(in.ExpressionAttributeNames, in.ExpressionAttributeValues, expr)
	}
	return nil
}

// DescribeQuery returns the key condition of a query in DynamoDB's words, or
// why it is not valid, without sending anything.
func (c *Client) DescribeQuery(ctx context.Context, q QueryInput) (string, error) {
	var text string
	err := c.withKeys(ctx, q.Table, func(t Table) (doubt, error) {
		ks, err := t.Schema(q.Index)
		if err != nil {
			return inputDoubt, err
		}
		b, err := BuildQuery(ks, q)
		if err != nil {
			return inputDoubt, err
		}
		text = b.KeyCondition
		return noDoubt, nil
	})
	return text, err
}

// Query sends one Query request: one page. The returned page carries the
// request's record even when the request failed. The key schema comes from
// TableKeys; when a cached one turns out wrong, the request is sent again
// once, and both attempts are in the request log.
func (c *Client) Query(ctx context.Context, q QueryInput) (Page, error) {
	var p Page
	err := c.withKeys(ctx, q.Table, func(t Table) (doubt, error) {
		var d doubt
		var err error
		p, d, err = c.query(ctx, t, q)
		return d, err
	})
	return p, err
}

func (c *Client) query(ctx context.Context, t Table, q QueryInput) (Page, doubt, error) {
	ks, err := t.Schema(q.Index)
	if err != nil {
		return Page{}, inputDoubt, err
	}
	b, err := BuildQuery(ks, q)
	if err != nil {
		return Page{}, inputDoubt, err
	}
	req := Request{
		Operation: "Query", Table: q.Table, Index: q.Index,
		KeyCondition: b.KeyCondition, Expression: b.Expression, Values: b.Values,
		Forward: !q.Reverse, Limit: q.Limit, Consistent: q.Consistent, CountOnly: q.CountOnly,
		Filter: b.Filter, Projection: b.Projection, Query: &q,
	}
	cctx, cancel := c.withTimeout(ctx)
	defer cancel()
	req.Start = time.Now()
	out, err := c.api.Query(cctx, b.Input)
	req.Duration = time.Since(req.Start)
	itemDoubt := noDoubt
	if err == nil {
		for _, it := range out.Items {
			if problem := queryItemProblem(t, ks, q, it); problem != "" {
				req.Capacity = CapacityOf(out.ConsumedCapacity, t, q.Index)
				err = &BadAnswerError{Op: "Query", Problem: problem}
				if !t.fits(q.Index, it) {
					itemDoubt = answerDoubt // keys cached out of date would explain it
				}
				break
			}
		}
	}
	if err == nil {
		if problem := queryKeysProblem(t, ks, q, out.Items, out.LastEvaluatedKey); problem != "" {
			req.Capacity = CapacityOf(out.ConsumedCapacity, t, q.Index) // it was spent all the same
			err = &BadAnswerError{Op: "Query", Problem: problem}
			if !t.fits(q.Index, out.LastEvaluatedKey) {
				itemDoubt = answerDoubt
			}
		}
	}
	if err != nil {
		req.Err = Explain(err, fmt.Sprintf("query %s on %s", q.PK, tableAndIndex(q.Table, q.Index)), c.opts.Endpoint)
		c.record(&req)
		return Page{Request: req}, max(answerDoubtOf(err), itemDoubt), req.Err
	}
	req.Count, req.ScannedCount = out.Count, out.ScannedCount
	req.Capacity = CapacityOf(out.ConsumedCapacity, t, q.Index)
	req.More = len(out.LastEvaluatedKey) > 0
	c.record(&req)
	p := Page{Items: out.Items, Count: out.Count, ScannedCount: out.ScannedCount, Request: req}
	if req.More {
		p.LastEvaluatedKey = out.LastEvaluatedKey
	}
	d := noDoubt
	if len(p.Items) > 0 && !t.fits(q.Index, p.Items[0]) {
		d = answerDoubt
	}
	return p, d, nil
}

func tableAndIndex(table, index string) string {
	if index == "" {
		return table
	}
	return table + "/" + index
}

// CapacityOf reads ConsumedCapacity. DynamoDB reports the parts (table, each
// index) when asked for INDEXES; DynamoDB Local fills only the total, so when
// the parts are absent the total is attributed to where the read went: a GSI
// to that index, the table or an LSI to the table.
func CapacityOf(cc *types.ConsumedCapacity, t Table, index string) Capacity {
	if cc == nil {
		return Capacity{}
	}
	c := Capacity{Total: aws.ToFloat64(cc.CapacityUnits)}
	parts := false
	if cc.Table != nil && cc.Table.CapacityUnits != nil {
		c.Table = *cc.Table.CapacityUnits
		parts = true
	}
	add := func(m map[string]types.Capacity) {
		for name, cap := range m {
			if cap.CapacityUnits == nil {
				continue
			}
			if c.Indexes == nil {
				c.Indexes = map[string]float64{}
			}
			c.Indexes[name] += *cap.CapacityUnits
			parts = true
		}
	}
	add(cc.GlobalSecondaryIndexes)
	add(cc.LocalSecondaryIndexes)
	if !parts {
		if ix, ok := t.IndexByName(index); ok && ix.Kind == GSI {
			c.Indexes = map[string]float64{index: c.Total}
		} else {
			c.Table = c.Total
		}
	}
	return c
}
