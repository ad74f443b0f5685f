package main

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
		writeTablesJSON(&b, tables)
	} else {
		writeTablesText(&b, tables)
	}
	_, err = stdout.Write(b.Bytes())
	return err
}

func keyJSON(k *dynamo.KeyAttr) string {
	if k == nil {
		return "null"
	}
	return fmt.Sprintf(`{"name": %s, "type": %s}`, jsonString(k.Name), jsonString(k.Type))
}

func writeTablesJSON(b *bytes.Buffer, tables []dynamo.Table) {
	b.WriteString("{\"tables\": [")
	for i, t := range tables {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(b, "\n  {\"name\": %s, \"partitionKey\": %s, \"sortKey\": %s, \"itemCount\": %d, \"sizeBytes\": %d, \"billingMode\": %s, \"status\": %s, \"indexes\": [",
			jsonString(t.Name), keyJSON(&t.PK), keyJSON(t.SK), t.ItemCount, t.SizeBytes, jsonString(t.BillingMode), jsonString(t.Status))
		for j, ix := range t.Indexes {
			if j > 0 {
				b.WriteString(", ")
			}
			attrs := make([]string, len(ix.NonKeyAttr))
			for k, a := range ix.NonKeyAttr {
				attrs[k] = jsonString(a)
			}
			fmt.Fprintf(b, "{\"name\": %s, \"kind\": %s, \"partitionKey\": %s, \"sortKey\": %s, \"projection\": %s, \"nonKeyAttributes\": [%s], \"itemCount\": %d, \"sizeBytes\": %d}",
				jsonString(ix.Name), jsonString(string(ix.Kind)), keyJSON(&ix.PK), keyJSON(ix.SK), jsonString(ix.Projection), strings.Join(attrs, ", "), ix.ItemCount, ix.SizeBytes)
		}
		b.WriteString("]}")
	}
	if len(tables) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("]}\n")
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
