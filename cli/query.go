package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/textfmt"
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
	// Filter and Projection as DynamoDB read them ("" for none).
	Filter, Projection string
}

// queryOptions are the flag values of `dynascope query`.
type queryOptions struct {
	Connect  func(context.Context) (*dynamo.Client, error)
	Out, Err io.Writer
	Q        dynamo.QueryInput // the table, key condition, filter and projection as given
	AllPages bool
	Output   string
	DDBJSON  bool
	// StartKey is --start-key as given: a lastEvaluatedKey, typed by the
	// key schema at run time; "" for none.
	StartKey string
	MaxRCU   float64 // the cap (dynamo.CapSizer sizes the pages); 0 for no cap
	// Line is the command as given, less --start-key: the go-on line
	// adds the key it stopped at.
	Line []string
}

func newQueryCmd(f *factory, runF func(context.Context, *queryOptions) error) *cobra.Command {
	conn := f.Conn
	opts := &queryOptions{Connect: f.Connect}
	cmd := &cobra.Command{
		Use:     "query --table NAME --pk VALUE [sort-key condition]",
		Short:   "one access pattern as one Query",
		GroupID: groupExplore,
		Long: `Run one Query: the items of one partition, optionally narrowed by one
sort-key condition, in sort-key order. One page unless --all-pages; every
request is listed with the read capacity it consumed.

A query that stops short (one page of more, --max-rcu, the estimate overrun,
Ctrl-C or an error after some pages) prints its lastEvaluatedKey, and its
last line on stderr is the command that reads only the rest: the same
query with --start-key set to that key. --start-key takes the key as
dynascope prints it (plain JSON, or DynamoDB JSON as --dynamodb-json
prints it), checked against the key schema before the Query is sent.`,
		Example: `  dynascope query --table App --pk 'CUST#42'
  dynascope query --table App --pk 'CUST#42' --sk-begins-with 'ORDER#' --reverse --limit 1
  dynascope query --table App --pk 'CUST#42' --sk-between 'ORDER#2025-01' 'ORDER#2025-03' --output table
  dynascope query --table App --pk 'CUST#7' --sk-begins-with 'ORDER#' --filter 'status = "OPEN" AND total > 1000' --project total,status
  dynascope --endpoint-url http://127.0.0.1:8000 query --table App --index GSI1 --pk 'WH#1' --all-pages --output jsonl
  dynascope query --table App --pk 'CUST#7' --all-pages --max-rcu 5
  dynascope query --table App --pk 'CUST#7' --all-pages --max-rcu 5 --start-key '{"PK": "CUST#7", "SK": "ORDER#2025-01-09#A11"}'`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.Q.PK, "pk", "", "partition key `VALUE` (required)")
	fs.StringVar(&opts.Q.Index, "index", "", "query this secondary `INDEX`")
	sortKeyFlags(fs, &opts.Q.SK)
	fs.BoolVar(&opts.Q.Reverse, "reverse", false, "newest first: ScanIndexForward=false")
	limitFlag(fs, &opts.Q.Limit, "none", "Limit: `N` items evaluated per page (0: none)")
	fs.BoolVar(&opts.AllPages, "all-pages", false, "follow LastEvaluatedKey to the end, one request per page")
	fs.BoolVar(&opts.Q.Consistent, "consistent", false, "strongly consistent read (tables and LSIs only)")
	fs.StringVar(&opts.StartKey, "start-key", "", "go on from this `KEY`: the lastEvaluatedKey a stopped query printed, as JSON")
	readCapFlag(fs, &opts.MaxRCU)
	outputFlag(cmd, &opts.Output, "json", "jsonl, csv and ddbjson-batch stream page by page", itemsOutputs...)
	fs.BoolVar(&opts.DDBJSON, "dynamodb-json", false, "print items as typed DynamoDB JSON, as the AWS CLI does")
	readShapeFlags(fs, &opts.Q.Filter, &opts.Q.Project)
	cmd.RegisterFlagCompletionFunc("index", completeIndexes(conn))
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := conn.RequireTable("query"); err != nil {
			return usageError{err.Error()}
		}
		if !fs.Changed("pk") {
			return usageError{"query needs a partition key value: pass --pk VALUE."}
		}
		if err := checkItemsOutput(opts.Output, opts.DDBJSON); err != nil {
			return err
		}
		if fs.Changed("start-key") {
			if err := checkStartKeyText(opts.StartKey); err != nil {
				return err
			}
		}
		var chosen []string
		for _, name := range sortKeyFlagNames() {
			if fs.Changed(name) {
				chosen = append(chosen, "--"+name)
			}
		}
		if len(chosen) > 1 {
			return usageError{fmt.Sprintf("give at most one sort-key condition, not %s.", strings.Join(chosen, " and "))}
		}
		opts.Q.Table, opts.Out, opts.Err, opts.Line = conn.Table, f.Stdout(), f.Stderr(), commandLine(cmd, args, "start-key")
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runQuery(cmd.Context(), opts)
	}
	return cmd
}

// runQuery sends the query, page after page with allPages, and prints it.
func runQuery(ctx context.Context, opts *queryOptions) error {
	q, allPages, output, ddbJSON, stdout, stderr := opts.Q, opts.AllPages, opts.Output, opts.DDBJSON, opts.Out, opts.Err
	client, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	if opts.StartKey != "" {
		if q.StartKey, err = queryStartKey(ctx, client, q, opts.StartKey); err != nil {
			return err
		}
	}
	var guard dynamo.Guard // the announced cost: reading clearly past it stops
	var est dynamo.Estimate
	if allPages {
		est = announceEstimate(ctx, client, stderr, q.Table, q.Index, q.Consistent, q.Limit, "--all-pages reads every page of the result")
		if opts.StartKey != "" {
			fmt.Fprintln(stderr, "going on from --start-key: that bound is for the whole of it, so an upper bound for what is left")
		}
	}
	capped := queryCap{max: opts.MaxRCU, unit: 0.5, limit: q.Limit, projected: q.Project != ""}
	if q.Consistent {
		capped.unit = 1
	}
	if capped.max > 0 {
		fmt.Fprintf(stderr, "capped at %s RCU (--max-rcu); Ctrl-C stops and keeps what was read\n", jsonFloat(capped.max))
		avg := 0.0
		if est.Known && est.Items > 0 {
			avg = float64(est.Bytes) / float64(est.Items)
		}
		capped.sizer = dynamo.NewCapSizer(capped.unit, avg)
	} else {
		guard.Est = est
	}
	goOn := func(key dynamo.Item) string {
		return goOnLine(opts.Line, "--start-key", string(itemcodec.PlainJSON(key)))
	}
	res := queryResult{Table: q.Table, Index: q.Index, Forward: !q.Reverse, Limit: q.Limit, Consistent: q.Consistent}
	format, streaming, _ := exportFormat(output, ddbJSON)
	var exp *exporter
	stop := "" // why it stopped with more to read, for the line before the go-on one
	for {
		var ok bool
		if q.Limit, ok = capped.next(q.Limit); !ok {
			stop = fmt.Sprintf("stopped at the --max-rcu cap after %s, %s RCU", textfmt.Plural(res.Count, "item", "items"), jsonFloat(capped.spent))
			res.LastKey = q.StartKey
			break
		}
		page, err := client.Query(ctx, q)
		if err != nil && len(res.Requests) == 0 && q.StartKey != nil {
			err = startKeyRefused(err)
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
			if len(res.Requests) > 0 {
				// Keep the pages already read: print them, marked incomplete
				// by a lastEvaluatedKey where the failed page would start.
				err = goOnError{err, goOn(q.StartKey)}
				res.LastKey = q.StartKey
				if exp == nil {
					if perr := printResult(stdout, res, output, ddbJSON); perr != nil {
						return perr
					}
				}
			}
			if exp != nil {
				return exp.close(err)
			}
			return err
		}
		capped.page(page)
		res.KeyCondition = page.Request.KeyCondition
		res.Filter, res.Projection = page.Request.Filter, page.Request.Projection
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
		if page.LastEvaluatedKey == nil {
			break
		}
		if !allPages {
			stop = "more pages follow (--all-pages reads them all)"
			break
		}
		q.StartKey = page.LastEvaluatedKey
		if guard.Page(page.Request.Capacity.Total, int(page.ScannedCount)) {
			// Stopped past its estimate: what was read is printed, marked
			// incomplete by its lastEvaluatedKey, and the sentence says why.
			err := goOnError{&dynamo.EstimateError{What: "query --all-pages", Spent: guard.Charged, Announced: guard.Est.RCU, Known: guard.Est.Known,
				Resume: "the lastEvaluatedKey printed", Next: "run the line that follows (with --max-rcu N to bound the rest)"}, goOn(page.LastEvaluatedKey)}
			if exp != nil {
				return exp.close(err)
			}
			if perr := printResult(stdout, res, output, ddbJSON); perr != nil {
				return perr
			}
			return err
		}
	}
	if exp != nil {
		if err := exp.close(nil); err != nil {
			return err
		}
	} else if err := printResult(stdout, res, output, ddbJSON); err != nil {
		return err
	}
	if over := overCap(capped.spent, capped.max); over != "" {
		fmt.Fprintln(stderr, over)
	}
	if res.LastKey != nil {
		fmt.Fprintln(stderr, stop)
		fmt.Fprintln(stderr, goOnSentence(goOn(res.LastKey)))
	}
	return nil
}

// queryStartKey reads --start-key by the key schema DescribeTable gives
// (not the cache: a refusal must not rest on keys out of date), and
// refuses a key of another partition than --pk's.
func queryStartKey(ctx context.Context, client *dynamo.Client, q dynamo.QueryInput, text string) (dynamo.Item, error) {
	t, err := client.DescribeTable(ctx, q.Table)
	if err != nil {
		return nil, err
	}
	return startKeyOf(t, q, text)
}

// startKeyOf reads --start-key by t's key schema (DescribeTable's) for
// query q, and refuses a key of another partition than q's.
func startKeyOf(t dynamo.Table, q dynamo.QueryInput, text string) (dynamo.Item, error) {
	ks, err := t.Schema(q.Index)
	if err != nil {
		return nil, err
	}
	key, err := dynamo.StartKeyJSON(t, q.Index, "--start-key", text)
	if err != nil {
		return nil, err
	}
	return key, dynamo.CheckStartPartition(ks, q.PK, key)
}

// startKeyRefused says in dynascope's words what DynamoDB says of a start
// key outside the key condition ("The provided starting key does not
// match the range key predicate").
func startKeyRefused(err error) error {
	if !strings.Contains(err.Error(), "does not match the range key predicate") {
		return err
	}
	return &dynamo.UserError{Msg: "--start-key is outside this query's sort-key condition (DynamoDB: the provided starting key does not match the range key predicate): pass the lastEvaluatedKey of the same query, with the same sort-key condition and direction.", Err: err}
}

// queryCap sizes a query's pages under --max-rcu, as a Scan sizes its own.
type queryCap struct {
	max, unit, spent float64
	sizer            dynamo.CapSizer
	projected        bool  // --project: items are not returned whole
	limit            int32 // --limit; 0 for none
}

// next is the Limit of the next page, or false when the cap leaves no room.
func (c *queryCap) next(limit int32) (int32, bool) {
	if c.max <= 0 {
		return limit, true
	}
	n, _, ok := c.sizer.Next(c.max-c.spent, 1, c.limit, c.spent == 0)
	if !ok {
		return limit, false
	}
	return n, true
}

// page counts what a page cost, at least DynamoDB's minimum, and what it
// tells of the items' size.
func (c *queryCap) page(p dynamo.Page) {
	c.spent += max(p.Request.Capacity.Total, c.unit)
	c.sizer.Read(p, c.projected)
}

// getOptions are the flag values of `dynascope get`.
type getOptions struct {
	Connect func(context.Context) (*dynamo.Client, error)
	Out     io.Writer
	In      dynamo.GetInput // the table and key as given
	Output  string
	DDBJSON bool
}

func newGetCmd(f *factory, runF func(context.Context, *getOptions) error) *cobra.Command {
	opts := &getOptions{Connect: f.Connect}
	cmd := &cobra.Command{
		Use:     "get --table NAME --pk VALUE [--sk VALUE]",
		Short:   "one item by its full primary key (GetItem)",
		GroupID: groupExplore,
		Example: `  dynascope get --table App --pk 'CUST#42' --sk PROFILE
  dynascope get --table App --pk 'CUST#42' --sk PROFILE --consistent --output table`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.In.PK, "pk", "", "partition key `VALUE` (required)")
	fs.StringVar(&opts.In.SK, "sk", "", "sort key `VALUE` (required when the table has a sort key)")
	fs.BoolVar(&opts.In.Consistent, "consistent", false, "strongly consistent read")
	outputFlag(cmd, &opts.Output, "json", "", itemsOutputs...)
	fs.BoolVar(&opts.DDBJSON, "dynamodb-json", false, "print the item as typed DynamoDB JSON")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := f.Conn.RequireTable("get"); err != nil {
			return usageError{err.Error()}
		}
		if err := checkItemsOutput(opts.Output, opts.DDBJSON); err != nil {
			return err
		}
		opts.In.Table, opts.Out = f.Conn.Table, f.Stdout()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runGet(cmd.Context(), opts)
	}
	return cmd
}

// runGet reads one item and prints it.
func runGet(ctx context.Context, opts *getOptions) error {
	client, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	if opts.In.SK == "" {
		// Right only for a table without a sort key. DescribeTable, not
		// the schema cache, decides: a refusal must not rest on keys that
		// may be out of date.
		t, err := client.DescribeTable(ctx, opts.In.Table)
		if err != nil {
			return err
		}
		if t.SK != nil {
			return usageError{fmt.Sprintf("table %s has the sort key %s: pass --sk VALUE (or use 'query' to read the whole partition).", t.Name, t.SK.Name)}
		}
	}
	page, err := client.GetItem(ctx, opts.In)
	if err != nil {
		return err
	}
	t, err := client.TableKeys(ctx, opts.In.Table) // the keys GetItem was built from
	if err != nil {
		return err
	}
	res := queryResult{
		Table: opts.In.Table, KeyNames: keyNames(t, ""), KeyCondition: page.Request.KeyCondition, Forward: true, Consistent: opts.In.Consistent,
		Items: page.Items, Count: int(page.Count), Scanned: int(page.ScannedCount), Requests: []dynamo.Request{page.Request},
	}
	if format, ok, _ := exportFormat(opts.Output, opts.DDBJSON); ok {
		exp, err := newExporter(opts.Out, io.Discard, format, opts.In.Table, res.KeyNames)
		if err != nil {
			return err
		}
		return exp.close(exp.page(page))
	}
	return printResult(opts.Out, res, opts.Output, opts.DDBJSON)
}

// checkItemsOutput checks what --output (one of itemsOutputs) leaves to
// be checked of the commands that print items and so can also export
// them (export.go): the formats that do not go with --dynamodb-json.
func checkItemsOutput(o string, ddbJSON bool) error {
	_, _, err := exportFormat(o, ddbJSON)
	return err
}

// itemsOutputs are the formats of the commands that print items.
var itemsOutputs = []string{"json", "jsonl", "table", "csv", "ddbjson-batch"}

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
// its upper bound (announceEstimate) and returns it in RCU.
func announceWholeRead(ctx context.Context, client *dynamo.Client, stderr io.Writer, table, index string, consistent bool, what string) (bound float64) {
	return announceEstimate(ctx, client, stderr, table, index, consistent, 0, what).RCU
}

// announceEstimate states, before a read that may go further than one page,
// its upper bound: the whole table or index as DescribeTable last measured
// it (DynamoDB refreshes that about every six hours), the one estimate every
// read of it announces (dynamo.EstimateRead). Ctrl-C stops it and keeps
// what was read.
func announceEstimate(ctx context.Context, client *dynamo.Client, stderr io.Writer, table, index string, consistent bool, limit int32, what string) dynamo.Estimate {
	t, err := client.DescribeTable(ctx, table)
	if err != nil {
		return dynamo.Estimate{} // the read itself will report the problem
	}
	where := "table " + table
	if index != "" {
		where = "index " + index
	}
	e := dynamo.EstimateRead(t, index, consistent, 1, limit)
	fmt.Fprintf(stderr, "%s: at most the whole %s, %s (DescribeTable's estimate); Ctrl-C stops and keeps what was read\n",
		what, textfmt.Sanitize(where), e.Text())
	return e
}
