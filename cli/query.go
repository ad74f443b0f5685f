package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"dynascope/codegen"
	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

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
	// Paging is the AWS CLI's paging flags; --page-size is Q.Limit.
	Paging awsPaging
	// Line is the command as given, less --start-key and
	// --starting-token: the go-on line adds where it stopped.
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
	limitFlag(fs, &opts.Q.Limit, "", "Limit: `N` items evaluated per page, 1 or more (none when left out)")
	fs.BoolVar(&opts.AllPages, "all-pages", false, "follow LastEvaluatedKey to the end, one request per page")
	fs.BoolVar(&opts.Q.Consistent, "consistent", false, "strongly consistent read (tables and LSIs only)")
	fs.StringVar(&opts.StartKey, "start-key", "", "go on from this `KEY`: the lastEvaluatedKey a stopped query printed, as JSON")
	readCapFlag(fs, &opts.MaxRCU)
	awsPagingFlags(fs, &opts.Paging, &opts.Q.Limit)
	goOnFlag(cmd, &opts.Paging)
	documentOutputFlag(cmd, &opts.Output, "json", "jsonl, csv and ddbjson-batch stream page by page", itemsOutputs...)
	fs.BoolVar(&opts.DDBJSON, "dynamodb-json", false, "print items as typed DynamoDB JSON, as the AWS CLI does")
	readShapeFlags(fs, &opts.Q.Filter, &opts.Q.Project)
	cmd.RegisterFlagCompletionFunc("index", completeIndexes(conn))
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := conn.RequireTable("query"); err != nil {
			return usageError{err.Error()}
		}
		if err := checkAWSPaging(cmd, &opts.Paging, "start-key"); err != nil {
			return err
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
		opts.Q.Table, opts.Out, opts.Err, opts.Line = conn.Table, f.Stdout(), f.Stderr(), commandLine(cmd, args, "start-key", "starting-token")
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runQuery(cmd.Context(), opts)
	}
	return cmd
}

// runQuery sends the query, page after page with --all-pages, and prints
// it. The paging is dynamo's (ReadQuery); what is printed, and the go-on
// line of a read stopped short, is queryOutput's.
func runQuery(ctx context.Context, opts *queryOptions) error {
	client, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	suspectFilter(opts.Err, "--filter", opts.Q.Filter, projectedNames(opts.Q.Project), func() (dynamo.Table, error) { return client.TableKeys(ctx, opts.Q.Table) })
	read := dynamo.QueryRead{Query: opts.Q, MaxRCU: opts.MaxRCU, What: "query --all-pages"}
	if opts.StartKey != "" {
		if read.Query.StartKey, err = queryStartKey(ctx, client, opts.Q, opts.StartKey); err != nil {
			return err
		}
	}
	if opts.Paging.Token != "" {
		pos, err := queryToken(ctx, client, opts.Q, opts.Paging.Token)
		if err != nil {
			return err
		}
		read.Query.StartKey, read.Skip = pos.Key, pos.Skip
	}
	read.MaxReturn = opts.Paging.MaxItems
	switch {
	case opts.AllPages:
		read.Est = announceEstimate(ctx, client, opts.Err, opts.Q.Table, opts.Q.Index, opts.Q.Consistent, opts.Q.Limit, "--all-pages reads every page of the result")
	case opts.Paging.MaxItems > 0:
		read.Est = announceEstimate(ctx, client, opts.Err, opts.Q.Table, opts.Q.Index, opts.Q.Consistent, opts.Q.Limit, fmt.Sprintf("--max-items %d reads pages until it has them", opts.Paging.MaxItems))
	default:
		read.MaxPages = 1
	}
	if read.MaxPages == 0 && (opts.StartKey != "" || opts.Paging.Token != "") {
		fmt.Fprintln(opts.Err, "going on from where a read stopped: that bound is for the whole of it, so an upper bound for what is left")
	}
	if opts.MaxRCU > 0 {
		fmt.Fprintf(opts.Err, "capped at %s RCU (--max-rcu); Ctrl-C stops and keeps what was read\n", jsonFloat(opts.MaxRCU))
		if est := read.Est; est.Known && est.Items > 0 {
			read.AvgItem = float64(est.Bytes) / float64(est.Items)
		}
	}
	q := opts.Q
	out := &queryOutput{opts: opts, client: client, doc: queryResult{Table: q.Table, Index: q.Index, Forward: !q.Reverse, Limit: q.Limit, Consistent: q.Consistent, DDBJSON: opts.DDBJSON}}
	read.OnPage = func(p dynamo.Page) error { return out.page(ctx, p) }
	res, err := client.ReadQuery(ctx, read)
	return out.finish(res, err)
}

// queryOutput prints what a query read, each page as it arrives (readOut),
// and after a read stopped short the command that reads only the rest.
type queryOutput struct {
	opts   *queryOptions
	client *dynamo.Client
	doc    queryResult
	out    readOut // from the first page on
	// done: writing failed, and the error the command ends with is said.
	done bool
	last dynamo.Item // the last item printed
	// keys is the key schema of what was read, from the first page on.
	keys *dynamo.KeySchema
}

// page takes one page as it arrives.
func (o *queryOutput) page(ctx context.Context, p dynamo.Page) error {
	if o.out == nil {
		// The key names, after the first page rather than before it: no
		// DescribeTable when the keys are cached, and the keys the query
		// was built from when the cached ones were out of date.
		if t, err := o.client.TableKeys(ctx, o.opts.Q.Table); err == nil {
			o.doc.KeyNames = keyNames(t, o.opts.Q.Index)
			if ks, err := t.Schema(o.opts.Q.Index); err == nil {
				o.keys = &ks
			}
		}
		o.doc.KeyCondition = p.Request.KeyCondition
		if err := o.open(); err != nil {
			o.done = true
			return err
		}
	}
	if err := o.out.page(p); err != nil {
		o.done = true
		return o.out.end(err)
	}
	if len(p.Items) > 0 {
		o.last = p.Items[len(p.Items)-1]
	}
	return nil
}

// open opens the format's writer.
func (o *queryOutput) open() error {
	out, err := readOutput{stdout: o.opts.Out, stderr: o.opts.Err, format: o.opts.Output, ddbJSON: o.opts.DDBJSON,
		table: o.opts.Q.Table, keyNames: o.doc.KeyNames, doc: &o.doc}.open()
	o.out = out
	return err
}

// finish ends the output with what the read was and returns the error
// the command ends with: a read that stopped short, having read
// something, keeps what it read, marked incomplete by its
// lastEvaluatedKey, and ends with the line that goes on from there.
func (o *queryOutput) finish(res dynamo.QueryResult, err error) error {
	if o.done {
		return err
	}
	if err != nil && res.Pages == 0 {
		if o.opts.StartKey != "" {
			err = startKeyRefused(err)
		}
		if _, streaming, _ := exportFormat(o.opts.Output, o.opts.DDBJSON); !streaming {
			return err // nothing read, nothing to print
		}
		if eerr := o.open(); eerr != nil {
			return eerr
		}
		return o.out.end(err) // an export file that is well-formed, and empty
	}
	if o.out == nil {
		// No page was read (a cap below one page): the output says so.
		if err := o.open(); err != nil {
			return err
		}
	}
	d := &o.doc
	d.KeyCondition, d.Filter, d.Projection = res.KeyCondition, res.Filter, res.Projection
	d.Count, d.Scanned, d.LastKey, d.Requests, d.OneMB = res.Count, res.Scanned, res.LastKey, res.Requests, res.OneMB
	pos, more := res.GoOnAt()
	if res.Stop == dynamo.StopMaxItems && res.Skip > 0 {
		// Cut inside a page: DynamoDB's key of that page is past items
		// not printed; the last printed item's key is where --start-key
		// goes on.
		d.LastKey = lastKeyOf(o.last, d.KeyNames)
	}
	if res.Stop == dynamo.StopMaxItems {
		d.Stop = string(res.Stop)
	}
	if more && o.opts.Paging.Given {
		d.NextToken = nextToken(pos)
	}
	if err != nil {
		var ee *dynamo.EstimateError
		if errors.As(err, &ee) {
			ee.Resume, ee.Next = "the lastEvaluatedKey printed", "run the line that follows (with --max-rcu N to bound the rest)"
		}
		sayPaging(o.opts.Err, res.OneMB, res.Pages)
		return o.out.end(goOnError{err: err, cmd: o.goOn(res)})
	}
	if err := o.out.end(nil); err != nil {
		return err
	}
	sayPaging(o.opts.Err, res.OneMB, res.Pages)
	if over := res.OverCapText("--max-rcu cap", jsonFloat); over != "" {
		fmt.Fprintln(o.opts.Err, over)
	}
	if more {
		fmt.Fprintln(o.opts.Err, queryStopText(res, o.opts.Paging.MaxItems))
		fmt.Fprintln(o.opts.Err, goOnSentence(o.goOn(res)))
	}
	return nil
}

// goOn is the command that reads the rest of res: by its NextToken when
// the read was given the AWS CLI's paging flags, else from its key.
func (o *queryOutput) goOn(res dynamo.QueryResult) string {
	pos, _ := res.GoOnAt()
	if o.opts.Paging.GoOn == "aws" && o.keys != nil {
		p := o.opts.Paging
		if cmd := awsGoOnLine(codegen.QueryGoOnCLI(*o.keys, o.opts.Q, codegen.AWSGoOn{Token: pos.Token(), MaxItems: p.MaxItems, PageSize: o.opts.Q.Limit}, codeTarget(o.client))); cmd != "" {
			return cmd
		}
	}
	if o.opts.Paging.Given {
		return goOnLine(o.opts.Line, "--starting-token", nextToken(pos))
	}
	return goOnLine(o.opts.Line, "--start-key", string(itemcodec.PlainJSON(res.LastKey)))
}

// queryStopText says why a query that ended without an error stopped
// with more to read, for the line before the go-on one.
func queryStopText(res dynamo.QueryResult, maxItems int) string {
	if res.Stop == dynamo.StopMaxItems {
		return maxItemsText(maxItems)
	}
	if res.Stop == dynamo.StopMaxRCU {
		return fmt.Sprintf("stopped at the --max-rcu cap after %s, %s RCU", textfmt.Plural(res.Count, "item", "items"), jsonFloat(res.Spent))
	}
	return "more pages follow (--all-pages reads them all)"
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

// queryToken reads --starting-token by the key schema DescribeTable gives,
// and refuses a key outside query q (another partition, or a sort key
// its condition does not hold).
func queryToken(ctx context.Context, client *dynamo.Client, q dynamo.QueryInput, token string) (dynamo.Position, error) {
	t, err := client.DescribeTable(ctx, q.Table)
	if err != nil {
		return dynamo.Position{}, err
	}
	ks, err := t.Schema(q.Index)
	if err != nil {
		return dynamo.Position{}, err
	}
	pos, err := dynamo.TokenPosition(t, q.Index, "--starting-token", token)
	if err != nil || pos.Key == nil {
		return pos, err
	}
	return pos, dynamo.CheckStartInQuery(ks, q, pos.Key, "--starting-token")
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
	documentOutputFlag(cmd, &opts.Output, "json", "", itemsOutputs...)
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
	doc := &queryResult{
		Table: opts.In.Table, KeyNames: keyNames(t, ""), KeyCondition: page.Request.KeyCondition, Forward: true, Consistent: opts.In.Consistent,
		Count: int(page.Count), Scanned: int(page.ScannedCount), Requests: []dynamo.Request{page.Request}, DDBJSON: opts.DDBJSON,
	}
	return printItems(readOutput{stdout: opts.Out, stderr: io.Discard, format: opts.Output, ddbJSON: opts.DDBJSON, table: opts.In.Table, keyNames: doc.KeyNames, doc: doc}, page)
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

// announceWholeRead states, before a whole read of a partition (groups
// --count, --by attribute), its bound as query --all-pages states its own:
// the estimate (announceEstimate), and the --max-rcu cap when given (0:
// none), which then alone stops it. It sets the read's bound in in.
func announceWholeRead(ctx context.Context, client *dynamo.Client, stderr io.Writer, in *dynamo.DiscoverInput, maxRCU float64, what string) {
	in.CountEst = announceEstimate(ctx, client, stderr, in.Table, in.Index, in.Consistent, 0, what)
	if maxRCU > 0 {
		in.CountMaxRCU = maxRCU
		fmt.Fprintf(stderr, "capped at %s RCU (--max-rcu); Ctrl-C stops and keeps what was read\n", jsonFloat(maxRCU))
	}
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
