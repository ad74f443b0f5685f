package cli

// `dynascope patterns`: the access patterns of a table as a first-class
// object. list shows them, run runs one with parameters, check runs every
// one with its example and proves each is one request, show prints the code
// that sends the same request.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/patterns"
	"dynascope/textfmt"
)

// maxPatternPages bounds how far run and check follow a pattern that does
// not fit in one request: enough to count its pages, not a full table read.
// A variable for the tests, which lower it to see a run stop there.
var maxPatternPages = 100

func newPatternsCmd(f *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "patterns",
		Short:   "the access patterns of dynascope.yaml: list, run, check, show",
		GroupID: groupExplore,
		Long: `The access patterns of a table as a first-class object: list shows them,
run runs one with parameters, check runs every one with its example and
proves each is one request, show prints the code that sends the same request.

The patterns come from dynascope.yaml in the working directory, or --patterns
FILE; its table: is the table unless --table names another. Parameters not
given take the pattern's example values. A parameter is a {name} in pk, sk
or the filter's values: "{status}" in quotes is text, a bare {min} a number.`,
		Example: `  dynascope patterns list
  dynascope patterns run 'latest order' --param customerId=42 --output table
  dynascope patterns check
  dynascope patterns show 'latest order' --lang python`,
		// Without a known subcommand: one sentence, not the help.
		Args: needsSubcommand("patterns", "list, run NAME, check or show NAME"),
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newPatternsListCmd(f, nil), newPatternsRunCmd(f, nil), newPatternsCheckCmd(f, nil), newPatternsShowCmd(f, nil))
	return cmd
}

// patternsFileFlag declares the --patterns flag of every patterns
// subcommand into file.
func patternsFileFlag(cmd *cobra.Command, file *string) {
	cmd.Flags().StringVar(file, "patterns", patterns.PatternsFile, "the patterns `FILE`")
	cmd.MarkFlagFilename("patterns", "yaml", "yml")
}

// patternRef names one pattern of a patterns file and its parameters: the
// options run and show share.
type patternRef struct {
	Table  string            // --table; "" for the file's table: line
	File   string            // --patterns
	Models string            // --models: the entities' file, "" for the patterns file's
	Name   string            // the pattern's name
	Params map[string]string // --param KEY=VALUE; nil for none (the example's)
}

// paramFlag collects repeated --param KEY=VALUE into *params.
func paramFlag(fs *pflag.FlagSet, params *map[string]string) {
	fs.Var(&paramsValue{params: params}, "param", "a parameter of the pattern, `KEY=VALUE` (repeatable; default: the example's)")
}

// paramsValue is --param's value: the map, and the pairs in the order
// given, which a go-on line repeats (commandLine reads it as a
// pflag.SliceValue).
type paramsValue struct {
	params *map[string]string
	pairs  []string
}

func (v *paramsValue) Set(s string) error {
	k, val, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("--param takes KEY=VALUE, not %q", s)
	}
	if _, dup := (*v.params)[k]; dup {
		return fmt.Errorf("--param %s is given twice", k)
	}
	if *v.params == nil {
		*v.params = map[string]string{}
	}
	(*v.params)[k] = val
	v.pairs = append(v.pairs, s)
	return nil
}

func (v *paramsValue) String() string         { return strings.Join(v.pairs, ",") }
func (v *paramsValue) Type() string           { return "KEY=VALUE" }
func (v *paramsValue) GetSlice() []string     { return v.pairs }
func (v *paramsValue) Append(s string) error  { return v.Set(s) }
func (v *paramsValue) Replace([]string) error { return errors.New("--param cannot be replaced") }

// patternName checks the one positional argument of run and show, the
// pattern's name, which may come before or after the flags.
func patternName(sub string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return usageError{fmt.Sprintf("patterns %s needs a pattern name: dynascope patterns %s NAME (see 'dynascope patterns list').", sub, sub)}
		case len(args) > 1:
			return usageError{fmt.Sprintf("unexpected argument %q; quote a pattern name that has spaces: dynascope patterns %s '%s %s'.", args[1], sub, args[0], args[1])}
		}
		return nil
	}
}

// patternTable loads the file, connects and describes the table the patterns
// run on (table, else the file's).
func patternTable(ctx context.Context, connect func(context.Context) (*dynamo.Client, error), table, file, models string) (*patterns.PatternSet, *dynamo.Client, dynamo.Table, error) {
	set, table, err := patternSet(ctx, table, file, models)
	if err != nil {
		return nil, nil, dynamo.Table{}, err
	}
	client, err := connect(ctx)
	if err != nil {
		return nil, nil, dynamo.Table{}, err
	}
	t, err := client.DescribeTable(ctx, table)
	if err != nil {
		return nil, nil, dynamo.Table{}, err
	}
	if err := set.CheckKeys(t); err != nil {
		return nil, nil, t, err
	}
	return set, client, t, nil
}

// patternSet loads the file (with the entities of models, when given) and
// settles the table it is about: table when given, else the file's.
func patternSet(ctx context.Context, table, file, models string) (*patterns.PatternSet, string, error) {
	set, err := loadPatterns(ctx, file, models)
	if err != nil {
		return nil, "", err
	}
	if table == "" {
		table = set.Table
	}
	if table == "" {
		return nil, "", usageError{fmt.Sprintf("%s has no table: line; add one or pass --table NAME.", file)}
	}
	return set, table, nil
}

// findPattern is the pattern of that name; a name the file does not hold is
// said with the nearest one, before anything connects.
func findPattern(set *patterns.PatternSet, name string) (patterns.Pattern, error) {
	p, err := set.Find(name)
	if err == nil {
		return p, nil
	}
	names := make([]string, len(set.Patterns))
	for i, q := range set.Patterns {
		names[i] = q.Name
	}
	if near := textfmt.Suggest(name, names); near != "" {
		return p, &dynamo.UserError{Msg: fmt.Sprintf("%s has no pattern %q%s.", set.Path, name, near)}
	}
	return p, err
}

// resolvePattern finds pattern name in the patterns file, checks it against
// its table's keys (DescribeTable's, which the file's keys: must match) and
// fills in its parameters: the given ones over the example's. The name is
// checked before connecting.
func resolvePattern(ctx context.Context, connect func(context.Context) (*dynamo.Client, error), ref patternRef) (*dynamo.Client, dynamo.Table, patterns.Pattern, patterns.Resolved, error) {
	set, table, err := patternSet(ctx, ref.Table, ref.File, ref.Models)
	if err != nil {
		return nil, dynamo.Table{}, patterns.Pattern{}, patterns.Resolved{}, err
	}
	p, err := findPattern(set, ref.Name)
	if err != nil {
		return nil, dynamo.Table{}, p, patterns.Resolved{}, err
	}
	client, err := connect(ctx)
	if err != nil {
		return nil, dynamo.Table{}, p, patterns.Resolved{}, err
	}
	t, err := client.DescribeTable(ctx, table)
	if err == nil {
		err = set.CheckKeys(t)
	}
	if err != nil {
		return nil, t, p, patterns.Resolved{}, err
	}
	r, err := fillPattern(p, t, ref.Params)
	return client, t, p, r, err
}

// fillPattern checks the pattern against the table's keys and fills in its
// parameters: the given ones over the example's.
func fillPattern(p patterns.Pattern, t dynamo.Table, given map[string]string) (patterns.Resolved, error) {
	if err := p.Validate(t); err != nil {
		return patterns.Resolved{}, err
	}
	return p.Resolve(t, patternParams(p, given))
}

// patternParams is the example with the given parameters over it.
func patternParams(p patterns.Pattern, given map[string]string) map[string]string {
	params := make(map[string]string, len(p.Example)+len(given))
	for k, v := range p.Example {
		params[k] = v
	}
	for k, v := range given {
		params[k] = v
	}
	return params
}

// patternsListOptions are the flag values of `dynascope patterns list`.
type patternsListOptions struct {
	Out    io.Writer
	File   string // --patterns
	Models string // --models
	Output string // table | json
}

func newPatternsListCmd(f *factory, runF func(context.Context, *patternsListOptions) error) *cobra.Command {
	opts := &patternsListOptions{}
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "the patterns of the file and the request each sends",
		Example: "  dynascope patterns list\n  dynascope patterns list --patterns other.yaml --output json",
		Args:    noArgs,
		// It reads only the file.
		Annotations: map[string]string{offline: "yes"},
	}
	patternsFileFlag(cmd, &opts.File)
	modelsFlag(cmd, &opts.Models)
	documentOutputFlag(cmd, &opts.Output, "table", "", "table", "json")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		opts.Out = f.Stdout()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runPatternsList(cmd.Context(), opts)
	}
	return cmd
}

// runPatternsList prints the patterns of the file: it reads only the file.
func runPatternsList(ctx context.Context, opts *patternsListOptions) error {
	set, err := loadPatterns(ctx, opts.File, opts.Models)
	if err != nil {
		return err
	}
	if opts.Output == "json" {
		type patternJSON struct {
			Name        string            `json:"name"`
			Description string            `json:"description"`
			Index       *string           `json:"index"`
			Summary     string            `json:"summary"`
			Filter      *string           `json:"filter"`
			Attributes  []string          `json:"attributes"`
			Parameters  []string          `json:"parameters"`
			Example     map[string]string `json:"example"`
			Entity      *string           `json:"entity"`
			Types       map[string]string `json:"types"`
			Line        int               `json:"line"`
		}
		out := struct {
			File     string        `json:"file"`
			Table    *string       `json:"table"`
			Patterns []patternJSON `json:"patterns"`
		}{File: opts.File, Table: nullable(set.Table), Patterns: []patternJSON{}}
		for _, p := range set.Patterns {
			params := p.Parameters()
			if params == nil {
				params = []string{}
			}
			ex := p.Example
			if ex == nil {
				ex = map[string]string{}
			}
			attrs := p.Attributes
			if attrs == nil {
				attrs = []string{}
			}
			types := map[string]string{}
			for _, name := range params {
				if t := p.ParamType(name); t != "" {
					types[name] = t
				}
			}
			out.Patterns = append(out.Patterns, patternJSON{p.Name, p.Description, nullable(p.Index), p.Summary(), nullable(p.Filter), attrs, params, ex, nullable(p.Entity), types, p.Line})
		}
		return writeIndentedJSON(opts.Out, out)
	}
	var b bytes.Buffer
	tw := newColumns(&b)
	fmt.Fprintln(tw, "PATTERN\tREQUEST\tPARAMETERS\tDESCRIPTION")
	for _, p := range set.Patterns {
		params := "-"
		if names := p.Parameters(); len(names) > 0 {
			for i, name := range names {
				if t := p.ParamType(name); t != "" {
					names[i] = name + " (" + t + ")"
				}
			}
			params = strings.Join(names, ", ")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", textfmt.Sanitize(p.Name), textfmt.Sanitize(p.Summary()), textfmt.Sanitize(params), textfmt.Sanitize(p.Description))
	}
	_ = tw.Flush()
	_, err = opts.Out.Write(b.Bytes())
	return err
}

// patternRun is one run of a pattern: its result and what it took.
type patternRun struct {
	pattern   patterns.Pattern
	operation string // GetItem or Query
	res       *queryResult
	truncated bool // stopped after maxPatternPages
	err       error
	// partial: err came after some pages were read, which res holds; its
	// LastKey is where the failed page would have started.
	partial bool
	// rest is what is left of the pattern's Limit when it stopped short
	// (truncated or partial), counted as Limit counts; 0 without a Limit.
	rest int32
	// projection compares the pattern with its KEYS_ONLY or INCLUDE index;
	// nil on the base table and an ALL index.
	projection *patterns.Projection
	// minKept is the share of what it reads a filtered pattern must keep
	// (PatternSet.MinKept); 0 asks nothing of it.
	minKept float64
	// largest is the size in bytes of the largest item the run returned
	// (itemcodec.ItemSize); 0 when it returned none.
	largest int
}

// sendPattern sends the pattern's request and, when the answer does not fit
// in one page, follows it as a program would (dynamo.ReadQuery), until the
// result is complete or the pattern's Limit is met, so that the count of
// requests is the true cost of the access pattern. A Query starts from
// r.Query.StartKey when it has one. Met, the Limit leaves a
// lastEvaluatedKey that is not a stop: the pattern asked for no more.
// Each page goes to onPage as it arrives (nil: the items are not kept),
// with the run's result so far, its key condition known.
func sendPattern(ctx context.Context, client *dynamo.Client, t dynamo.Table, p patterns.Pattern, r patterns.Resolved, onPage func(*queryResult, dynamo.Page) error) patternRun {
	run := patternRun{pattern: p, operation: r.Operation()}
	if onPage == nil {
		onPage = func(*queryResult, dynamo.Page) error { return nil }
	}
	if r.Get != nil {
		page, err := client.GetItem(ctx, *r.Get)
		run.res = &queryResult{Table: t.Name, KeyNames: keyNames(t, ""), KeyCondition: page.Request.KeyCondition, Forward: true,
			Consistent: r.Get.Consistent, Count: int(page.Count), Scanned: int(page.ScannedCount)}
		if page.Request.Operation != "" {
			run.res.Requests = []dynamo.Request{page.Request}
		}
		if err == nil {
			err = onPage(run.res, page)
		}
		run.err = err
		return run
	}
	q := *r.Query
	run.res = &queryResult{Table: q.Table, Index: q.Index, KeyNames: keyNames(t, q.Index), Forward: !q.Reverse, Limit: q.Limit, Consistent: q.Consistent}
	read := dynamo.QueryRead{Query: q, MaxItems: q.Limit, MaxPages: maxPatternPages,
		OnPage: func(page dynamo.Page) error {
			run.res.KeyCondition = page.Request.KeyCondition
			return onPage(run.res, page)
		}}
	res, err := client.ReadQuery(ctx, read)
	run.res.Requests = res.Requests
	if res.Failed != nil {
		run.res.Requests = append(run.res.Requests, *res.Failed)
	}
	// The filter as sent, its parameters in place: printed with the note
	// that every item read was paid for, as query prints it.
	run.res.KeyCondition, run.res.Filter = res.KeyCondition, res.Filter
	run.res.Count, run.res.Scanned, run.res.LastKey, run.res.OneMB = res.Count, res.Scanned, res.LastKey, res.OneMB
	run.err = err
	switch {
	case err != nil && res.Pages > 0:
		run.partial, run.rest = true, res.Left
	case err != nil && q.StartKey != nil:
		run.err = startKeyRefused(err)
	case res.Stop == dynamo.StopPages:
		run.truncated, run.rest = true, res.Left
	}
	return run
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// writeIndentedJSON writes v as indented JSON without HTML escaping (key
// values like ORDER#<id> stay readable), with the code points a terminal
// acts on escaped (itemcodec.EscapeTerminalJSON).
func writeIndentedJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(itemcodec.EscapeTerminalJSON(b.Bytes()))
	return err
}
