package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"dynascope/dynamo"
	"dynascope/textfmt"
)

// tablesOptions are the flag values of `dynascope tables`.
type tablesOptions struct {
	Connect  func(context.Context) (*dynamo.Client, error)
	Out, Err io.Writer
	Table    string // only this table; "" for all
	Output   string // json | table
}

func newTablesCmd(f *factory, runF func(context.Context, *tablesOptions) error) *cobra.Command {
	opts := &tablesOptions{Connect: f.Connect}
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
	documentOutputFlag(cmd, &opts.Output, "table", "", "json", "table")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		opts.Table, opts.Out, opts.Err = f.Conn.Table, f.Stdout(), f.Stderr()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runTables(cmd.Context(), opts)
	}
	return cmd
}

// runTables describes the tables, a few at a time, and prints them. A
// table the credentials may list but not describe (a least-privilege
// policy) is listed as such, with a note: partial permission is normal.
func runTables(ctx context.Context, opts *tablesOptions) error {
	client, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	// With --table the one name is known: no ListTables for it.
	names := []string{opts.Table}
	if opts.Table == "" {
		if names, err = client.ListTables(ctx); err != nil {
			return err
		}
	}
	// Descriptions are independent: fetch them side by side, a few at a time,
	// rather than one after another.
	tables := make([]dynamo.Table, len(names))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	gone := make([]bool, len(names))
	denied := make([]bool, len(names))
	for i, n := range names {
		g.Go(func() error {
			t, err := client.DescribeTable(gctx, n)
			if err != nil && opts.Table == "" && dynamo.IsTableNotFound(err) {
				// Listed, then deleted before its description: it is no
				// longer a table, not a reason to list none.
				gone[i] = true
				return nil
			}
			if err != nil && opts.Table == "" && dynamo.IsAccessDenied(err) {
				denied[i] = true
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
	var undescribed []string
	for i, t := range tables {
		switch {
		case denied[i]:
			undescribed = append(undescribed, names[i])
		case !gone[i]:
			kept = append(kept, t)
		}
	}
	tables = kept
	var b bytes.Buffer
	if opts.Output == "json" {
		if err := writeTablesJSON(&b, tables, undescribed); err != nil {
			return err
		}
	} else {
		writeTablesText(&b, tables, undescribed)
	}
	if len(undescribed) > 0 {
		fmt.Fprintf(opts.Err, "note: no permission to describe %s (dynamodb:DescribeTable is denied for %s); the others are listed\n",
			textfmt.Plural(len(undescribed), "table", "tables"), textfmt.Sanitize(strings.Join(undescribed, ", ")))
	}
	_, err = opts.Out.Write(b.Bytes())
	return err
}

// tablesObject is what tables --output json prints: each table with its
// keys and indexes as DescribeTable reports them.
type tablesObject struct {
	Tables []tableObject `json:"tables"`
	// NotDescribed are the tables listed that the credentials may not
	// describe; [] when there are none.
	NotDescribed []notDescribedObject `json:"notDescribed"`
}

type notDescribedObject struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
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

func writeTablesJSON(b *bytes.Buffer, tables []dynamo.Table, undescribed []string) error {
	o := tablesObject{Tables: []tableObject{}, NotDescribed: []notDescribedObject{}}
	for _, n := range undescribed {
		o.NotDescribed = append(o.NotDescribed, notDescribedObject{Name: n, Reason: "no permission to describe"})
	}
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

func writeTablesText(b *bytes.Buffer, tables []dynamo.Table, undescribed []string) {
	if len(tables) == 0 && len(undescribed) == 0 {
		b.WriteString("no tables\n")
		return
	}
	tw := newColumns(b)
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
	for _, n := range undescribed {
		fmt.Fprintf(tw, "%s\t(no permission to describe)\t\t\t\n", textfmt.Sanitize(n))
	}
	_ = tw.Flush()
	if len(tables) > 0 {
		// DescribeTable's figures are not a count: a table written in the
		// last hours may show fewer items than it holds, or 0.
		b.WriteString("ITEMS and SIZE are DynamoDB's figures, refreshed about every six hours: a table written since may show fewer, or 0.\n")
	}
}
