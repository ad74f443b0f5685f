package cli

// dynascope item: one GetItem, then the item's place in the design —
// every secondary index it is in or why not, its keys there, what each
// index projects — computed from DescribeTable without another read.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"dynascope/dynamo"
	"dynascope/indexes"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// itemOptions are the flag values of `dynascope item`.
type itemOptions struct {
	Connect    func(context.Context) (*dynamo.Client, error)
	Table      string
	Out        io.Writer
	PK, SK     string
	Consistent bool
	Output     string
	Patterns   string // --patterns: the entities the item's keys are decoded by
	Models     string // --models: the entities from the application's models instead
}

// itemJSON is what `dynascope item` prints (issue 26's object).
type itemJSON struct {
	Table            string          `json:"table"`
	Key              keyObject       `json:"key"`
	Item             json.RawMessage `json:"item"` // null when there is no such item
	Size             int             `json:"size"`
	ReadUnits        readUnitsJSON   `json:"readUnits"`
	Entity           *entityObject   `json:"entity,omitempty"` // with declared entities only
	Indexes          []membershipObj `json:"indexes"`
	ConsumedCapacity capacityObject  `json:"consumedCapacity"`
}

type readUnitsJSON struct {
	Eventual float64 `json:"eventual"`
	Strong   float64 `json:"strong"`
}

// membershipObj is one index's entry: keys and the projection for a
// member, why (and which violation) for an item that is not in it.
type membershipObj struct {
	Name         string    `json:"name"`
	Kind         string    `json:"kind"` // gsi | lsi
	Projection   string    `json:"projection"`
	Member       bool      `json:"member"`
	Keys         keyObject `json:"keys,omitempty"`
	Projected    *[]string `json:"projected,omitempty"`
	NotProjected *[]string `json:"notProjected,omitempty"`
	Why          string    `json:"why,omitempty"`
	Violation    string    `json:"violation,omitempty"` // wrong-type | empty | too-long
}

func newItemCmd(f *factory, runF func(context.Context, *itemOptions) error) *cobra.Command {
	opts := &itemOptions{Connect: f.Connect}
	cmd := &cobra.Command{
		Use:     "item --table NAME --pk VALUE [--sk VALUE]",
		Short:   "one item and its place in every index: member or why not, its keys, what is projected",
		GroupID: groupExplore,
		Long: `Read one item (one GetItem) and show where it lives in each secondary index
of the table, computed from DescribeTable: whether it is in the index or why
not (a key attribute absent; of another type than the index declares; an
empty string; longer than 2,048 bytes for a partition key or 1,024 for a
sort key — the last three are items written before the index was created,
which its backfill skipped), its keys there, and which of its attributes the
index projects. With entities declared (--patterns FILE, or dynascope.yaml
here when its table: is the table) it names the item's entity and decodes
its keys into their parameters (customerId = 42), or says it is undeclared.`,
		Example: `  dynascope item --table App --pk 'CUST#42' --sk 'ORDER#2025-03-01#A17'
  dynascope item --table App --pk 'CUST#42' --sk PROFILE --output table`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.PK, "pk", "", "partition key `VALUE` (required)")
	fs.StringVar(&opts.SK, "sk", "", "sort key `VALUE` (required when the table has a sort key)")
	fs.BoolVar(&opts.Consistent, "consistent", false, "strongly consistent read")
	documentOutputFlag(cmd, &opts.Output, "json", "", "json", "table")
	entitiesFlag(cmd, &opts.Patterns, &opts.Models)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := f.Conn.RequireTable("item"); err != nil {
			return usageError{err.Error()}
		}
		opts.Table, opts.Out = f.Conn.Table, f.Stdout()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runItem(cmd.Context(), opts)
	}
	return cmd
}

// runItem reads the item and prints its place in the table's indexes.
func runItem(ctx context.Context, opts *itemOptions) error {
	client, t, err := connectAndDescribe(ctx, opts.Connect, opts.Table)
	if err != nil {
		return err
	}
	if opts.SK == "" && t.SK != nil {
		return usageError{fmt.Sprintf("table %s has the sort key %s: pass --sk VALUE.", t.Name, t.SK.Name)}
	}
	key, err := tableKeyObject(t, opts.PK, opts.SK)
	if err != nil {
		return err
	}
	page, err := client.GetItem(ctx, dynamo.GetInput{Table: opts.Table, PK: opts.PK, SK: opts.SK, Consistent: opts.Consistent})
	if err != nil {
		return err
	}
	var it dynamo.Item
	if len(page.Items) > 0 {
		it = page.Items[0]
	}
	set, err := declaredEntities(ctx, opts.Patterns, opts.Models, t.Name, func() (dynamo.Table, error) { return t, nil })
	if err != nil {
		return err
	}
	out := itemObject(t, key, it, page.Request.Capacity)
	out.Entity = itemEntity(set, it)
	var b bytes.Buffer
	if opts.Output == "table" {
		writeItemTable(&b, out, it)
		if line := entityLine(set, it); line != "" {
			b.WriteString("\n" + line)
		}
	} else if err := writeIndentedJSON(&b, out); err != nil {
		return err
	}
	_, err = opts.Out.Write(b.Bytes())
	return err
}

// connectAndDescribe connects and reads the table's description with
// DescribeTable, not the schema cache: what item and index try say is
// about the indexes as they are now.
func connectAndDescribe(ctx context.Context, connect func(context.Context) (*dynamo.Client, error), table string) (*dynamo.Client, dynamo.Table, error) {
	client, err := connect(ctx)
	if err != nil {
		return nil, dynamo.Table{}, err
	}
	t, err := client.DescribeTable(ctx, table)
	return client, t, err
}

// tableKeyObject is the key the user asked for, typed by the table's schema.
func tableKeyObject(t dynamo.Table, pk, sk string) (keyObject, error) {
	pkv, err := dynamo.KeyValue(t.PK, "partition key", pk)
	if err != nil {
		return nil, err
	}
	o := keyObject{{t.PK.Name, itemcodec.MarshalPlainValue(pkv)}}
	if t.SK != nil {
		skv, err := dynamo.KeyValue(*t.SK, "sort key", sk)
		if err != nil {
			return nil, err
		}
		o = append(o, keyField{t.SK.Name, itemcodec.MarshalPlainValue(skv)})
	}
	return o, nil
}

// itemObject builds the JSON object; it is nil when the item is missing,
// which still cost a read.
func itemObject(t dynamo.Table, key keyObject, it dynamo.Item, c dynamo.Capacity) itemJSON {
	out := itemJSON{Table: t.Name, Key: key, Item: json.RawMessage("null"), Indexes: []membershipObj{}, ConsumedCapacity: newCapacityObject(c)}
	blocks := 1
	if it != nil {
		out.Item = itemcodec.PlainJSON(it)
		out.Size = itemcodec.ItemSize(it)
		blocks = max(1, (out.Size+itemcodec.ReadUnitBytes-1)/itemcodec.ReadUnitBytes)
		for _, m := range indexes.Of(t, it) {
			out.Indexes = append(out.Indexes, membershipObject(m))
		}
	}
	out.ReadUnits = readUnitsJSON{Eventual: 0.5 * float64(blocks), Strong: float64(blocks)}
	return out
}

func membershipObject(m indexes.Membership) membershipObj {
	o := membershipObj{Name: m.Index.Name, Kind: strings.ToLower(string(m.Index.Kind)), Projection: m.Index.Projection,
		Member: m.Member, Why: m.Why, Violation: string(m.Violation)}
	if m.Member {
		for _, k := range m.Keys {
			o.Keys = append(o.Keys, keyField{k.Name, itemcodec.MarshalPlainValue(k.Value)})
		}
		o.Projected, o.NotProjected = &m.Projected, &m.NotProjected
	}
	return o
}

func writeItemTable(b *bytes.Buffer, o itemJSON, it dynamo.Item) {
	key, _ := o.Key.MarshalJSON()
	if it == nil {
		fmt.Fprintf(b, "%s %s: no such item · %s RCU\n", textfmt.Sanitize(o.Table), textfmt.Sanitize(string(key)), jsonFloat(o.ConsumedCapacity.Total))
		return
	}
	fmt.Fprintf(b, "%s %s: %d bytes · a read costs %s RCU (eventual), %s (strong) · this one %s RCU\n\n",
		textfmt.Sanitize(o.Table), textfmt.Sanitize(string(key)), o.Size,
		jsonFloat(o.ReadUnits.Eventual), jsonFloat(o.ReadUnits.Strong), jsonFloat(o.ConsumedCapacity.Total))
	if len(o.Indexes) == 0 {
		b.WriteString("the table has no secondary indexes\n")
		return
	}
	tw := newColumns(b)
	fmt.Fprintln(tw, "INDEX\tKIND\tPROJECTION\tIN\tKEYS THERE / WHY NOT")
	for _, m := range o.Indexes {
		if !m.Member {
			fmt.Fprintf(tw, "%s\t%s\t%s\tno\t%s\n", cell(m.Name, 32), m.Kind, m.Projection, textfmt.Sanitize(m.Why))
			continue
		}
		keys, _ := m.Keys.MarshalJSON()
		line := cell(string(keys), 80)
		if len(*m.NotProjected) > 0 {
			line += " · not projected: " + cell(strings.Join(*m.NotProjected, ", "), 60)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\tyes\t%s\n", cell(m.Name, 32), m.Kind, m.Projection, line)
	}
	_ = tw.Flush()
}
