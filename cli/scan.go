package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// scanOptions are the flag values of `dynascope scan`.
type scanOptions struct {
	Connect  func(context.Context) (*dynamo.Client, config.Settings, error)
	Out, Err io.Writer
	In       dynamo.ScanInput // the table, shape, segments and cap as given
	Yes      bool
	Output   string
	DDBJSON  bool
}

func newScanCmd(f *factory, runF func(context.Context, *scanOptions) error) *cobra.Command {
	conn := f.Conn
	cmd := &cobra.Command{
		Use:     "scan --table NAME (--yes | --max-rcu N)",
		Short:   "every item of a table or index (Scan), with its cost said first",
		GroupID: groupExplore,
		Long: `Scan a whole table or index, page by page, in parallel segments if asked,
with an optional filter and projection. A Scan reads, and is charged for,
every item, whatever the filter keeps: its upper bound (DescribeTable's size
in RCU, and money at the settings' price) is printed first, and it runs only
with --yes or a --max-rcu cap. Ctrl-C stops it and prints what was read.`,
		Example: `  dynascope scan --table App --max-rcu 50 --filter 'begins_with(SK, "ORDER#") AND total > 1000' --output table
  dynascope scan --table App --index GSI1 --segments 4 --yes --output jsonl
  dynascope scan --table App --yes --project PK,SK,status`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	index := fs.String("index", "", "scan this secondary `INDEX`")
	segments := fs.Int("segments", 1, "read in `N` parallel segments (1 to 64)")
	limit := fs.Int("limit", 0, "Limit: `N` items evaluated per page (0: DynamoDB's 1 MB pages)")
	consistent := fs.Bool("consistent", false, "strongly consistent read (tables and LSIs only; twice the RCU)")
	yes := fs.Bool("yes", false, "run the whole Scan after its upper bound is printed")
	maxRCU := fs.Float64("max-rcu", 0, "stop before reading more than `N` RCU")
	output := fs.String("output", "json", "output `FORMAT`: json | jsonl | table | csv | ddbjson-batch (jsonl, csv and ddbjson-batch stream page by page)")
	ddbJSON := fs.Bool("dynamodb-json", false, "print items as typed DynamoDB JSON, as the AWS CLI does")
	filter, project := readShapeFlags(fs)
	cmd.RegisterFlagCompletionFunc("index", completeIndexes(conn))
	cmd.RegisterFlagCompletionFunc("output", fixedChoices(itemsOutputs...))
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := conn.RequireTable("scan"); err != nil {
			return usageError{err.Error()}
		}
		if err := checkItemsOutput(*output, *ddbJSON); err != nil {
			return err
		}
		if *segments < 1 || *segments > dynamo.MaxScanSegments {
			return usageError{fmt.Sprintf("--segments takes 1 to %d, not %d.", dynamo.MaxScanSegments, *segments)}
		}
		if *limit < 0 || *limit > 1<<31-1 {
			return usageError{fmt.Sprintf("--limit takes a whole number from 1 to %d (or 0 for none), not %d.", 1<<31-1, *limit)}
		}
		in := dynamo.ScanInput{Table: conn.Table, Index: *index, Filter: *filter, Project: *project, Segments: *segments,
			Consistent: *consistent, Limit: int32(*limit), MaxRCU: *maxRCU}
		opts := &scanOptions{Connect: f.ConnectSettings, Out: f.Stdout(), Err: f.Stderr(), In: in, Yes: *yes, Output: *output, DDBJSON: *ddbJSON}
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runScan(cmd.Context(), opts)
	}
	return cmd
}

// runScan checks the Scan, says its bound, runs it with consent, and prints it.
func runScan(ctx context.Context, opts *scanOptions) error {
	in, yes, output, ddbJSON, stdout, stderr := opts.In, opts.Yes, opts.Output, opts.DDBJSON, opts.Out, opts.Err
	client, settings, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	t, err := client.DescribeTable(ctx, in.Table)
	if err != nil {
		return err
	}
	if _, _, err := dynamo.BuildScan(t, in, 0); err != nil {
		return err // a bad filter, index or segment count: before any word on cost
	}
	gate := newCostGate(settings, yes, in.MaxRCU)
	est := dynamo.EstimateRead(t, in.Index, in.Consistent, in.Segments, in.Limit)
	bound := est.RCU
	what := "scan of table " + in.Table
	if in.Index != "" {
		what = "scan of index " + in.Index + " of table " + in.Table
	}
	if err := gate.announce(stderr, what, est); err != nil {
		return err
	}
	in.Est = est
	out := bulkOutput{table: in.Table, keyNames: keyNames(t, in.Index), output: output, ddbJSON: ddbJSON, stdout: stdout, stderr: stderr, stoppedBy: stoppedBy(ctx)}
	if err := out.start(); err != nil {
		return err
	}
	in.OnPage = func(p dynamo.ScanPage) error { return out.page(p.Page) }
	res, err := client.Scan(ctx, in)
	gate.after(stderr, res.Requests, res.Stop, res.Count, stoppedBy(ctx))
	obj := bulkObject{
		Operation: "Scan", Table: in.Table, Index: nullable(in.Index), Filter: nullable(res.Filter), Projection: nullable(res.Projection),
		Segments: res.Segments, ConsistentRead: in.Consistent, Count: res.Count, ScannedCount: &res.Scanned,
		Stop: string(res.Stop), Complete: res.Stop == dynamo.StopComplete, Resume: json.RawMessage("null"),
		Predicted: predictedObject{MaxRCU: bound, MoneyUSD: moneyOf(gate, bound)},
	}
	if len(res.Resume) > 0 {
		m := map[string]json.RawMessage{}
		for seg, k := range res.Resume {
			m[strconv.Itoa(seg)] = itemcodec.PlainJSON(k)
			if ddbJSON {
				m[strconv.Itoa(seg)] = itemcodec.DynamoJSON(k)
			}
		}
		obj.Resume, _ = json.Marshal(m)
	}
	return out.finish(obj, res.Requests, err, res.Stop)
}

func moneyOf(g costGate, rcu float64) *float64 {
	if g.price <= 0 {
		return nil
	}
	m := rcu * g.price / 1e6
	return &m
}

// bulkObject is what scan and partiql print as JSON: the read, what it
// kept, what it cost, and where it would go on.
type bulkObject struct {
	Operation        string            `json:"operation"` // Scan, or ExecuteStatement for PartiQL
	Statement        *string           `json:"statement,omitempty"`
	Plan             *planObject       `json:"plan,omitempty"`
	Table            string            `json:"table"`
	Index            *string           `json:"index"`
	Filter           *string           `json:"filter"`
	Projection       *string           `json:"projection"`
	Segments         int               `json:"segments,omitempty"`
	ConsistentRead   bool              `json:"consistentRead"`
	Items            []json.RawMessage `json:"items"`
	Count            int               `json:"count"`
	ScannedCount     *int              `json:"scannedCount"` // null for PartiQL: ExecuteStatement does not report it
	Pages            int               `json:"pages"`
	Complete         bool              `json:"complete"`
	Stop             string            `json:"stop"`   // complete, max-rcu, cancelled or error
	Resume           json.RawMessage   `json:"resume"` // where it would go on (per segment, or a NextToken); null when complete
	Predicted        predictedObject   `json:"predicted"`
	ConsumedCapacity capacityObject    `json:"consumedCapacity"`
	Requests         []requestObject   `json:"requests"`
	Notes            []string          `json:"notes,omitempty"`
}

type predictedObject struct {
	MaxRCU   float64  `json:"maxRCU"`
	MoneyUSD *float64 `json:"moneyUSD"`
}

// bulkOutput prints a read of many pages in any items format: streaming
// formats page by page, the others at the end.
type bulkOutput struct {
	table          string
	keyNames       []string
	output         string
	ddbJSON        bool
	stdout, stderr io.Writer
	exp            *exporter
	items          []dynamo.Item
	stoppedBy      func() string // what stopped the read when it was cancelled (stoppedBy)
}

func (o *bulkOutput) start() error {
	if format, streaming, _ := exportFormat(o.output, o.ddbJSON); streaming {
		exp, err := newExporter(o.stdout, o.stderr, format, o.table, o.keyNames)
		if err != nil {
			return err
		}
		o.exp = exp
	}
	return nil
}

func (o *bulkOutput) page(p dynamo.Page) error {
	if o.exp != nil {
		return o.exp.page(p)
	}
	o.items = append(o.items, p.Items...)
	return nil
}

// finish prints the result (what was read, even after a failure or a
// stop) and returns the error the command ends with.
func (o *bulkOutput) finish(obj bulkObject, reqs []dynamo.Request, cause error, stop dynamo.StopReason) error {
	if cause == nil && stop == dynamo.StopCancelled {
		by := "Ctrl-C"
		if o.stoppedBy != nil {
			by = o.stoppedBy()
		}
		cause = fmt.Errorf("stopped by %s: the output holds the %s read before it", by, textfmt.Plural(obj.Count, "item", "items"))
	}
	if o.exp != nil {
		return o.exp.close(cause)
	}
	total := dynamo.TotalCapacity(reqs)
	scanned := -1
	if obj.ScannedCount != nil {
		scanned = *obj.ScannedCount
	}
	filter, projection := deref(obj.Filter), deref(obj.Projection)
	if o.output == "table" || o.output == "jsonl" {
		r := queryResult{Table: obj.Table, KeyNames: o.keyNames, Items: o.items, Count: obj.Count, Scanned: scanned, Requests: reqs, Filter: filter, Projection: projection}
		if err := printResult(o.stdout, r, o.output, o.ddbJSON); err != nil {
			return err
		}
		return cause
	}
	item := itemcodec.PlainJSON
	if o.ddbJSON {
		item = itemcodec.DynamoJSON
	}
	obj.Items = []json.RawMessage{}
	for _, it := range o.items {
		obj.Items = append(obj.Items, item(it))
	}
	obj.Pages = len(reqs)
	obj.ConsumedCapacity = capacityOfRequests(reqs)
	obj.Requests = requestObjects(reqs)
	obj.Notes = readNotes(obj.Count, scanned, total.Total, filter, projection)
	if unreported(reqs) > 0 {
		obj.Notes = append(obj.Notes, noCapacityNote(reqs))
	}
	var b bytes.Buffer
	if err := writeIndentedJSON(&b, obj); err != nil {
		return err
	}
	if _, err := o.stdout.Write(b.Bytes()); err != nil {
		return err
	}
	return cause
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
