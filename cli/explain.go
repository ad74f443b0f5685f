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
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/keys"
	"dynascope/textfmt"
)

// explainNear is how many keys explain reads on each side of the built one.
const explainNear = 3

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

// explainKey is a key as explain builds or reads it: its attributes'
// values as text, in the schema's order.
type explainKey struct {
	Attrs  []string // PK's name, then SK's when it has one
	Values []string
}

func (k explainKey) text() string { return strings.Join(k.Values, " / ") }

// explainDiff is one difference explain found.
type explainDiff struct {
	Kind     string // delimiter | case | padding | segment | index | value | partition | undeclared
	Attr     string // the key attribute it is about; "" for the index
	Built    string
	Existing string // "" when there is none
	Message  string
}

// explainNearKey is one key that exists near the built one.
type explainNearKey struct {
	Side  string // before | after | at (the built key itself) | elsewhere (a variant, another index)
	Index string // "" for the table
	Key   explainKey
	Diff  []keys.Difference
}

// explanation is what explain found.
type explanation struct {
	Table, Index, Entity string
	Params               map[string]string // the entity's parameters as given (normalised), nil with --pk
	Built                explainKey
	Found                bool
	Nearest              []explainNearKey
	Differences          []explainDiff
	Requests             []dynamo.Request
}

// runExplain builds the key, reads what is near it, and says what differs.
func runExplain(ctx context.Context, opts *explainOptions) error {
	var ent explainEntity
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
	ex := &explanation{Table: t.Name, Index: opts.Index, Entity: opts.Entity}
	if ent != nil {
		built, diff, err := explainBuild(ent, t, ks, opts.Params)
		if err != nil {
			return err
		}
		ex.Params = explainParams(opts.Params)
		if diff != nil {
			// The entity has no key on this index: said, nothing read.
			ex.Differences = []explainDiff{*diff}
			return writeExplanation(opts, ex)
		}
		ex.Built = built
	} else {
		ex.Built = explainKey{Attrs: []string{ks.PK.Name}, Values: []string{opts.PK}}
		if opts.HasSK {
			if ks.SK == nil {
				return &dynamo.UserError{Msg: fmt.Sprintf("%s has no sort key, so --sk cannot apply; drop it.", where(t.Name, opts.Index))}
			}
			ex.Built.Attrs, ex.Built.Values = append(ex.Built.Attrs, ks.SK.Name), append(ex.Built.Values, opts.SK)
		}
	}
	if _, err := dynamo.KeyValue(ks.PK, "partition key", ex.Built.Values[0]); err != nil {
		return err
	}
	plan := explainPlan(t, ks, ex.Built)
	fmt.Fprintf(opts.Err, "explain %s on %s: %s\n", textfmt.Sanitize(ex.Built.text()), textfmt.Sanitize(where(t.Name, opts.Index)), plan.text())
	if err := plan.read(ctx, client, ex); err != nil {
		return err
	}
	return writeExplanation(opts, ex)
}

// where names the table or index a key is read on.
func where(table, index string) string {
	if index == "" {
		return "table " + table
	}
	return "index " + index + " of table " + table
}

// explainRead is one Query explain may send, and the key attributes of
// what it reads (its schema's).
type explainRead struct {
	q     dynamo.QueryInput
	side  string
	attrs []string
}

// explainPlanned is every Query explain may send, said before the first:
// the nearest keys on each side, then, only when the key is absent and its
// partition holds nothing, its variants and the other indexes.
type explainPlanned struct {
	ks       dynamo.KeySchema
	near     []explainRead
	variants []explainRead
}

func (p explainPlanned) text() string {
	near := "one Query of Limit 3"
	if len(p.near) == 2 {
		near = "one Query of Limit 3 on each side"
	}
	if len(p.variants) == 0 {
		return near + "; its cost is said after"
	}
	return fmt.Sprintf("%s, and if its partition holds nothing up to %s of Limit 1 (its variants and the other indexes); their cost is said after",
		near, textfmt.Plural(len(p.variants), "more Query", "more Queries"))
}

// schemaAttrs are a schema's key attributes: its partition key, and its
// sort key when it has one and n asks for two.
func schemaAttrs(ks dynamo.KeySchema, n int) []string {
	attrs := []string{ks.PK.Name}
	if ks.SK != nil && n > 1 {
		attrs = append(attrs, ks.SK.Name)
	}
	return attrs
}

// explainPlan lays out the Queries: the built key's partition on each side
// of its sort key (from it forward, before it backward), and the variants
// of its partition key (other delimiters, the other case, no padding) and
// the same key on the table's other key schemas, one item each.
func explainPlan(t dynamo.Table, ks dynamo.KeySchema, built explainKey) explainPlanned {
	pk, n := built.Values[0], len(built.Values)
	p := explainPlanned{ks: ks}
	attrs := schemaAttrs(ks, n)
	base := dynamo.QueryInput{Table: t.Name, Index: ks.Index, PK: pk, Limit: explainNear}
	if n == 2 {
		after, before := base, base
		after.SK = dynamo.SKCond{Op: dynamo.SKGe, Values: []string{built.Values[1]}}
		before.SK = dynamo.SKCond{Op: dynamo.SKLt, Values: []string{built.Values[1]}}
		before.Reverse = true
		p.near = []explainRead{{after, "after", attrs}, {before, "before", attrs}}
	} else {
		p.near = []explainRead{{base, "after", attrs}}
	}
	for _, v := range pkVariants(pk) {
		if _, err := dynamo.KeyValue(ks.PK, "partition key", v); err == nil {
			p.variants = append(p.variants, explainRead{dynamo.QueryInput{Table: t.Name, Index: ks.Index, PK: v, Limit: 1}, "variant", attrs})
		}
	}
	schemas := []string{""}
	for _, ix := range t.Indexes {
		schemas = append(schemas, ix.Name)
	}
	for _, name := range schemas {
		other, err := t.Schema(name)
		if err != nil || name == ks.Index || other.PK.Type != ks.PK.Type {
			continue
		}
		q := dynamo.QueryInput{Table: t.Name, Index: name, PK: pk, Limit: 1}
		if n == 2 && other.SK != nil && other.SK.Type == ks.SK.Type {
			q.SK = dynamo.SKCond{Op: dynamo.SKEq, Values: []string{built.Values[1]}}
		}
		p.variants = append(p.variants, explainRead{q, "other index", schemaAttrs(other, n)})
	}
	return p
}

// pkVariants are the forms a partition key takes when its application
// changed its delimiter, case or padding: each other delimiter in place of
// its own, lower and upper case, its numbers unpadded; none twice, and
// not the key itself.
func pkVariants(pk string) []string {
	var out []string
	add := func(v string) {
		if v != pk && v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	for _, d := range keys.DelimitersIn(pk) {
		for _, o := range keys.Delimiters {
			if o != d {
				add(strings.ReplaceAll(pk, d, o))
			}
		}
	}
	add(strings.ToLower(pk))
	add(strings.ToUpper(pk))
	add(keys.Unpadded(pk))
	return out
}

// read sends the nearest Queries, and the variants only when nothing is
// near the key; every request goes into ex.Requests, and what differs
// into ex.Differences.
func (p explainPlanned) read(ctx context.Context, c *dynamo.Client, ex *explanation) error {
	send := func(r explainRead) ([]dynamo.Item, error) {
		page, err := c.Query(ctx, r.q)
		if page.Request.Operation != "" {
			ex.Requests = append(ex.Requests, page.Request)
		}
		return page.Items, err
	}
	for _, r := range p.near {
		items, err := send(r)
		if err != nil {
			return err
		}
		for _, it := range items {
			k := explainKeyOf(it, r.attrs)
			side := r.side
			if slices.Equal(k.Values, ex.Built.Values) {
				side, ex.Found = "at", true
			}
			ex.Nearest = append(ex.Nearest, explainNearKey{Side: side, Index: r.q.Index, Key: k, Diff: keys.DifferKeys(ex.Built.Values, k.Values)})
		}
	}
	if ex.Found {
		return nil
	}
	if len(ex.Nearest) == 0 {
		for _, r := range p.variants {
			items, err := send(r)
			if err != nil {
				return err
			}
			if len(items) == 0 {
				continue
			}
			k := explainKeyOf(items[0], r.attrs)
			ex.Nearest = append(ex.Nearest, explainNearKey{Side: r.side, Index: r.q.Index, Key: k, Diff: keys.DifferKeys(ex.Built.Values, k.Values)})
			if r.side == "other index" {
				ex.Differences = append(ex.Differences, explainDiff{Kind: "index", Built: ex.Built.text(), Existing: k.text(),
					Message: fmt.Sprintf("the key is on %s (%s), not on %s: the query names the wrong index",
						indexName(r.q.Index), strings.Join(r.attrs, ", "), indexName(p.ks.Index))})
				return nil
			}
			break // the first variant that exists explains it
		}
	}
	ex.Differences = append(ex.Differences, explainDifferences(ex)...)
	return nil
}

// indexName names a key schema in a sentence: "the table", "GSI1".
func indexName(index string) string {
	if index == "" {
		return "the table"
	}
	return index
}

// explainKeyOf is an item's key in attrs' order, each value as text.
func explainKeyOf(it dynamo.Item, attrs []string) explainKey {
	k := explainKey{Attrs: attrs}
	for _, a := range attrs {
		k.Values = append(k.Values, itemcodec.KeyString(it[a]))
	}
	return k
}

// explainDifferences says what differs between the built key and the
// nearest keys read: the nearest whose difference is one of shape
// (delimiter, case, padding, segment), else that only values differ, else
// that nothing holds the partition.
func explainDifferences(ex *explanation) []explainDiff {
	if len(ex.Nearest) == 0 {
		return []explainDiff{{Kind: "partition", Attr: ex.Built.Attrs[0], Built: ex.Built.Values[0],
			Message: fmt.Sprintf("no item has %s = %s, nor any of its variants (another delimiter, the other case, no padding), on any index",
				ex.Built.Attrs[0], ex.Built.Values[0])}}
	}
	best := -1
	for i, n := range ex.Nearest {
		if len(n.Diff) > 0 && !slices.Contains(n.Diff, keys.DiffValue) && (best < 0 || len(n.Diff) < len(ex.Nearest[best].Diff)) {
			best = i
		}
	}
	if best < 0 {
		n := ex.Nearest[0]
		return []explainDiff{{Kind: "value", Built: ex.Built.text(), Existing: n.Key.text(),
			Message: "no key near it has another shape: the keys beside it hold other values, so the item itself is absent (a wrong parameter, or it was never written)"}}
	}
	n := ex.Nearest[best]
	var out []explainDiff
	for i, attr := range ex.Built.Attrs {
		if i >= len(n.Key.Values) {
			break
		}
		b, e := ex.Built.Values[i], n.Key.Values[i]
		for _, d := range keys.Differ(b, e) {
			out = append(out, explainDiff{Kind: string(d), Attr: attr, Built: b, Existing: e, Message: diffSentence(d, attr, b, e)})
		}
	}
	return out
}

// diffSentence says one difference of one attribute in words.
func diffSentence(d keys.Difference, attr, built, existing string) string {
	switch d {
	case keys.DiffDelimiter:
		return fmt.Sprintf("%s: the table has %s, cut by %s where the built key has %s", attr, existing,
			strings.Join(keys.DelimitersIn(existing), " "), strings.Join(keys.DelimitersIn(built), " "))
	case keys.DiffCase:
		return fmt.Sprintf("%s: the table has %s, in another case than the built %s", attr, existing, built)
	case keys.DiffPadding:
		return fmt.Sprintf("%s: the table has %s, its numbers padded otherwise than the built %s", attr, existing, built)
	case keys.DiffSegment:
		if miss := keys.MissingSegments(built, existing); miss != nil {
			return fmt.Sprintf("%s: the table has %s, with %s that the built %s lacks", attr, existing, strings.Join(miss, ", "), built)
		}
		if miss := keys.MissingSegments(existing, built); miss != nil {
			return fmt.Sprintf("%s: the built %s has %s, which the table's %s lacks", attr, built, strings.Join(miss, ", "), existing)
		}
		return fmt.Sprintf("%s: the table has %s, with another number of segments than the built %s", attr, existing, built)
	}
	return fmt.Sprintf("%s: the table has %s beside the built %s", attr, existing, built)
}
