package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/ui"
)

// queryResult is what `query` and `get` print: the pages of one access
// pattern and the record of every request it took.
type queryResult struct {
	Table, Index string
	KeyNames     []string // key attributes, shown first in a table
	KeyCondition string
	Forward      bool
	Limit        int32
	Consistent   bool
	Items        []dynamo.Item
	Count        int
	Scanned      int
	LastKey      dynamo.Item
	Requests     []dynamo.Request
}

func (r queryResult) capacity() dynamo.Capacity {
	var c dynamo.Capacity
	for _, q := range r.Requests {
		c = c.Add(q.Capacity)
	}
	return c
}

func cmdQuery(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	args, lo, hi, between, err := config.SplitPairFlag(args, "sk-between")
	if err != nil {
		return usageError{err.Error()}
	}
	fs, conn := newFlags("query", stderr)
	pk := fs.String("pk", "", "partition key value (required)")
	index := fs.String("index", "", "query this secondary index")
	ops := []struct {
		flag string
		op   dynamo.SKOp
		val  *string
	}{
		{"sk-begins-with", dynamo.SKBeginsWith, nil},
		{"sk-eq", dynamo.SKEq, nil},
		{"sk-lt", dynamo.SKLt, nil},
		{"sk-le", dynamo.SKLe, nil},
		{"sk-gt", dynamo.SKGt, nil},
		{"sk-ge", dynamo.SKGe, nil},
	}
	set := map[string]bool{}
	for i := range ops {
		ops[i].val = fs.String(ops[i].flag, "", "sort key "+string(ops[i].op)+" VALUE")
	}
	fs.Func("sk-between", "sort key BETWEEN LOW AND HIGH (two values: --sk-between LOW HIGH)", func(string) error { return nil })
	reverse := fs.Bool("reverse", false, "newest first: ScanIndexForward=false")
	limit := fs.Int("limit", 0, "Limit: items evaluated per page (0: none)")
	allPages := fs.Bool("all-pages", false, "follow LastEvaluatedKey to the end, one request per page")
	consistent := fs.Bool("consistent", false, "strongly consistent read (tables and LSIs only)")
	output := fs.String("output", "json", "json | jsonl | table | csv | ddbjson-batch (jsonl, csv and ddbjson-batch stream page by page)")
	ddbJSON := fs.Bool("dynamodb-json", false, "print items as typed DynamoDB JSON, as the AWS CLI does")
	if err := parse(fs, args); err != nil {
		return err
	}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := conn.RequireTable("query"); err != nil {
		return usageError{err.Error()}
	}
	if !set["pk"] {
		return usageError{"query needs a partition key value: pass --pk VALUE."}
	}
	if err := checkItemsOutput(*output, *ddbJSON); err != nil {
		return err
	}
	if *limit < 0 || *limit > 1<<31-1 {
		return usageError{fmt.Sprintf("--limit takes a whole number from 1 to %d (or 0 for none), not %d.", 1<<31-1, *limit)}
	}
	q := dynamo.QueryInput{Table: conn.Table, Index: *index, PK: *pk, Reverse: *reverse, Limit: int32(*limit), Consistent: *consistent}
	var chosen []string
	for _, o := range ops {
		if set[o.flag] {
			q.SK = dynamo.SKCond{Op: o.op, Values: []string{*o.val}}
			chosen = append(chosen, "--"+o.flag)
		}
	}
	if between {
		q.SK = dynamo.SKCond{Op: dynamo.SKBetween, Values: []string{lo, hi}}
		chosen = append(chosen, "--sk-between")
	}
	if len(chosen) > 1 {
		return usageError{fmt.Sprintf("give at most one sort-key condition, not %s.", strings.Join(chosen, " and "))}
	}

	client, err := connect(ctx, conn)
	if err != nil {
		return err
	}
	var bound, spent float64 // the announced cost: reading far past it stops
	if *allPages {
		bound = announceWholeRead(ctx, client, stderr, q.Table, q.Index, q.Consistent, "--all-pages reads every page of the result")
	}
	res := queryResult{Table: q.Table, Index: q.Index, Forward: !q.Reverse, Limit: q.Limit, Consistent: q.Consistent}
	format, streaming, _ := exportFormat(*output, *ddbJSON)
	var exp *exporter
	for {
		page, err := client.Query(ctx, q)
		spent += page.Request.Capacity.Total
		if err == nil && dynamo.OverBudget(spent, bound, len(res.Requests)+1) {
			err = dynamo.OverBudgetError("query --all-pages", spent, bound)
		}
		if len(res.Requests) == 0 {
			// The key names, after the first page rather than before it:
			// no DescribeTable when the keys are cached, and the keys the
			// query was built from when the cached ones were out of date.
			if err == nil {
				if t, kerr := client.TableKeys(ctx, q.Table); kerr == nil {
					res.KeyNames = keyNames(t, q.Index)
				}
			}
			if streaming {
				var eerr error
				if exp, eerr = newExporter(stdout, stderr, format, q.Table, res.KeyNames); eerr != nil {
					return eerr
				}
			}
		}
		if err != nil {
			if exp != nil {
				return exp.close(err)
			}
			if len(res.Requests) > 0 {
				// Keep the pages already read: print them, marked incomplete
				// by a lastEvaluatedKey where the failed page would start.
				res.LastKey = q.StartKey
				if perr := printResult(stdout, res, *output, *ddbJSON); perr != nil {
					return perr
				}
			}
			return err
		}
		res.KeyCondition = page.Request.KeyCondition
		if exp != nil {
			if err := exp.page(page); err != nil {
				return exp.close(err)
			}
		} else {
			res.Items = append(res.Items, page.Items...)
		}
		res.Count += int(page.Count)
		res.Scanned += int(page.ScannedCount)
		res.Requests = append(res.Requests, page.Request)
		res.LastKey = page.LastEvaluatedKey
		if !*allPages || page.LastEvaluatedKey == nil {
			break
		}
		q.StartKey = page.LastEvaluatedKey
	}
	if exp != nil {
		return exp.close(nil)
	}
	return printResult(stdout, res, *output, *ddbJSON)
}

func cmdGet(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, conn := newFlags("get", stderr)
	pk := fs.String("pk", "", "partition key value (required)")
	sk := fs.String("sk", "", "sort key value (required when the table has a sort key)")
	consistent := fs.Bool("consistent", false, "strongly consistent read")
	output := fs.String("output", "json", "json | jsonl | table | csv | ddbjson-batch")
	ddbJSON := fs.Bool("dynamodb-json", false, "print the item as typed DynamoDB JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := conn.RequireTable("get"); err != nil {
		return usageError{err.Error()}
	}
	if err := checkItemsOutput(*output, *ddbJSON); err != nil {
		return err
	}
	client, err := connect(ctx, conn)
	if err != nil {
		return err
	}
	if *sk == "" {
		// Right only for a table without a sort key. DescribeTable, not
		// the schema cache, decides: a refusal must not rest on keys that
		// may be out of date.
		t, err := client.DescribeTable(ctx, conn.Table)
		if err != nil {
			return err
		}
		if t.SK != nil {
			return usageError{fmt.Sprintf("table %s has the sort key %s: pass --sk VALUE (or use 'query' to read the whole partition).", t.Name, t.SK.Name)}
		}
	}
	page, err := client.GetItem(ctx, dynamo.GetInput{Table: conn.Table, PK: *pk, SK: *sk, Consistent: *consistent})
	if err != nil {
		return err
	}
	t, err := client.TableKeys(ctx, conn.Table) // the keys GetItem was built from
	if err != nil {
		return err
	}
	res := queryResult{
		Table: conn.Table, KeyNames: keyNames(t, ""), KeyCondition: page.Request.KeyCondition, Forward: true, Consistent: *consistent,
		Items: page.Items, Count: int(page.Count), Scanned: int(page.ScannedCount), Requests: []dynamo.Request{page.Request},
	}
	if format, ok, _ := exportFormat(*output, *ddbJSON); ok {
		exp, err := newExporter(stdout, io.Discard, format, conn.Table, res.KeyNames)
		if err != nil {
			return err
		}
		return exp.close(exp.page(page))
	}
	return printResult(stdout, res, *output, *ddbJSON)
}

func checkOutput(o string) error {
	switch o {
	case "json", "jsonl", "table":
		return nil
	}
	return usageError{fmt.Sprintf("--output must be json, jsonl or table, not %q.", o)}
}

// checkItemsOutput is checkOutput for the commands that print items and so
// can also export them (cmd_export.go).
func checkItemsOutput(o string, ddbJSON bool) error {
	switch o {
	case "json", "jsonl", "table", "csv", "ddbjson-batch":
		_, _, err := exportFormat(o, ddbJSON)
		return err
	}
	return usageError{fmt.Sprintf("--output must be json, jsonl, table, csv or ddbjson-batch, not %q.", o)}
}

// keyNames lists the key attributes of the queried index and of the table.
func keyNames(t dynamo.Table, index string) []string {
	var names []string
	add := func(k *dynamo.KeyAttr) {
		if k != nil && k.Name != "" && !slices.Contains(names, k.Name) {
			names = append(names, k.Name)
		}
	}
	if ks, err := t.Schema(index); err == nil {
		add(&ks.PK)
		add(ks.SK)
	}
	add(&t.PK)
	add(t.SK)
	return names
}

// announceWholeRead states, before a read that may go further than one page,
// its upper bound: the whole table or index as DescribeTable last measured it
// (DynamoDB refreshes that about every six hours). Ctrl-C stops it and keeps
// what was read.
func announceWholeRead(ctx context.Context, client *dynamo.Client, stderr io.Writer, table, index string, consistent bool, what string) (bound float64) {
	t, err := client.DescribeTable(ctx, table)
	if err != nil {
		return 0 // the read itself will report the problem
	}
	items, size, where := t.ItemCount, t.SizeBytes, "table "+table
	if ix, ok := t.IndexByName(index); ok {
		items, size, where = ix.ItemCount, ix.SizeBytes, "index "+index
	}
	fmt.Fprintf(stderr, "%s: at most the whole %s, about %s / %s ≈ %s RCU (DescribeTable's estimate); Ctrl-C stops and keeps what was read\n",
		what, ui.Sanitize(where), ui.Plural(int(items), "item", "items"), ui.HumanBytes(size), jsonFloat(dynamo.ReadUnits(int(size), consistent)))
	return dynamo.ReadUnits(int(size), consistent)
}
