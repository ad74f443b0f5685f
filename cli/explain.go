package cli

// `dynascope explain`: why a query finds nothing. It builds the key the
// application would build (from an entity's templates and parameters, or
// as typed), reads the keys nearest to it by sort order (one bounded Query
// each side), and says what differs: the delimiter, the case, the padding,
// a missing segment, or the index.

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"dynascope/dynamo"
	"dynascope/entities"
	"dynascope/explain"
	"dynascope/textfmt"
)

// explainOptions are the flag values of `dynascope explain`.
type explainOptions struct {
	Connect  func(context.Context) (*dynamo.Client, error)
	Out, Err io.Writer
	Table    string // --table; "" for the patterns file's table:
	File     string // --patterns
	Models   string // --models: the application's models in place of the file's entities
	Entity   string // --entity; "" with --pk
	Params   map[string]string
	PK, SK   string // --pk, --sk as typed
	HasSK    bool
	Index    string // --index; "" for the table
	Output   string // text | json
}

func newExplainCmd(f *factory, runF func(context.Context, *explainOptions) error) *cobra.Command {
	opts := &explainOptions{Connect: f.Connect}
	cmd := &cobra.Command{
		Use:     "explain (--entity NAME --param NAME=VALUE... | --pk VALUE [--sk VALUE])",
		Short:   "why a query finds nothing: the key the application builds beside the nearest keys that exist",
		GroupID: groupExplore,
		Long: `Build the key the application would build — from an entity of the patterns
file (--entity, its parameters with --param, each checked against its declared
type), or as typed (--pk, --sk) — and show it beside the nearest keys that
exist, by sort order: one Query of Limit 3 on each side of it. When the key is
absent it says what differs: the delimiter, the case, the padding, a missing
segment, or the index (the same key found on another index or the table). A
partition that holds nothing is tried in its variants (other delimiters, the
other case, no padding) and on the other indexes, one Query of Limit 1 each;
the number of Queries is said before the first, their cost after.`,
		Example: `  dynascope explain --entity Order --param customerId=42 --param orderDate=2025-03-01 --param orderId=A17
  dynascope explain --table App --pk 'CUST#42' --sk 'ORDER|2025-03-01|A17'
  dynascope explain --entity Order --index GSI1 --param orderId=A17 --output json`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	patternsFileFlag(cmd, &opts.File)
	modelsFlag(cmd, &opts.Models)
	fs.StringVar(&opts.Entity, "entity", "", "the declared entity (entities: of the patterns file) whose key to build")
	fs.Var(&paramsValue{params: &opts.Params}, "param", "a parameter of the entity's keys, `NAME=VALUE` (repeatable)")
	fs.StringVar(&opts.PK, "pk", "", "the partition key `VALUE` as the application queries it")
	fs.StringVar(&opts.SK, "sk", "", "the sort key `VALUE` as the application queries it")
	fs.StringVar(&opts.Index, "index", "", "the secondary `INDEX` the application queries (default: the table)")
	outputFlag(cmd, &opts.Output, "text", "", "text", "json")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		opts.HasSK = fs.Changed("sk")
		switch {
		case opts.Entity != "" && (fs.Changed("pk") || opts.HasSK):
			return usageError{"explain takes --entity with --param, or --pk and --sk as typed, not both."}
		case opts.Entity == "" && !fs.Changed("pk"):
			return usageError{"explain needs the key: --entity NAME with --param NAME=VALUE..., or --pk VALUE [--sk VALUE]."}
		case opts.Entity == "" && len(opts.Params) > 0:
			return usageError{"--param gives an entity's parameters: add --entity NAME, or give the key as typed with --pk and --sk."}
		case fs.Changed("pk") && opts.PK == "":
			return usageError{"--pk is empty; a partition key value cannot be empty."}
		}
		opts.Table, opts.Out, opts.Err = f.Conn.Table, f.Stdout(), f.Stderr()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runExplain(cmd.Context(), opts)
	}
	return cmd
}

// runExplain builds the key, reads what is near it, and says what differs.
func runExplain(ctx context.Context, opts *explainOptions) error {
	var ent *entities.Entity
	table := opts.Table
	if opts.Entity != "" {
		var err error
		if ent, table, err = loadExplainEntity(ctx, opts); err != nil {
			return err
		}
	} else if table == "" {
		return usageError{"explain needs --table NAME (or --entity, with the patterns file's table:)."}
	}
	client, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	t, err := client.DescribeTable(ctx, table)
	if err != nil {
		return err
	}
	ks, err := t.Schema(opts.Index)
	if err != nil {
		return err
	}
	ex := &explain.Explanation{Table: t.Name, Index: opts.Index, Entity: opts.Entity}
	if ent != nil {
		built, diff, err := explain.Build(ent, t, ks, opts.Params)
		if err != nil {
			return err
		}
		ex.Params = explain.Params(opts.Params)
		if diff != nil {
			// The entity has no key on this index: said, nothing read.
			ex.Differences = []explain.Diff{*diff}
			return writeExplanation(opts, ex)
		}
		ex.Built = built
	} else if ex.Built, err = explain.Typed(t, ks, opts.PK, opts.SK, opts.HasSK); err != nil {
		return err
	}
	if _, err := dynamo.KeyValue(ks.PK, "partition key", ex.Built.Values[0]); err != nil {
		return err
	}
	plan := explain.NewPlan(t, ks, ex.Built)
	fmt.Fprintf(opts.Err, "explain %s on %s: %s\n", textfmt.Sanitize(ex.Built.Text()), textfmt.Sanitize(explain.Where(t.Name, opts.Index)), explainPlanText(plan))
	if err := plan.Run(ctx, client, ex); err != nil {
		return err
	}
	return writeExplanation(opts, ex)
}

// explainPlanText says the plan before its first Query.
func explainPlanText(p explain.Plan) string {
	near := "one Query of Limit 3"
	if len(p.Near) == 2 {
		near = "one Query of Limit 3 on each side"
	}
	if len(p.Variants) == 0 {
		return near + "; its cost is said after"
	}
	return fmt.Sprintf("%s, and if its partition holds nothing up to %s of Limit 1 (its variants and the other indexes); their cost is said after",
		near, textfmt.Plural(len(p.Variants), "more Query", "more Queries"))
}
