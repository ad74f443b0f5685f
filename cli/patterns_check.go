package cli

// `dynascope patterns check`: every pattern run with its example, and the
// proof that each is one request.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/patterns"
	"dynascope/textfmt"
)

// verdict says whether the pattern was one request and, when not, why;
// a filtered one adds what it kept of what it read, and a pattern that
// threw most of its read away is not a pass either (discardVerdict). The
// requests are counted by DynamoDB's 1 MB rule (requests), not by what
// the engine answered with. A page without a filter ends early only at
// 1 MB: Limit ends the pattern.
func (r patternRun) verdict() (string, bool) {
	v, one := r.requestVerdict()
	if r.err != nil || r.projection != nil && r.projection.Refused() || r.res.Filter == "" {
		return v, one
	}
	d := r.discard()
	if dv := d.Verdict(); dv != "" {
		if one {
			v = dv
		} else {
			v += "; it " + dv
		}
		one = false
	}
	return v + " · " + d.Note(), one
}

// requestVerdict is the verdict on the requests alone.
func (r patternRun) requestVerdict() (string, bool) {
	n, answered := r.requests(), len(r.res.Requests)
	pc := r.projection
	switch {
	case pc != nil && pc.Refused():
		return pc.Verdict(), false
	case r.err != nil:
		return "failed: " + strings.TrimRight(r.err.Error(), "."), false
	case n > answered:
		return fmt.Sprintf("%d requests on DynamoDB: it ends a page once it has read 1 MB, before the filter (DynamoDB Local answered in %d)", n, answered), false
	case n == 1 && pc != nil && !pc.OneRequest():
		return pc.Verdict(), false
	case n == 1:
		return "one request", true
	case r.truncated:
		return fmt.Sprintf("more than %d pages (stopped there): each Query page stops at 1 MB", n), false
	case r.res.Limit > 0:
		return fmt.Sprintf("%d pages: 1 MB per page was reached before Limit %d", n, r.res.Limit), false
	}
	return fmt.Sprintf("%d pages: the result is larger than the 1 MB one Query page returns", n), false
}

// requests is how many requests the pattern takes on DynamoDB: what its
// pages read, cut by the 1 MB rule (dynamo.OneMB), where an engine such as
// DynamoDB Local answered a filtered read in fewer pages.
func (r patternRun) requests() int {
	return max(len(r.res.Requests), r.res.OneMB.Requests)
}

// discard is what the run kept of what it read, against the file's
// minKept.
func (r patternRun) discard() patterns.Discard {
	unit := 0.5
	if r.res.Consistent {
		unit = 1
	}
	return patterns.Discard{Kept: r.res.Count, Read: r.res.Scanned, RCU: dynamo.TotalCapacity(r.res.Requests).Total,
		Requests: r.requests(), Unit: unit, MinKept: r.minKept}
}

// patternsCheckOptions are the flag values of `dynascope patterns check`.
type patternsCheckOptions struct {
	Connect func(context.Context) (*dynamo.Client, error)
	Out     io.Writer
	Table   string // --table; "" for the file's table: line
	File    string // --patterns
	Models  string // --models
	Output  string // table | json
}

func newPatternsCheckCmd(f *factory, runF func(context.Context, *patternsCheckOptions) error) *cobra.Command {
	opts := &patternsCheckOptions{Connect: f.Connect}
	cmd := &cobra.Command{
		Use:   "check",
		Short: "run every pattern with its example and prove each is one request",
		Long: `Run every pattern of the file with its example parameters, following its
pages as a program would, and prove that each is one request. A pattern on
a KEYS_ONLY or INCLUDE index is compared with what the index projects: an
attribute it lists under attributes: that a GSI does not hold needs a GetItem
per item; a filter on one is refused by DynamoDB, so it is not sent. Exits
with status 1 when a pattern needs more than one request or fails.`,
		Example: `  dynascope patterns check --table App
  dynascope patterns check --patterns ci/patterns.yaml --output json`,
		Args: noArgs,
	}
	patternsFileFlag(cmd, &opts.File)
	modelsFlag(cmd, &opts.Models)
	documentOutputFlag(cmd, &opts.Output, "table", "", "table", "json")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		opts.Table, opts.Out = f.Conn.Table, f.Stdout()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runPatternsCheck(cmd.Context(), opts)
	}
	return cmd
}

// runPatternsCheck runs every pattern with its example and says which are
// not one request.
func runPatternsCheck(ctx context.Context, opts *patternsCheckOptions) error {
	set, client, t, err := patternTable(ctx, opts.Connect, opts.Table, opts.File, opts.Models)
	if err != nil {
		return err
	}
	if len(set.Patterns) == 0 {
		return fmt.Errorf("%s has no patterns to check; add some under patterns:.", opts.File)
	}
	if err := set.Validate(t); err != nil {
		return err
	}
	runs, err := runEveryPattern(ctx, client, t, set)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if opts.Output == "json" {
		writeCheckJSON(&b, t.Name, runs)
	} else {
		writeCheckTable(&b, runs)
	}
	if _, err := opts.Out.Write(b.Bytes()); err != nil {
		return err
	}
	var bad []string
	discards := false
	for _, r := range runs {
		if v, one := r.verdict(); !one {
			why := "failed"
			if r.err == nil {
				why = strings.SplitN(strings.SplitN(v, ":", 2)[0], ",", 2)[0]
			}
			discards = discards || r.err == nil && r.res.Filter != "" && r.discard().Warn()
			bad = append(bad, fmt.Sprintf("%q (%s)", r.pattern.Name, why))
		}
	}
	if len(bad) > 0 {
		verb := "are not one request"
		switch {
		case discards && len(bad) == 1:
			verb = "fails the check"
		case discards:
			verb = "fail the check"
		case len(bad) == 1:
			verb = "is not one request"
		}
		return fmt.Errorf("%d of %d patterns %s: %s.", len(bad), len(runs), verb, strings.Join(bad, ", "))
	}
	return nil
}

// runEveryPattern runs every pattern of the set with its example, as patterns
// check and check do: one that DynamoDB would refuse (a filter on what its
// index does not project) is said, not sent. Each run keeps the size of
// the largest item it returned (check's maxItemBytes:).
func runEveryPattern(ctx context.Context, client *dynamo.Client, t dynamo.Table, set *patterns.PatternSet) ([]patternRun, error) {
	var runs []patternRun
	for _, p := range set.Patterns {
		r, err := p.Resolve(t, p.Example)
		if err != nil {
			return nil, err
		}
		pc, onIndex := p.CheckProjection(t)
		if onIndex && pc.Refused() {
			// DynamoDB would refuse it: said, not sent.
			run := patternRun{pattern: p, operation: r.Operation(), projection: &pc, res: &queryResult{Table: t.Name, Index: p.Index}}
			if ks, err := t.Schema(p.Index); err == nil && r.Query != nil {
				if b, err := dynamo.BuildQuery(ks, *r.Query); err == nil {
					run.res.KeyCondition = b.KeyCondition
				}
			}
			runs = append(runs, run)
			continue
		}
		largest := 0
		run := sendPattern(ctx, client, t, p, r, func(_ *queryResult, pg dynamo.Page) error {
			for _, it := range pg.Items {
				largest = max(largest, itemcodec.ItemSize(it))
			}
			return nil
		})
		run.largest = largest
		run.minKept = set.MinKept(p)
		if onIndex {
			run.projection = &pc
		}
		runs = append(runs, run)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return runs, nil
}

func (r patternRun) operationText() string {
	if r.res.Index != "" {
		return r.operation + " " + r.res.Index
	}
	return r.operation
}

// writeCheckTable prints one line per pattern, then a summary when all pass.
func writeCheckTable(b *bytes.Buffer, runs []patternRun) {
	tw := newColumns(b)
	fmt.Fprintln(tw, "PATTERN\tOPERATION\tREQUESTS\tPAGES\tITEMS\tRCU\tVERDICT")
	all := true
	for _, r := range runs {
		v, one := r.verdict()
		all = all && one
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\n", textfmt.Sanitize(r.pattern.Name), textfmt.Sanitize(r.operationText()),
			r.requests(), len(r.res.Requests), r.res.Count, jsonFloat(dynamo.TotalCapacity(r.res.Requests).Total), textfmt.Sanitize(v))
	}
	_ = tw.Flush()
	if all {
		fmt.Fprintf(b, "\n%s, each one request.\n", textfmt.Plural(len(runs), "pattern", "patterns"))
	}
	first := true
	for _, r := range runs {
		if note := r.projectionNote(); note != "" {
			if first {
				b.WriteString("\nProjections of the indexes read:\n")
				first = false
			}
			fmt.Fprintf(b, "  %s: %s\n", textfmt.Sanitize(r.pattern.Name), textfmt.Sanitize(note))
		}
	}
}

// projectionNote is what the comparison of the pattern with its index's
// projection found, "" when it reads the base table or an ALL index.
func (r patternRun) projectionNote() string {
	if r.projection == nil {
		return ""
	}
	items := r.res.Count
	if len(r.res.Requests) == 0 || r.err != nil {
		items = -1
	}
	return r.projection.Sentence(items)
}

// checkProjectionJSON is the comparison with a KEYS_ONLY or INCLUDE index.
type checkProjectionJSON struct {
	Index              string   `json:"index"`
	Kind               string   `json:"kind"` // gsi | lsi
	Projection         string   `json:"projection"`
	Returns            []string `json:"returns"`
	Needs              []string `json:"needs"` // null when the pattern lists no attributes:
	FilterReads        []string `json:"filterReads"`
	NotProjected       []string `json:"notProjected"`
	FilterNotProjected []string `json:"filterNotProjected"`
	OneRequest         bool     `json:"oneRequest"`
	Note               string   `json:"note"`
}

func (r patternRun) projectionJSON() *checkProjectionJSON {
	pc := r.projection
	if pc == nil {
		return nil
	}
	list := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	return &checkProjectionJSON{Index: pc.Index, Kind: strings.ToLower(string(pc.Kind)), Projection: pc.Projection, Returns: list(pc.Returns),
		Needs: pc.Needs, FilterReads: list(pc.FilterReads), NotProjected: list(pc.Missing), FilterNotProjected: list(pc.Filtered),
		OneRequest: pc.OneRequest(), Note: r.projectionNote()}
}

// checkFilterJSON is what a filtered pattern kept of what it read.
type checkFilterJSON struct {
	Expression   string   `json:"expression"` // as sent, its parameters in place
	Kept         int      `json:"kept"`
	ScannedCount int      `json:"scannedCount"`
	KeptShare    float64  `json:"keptShare"`  // kept / scannedCount, 1 when nothing was read
	RCUPerItem   *float64 `json:"rcuPerItem"` // null when no item was returned
	MinKept      float64  `json:"minKept"`    // the share it must keep (check: minKept:, or the pattern's)
	Discards     bool     `json:"discards"`   // it kept less and paid for what it threw away
}

func (r patternRun) filterJSON() *checkFilterJSON {
	if r.res.Filter == "" || r.err != nil {
		return nil
	}
	d := r.discard()
	f := &checkFilterJSON{Expression: r.res.Filter, Kept: d.Kept, ScannedCount: d.Read, KeptShare: d.Share(), MinKept: d.MinKept, Discards: d.Warn()}
	if per, ok := d.PerItem(); ok {
		f.RCUPerItem = &per
	}
	return f
}

type checkCapacity struct {
	Total   float64            `json:"total"`
	Table   float64            `json:"table"`
	Indexes map[string]float64 `json:"indexes"`
}

type checkPatternJSON struct {
	Name             string        `json:"name"`
	Operation        string        `json:"operation"`
	Index            *string       `json:"index"`
	KeyCondition     string        `json:"keyCondition"`
	Requests         int           `json:"requests"`
	Pages            int           `json:"pages"`
	Items            int           `json:"items"`
	ConsumedCapacity checkCapacity `json:"consumedCapacity"`
	OneRequest       bool          `json:"oneRequest"`
	Verdict          string        `json:"verdict"`
	Error            *string       `json:"error"`
	// Requests counts by DynamoDB's 1 MB rule, Pages what the engine
	// answered with; DynamoDBPaging says why they differ (pagingObject).
	DynamoDBPaging *pagingObject `json:"dynamoDBPaging"`
	// Filter is what a filtered pattern kept of what it read; null
	// without a filter.
	Filter *checkFilterJSON `json:"filter"`
	// Projection is null on the base table and on an index that projects ALL.
	Projection *checkProjectionJSON `json:"projection"`
}

// writeCheckJSON prints {"table", "patterns": [...], "oneRequest"}, one
// object per pattern with the columns of the table.
func writeCheckJSON(b *bytes.Buffer, table string, runs []patternRun) {
	out := struct {
		Table      string             `json:"table"`
		Patterns   []checkPatternJSON `json:"patterns"`
		OneRequest bool               `json:"oneRequest"`
	}{Table: table, Patterns: []checkPatternJSON{}, OneRequest: true}
	for _, r := range runs {
		v, one := r.verdict()
		c := dynamo.TotalCapacity(r.res.Requests)
		cc := checkCapacity{Total: c.Total, Table: c.Table, Indexes: map[string]float64{}}
		for k, x := range c.Indexes {
			cc.Indexes[k] = x
		}
		var errText *string
		if r.err != nil {
			errText = nullable(r.err.Error())
		}
		out.Patterns = append(out.Patterns, checkPatternJSON{
			Name: r.pattern.Name, Operation: r.operation, Index: nullable(r.res.Index), KeyCondition: r.res.KeyCondition,
			Requests: r.requests(), Pages: len(r.res.Requests), Items: r.res.Count, ConsumedCapacity: cc,
			OneRequest: one, Verdict: v, Error: errText, Projection: r.projectionJSON(),
			DynamoDBPaging: newPagingObject(r.res.OneMB), Filter: r.filterJSON(),
		})
		out.OneRequest = out.OneRequest && one
	}
	_ = writeIndentedJSON(b, out)
}
