package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/textfmt"
)

func newTablesCmd(conn *config.Connection) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "tables",
		Short:   "tables with keys, indexes, items, size",
		GroupID: groupExplore,
		Long: `List the tables with their key schema, indexes, item count and size
(DescribeTable's figures, which DynamoDB refreshes about every six hours).
With --table, only that table.`,
		Example: `  dynascope tables
  dynascope tables --endpoint-url http://127.0.0.1:8000 --output json`,
		Args: noArgs,
	}
	output := cmd.Flags().String("output", "table", "output `FORMAT`: json | table")
	cmd.RegisterFlagCompletionFunc("output", fixedChoices("json", "table"))
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if *output != "json" && *output != "table" {
			return usageError{fmt.Sprintf("--output must be json or table, not %q.", *output)}
		}
		return runTables(cmd.Context(), conn, *output == "json", cmd.OutOrStdout())
	}
	return cmd
}

// runTables describes the tables, a few at a time, and prints them.
func runTables(ctx context.Context, conn *config.Connection, asJSON bool, stdout io.Writer) error {
	client, err := connect(ctx, conn)
	if err != nil {
		return err
	}
	names, err := client.ListTables(ctx)
	if err != nil {
		return err
	}
	if conn.Table != "" {
		names = []string{conn.Table}
	}
	// Descriptions are independent: fetch them side by side, a few at a time,
	// rather than one after another.
	tables := make([]dynamo.Table, len(names))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	gone := make([]bool, len(names))
	for i, n := range names {
		g.Go(func() error {
			t, err := client.DescribeTable(gctx, n)
			if err != nil && conn.Table == "" && dynamo.IsTableNotFound(err) {
				// Listed, then deleted before its description: it is no
				// longer a table, not a reason to list none.
				gone[i] = true
				return nil
			}
			tables[i] = t
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	kept := tables[:0]
	for i, t := range tables {
		if !gone[i] {
			kept = append(kept, t)
		}
	}
	tables = kept
	var b bytes.Buffer
	if asJSON {
		if err := writeTablesJSON(&b, tables); err != nil {
			return err
		}
	} else {
		writeTablesText(&b, tables)
	}
	_, err = stdout.Write(b.Bytes())
	return err
}

// tablesObject is what tables --output json prints: each table with its
// keys and indexes as DescribeTable reports them.
type tablesObject struct {
	Tables []tableObject `json:"tables"`
}

type tableObject struct {
	Name         string        `json:"name"`
	PartitionKey *keyAttrJSON  `json:"partitionKey"`
	SortKey      *keyAttrJSON  `json:"sortKey"` // null without a sort key
	ItemCount    int64         `json:"itemCount"`
	SizeBytes    int64         `json:"sizeBytes"`
	BillingMode  string        `json:"billingMode"`
	Status       string        `json:"status"`
	Indexes      []indexObject `json:"indexes"`
}

type indexObject struct {
	Name             string       `json:"name"`
	Kind             string       `json:"kind"`
	PartitionKey     *keyAttrJSON `json:"partitionKey"`
	SortKey          *keyAttrJSON `json:"sortKey"`
	Projection       string       `json:"projection"`
	NonKeyAttributes []string     `json:"nonKeyAttributes"`
	ItemCount        int64        `json:"itemCount"`
	SizeBytes        int64        `json:"sizeBytes"`
}

// keyAttrJSON is a key attribute as tables and layout print it.
type keyAttrJSON struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

func newKeyAttrJSON(k *dynamo.KeyAttr) *keyAttrJSON {
	if k == nil {
		return nil
	}
	return &keyAttrJSON{Name: k.Name, Type: k.Type}
}

func writeTablesJSON(b *bytes.Buffer, tables []dynamo.Table) error {
	o := tablesObject{Tables: []tableObject{}}
	for _, t := range tables {
		to := tableObject{
			Name: t.Name, PartitionKey: newKeyAttrJSON(&t.PK), SortKey: newKeyAttrJSON(t.SK),
			ItemCount: t.ItemCount, SizeBytes: t.SizeBytes, BillingMode: t.BillingMode, Status: t.Status,
			Indexes: []indexObject{},
		}
		for _, ix := range t.Indexes {
			to.Indexes = append(to.Indexes, indexObject{
				Name: ix.Name, Kind: string(ix.Kind), PartitionKey: newKeyAttrJSON(&ix.PK), SortKey: newKeyAttrJSON(ix.SK),
				Projection: ix.Projection, NonKeyAttributes: append([]string{}, ix.NonKeyAttr...),
				ItemCount: ix.ItemCount, SizeBytes: ix.SizeBytes,
			})
		}
		o.Tables = append(o.Tables, to)
	}
	return writeIndentedJSON(b, o)
}

func writeTablesText(b *bytes.Buffer, tables []dynamo.Table) {
	if len(tables) == 0 {
		b.WriteString("no tables\n")
		return
	}
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TABLE\tKEYS\tINDEXES\tITEMS\tSIZE")
	for _, t := range tables {
		ks, _ := t.Schema("")
		var ixs []string
		for _, ix := range t.Indexes {
			ixs = append(ixs, fmt.Sprintf("%s %s(%s)", ix.Name, ix.Kind, dynamo.KeySchema{PK: ix.PK, SK: ix.SK}.KeyText()))
		}
		if len(ixs) == 0 {
			ixs = []string{"-"}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", textfmt.Sanitize(t.Name), textfmt.Sanitize(ks.KeyText()), textfmt.Sanitize(strings.Join(ixs, ", ")), t.ItemCount, textfmt.HumanBytes(t.SizeBytes))
	}
	_ = tw.Flush()
}
