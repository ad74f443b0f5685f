package cli

// `dynascope patterns run` and `patterns show`: one pattern, sent as its
// request or printed as the code that sends it.

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"dynascope/codegen"
	"dynascope/dynamo"
	"dynascope/patterns"
)

// patternsRunOptions are the flag values of `dynascope patterns run`.
type patternsRunOptions struct {
	Connect  func(context.Context) (*dynamo.Client, error)
	Out, Err io.Writer
	patternRef
	Output  string // json | jsonl | table
	DDBJSON bool
}

func newPatternsRunCmd(f *factory, runF func(context.Context, *patternsRunOptions) error) *cobra.Command {
	opts := &patternsRunOptions{Connect: f.Connect}
	cmd := &cobra.Command{
		Use:   "run NAME",
		Short: "run one pattern, its parameters given or its example's",
		Long: `Run one pattern as the request it declares, with the given parameters over
its example's; it warns when the pattern needs more than one request.`,
		Example: `  dynascope patterns run 'latest order' --param customerId=42
  dynascope patterns run 'customer with orders' --output table`,
		Args: patternName("run"),
	}
	fs := cmd.Flags()
	patternsFileFlag(cmd, &opts.File)
	paramFlag(fs, &opts.Params)
	fs.StringVar(&opts.Output, "output", "json", "output `FORMAT`: json | jsonl | table")
	fs.BoolVar(&opts.DDBJSON, "dynamodb-json", false, "print items as typed DynamoDB JSON, as the AWS CLI does")
	cmd.RegisterFlagCompletionFunc("output", fixedChoices("json", "jsonl", "table"))
	cmd.ValidArgsFunction = completePatternNames(&opts.File)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := checkOutput(opts.Output); err != nil {
			return err
		}
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
	run := sendPattern(ctx, client, t, p, r)
	if run.err != nil {
		return run.err
	}
	if v, one := run.verdict(); !one {
		fmt.Fprintf(opts.Err, "dynascope: pattern %q is not one request: %s.\n", p.Name, v)
	}
	return printResult(opts.Out, run.res, opts.Output, opts.DDBJSON)
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
	set, table, err := patternSet(opts.Table, opts.File)
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
