package dynamo

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ListTables returns every table name, following pagination.
func (c *Client) ListTables(ctx context.Context) ([]string, error) {
	var names []string
	var start *string
	seen := map[string]bool{}
	for {
		cctx, cancel := c.withTimeout(ctx)
		began := time.Now()
		out, err := c.api.ListTables(cctx, &dynamodb.ListTablesInput{ExclusiveStartTableName: start})
		cancel()
		req := Request{Operation: "ListTables", Start: began, Duration: time.Since(began)}
		if err != nil {
			req.Err = Explain(err, "list tables", c.opts.Endpoint)
			c.record(&req)
			return names, req.Err
		}
		if start != nil && out.LastEvaluatedTableName != nil && *out.LastEvaluatedTableName <= *start {
			// Names come in order: one that does not move on would page forever.
			req.Err = Explain(&BadAnswerError{Op: "ListTables", Problem: fmt.Sprintf("a LastEvaluatedTableName %q that is not after the ExclusiveStartTableName %q it was sent (paging would never end)", *out.LastEvaluatedTableName, *start)}, "list tables", c.opts.Endpoint)
			c.record(&req)
			return names, req.Err
		}
		if problem := tableNamesProblem(seen, out.TableNames); problem != "" {
			req.Err = Explain(&BadAnswerError{Op: "ListTables", Problem: problem}, "list tables", c.opts.Endpoint)
			c.record(&req)
			return names, req.Err
		}
		names = append(names, out.TableNames...)
		req.Count = int32(len(out.TableNames))
		req.More = out.LastEvaluatedTableName != nil
		c.record(&req)
		if out.LastEvaluatedTableName == nil {
			return names, nil
		}
		start = out.LastEvaluatedTableName
	}
}

// DescribeTable returns the table's key schema, indexes, item count and size,
// as DynamoDB reports them: unlike TableKeys it never answers from the
// schema cache. Descriptions are kept for the life of the client: counts
// are DynamoDB's six-hourly estimate anyway, and a changed key schema is
// noticed by the requests built from it (keys.go).
func (c *Client) DescribeTable(ctx context.Context, name string) (Table, error) {
	if name == "" {
		// DynamoDB's answer would be "describe table : Invalid table/index name".
		return Table{}, &UserError{Msg: "no table name was given; pass --table NAME."}
	}
	c.mu.Lock()
	t, ok := c.tables[name]
	c.mu.Unlock()
	if ok {
		return t, nil
	}
	t, req, err := c.describe(ctx, name)
	c.record(&req)
	return t, err
}

// describe asks DynamoDB for a table's description and keeps it: for the
// session, and its key schema in the schema cache. The caller records the
// request, so that it can say why it was sent.
func (c *Client) describe(ctx context.Context, name string) (Table, Request, error) {
	cctx, cancel := c.withTimeout(ctx)
	defer cancel()
	began := time.Now()
	out, err := c.api.DescribeTable(cctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	req := Request{Operation: "DescribeTable", Table: name, Start: began, Duration: time.Since(began)}
	if err != nil {
		if isTableNotFound(err) {
			c.schemas.forget(name)
		}
		req.Err = Explain(err, fmt.Sprintf("describe table %s", name), c.opts.Endpoint)
		return Table{}, req, req.Err
	}
	if out.Table == nil || out.Table.TableName == nil {
		// The answer check (answer.go) stops this on the wire; a client over
		// another API must not panic on it either.
		req.Err = Explain(&BadAnswerError{Op: "DescribeTable", Problem: "no Table"}, fmt.Sprintf("describe table %s", name), c.opts.Endpoint)
		return Table{}, req, req.Err
	}
	if problem := describedNameProblem(name, aws.ToString(out.Table.TableName), aws.ToString(out.Table.TableArn)); problem != "" {
		req.Err = Explain(&BadAnswerError{Op: "DescribeTable", Problem: problem}, fmt.Sprintf("describe table %s", name), c.opts.Endpoint)
		return Table{}, req, req.Err
	}
	t := tableFromDescription(out.Table)
	c.mu.Lock()
	c.tables[name] = t
	delete(c.keys, name)
	c.mu.Unlock()
	c.schemas.save(t)
	return t, req, nil
}

func tableFromDescription(d *types.TableDescription) Table {
	types_ := map[string]string{}
	for _, a := range d.AttributeDefinitions {
		types_[aws.ToString(a.AttributeName)] = string(a.AttributeType)
	}
	keyOf := func(ks []types.KeySchemaElement) (KeyAttr, *KeyAttr) {
		var pk KeyAttr
		var sk *KeyAttr
		for _, k := range ks {
			n := aws.ToString(k.AttributeName)
			if k.KeyType == types.KeyTypeHash {
				pk = KeyAttr{Name: n, Type: types_[n]}
			} else {
				sk = &KeyAttr{Name: n, Type: types_[n]}
			}
		}
		return pk, sk
	}
	t := Table{
		Name:      aws.ToString(d.TableName),
		ItemCount: aws.ToInt64(d.ItemCount),
		SizeBytes: aws.ToInt64(d.TableSizeBytes),
		Status:    string(d.TableStatus),
	}
	t.PK, t.SK = keyOf(d.KeySchema)
	if d.BillingModeSummary != nil {
		t.BillingMode = string(d.BillingModeSummary.BillingMode)
	} else {
		t.BillingMode = string(types.BillingModeProvisioned)
	}
	for _, g := range d.GlobalSecondaryIndexes {
		ix := Index{Name: aws.ToString(g.IndexName), Kind: GSI, ItemCount: aws.ToInt64(g.ItemCount), SizeBytes: aws.ToInt64(g.IndexSizeBytes)}
		ix.PK, ix.SK = keyOf(g.KeySchema)
		if g.Projection != nil {
			ix.Projection = string(g.Projection.ProjectionType)
			ix.NonKeyAttr = g.Projection.NonKeyAttributes
		}
		t.Indexes = append(t.Indexes, ix)
	}
	for _, l := range d.LocalSecondaryIndexes {
		ix := Index{Name: aws.ToString(l.IndexName), Kind: LSI, ItemCount: aws.ToInt64(l.ItemCount), SizeBytes: aws.ToInt64(l.IndexSizeBytes)}
		ix.PK, ix.SK = keyOf(l.KeySchema)
		if l.Projection != nil {
			ix.Projection = string(l.Projection.ProjectionType)
			ix.NonKeyAttr = l.Projection.NonKeyAttributes
		}
		t.Indexes = append(t.Indexes, ix)
	}
	sort.Slice(t.Indexes, func(i, j int) bool { return t.Indexes[i].Name < t.Indexes[j].Name })
	return t
}

// Schema returns the key of the table ("" index) or of one of its indexes.
func (t Table) Schema(index string) (KeySchema, error) {
	if index == "" {
		return KeySchema{PK: t.PK, SK: t.SK}, nil
	}
	for _, ix := range t.Indexes {
		if ix.Name == index {
			base := []string{t.PK.Name}
			if t.SK != nil {
				base = append(base, t.SK.Name)
			}
			return KeySchema{Index: index, PK: ix.PK, SK: ix.SK, Base: base}, nil
		}
	}
	names := make([]string, 0, len(t.Indexes))
	for _, ix := range t.Indexes {
		names = append(names, ix.Name)
	}
	if len(names) == 0 {
		return KeySchema{}, &UserError{Msg: fmt.Sprintf("table %s has no index named %q (it has no secondary indexes).", t.Name, index)}
	}
	return KeySchema{}, &UserError{Msg: fmt.Sprintf("table %s has no index named %q; its indexes are %v.", t.Name, index, names)}
}

// IndexByName returns the named index, if the table has it.
func (t Table) IndexByName(name string) (Index, bool) {
	for _, ix := range t.Indexes {
		if ix.Name == name {
			return ix, true
		}
	}
	return Index{}, false
}

// KeyText describes a key schema the way the table picker shows it: "PK S / SK S".
func (k KeySchema) KeyText() string {
	s := k.PK.Name + " " + k.PK.Type
	if k.SK != nil {
		s += " / " + k.SK.Name + " " + k.SK.Type
	}
	return s
}

// AttributeNames are the attribute names the table's description declares:
// the keys of the table and of every index, and what an INCLUDE index
// projects, each once. They are names some items have, known without
// reading an item (a filter's words are checked against them before a
// read, filterexpr.SuspectNames).
func (t Table) AttributeNames() []string {
	var names []string
	add := func(n string) {
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	keys := func(pk KeyAttr, sk *KeyAttr) {
		add(pk.Name)
		if sk != nil {
			add(sk.Name)
		}
	}
	keys(t.PK, t.SK)
	for _, ix := range t.Indexes {
		keys(ix.PK, ix.SK)
		for _, a := range ix.NonKeyAttr {
			add(a)
		}
	}
	return names
}
