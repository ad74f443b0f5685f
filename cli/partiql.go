package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/partiql"
	"dynascope/textfmt"
)

// partiqlOptions are the flag values and the statement of `dynascope partiql`.
type partiqlOptions struct {
	Connect    func(context.Context) (*dynamo.Client, config.Settings, error)
	Out, Err   io.Writer
	Statement  string // a SELECT: anything else is refused before runF
	Consistent bool
	Yes        bool
	MaxRCU     float64
	Output     string
	DDBJSON    bool
	// NextToken is --next-token as given: a NextToken, or @FILE / @- of a
	// previous run's JSON output, read at run time through Files.
	NextToken string
	Files     resumeSource
	// Line is the command as given, less --next-token: the go-on line
	// adds the token it stopped at.
	Line []string
}

func newPartiQLCmd(f *factory, runF func(context.Context, *partiqlOptions) error) *cobra.Command {
	opts := &partiqlOptions{Connect: f.ConnectSettings}
	cmd := &cobra.Command{
		Use:     "partiql 'SELECT … FROM \"Table\" WHERE …'",
		Short:   "one PartiQL SELECT, with its plan (Query or Scan) said first",
		GroupID: groupExplore,
		Long: `Run one PartiQL SELECT through ExecuteStatement, page by page (NextToken),
with the consumed capacity of every request. Its plan is printed first: a
WHERE clause that fixes the partition key by equality runs as a Query of that
partition; anything else is a Scan of the whole table or index, which needs
--yes or a --max-rcu cap, as 'dynascope scan' does. Only SELECT is sent:
every other statement is refused before any request.

A run that stops short (--max-rcu, the estimate overrun, Ctrl-C, an error)
prints its resume NextToken, and its last line on stderr is the command
that reads only the rest: the same statement with --next-token set to it.
--next-token takes that token, or @FILE / @- for the whole JSON output of
the stopped run, whose statement must be the same.`,
		Example: `  dynascope partiql 'SELECT * FROM "App" WHERE PK = '"'"'CUST#7'"'"' AND begins_with(SK, '"'"'ORDER#'"'"')'
  dynascope partiql 'SELECT PK, total FROM "App" WHERE total > 1000' --max-rcu 20 --output table
  dynascope partiql 'SELECT * FROM "App"' --max-rcu 5 > part1.json
  dynascope partiql 'SELECT * FROM "App"' --max-rcu 5 --next-token @part1.json`,
		Args: cobra.ExactArgs(1),
	}
	fs := cmd.Flags()
	fs.BoolVar(&opts.Consistent, "consistent", false, "strongly consistent read (twice the RCU)")
	fs.BoolVar(&opts.Yes, "yes", false, "run a statement planned as a Scan after its upper bound is printed")
	readCapFlag(fs, &opts.MaxRCU)
	documentOutputFlag(cmd, &opts.Output, "json", "", itemsOutputs...)
	fs.BoolVar(&opts.DDBJSON, "dynamodb-json", false, "print items as typed DynamoDB JSON, as the AWS CLI does")
	fs.StringVar(&opts.NextToken, "next-token", "", "go on from `TOKEN`: the resume nextToken a stopped run printed, or @FILE (@- for standard input) of its JSON output")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if fs.Changed("next-token") && opts.NextToken == "" {
			return usageError{"--next-token takes the nextToken a stopped run printed, or @FILE of its JSON output, not an empty value."}
		}
		if err := checkItemsOutput(opts.Output, opts.DDBJSON); err != nil {
			return err
		}
		// Refused before connecting: nothing but a SELECT gets that far.
		if _, err := partiql.Parse(args[0]); err != nil {
			return usageError{err.Error()}
		}
		opts.Statement, opts.Out, opts.Err = args[0], f.Stdout(), f.Stderr()
		opts.Files, opts.Line = resumeSource{Open: f.OpenFile, Stdin: f.Stdin}, commandLine(cmd, args, "next-token")
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runPartiQL(cmd.Context(), opts)
	}
	return cmd
}

// PlanText is the plan in one line, as the CLI and the UI say it.
func planText(p partiql.Plan) string {
	where := "table " + p.Table
	if p.Index != "" {
		where = "index " + p.Index + " of table " + p.Table
	}
	if p.Query {
		return fmt.Sprintf("plan: Query of one partition of %s (%s)", where, p.Why)
	}
	return fmt.Sprintf("plan: Scan of the whole %s (%s)", where, p.Why)
}

// runPartiQL plans the statement, says the plan (and a Scan's bound), runs
// it with consent, and prints it.
func runPartiQL(ctx context.Context, opts *partiqlOptions) error {
	client, settings, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	token := ""
	if opts.NextToken != "" {
		if token, err = partiqlToken(opts); err != nil {
			return err
		}
	}
	plan, err := client.PlanPartiQL(ctx, opts.Statement)
	if err != nil {
		return err
	}
	fmt.Fprintln(opts.Err, textfmt.Sanitize(planText(plan)))
	t, err := client.DescribeTable(ctx, plan.Table)
	if err != nil {
		return err
	}
	gate := newCostGate(settings, opts.Yes, opts.MaxRCU)
	est := dynamo.EstimateRead(t, plan.Index, opts.Consistent, 1, 0)
	bound := est.RCU
	if plan.Query {
		// One partition: its size is unknown before it is read, so the
		// table's is the bound (one item's, when the whole key is
		// fixed). A Query needs no consent, as query --all-pages needs
		// none.
		var why string
		bound, why = est.QueryBound(plan.OneItem)
		gate.bound = bound
		fmt.Fprintf(opts.Err, "%s%s\n", textfmt.Sanitize(why), gate.money(bound))
	} else if err := gate.announce(opts.Err, "the "+plan.Kind()+" of "+plan.Table, est); err != nil {
		return err
	}
	if token != "" {
		fmt.Fprintln(opts.Err, "going on from --next-token: that bound is for the whole of it, so an upper bound for what is left")
	}
	in := dynamo.PartiQLInput{Plan: plan, Consistent: opts.Consistent, MaxRCU: opts.MaxRCU, Est: est, NextToken: token}
	out := &bulkOutput{head: bulkHead{Operation: "ExecuteStatement", Statement: &opts.Statement, Table: plan.Table, Index: nullable(plan.Index),
		Plan: &planObject{Operation: plan.Kind(), PartitionKey: nullable(plan.PK), Why: plan.Why}, ConsistentRead: opts.Consistent},
		keyNames: keyNames(t, plan.Index), stoppedBy: stoppedBy(ctx)}
	if err := out.open(opts.Out, opts.Err, opts.Output, opts.DDBJSON); err != nil {
		return err
	}
	in.OnPage = out.page
	res, err := client.RunPartiQL(ctx, in)
	var capped *dynamo.CapStop
	switch {
	case !errors.As(err, &capped):
		gate.after(opts.Err, res.Requests, res.Stop, res.Count, stoppedBy(ctx))
	case capped.Announced == 0:
		// The user's cap: a stop there is what was asked for, said in
		// its sentence, and no error.
		fmt.Fprintln(opts.Err, textfmt.Sanitize(err.Error()))
		err = nil
	}
	// A stop at the announced bound is an error, as an estimate overrun
	// is for scan, and its sentence what main says last.
	obj := bulkTail{Count: res.Count, Stop: string(res.Stop), Complete: res.Stop == dynamo.StopComplete,
		Resume: json.RawMessage("null"), Predicted: predictedObject{MaxRCU: bound, MoneyUSD: moneyOf(gate, bound)},
	}
	if res.NextToken == "" || len(res.Requests) == 0 {
		return out.finish(obj, res.Requests, err, res.Stop)
	}
	obj.Resume, _ = json.Marshal(map[string]string{"nextToken": res.NextToken})
	// Stopped short, having read something: the last sentence says how
	// to read the rest.
	cmd := goOnLine(opts.Line, "--next-token", res.NextToken)
	if ferr := out.finish(obj, res.Requests, err, res.Stop); ferr != nil {
		return goOnError{err: ferr, cmd: cmd}
	}
	fmt.Fprintln(opts.Err, goOnSentence(cmd))
	return nil
}

// partiqlToken reads --next-token: the token itself, or the resume of a
// previous run's JSON output, whose statement must be this one.
func partiqlToken(opts *partiqlOptions) (string, error) {
	text, name, doc, err := opts.Files.read("--next-token", opts.NextToken)
	if err != nil || !doc {
		return string(text), err
	}
	var prev struct {
		Operation string          `json:"operation"`
		Statement *string         `json:"statement"`
		Resume    json.RawMessage `json:"resume"`
	}
	if err := json.Unmarshal(text, &prev); err != nil || prev.Operation != "ExecuteStatement" || prev.Statement == nil {
		return "", &dynamo.UserError{Msg: fmt.Sprintf("%s is not the JSON output of a partiql run (no \"operation\": \"ExecuteStatement\" with its statement); give the file 'dynascope partiql --output json' printed.", name)}
	}
	if *prev.Statement != opts.Statement {
		return "", &dynamo.UserError{Msg: fmt.Sprintf("%s ran another statement, %s: a NextToken goes on only with the statement that returned it; run that one.", name, jsonString(*prev.Statement))}
	}
	var resume struct {
		NextToken string `json:"nextToken"`
	}
	if string(prev.Resume) == "null" || len(prev.Resume) == 0 {
		return "", &dynamo.UserError{Msg: fmt.Sprintf("%s is a complete run (its resume is null): nothing is left to read.", name)}
	}
	if err := json.Unmarshal(prev.Resume, &resume); err != nil || resume.NextToken == "" {
		return "", &dynamo.UserError{Msg: fmt.Sprintf("%s has a resume without a nextToken; give the file 'dynascope partiql --output json' printed.", name)}
	}
	return resume.NextToken, nil
}

// planObject is the plan in the JSON output.
type planObject struct {
	Operation    string  `json:"operation"`    // Query or Scan
	PartitionKey *string `json:"partitionKey"` // the value WHERE fixes, as written; null for a Scan
	Why          string  `json:"why"`
}
