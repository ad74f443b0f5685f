package cli

// `dynascope patterns run` and `patterns show`: one pattern, sent as its
// request or printed as the code that sends it.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"dynascope/codegen"
	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/patterns"
	"dynascope/textfmt"
)

// patternsRunOptions are the flag values of `dynascope patterns run`.
type patternsRunOptions struct {
	Connect  func(context.Context) (*dynamo.Client, error)
	Out, Err io.Writer
	patternRef
	Output  string // json | jsonl | table
	DDBJSON bool
	// StartKey (--start-key) is where a Query pattern goes on from: the
	// lastEvaluatedKey of a run that stopped short; "" from the start.
	StartKey string
	// Limit (--limit) is read in place of the pattern's limit: (0 for it):
	// a go-on line gives what is left of it.
	Limit int32
	// Line is the command as given, less --start-key and --limit, for the
	// go-on line.
	Line []string
}

func newPatternsRunCmd(f *factory, runF func(context.Context, *patternsRunOptions) error) *cobra.Command {
	opts := &patternsRunOptions{Connect: f.Connect}
	cmd := &cobra.Command{
		Use:   "run NAME",
		Short: "run one pattern, its parameters given or its example's",
		Long: `Run one pattern as the request it declares, with the given parameters over
its example's; it warns when the pattern needs more than one request.

A pattern whose answer takes several pages is followed as a program would,
until it is complete or its limit: is met (the lastEvaluatedKey printed
then is where a next page would start, not a stop). A run stopped short,
after 100 pages, by an error or by Ctrl-C, prints what it read and ends
with the command that reads only the rest (--start-key, and --limit with
what is left of the pattern's limit).`,
		Example: `  dynascope patterns run 'latest order' --param customerId=42
  dynascope patterns run 'customer with orders' --output table`,
		Args: patternName("run"),
	}
	fs := cmd.Flags()
	patternsFileFlag(cmd, &opts.File)
	modelsFlag(cmd, &opts.Models)
	paramFlag(fs, &opts.Params)
	documentOutputFlag(cmd, &opts.Output, "json", "", "json", "jsonl", "table")
	fs.BoolVar(&opts.DDBJSON, "dynamodb-json", false, "print items as typed DynamoDB JSON, as the AWS CLI does")
	fs.StringVar(&opts.StartKey, "start-key", "", "go on from this `KEY`: the lastEvaluatedKey a stopped run printed, as JSON (a Query pattern)")
	limitFlag(fs, &opts.Limit, "the pattern's", "read at most `N` items, in place of the pattern's limit: (a Query pattern; 0: the pattern's)")
	cmd.ValidArgsFunction = completePatternNames(&opts.File)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if fs.Changed("start-key") {
			if err := checkStartKeyText(opts.StartKey); err != nil {
				return err
			}
		}
		opts.Line = commandLine(cmd, args, "start-key", "limit")
		opts.Table, opts.Name, opts.Out, opts.Err = f.Conn.Table, args[0], f.Stdout(), f.Stderr()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runPatternsRun(cmd.Context(), opts)
	}
	return cmd
}

// runPatternsRun runs the pattern, following its pages, and prints what it
// read; a name the file does not hold is said before connecting.
func runPatternsRun(ctx context.Context, opts *patternsRunOptions) error {
	client, t, p, r, err := resolvePattern(ctx, opts.Connect, opts.patternRef)
	if err != nil {
		return err
	}
	if r.Get != nil && (opts.StartKey != "" || opts.Limit > 0) {
		return &dynamo.UserError{Msg: fmt.Sprintf("pattern %q is a GetItem, one item in one request: --start-key and --limit go on with a Query pattern's pages.", p.Name)}
	}
	if r.Query != nil {
		if opts.Limit > 0 {
			r.Query.Limit = opts.Limit
		}
		if opts.StartKey != "" {
			if r.Query.StartKey, err = startKeyOf(t, *r.Query, opts.StartKey); err != nil {
				return err
			}
		}
	}
	if r.Query != nil {
		suspectFilter(opts.Err, fmt.Sprintf("pattern %q's filter", p.Name), r.Query.Filter, projectedNames(strings.Join(p.Attributes, ",")), func() (dynamo.Table, error) { return t, nil })
	}
	// Each page is printed as it arrives; patterns run shows no progress
	// line (its reads are an access pattern's, seldom long).
	var out readOut
	onPage := func(doc *queryResult, pg dynamo.Page) error {
		if out == nil {
			doc.DDBJSON = opts.DDBJSON
			var err error
			if out, err = (readOutput{stdout: opts.Out, stderr: io.Discard, format: opts.Output, ddbJSON: opts.DDBJSON,
				table: doc.Table, keyNames: doc.KeyNames, doc: doc}).open(); err != nil {
				return err
			}
		}
		return out.page(pg)
	}
	run := sendPattern(ctx, client, t, p, r, onPage)
	// Stopped short, the command that reads only the rest: from where it
	// stopped, and no more than is left of the pattern's limit.
	goOn := func() string {
		var add []string
		if run.rest > 0 {
			add = append(add, "--limit", strconv.Itoa(int(run.rest)))
		}
		return goOnLine(opts.Line, append(add, "--start-key", string(itemcodec.PlainJSON(run.res.LastKey)))...)
	}
	if run.partial && out != nil {
		// Keep the pages already read: printed, marked incomplete by the
		// lastEvaluatedKey where the failed page would start.
		sayPaging(opts.Err, run.res.OneMB, len(run.res.Requests))
		return out.end(goOnError{err: run.err, cmd: goOn()})
	}
	if run.err != nil {
		if out != nil {
			return out.end(run.err) // writing failed
		}
		return run.err
	}
	if v, one := run.verdict(); !one {
		fmt.Fprintf(opts.Err, "dynascope: pattern %q is not one request: %s.\n", p.Name, v)
	}
	if err := out.end(nil); err != nil {
		return err
	}
	sayPaging(opts.Err, run.res.OneMB, len(run.res.Requests))
	if run.truncated {
		fmt.Fprintf(opts.Err, "stopped after %s: patterns run follows at most %d pages of a pattern\n", textfmt.Plural(len(run.res.Requests), "page", "pages"), maxPatternPages)
		fmt.Fprintln(opts.Err, goOnSentence(goOn()))
	}
	return nil
}

// patternsShowOptions are the flag values of `dynascope patterns show`.
type patternsShowOptions struct {
	Connect    func(context.Context) (*dynamo.Client, error)
	CodeTarget func(context.Context) (codegen.CodeTarget, error)
	Out        io.Writer
	patternRef
	Langs []codegen.CodeLang // the languages to print, in order
}

func newPatternsShowCmd(f *factory, runF func(context.Context, *patternsShowOptions) error) *cobra.Command {
	opts := &patternsShowOptions{Connect: f.Connect, CodeTarget: f.CodeTarget}
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "print the code that sends the pattern's request",
		Long: `Print the AWS CLI command, Python (boto3) and Go (AWS SDK for Go v2) code
that send the same request as the pattern, with its parameters filled in
(a comment line above the code names them and their values).
When the patterns file has keys: it sends no request and needs no region or
credentials; else the table's keys come from the key-schema cache, or one
DescribeTable.`,
		Example: `  dynascope patterns show 'latest order'
  dynascope patterns show 'latest order' --param customerId=7 --lang go`,
		Args: patternName("show"),
	}
	fs := cmd.Flags()
	patternsFileFlag(cmd, &opts.File)
	modelsFlag(cmd, &opts.Models)
	paramFlag(fs, &opts.Params)
	lang := fs.String("lang", "", "`LANG`: cli | python | go (default: all three)")
	cmd.RegisterFlagCompletionFunc("lang", fixedChoices("cli", "python", "go"))
	cmd.ValidArgsFunction = completePatternNames(&opts.File)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		opts.Langs = codegen.CodeLangs
		if *lang != "" {
			l := codegen.CodeLang(*lang)
			if l != codegen.LangCLI && l != codegen.LangPython && l != codegen.LangGo {
				return usageError{fmt.Sprintf("--lang must be cli, python or go, not %q.", *lang)}
			}
			opts.Langs = []codegen.CodeLang{l}
		}
		opts.Table, opts.Name, opts.Out = f.Conn.Table, args[0], f.Stdout()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runPatternsShow(cmd.Context(), opts)
	}
	return cmd
}

// runPatternsShow prints the pattern's request as code; the table's keys
// come from the key-schema cache when it holds them, so it sends no request.
func runPatternsShow(ctx context.Context, opts *patternsShowOptions) error {
	t, p, r, to, err := showTarget(ctx, opts)
	if err != nil {
		return err
	}
	titles := map[codegen.CodeLang]string{codegen.LangCLI: "# AWS CLI", codegen.LangPython: "# Python (boto3)", codegen.LangGo: "// Go (AWS SDK for Go v2)"}
	note := p.ParamsNote(patternParams(p, opts.Params))
	var b bytes.Buffer
	for i, l := range opts.Langs {
		var code string
		if r.Get != nil {
			code, err = codegen.GetItemCode(l, t, *r.Get, to)
		} else {
			var ks dynamo.KeySchema
			if ks, err = t.Schema(r.Query.Index); err == nil {
				code, err = codegen.QueryCode(l, ks, *r.Query, to)
			}
		}
		if err != nil {
			return err
		}
		if len(opts.Langs) > 1 {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(titles[l] + "\n")
		}
		if note != "" {
			b.WriteString(codegen.Comment(l, note))
		}
		b.WriteString(code)
	}
	_, err = opts.Out.Write(b.Bytes())
	return err
}

// showTarget is the table, the pattern, its request and where its code
// sends the request: from the patterns file's keys: with no connection when it
// has them, else through the client, whose key-schema cache spares the
// DescribeTable when it holds the table.
func showTarget(ctx context.Context, opts *patternsShowOptions) (dynamo.Table, patterns.Pattern, patterns.Resolved, codegen.CodeTarget, error) {
	set, table, err := patternSet(ctx, opts.Table, opts.File, opts.Models)
	if err != nil {
		return dynamo.Table{}, patterns.Pattern{}, patterns.Resolved{}, codegen.CodeTarget{}, err
	}
	p, err := findPattern(set, opts.Name)
	if err != nil {
		return dynamo.Table{}, p, patterns.Resolved{}, codegen.CodeTarget{}, err
	}
	t, fromFile := set.KeysTable(table)
	var to codegen.CodeTarget
	if fromFile {
		to, err = opts.CodeTarget(ctx)
	} else {
		var client *dynamo.Client
		if client, err = opts.Connect(ctx); err == nil {
			t, err = client.TableKeys(ctx, table)
			to = codegen.CodeTarget{Region: client.Region(), Endpoint: client.Endpoint(), Profile: client.Profile()}
		}
	}
	if err != nil {
		return t, p, patterns.Resolved{}, to, err
	}
	r, err := fillPattern(p, t, opts.Params)
	return t, p, r, to, err
}
