package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"dynascope/config"
	"dynascope/dynamo"
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
every other statement is refused before any request.`,
		Example: `  dynascope partiql 'SELECT * FROM "App" WHERE PK = '"'"'CUST#7'"'"' AND begins_with(SK, '"'"'ORDER#'"'"')'
  dynascope partiql 'SELECT PK, total FROM "App" WHERE total > 1000' --max-rcu 20 --output table`,
		Args: cobra.ExactArgs(1),
	}
	fs := cmd.Flags()
	fs.BoolVar(&opts.Consistent, "consistent", false, "strongly consistent read (twice the RCU)")
	fs.BoolVar(&opts.Yes, "yes", false, "run a statement planned as a Scan after its upper bound is printed")
	fs.Float64Var(&opts.MaxRCU, "max-rcu", 0, "stop before reading more than `N` RCU")
	fs.StringVar(&opts.Output, "output", "json", "output `FORMAT`: json | jsonl | table | csv | ddbjson-batch")
	fs.BoolVar(&opts.DDBJSON, "dynamodb-json", false, "print items as typed DynamoDB JSON, as the AWS CLI does")
	cmd.RegisterFlagCompletionFunc("output", fixedChoices(itemsOutputs...))
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := checkItemsOutput(opts.Output, opts.DDBJSON); err != nil {
			return err
		}
		// Refused before connecting: nothing but a SELECT gets that far.
		if _, _, err := dynamo.ParsePartiQL(args[0]); err != nil {
			return usageError{err.Error()}
		}
		opts.Statement, opts.Out, opts.Err = args[0], f.Stdout(), f.Stderr()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runPartiQL(cmd.Context(), opts)
	}
	return cmd
}

// PlanText is the plan in one line, as the CLI and the UI say it.
func planText(p dynamo.PartiQLPlan) string {
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
	stmt, consistent, yes, maxRCU, output, ddbJSON, stdout, stderr := opts.Statement, opts.Consistent, opts.Yes, opts.MaxRCU, opts.Output, opts.DDBJSON, opts.Out, opts.Err
	client, settings, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	plan, err := client.PlanPartiQL(ctx, stmt)
	if err != nil {
		return err
	}
	fmt.Fprintln(stderr, textfmt.Sanitize(planText(plan)))
	t, err := client.DescribeTable(ctx, plan.Table)
	if err != nil {
		return err
	}
	gate := newCostGate(settings, yes, maxRCU)
	est := dynamo.EstimateRead(t, plan.Index, consistent, 1, 0)
	bound := est.RCU
	if plan.Query {
		// One partition: its size is unknown before it is read, the
		// table's is the bound. A Query needs no consent, as query
		// --all-pages needs none.
		gate.bound = bound
		fmt.Fprintf(stderr, "at most the whole table: %s (one partition is usually far less)%s\n", est.Text(), gate.money(bound))
	} else if err := gate.announce(stderr, "the "+plan.Kind()+" of "+plan.Table, est); err != nil {
		return err
	}
	in := dynamo.PartiQLInput{Plan: plan, Consistent: consistent, MaxRCU: maxRCU, Est: est}
	if est.Known && est.Items > 0 {
		in.PerItem = float64(est.Bytes) / float64(est.Items)
	}
	out := bulkOutput{table: plan.Table, keyNames: keyNames(t, plan.Index), output: output, ddbJSON: ddbJSON, stdout: stdout, stderr: stderr, stoppedBy: stoppedBy(ctx)}
	if err := out.start(); err != nil {
		return err
	}
	in.OnPage = out.page
	res, err := client.RunPartiQL(ctx, in)
	gate.after(stderr, res.Requests, res.Stop, res.Count, stoppedBy(ctx))
	obj := bulkObject{
		Operation: "ExecuteStatement", Statement: &stmt, Table: plan.Table, Index: nullable(plan.Index),
		Plan:           &planObject{Operation: plan.Kind(), PartitionKey: nullable(plan.PK), Why: plan.Why},
		ConsistentRead: consistent, Count: res.Count, Stop: string(res.Stop), Complete: res.Stop == dynamo.StopComplete,
		Resume: json.RawMessage("null"), Predicted: predictedObject{MaxRCU: bound, MoneyUSD: moneyOf(gate, bound)},
	}
	if res.NextToken != "" {
		obj.Resume, _ = json.Marshal(map[string]string{"nextToken": res.NextToken})
	}
	return out.finish(obj, res.Requests, err, res.Stop)
}

// planObject is the plan in the JSON output.
type planObject struct {
	Operation    string  `json:"operation"`    // Query or Scan
	PartitionKey *string `json:"partitionKey"` // the value WHERE fixes, as written; null for a Scan
	Why          string  `json:"why"`
}
