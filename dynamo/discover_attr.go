package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
	"dynascope/keys"
)

// AttributeGrouping is a partition grouped by one attribute's value
// (groups --by attribute:NAME): the groups in the order their first item
// was read, and every request the read took.
type AttributeGrouping struct {
	KeyType  string // the sort key's type; "" when the table or index has none
	Groups   []keys.AttributeGroup
	Requests []Request
}

// GroupByAttribute reads the whole partition in.PK page by page and groups
// its items by the value of attr (keys.GroupByAttribute): string and number
// values name a group, items without it (or with another type) are the
// group without a value. It stops, as every announced read does, when it
// spends clearly more than in.CountEst (or reaches in.CountMaxRCU); what it read is grouped either way.
// in's Delimiter, Count, Budget and First are not used.
func (c *Client) GroupByAttribute(ctx context.Context, in DiscoverInput, attr string) (AttributeGrouping, error) {
	var g AttributeGrouping
	var spent []Request
	err := c.withKeys(ctx, in.Table, func(t Table) (doubt, error) {
		spent = append(spent, g.Requests...)
		var d Discovery
		s := skipScan{c: c, t: t, in: in, d: &d}
		ks, err := t.Schema(in.Index)
		if err != nil {
			return inputDoubt, err
		}
		var sk string
		g = AttributeGrouping{}
		if ks.SK != nil {
			sk, g.KeyType = ks.SK.Name, ks.SK.Type
		}
		var rows []keys.AttributeRow
		err = s.readEach(ctx, func(items []Item) {
			for _, it := range items {
				r := keys.AttributeRow{SK: itemcodec.KeyString(it[sk])}
				switch v := it[attr].(type) {
				case *types.AttributeValueMemberS, *types.AttributeValueMemberN:
					r.Value, r.Present = itemcodec.KeyString(v), true
				}
				rows = append(rows, r)
			}
		})
		g.Groups, g.Requests = keys.GroupByAttribute(rows), d.Requests
		return s.doubt, err
	})
	g.Requests = append(spent, g.Requests...)
	return g, err
}

// readEach reads the whole partition page by page, handing each page's
// items to take, under readWhole's bound (CountEst, CountMaxRCU).
func (s *skipScan) readEach(ctx context.Context, take func([]Item)) error {
	q := QueryInput{Table: s.in.Table, Index: s.in.Index, PK: s.in.PK, Reverse: s.in.Reverse, Consistent: s.in.Consistent}
	return s.readWhole(ctx, q, "group "+s.in.PK+" on "+tableAndIndex(s.in.Table, s.in.Index)+" by attribute", func(p Page) { take(p.Items) })
}

// entityAttribute is the generic entity attribute a page shows
// (keys.DetectEntityAttribute), "" when none: read from its string values.
func entityAttribute(items []Item) string {
	page := make([]map[string]string, 0, len(items))
	for _, it := range items {
		m := map[string]string{}
		for _, a := range keys.GenericEntityAttributes {
			if v, ok := it[a].(*types.AttributeValueMemberS); ok {
				m[a] = v.Value
			}
		}
		page = append(page, m)
	}
	name, _ := keys.DetectEntityAttribute(page)
	return name
}
