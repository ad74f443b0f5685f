package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"golang.org/x/sync/errgroup"

	"dynascope/dynamo"
	"dynascope/ui"
)

func cmdTables(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, conn := newFlags("tables", stderr)
	output := fs.String("output", "table", "json | table")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *output != "json" && *output != "table" {
		return usageError{fmt.Sprintf("--output must be json or table, not %q.", *output)}
	}
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
	for i, n := range names {
		g.Go(func() error {
			t, err := client.DescribeTable(gctx, n)
			tables[i] = t
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	var b bytes.Buffer
	if *output == "json" {
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", ui.Sanitize(t.Name), ui.Sanitize(ks.KeyText()), ui.Sanitize(strings.Join(ixs, ", ")), t.ItemCount, ui.HumanBytes(t.SizeBytes))
	}
	_ = tw.Flush()
}
