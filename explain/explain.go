package explain

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/keys"
)

// Near is how many keys are read on each side of the built one.
const Near = 3

// Key is a key as explain builds or reads it: its attributes' values as
// text, in the schema's order.
type Key struct {
	Attrs  []string // PK's name, then SK's when it has one
	Values []string
}

// Text is the key's values joined: "CUST#42 / ORDER#2025-03-01#A17".
func (k Key) Text() string { return strings.Join(k.Values, " / ") }

// Diff is one difference found.
type Diff struct {
	Kind     string // delimiter | case | padding | segment | index | value | partition | undeclared
	Attr     string // the key attribute it is about; "" for the index
	Built    string
	Existing string // "" when there is none
	Message  string
}

// Side says where a key that exists stands beside the built one.
const (
	SideBefore     = "before"      // before it in sort order (read backward)
	SideAfter      = "after"       // at or after it in sort order
	SideAt         = "at"          // the built key itself
	SideVariant    = "variant"     // its partition key in another delimiter, case or padding
	SideOtherIndex = "other index" // the same key on another index or the table
)

// NearKey is one key that exists near the built one.
type NearKey struct {
	Side  string // one of the Side constants
	Index string // "" for the table
	Key   Key
	Diff  []keys.Difference
}

// Explanation is what explain found.
type Explanation struct {
	Table, Index, Entity string
	Params               map[string]string // the entity's parameters as given (normalised), nil for a key as typed
	Built                Key
	Found                bool
	Nearest              []NearKey
	Differences          []Diff
	Requests             []dynamo.Request
}

// Querier sends a Query: *dynamo.Client, and the UI's store.
type Querier interface {
	Query(ctx context.Context, q dynamo.QueryInput) (dynamo.Page, error)
}

// Read is one Query explain may send, and the key attributes of what it
// reads (its schema's).
type Read struct {
	Query dynamo.QueryInput
	Side  string
	Attrs []string
}

// Plan is every Query explain may send, said before the first: the
// nearest keys on each side, then, only when the key is absent and its
// partition holds nothing, its variants and the other indexes.
type Plan struct {
	Schema   dynamo.KeySchema
	Near     []Read
	Variants []Read
}

// Where names the table or index a key is read on.
func Where(table, index string) string {
	if index == "" {
		return "table " + table
	}
	return "index " + index + " of table " + table
}

// IndexName names a key schema in a sentence: "the table", "GSI1".
func IndexName(index string) string {
	if index == "" {
		return "the table"
	}
	return index
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

// NewPlan lays out the Queries: the built key's partition on each side of
// its sort key (from it forward, before it backward), and the variants of
// its partition key (other delimiters, the other case, no padding) and the
// same key on the table's other key schemas, one item each.
func NewPlan(t dynamo.Table, ks dynamo.KeySchema, built Key) Plan {
	pk, n := built.Values[0], len(built.Values)
	p := Plan{Schema: ks}
	attrs := schemaAttrs(ks, n)
	base := dynamo.QueryInput{Table: t.Name, Index: ks.Index, PK: pk, Limit: Near}
	if n == 2 {
		after, before := base, base
		after.SK = dynamo.SKCond{Op: dynamo.SKGe, Values: []string{built.Values[1]}}
		before.SK = dynamo.SKCond{Op: dynamo.SKLt, Values: []string{built.Values[1]}}
		before.Reverse = true
		p.Near = []Read{{after, SideAfter, attrs}, {before, SideBefore, attrs}}
	} else {
		p.Near = []Read{{base, SideAfter, attrs}}
	}
	for _, v := range pkVariants(pk) {
		if _, err := dynamo.KeyValue(ks.PK, "partition key", v); err == nil {
			p.Variants = append(p.Variants, Read{dynamo.QueryInput{Table: t.Name, Index: ks.Index, PK: v, Limit: 1}, SideVariant, attrs})
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
		p.Variants = append(p.Variants, Read{q, SideOtherIndex, schemaAttrs(other, n)})
	}
	return p
}

// Queries is the most Queries the plan sends.
func (p Plan) Queries() int { return len(p.Near) + len(p.Variants) }

// MaxItems is the most items the plan's Queries read, their Limits summed.
func (p Plan) MaxItems() int {
	n := 0
	for _, r := range append(slices.Clip(p.Near), p.Variants...) {
		n += int(r.Query.Limit)
	}
	return n
}

// maxItemBytes is DynamoDB's largest item, 400 KB.
const maxItemBytes = 400 << 10

// MaxRCU is the most the plan's Queries can cost, eventually consistent
// (half a unit per 4 KB): each reads at most its Limit of items, none
// larger than DynamoDB's largest item (400 KB).
func (p Plan) MaxRCU() float64 {
	return float64(p.MaxItems()*(maxItemBytes/itemcodec.ReadUnitBytes)) / 2
}

// RCUAt is what the plan's Queries cost, eventually consistent, if each
// reads its whole Limit of items of itemBytes each (a table's average
// item, say): each Query's bytes rounded up to 4 KB, at least one unit.
// A Query that finds fewer items costs less, never more than MaxRCU.
func (p Plan) RCUAt(itemBytes float64) float64 {
	rcu := 0.0
	for _, r := range append(slices.Clip(p.Near), p.Variants...) {
		rcu += itemcodec.ReadUnits(int(math.Ceil(float64(r.Query.Limit)*itemBytes)), false)
	}
	return rcu
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

// Run sends the nearest Queries, and the variants only when nothing is
// near the key; every request goes into ex.Requests, and what differs
// into ex.Differences. A failed Query ends it with the error, ex holding
// what was read before it.
func (p Plan) Run(ctx context.Context, c Querier, ex *Explanation) error {
	send := func(r Read) ([]dynamo.Item, error) {
		page, err := c.Query(ctx, r.Query)
		if page.Request.Operation != "" {
			ex.Requests = append(ex.Requests, page.Request)
		}
		return page.Items, err
	}
	for _, r := range p.Near {
		items, err := send(r)
		if err != nil {
			return err
		}
		for _, it := range items {
			k := keyOf(it, r.Attrs)
			side := r.Side
			if slices.Equal(k.Values, ex.Built.Values) {
				side, ex.Found = SideAt, true
			}
			ex.Nearest = append(ex.Nearest, NearKey{Side: side, Index: r.Query.Index, Key: k, Diff: keys.DifferKeys(ex.Built.Values, k.Values)})
		}
	}
	if ex.Found {
		return nil
	}
	if len(ex.Nearest) == 0 {
		for _, r := range p.Variants {
			items, err := send(r)
			if err != nil {
				return err
			}
			if len(items) == 0 {
				continue
			}
			k := keyOf(items[0], r.Attrs)
			ex.Nearest = append(ex.Nearest, NearKey{Side: r.Side, Index: r.Query.Index, Key: k, Diff: keys.DifferKeys(ex.Built.Values, k.Values)})
			if r.Side == SideOtherIndex {
				ex.Differences = append(ex.Differences, Diff{Kind: "index", Built: ex.Built.Text(), Existing: k.Text(),
					Message: fmt.Sprintf("the key is on %s (%s), not on %s: the query names the wrong index",
						IndexName(r.Query.Index), strings.Join(r.Attrs, ", "), IndexName(p.Schema.Index))})
				return nil
			}
			break // the first variant that exists explains it
		}
	}
	ex.Differences = append(ex.Differences, differences(ex)...)
	return nil
}

// keyOf is an item's key in attrs' order, each value as text.
func keyOf(it dynamo.Item, attrs []string) Key {
	k := Key{Attrs: attrs}
	for _, a := range attrs {
		k.Values = append(k.Values, itemcodec.KeyString(it[a]))
	}
	return k
}

// differences says what differs between the built key and the nearest
// keys read: the nearest whose difference is one of shape (delimiter,
// case, padding, segment), else that only values differ, else that
// nothing holds the partition.
func differences(ex *Explanation) []Diff {
	if len(ex.Nearest) == 0 {
		return []Diff{{Kind: "partition", Attr: ex.Built.Attrs[0], Built: ex.Built.Values[0],
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
		return []Diff{{Kind: "value", Built: ex.Built.Text(), Existing: n.Key.Text(),
			Message: "no key near it has another shape: the keys beside it hold other values, so the item itself is absent (a wrong parameter, or it was never written)"}}
	}
	n := ex.Nearest[best]
	var out []Diff
	for i, attr := range ex.Built.Attrs {
		if i >= len(n.Key.Values) {
			break
		}
		b, e := ex.Built.Values[i], n.Key.Values[i]
		for _, d := range keys.Differ(b, e) {
			out = append(out, Diff{Kind: string(d), Attr: attr, Built: b, Existing: e, Message: diffSentence(d, attr, b, e)})
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

// SideBuilt marks, in InOrder, where the built key would be.
const SideBuilt = "built"

// InOrder is the nearest keys in sort order: those before the built key
// (read backward, so turned round), then its place when it is absent and
// keys follow it (a NearKey of Side SideBuilt), then it and those after
// it, then the variants and other indexes.
func (ex *Explanation) InOrder() []NearKey {
	var rows []NearKey
	for _, n := range ex.Nearest {
		if n.Side == SideBefore {
			rows = append([]NearKey{n}, rows...)
		}
	}
	placed := false
	for _, n := range ex.Nearest {
		if n.Side == SideBefore {
			continue
		}
		if !placed && !ex.Found && n.Side == SideAfter {
			rows = append(rows, NearKey{Side: SideBuilt})
			placed = true
		}
		rows = append(rows, n)
	}
	return rows
}

// Shape is what differs in shape between the built key and n (delimiter,
// case, padding, segment): nothing when a value differs too, since then n
// is another item and not the built key in another form.
func (n NearKey) Shape() []keys.Difference {
	if slices.Contains(n.Diff, keys.DiffValue) {
		return nil
	}
	return n.Diff
}

// DiffNames are the differences' names ("delimiter", "case"), in order.
func DiffNames(ds []keys.Difference) []string {
	var out []string
	for _, d := range ds {
		out = append(out, string(d))
	}
	return out
}

// SideIn names where n stands, and the key schema it was read on when it
// is not index (the one asked): "before", "other index (GSI1)".
func (n NearKey) SideIn(index string) string {
	if n.Index != index {
		return n.Side + " (" + IndexName(n.Index) + ")"
	}
	return n.Side
}

// ShapeNote is n's differences of shape after an arrow, "   ← delimiter",
// or "" when it has none.
func (n NearKey) ShapeNote() string {
	if d := DiffNames(n.Shape()); len(d) > 0 {
		return "   ← " + strings.Join(d, ", ")
	}
	return ""
}
