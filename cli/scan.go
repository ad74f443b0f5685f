package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"dynascope/codegen"
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
	// Resume is --resume as given: a resume object, or @FILE / @- naming
	// a previous scan's JSON output; "" for none. It is read at run time,
	// by the key schema, through Files.
	Resume      string
	Files       resumeSource
	SegmentsSet bool // --segments was given: a file's own count must agree
	// Paging is the AWS CLI's paging flags; --page-size is In.Limit.
	Paging awsPaging
	// Line is the command as given, less --resume, --segments and
	// --starting-token: the go-on line adds them.
	Line []string
}

func newScanCmd(f *factory, runF func(context.Context, *scanOptions) error) *cobra.Command {
	conn := f.Conn
	opts := &scanOptions{Connect: f.ConnectSettings}
	cmd := &cobra.Command{
		Use:     "scan --table NAME (--yes | --max-rcu N)",
		Short:   "every item of a table or index (Scan), with its cost said first",
		GroupID: groupExplore,
		Long: `Scan a whole table or index, page by page, in parallel segments if asked,
with an optional filter and projection. A Scan reads, and is charged for,
every item, whatever the filter keeps: its upper bound (DescribeTable's size
in RCU, and money at the settings' price) is printed first, and it runs only
with --yes or a --max-rcu cap. Ctrl-C stops it and prints what was read.

A Scan that stops short (--max-rcu, the estimate overrun, Ctrl-C, an
error) prints its resume, where each unfinished segment would go on, and
its last line on stderr is the command that reads only the rest: the same
scan with --resume set to it. --resume takes that object ('{"0": {...key...},
"3": {}}': segment 3 from its start), or @FILE / @- for the whole JSON
output of the stopped scan, whose table, index and segments must agree.`,
		Example: `  dynascope scan --table App --max-rcu 50 --filter 'begins_with(SK, "ORDER#") AND total > 1000' --output table
  dynascope scan --table App --index GSI1 --segments 4 --yes --output jsonl
  dynascope scan --table App --yes --project PK,SK,status
  dynascope scan --table App --segments 4 --max-rcu 20 > part1.json
  dynascope scan --table App --max-rcu 20 --resume @part1.json`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.In.Index, "index", "", "scan this secondary `INDEX`")
	fs.IntVar(&opts.In.Segments, "segments", 1, "read in `N` parallel segments (1 to 64)")
	limitFlag(fs, &opts.In.Limit, "", "Limit: `N` items evaluated per page, 1 or more (DynamoDB's 1 MB pages when left out)")
	fs.BoolVar(&opts.In.Consistent, "consistent", false, "strongly consistent read (tables and LSIs only; twice the RCU)")
	fs.BoolVar(&opts.Yes, "yes", false, "run the whole Scan after its upper bound is printed")
	readCapFlag(fs, &opts.In.MaxRCU)
	awsPagingFlags(fs, &opts.Paging, &opts.In.Limit)
	goOnFlag(cmd, &opts.Paging)
	documentOutputFlag(cmd, &opts.Output, "json", "jsonl, csv and ddbjson-batch stream page by page", itemsOutputs...)
	fs.BoolVar(&opts.DDBJSON, "dynamodb-json", false, "print items as typed DynamoDB JSON, as the AWS CLI does")
	fs.StringVar(&opts.Resume, "resume", "", "go on from `RESUME`: the resume a stopped scan printed, or @FILE (@- for standard input) of its JSON output")
	readShapeFlags(fs, &opts.In.Filter, &opts.In.Project)
	cmd.RegisterFlagCompletionFunc("index", completeIndexes(conn))
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := conn.RequireTable("scan"); err != nil {
			return usageError{err.Error()}
		}
		if err := checkItemsOutput(opts.Output, opts.DDBJSON); err != nil {
			return err
		}
		if opts.In.Segments < 1 || opts.In.Segments > dynamo.MaxScanSegments {
			return usageError{fmt.Sprintf("--segments takes 1 to %d, not %d.", dynamo.MaxScanSegments, opts.In.Segments)}
		}
		if fs.Changed("resume") && opts.Resume == "" {
			return usageError{"--resume takes the resume a stopped scan printed, or @FILE of its JSON output, not an empty value."}
		}
		if err := checkAWSPaging(cmd, &opts.Paging, "resume"); err != nil {
			return err
		}
		if opts.In.Segments > 1 && (fs.Changed("max-items") || fs.Changed("starting-token") || opts.Paging.GoOn == "aws") {
			return usageError{fmt.Sprintf("--max-items, --starting-token and --go-on aws read one segment, as the AWS CLI's do (its NextToken holds one place, and dynascope reads no --segment of --total-segments alone), not --segments %d: drop --segments.", opts.In.Segments)}
		}
		opts.In.Table, opts.Out, opts.Err = conn.Table, f.Stdout(), f.Stderr()
		opts.Files, opts.SegmentsSet = resumeSource{Open: f.OpenFile, Stdin: f.Stdin}, fs.Changed("segments")
		opts.Line = commandLine(cmd, args, "resume", "segments", "starting-token")
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runScan(cmd.Context(), opts)
	}
	return cmd
}

// runScan checks the Scan, says its bound, runs it with consent, and prints it.
func runScan(ctx context.Context, opts *scanOptions) error {
	in := opts.In // the request, completed below from the table and --resume
	client, settings, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	var resume resumeDoc
	if opts.Resume != "" {
		// The file is checked against the command before any request.
		if resume, err = readScanResume(in, opts); err != nil {
			return err
		}
		in.Segments = resume.segs
	}
	t, err := client.DescribeTable(ctx, in.Table)
	if err != nil {
		return err
	}
	if opts.Resume != "" {
		if in.Start, err = resume.starts(t, in.Index); err != nil {
			return err
		}
	}
	if opts.Paging.Token != "" {
		pos, err := dynamo.TokenPosition(t, in.Index, "--starting-token", opts.Paging.Token)
		if err != nil {
			return err
		}
		in.Start, in.Skip = map[int]dynamo.Item{0: pos.Key}, pos.Skip
		if pos.Key == nil {
			in.Start[0] = dynamo.Item{} // from the start
		}
	}
	in.MaxReturn = opts.Paging.MaxItems
	_, shape, err := dynamo.BuildScan(t, in, 0)
	if err != nil {
		return err // a bad filter, index or segment count: before any word on cost
	}
	suspectFilter(opts.Err, "--filter", in.Filter, projectedNames(in.Project), func() (dynamo.Table, error) { return t, nil })
	gate := newCostGate(settings, opts.Yes, in.MaxRCU)
	est := dynamo.EstimateRead(t, in.Index, in.Consistent, in.Segments, in.Limit)
	bound := est.RCU
	what := "scan of table " + in.Table
	if in.Index != "" {
		what = "scan of index " + in.Index + " of table " + in.Table
	}
	if err := gate.announce(opts.Err, what, est); err != nil {
		return err
	}
	if opts.Paging.Token != "" {
		fmt.Fprintln(opts.Err, "going on from --starting-token: that bound is for the whole of it, so an upper bound for what is left")
	} else if in.Start != nil {
		fmt.Fprintf(opts.Err, "going on from --resume with %s of %d: that bound is for the whole of it, so an upper bound for what is left\n",
			textfmt.Plural(len(in.Start), "segment", "segments"), in.Segments)
	}
	in.Est = est
	out := &bulkOutput{head: bulkHead{Operation: "Scan", Table: in.Table, Index: nullable(in.Index),
		Filter: nullable(shape.FilterText), Projection: nullable(shape.ProjectionText), Segments: max(in.Segments, 1), ConsistentRead: in.Consistent},
		keyNames: keyNames(t, in.Index), stoppedBy: stoppedBy(ctx)}
	if err := out.open(opts.Out, opts.Err, opts.Output, opts.DDBJSON); err != nil {
		return err
	}
	in.OnPage = func(p dynamo.ScanPage) error { return out.page(p.Page) }
	res, err := client.Scan(ctx, in)
	gate.after(opts.Err, res.Requests, res.Stop, res.Count, stoppedBy(ctx))
	sayPaging(opts.Err, res.OneMB, len(res.Requests))
	obj := bulkTail{Count: res.Count, ScannedCount: &res.Scanned,
		Stop: string(res.Stop), Complete: res.Stop == dynamo.StopComplete, Resume: json.RawMessage("null"),
		Predicted: predictedObject{MaxRCU: bound, MoneyUSD: moneyOf(gate, bound)}, DynamoDBPaging: newPagingObject(res.OneMB),
	}
	var pos dynamo.Position
	if len(res.Resume) == 1 && opts.Paging.Given {
		pos = dynamo.Position{Key: res.Resume[0], Skip: res.Skip}
		if len(pos.Key) == 0 {
			pos.Key = nil
		}
		obj.NextToken = nextToken(pos)
	}
	if k := lastKeyOf(out.last, out.keyNames); res.Stop == dynamo.StopMaxItems && res.Skip > 0 && k != nil {
		// Cut inside a page: the segment's key is the last printed
		// item's, where --resume goes on.
		res.Resume = map[int]dynamo.Item{0: k}
	}
	if len(res.Resume) > 0 {
		m := map[string]json.RawMessage{}
		for seg, k := range res.Resume {
			m[strconv.Itoa(seg)] = itemcodec.PlainJSON(k)
			if opts.DDBJSON {
				m[strconv.Itoa(seg)] = itemcodec.DynamoJSON(k)
			}
		}
		obj.Resume, _ = json.Marshal(m)
	}
	if len(res.Resume) == 0 || len(res.Requests) == 0 {
		return out.finish(obj, res.Requests, err, res.Stop)
	}
	// Stopped short, having read something: the last sentence says how
	// to read the rest.
	var ee *dynamo.EstimateError
	if errors.As(err, &ee) {
		ee.Next = "run the line that follows (with --max-rcu N to bound the rest)"
	}
	plain := map[string]json.RawMessage{}
	for seg, k := range res.Resume {
		plain[strconv.Itoa(seg)] = itemcodec.PlainJSON(k)
	}
	word, _ := json.Marshal(plain)
	line := opts.Line
	if res.Segments > 1 || opts.SegmentsSet {
		line = append(append([]string{}, line...), "--segments="+strconv.Itoa(res.Segments))
	}
	cmd := goOnLine(line, "--resume", string(word))
	if obj.NextToken != "" {
		cmd = goOnLine(opts.Line, "--starting-token", obj.NextToken)
		if res.Stop == dynamo.StopMaxItems {
			fmt.Fprintln(opts.Err, maxItemsText(opts.Paging.MaxItems))
		}
	}
	if opts.Paging.GoOn == "aws" && len(res.Resume) == 1 {
		if !opts.Paging.Given {
			pos = dynamo.Position{Key: res.Resume[0]}
			if len(pos.Key) == 0 {
				pos.Key = nil
			}
		}
		if aws := awsGoOnLine(codegen.ScanGoOnCLI(t, in, codegen.AWSGoOn{Token: pos.Token(), MaxItems: opts.Paging.MaxItems, PageSize: in.Limit}, codeTarget(client))); aws != "" {
			cmd = aws
		}
	}
	if ferr := out.finish(obj, res.Requests, err, res.Stop); ferr != nil {
		return goOnError{err: ferr, cmd: cmd}
	}
	fmt.Fprintln(opts.Err, goOnSentence(cmd))
	return nil
}

// resumeDoc is --resume read: the resume object, what to call it in a
// sentence, and the segment count (the file's when --segments was not
// given).
type resumeDoc struct {
	node itemcodec.JSONNode
	name string
	segs int
}

// readScanResume reads --resume, a previous scan's file checked against
// this scan, with no request.
func readScanResume(in dynamo.ScanInput, opts *scanOptions) (resumeDoc, error) {
	text, name, doc, err := opts.Files.read("--resume", opts.Resume)
	if err != nil {
		return resumeDoc{}, err
	}
	n, err := dynamo.ParseStartKeyNode(name, string(text))
	if err != nil {
		return resumeDoc{}, err
	}
	segs := max(in.Segments, 1)
	if doc {
		var fileSegs int
		if n, fileSegs, err = scanDocResume(n, name, in, opts.SegmentsSet); err != nil {
			return resumeDoc{}, err
		}
		if fileSegs > 0 {
			segs = fileSegs
		}
	}
	return resumeDoc{node: n, name: name, segs: segs}, nil
}

// starts are the segments to read, each from its key (an empty key: from
// its start), typed by the key schema. Every problem is one sentence,
// before any Scan.
func (r resumeDoc) starts(t dynamo.Table, index string) (map[int]dynamo.Item, error) {
	n, name, segs := r.node, r.name, r.segs
	if n.Kind != itemcodec.JSONObject || len(n.Keys) == 0 {
		return nil, &dynamo.UserError{Msg: fmt.Sprintf(`%s must be a resume as a stopped scan printed it, segment number → key, such as '{"0": {"PK": "CUST#42", "SK": "ORDER#1"}, "3": {}}', not %s.`, name, nodeWords(n))}
	}
	start := map[int]dynamo.Item{}
	for i, k := range n.Keys {
		seg, err := strconv.Atoi(k)
		if err != nil || strconv.Itoa(seg) != k {
			return nil, &dynamo.UserError{Msg: fmt.Sprintf("%s names the segment %q, which is not a segment number (0, 1, …).", name, k)}
		}
		if seg < 0 || seg >= segs {
			return nil, &dynamo.UserError{Msg: fmt.Sprintf("%s names segment %d, outside the %d of this scan (%s): pass the --segments of the scan that printed it.",
				name, seg, segs, segmentRange(segs))}
		}
		if _, dup := start[seg]; dup {
			return nil, &dynamo.UserError{Msg: fmt.Sprintf("%s names segment %d twice.", name, seg)}
		}
		v := n.Elems[i]
		if v.Kind == itemcodec.JSONObject && len(v.Keys) == 0 {
			start[seg] = dynamo.Item{} // from the segment's start
			continue
		}
		key, err := dynamo.StartKey(t, index, fmt.Sprintf("%s's key of segment %d", name, seg), v)
		if err != nil {
			return nil, err
		}
		start[seg] = key
	}
	return start, nil
}

// scanDocResume takes the resume of a previous scan's JSON output, after
// checking that it read what this scan reads; fileSegs is its segment count.
func scanDocResume(n itemcodec.JSONNode, name string, in dynamo.ScanInput, segmentsSet bool) (resume itemcodec.JSONNode, fileSegs int, err error) {
	field := func(k string) (itemcodec.JSONNode, bool) {
		if n.Kind != itemcodec.JSONObject {
			return itemcodec.JSONNode{}, false
		}
		for i, key := range n.Keys {
			if key == k {
				return n.Elems[i], true
			}
		}
		return itemcodec.JSONNode{}, false
	}
	op, _ := field("operation")
	resume, ok := field("resume")
	if !ok || op.Text != "Scan" {
		return resume, 0, &dynamo.UserError{Msg: fmt.Sprintf("%s is not the JSON output of a scan (no \"operation\": \"Scan\" and \"resume\"); give the file 'dynascope scan --output json' printed.", name)}
	}
	if tb, _ := field("table"); tb.Text != in.Table {
		return resume, 0, &dynamo.UserError{Msg: fmt.Sprintf("%s is a scan of table %s, not of %s (--table): a resume goes on only in the table it came from.", name, tb.Text, in.Table)}
	}
	ix, _ := field("index")
	if ix.Text != in.Index {
		return resume, 0, &dynamo.UserError{Msg: fmt.Sprintf("%s is a scan of %s, not of %s: a resume goes on only in what it read; %s.",
			name, indexWords(ix.Text), indexWords(in.Index), indexFix(ix.Text))}
	}
	if sg, ok := field("segments"); ok && sg.Kind == itemcodec.JSONNumber {
		fileSegs, _ = strconv.Atoi(sg.Text)
	}
	if fileSegs < 1 || fileSegs > dynamo.MaxScanSegments {
		fileSegs = 1
	}
	if segmentsSet && fileSegs != in.Segments {
		return resume, 0, &dynamo.UserError{Msg: fmt.Sprintf("%s was read in %d segments, not the %d of --segments: a segment's key goes on only in the same split; drop --segments or pass --segments %d.",
			name, fileSegs, in.Segments, fileSegs)}
	}
	if resume.Kind == itemcodec.JSONNull {
		return resume, 0, &dynamo.UserError{Msg: fmt.Sprintf("%s is a complete scan (its resume is null): nothing is left to read.", name)}
	}
	return resume, fileSegs, nil
}

func indexWords(index string) string {
	if index == "" {
		return "the table itself"
	}
	return "index " + index
}

func indexFix(index string) string {
	if index == "" {
		return "drop --index"
	}
	return "pass --index " + index
}

func segmentRange(segs int) string {
	if segs == 1 {
		return "segment 0 only"
	}
	return fmt.Sprintf("segments 0 to %d", segs-1)
}

// nodeWords names what a JSON value is, for a sentence.
func nodeWords(n itemcodec.JSONNode) string {
	if n.Kind == itemcodec.JSONObject {
		return "an empty object"
	}
	return n.Kind.String()
}

func moneyOf(g costGate, rcu float64) *float64 {
	if g.price <= 0 {
		return nil
	}
	m := rcu * g.price / 1e6
	return &m
}

// bulkHead and bulkTail are what scan and partiql print as JSON, the
// fields before "items" and those after: the read, what it kept, what it
// cost, and where it would go on.
type bulkHead struct {
	Operation      string      `json:"operation"` // Scan, or ExecuteStatement for PartiQL
	Statement      *string     `json:"statement,omitempty"`
	Plan           *planObject `json:"plan,omitempty"`
	Table          string      `json:"table"`
	Index          *string     `json:"index"`
	Filter         *string     `json:"filter"`
	Projection     *string     `json:"projection"`
	Segments       int         `json:"segments,omitempty"`
	ConsistentRead bool        `json:"consistentRead"`
}

type bulkTail struct {
	Count        int             `json:"count"`
	ScannedCount *int            `json:"scannedCount"` // null for PartiQL: ExecuteStatement does not report it
	Pages        int             `json:"pages"`
	Complete     bool            `json:"complete"`
	Stop         string          `json:"stop"`   // complete, max-rcu, cancelled or error
	Resume       json.RawMessage `json:"resume"` // where it would go on (per segment, or a NextToken); null when complete
	// NextToken is where a Scan given the AWS CLI's paging flags goes on.
	NextToken        string          `json:"nextToken,omitempty"`
	Predicted        predictedObject `json:"predicted"`
	ConsumedCapacity capacityObject  `json:"consumedCapacity"`
	Requests         []requestObject `json:"requests"`
	Notes            []string        `json:"notes,omitempty"`
	DynamoDBPaging   *pagingObject   `json:"dynamoDBPaging,omitempty"` // as query's
}

type predictedObject struct {
	MaxRCU   float64  `json:"maxRCU"`
	MoneyUSD *float64 `json:"moneyUSD"`
}

// bulkOutput prints a read of many pages in any items format, each page
// as it arrives (readOut); it is the read's readDoc.
type bulkOutput struct {
	head      bulkHead
	tail      bulkTail
	reqs      []dynamo.Request
	keyNames  []string
	out       readOut
	stoppedBy func() string // what stopped the read when it was cancelled (stoppedBy)
	last      dynamo.Item   // the last item printed
}

// open opens the format's writer, before the read.
func (o *bulkOutput) open(stdout, stderr io.Writer, format string, ddbJSON bool) error {
	out, err := readOutput{stdout: stdout, stderr: stderr, format: format, ddbJSON: ddbJSON, table: o.head.Table, keyNames: o.keyNames, doc: o}.open()
	o.out = out
	return err
}

func (o *bulkOutput) page(p dynamo.Page) error {
	if len(p.Items) > 0 {
		o.last = p.Items[len(p.Items)-1]
	}
	return o.out.page(p)
}

// finish ends the output with what was read (even after a failure or a
// stop) and returns the error the command ends with.
func (o *bulkOutput) finish(tail bulkTail, reqs []dynamo.Request, cause error, stop dynamo.StopReason) error {
	if cause == nil && stop == dynamo.StopCancelled {
		by := "Ctrl-C"
		if o.stoppedBy != nil {
			by = o.stoppedBy()
		}
		cause = fmt.Errorf("stopped by %s: the output holds the %s read before it", by, textfmt.Plural(tail.Count, "item", "items"))
	}
	o.tail, o.reqs = tail, reqs
	return o.out.end(cause)
}

func (o *bulkOutput) jsonHead() any { return o.head }

func (o *bulkOutput) jsonTail() any {
	t := o.tail
	t.Pages = len(o.reqs)
	t.ConsumedCapacity = capacityOfRequests(o.reqs)
	t.Requests = requestObjects(o.reqs)
	t.Notes = readNotes(t.Count, o.scanned(), dynamo.TotalCapacity(o.reqs).Total, deref(o.head.Filter), deref(o.head.Projection))
	if unreported(o.reqs) > 0 {
		t.Notes = append(t.Notes, noCapacityNote(o.reqs))
	}
	return t
}

func (o *bulkOutput) tableTail(b *bytes.Buffer) {
	r := queryResult{Table: o.head.Table, KeyNames: o.keyNames, Count: o.tail.Count, Scanned: o.scanned(), Requests: o.reqs,
		Filter: deref(o.head.Filter), Projection: deref(o.head.Projection), NextToken: o.tail.NextToken}
	if o.tail.Stop == string(dynamo.StopMaxItems) {
		r.Stop = o.tail.Stop
	}
	r.tableTail(b)
}

// scanned is the items read, -1 where it is not reported (PartiQL).
func (o *bulkOutput) scanned() int {
	if o.tail.ScannedCount == nil {
		return -1
	}
	return *o.tail.ScannedCount
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
