package ui

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/keys"
	"dynascope/ui/overlay"
)

// Following the keys: F on an item lists the partitions its sort-key
// segments and attribute values name, as single-table design links them
// (ORDER#2025-03-01#A17 names ORDER#A17; a customerId names CUST#…), from
// the partition-key families this session has seen. Opening the list
// confirms each candidate with one Limit 1 Query, its cost said first;
// enter opens a confirmed one, esc there comes back. This is the root's
// side: the candidates and their confirmations; ui/overlay's links.go lists
// them.

// maxLinks bounds the candidates, and so the Limit 1 queries of a list.
const maxLinks = 8

// pkFamilies are the partition-key families seen: the overview's sample of
// the base table, the history's and the open partition's keys, as prefixes
// ("CUST#").
func (m Model) pkFamilies() []string {
	var pks []string
	for _, e := range m.history {
		if e.Index == "" {
			pks = append(pks, e.PK)
		}
	}
	if m.index == "" && m.query.PK != "" {
		pks = append(pks, m.query.PK)
	}
	delim := keys.InferDelimiter(pks)
	var fams []string
	if m.overview.Have && m.overview.Index == "" {
		for _, f := range m.overview.Lay.Families {
			if f.Prefix != "" && !f.Exact && !slices.Contains(fams, f.Prefix) {
				fams = append(fams, f.Prefix)
			}
		}
	}
	for _, pk := range pks {
		if c := keys.Classify(pk, delim); c.Kind == keys.KindLabel && !c.Exact && !slices.Contains(fams, c.Prefix) {
			fams = append(fams, c.Prefix)
		}
	}
	return fams
}

// linkCandidates are the partitions the item's keys and values name under
// the families: each family with each sort-key segment that is an id (not
// the entity label, not a date), and with the value of an attribute whose
// name starts with the family's entity (customerId for CUST#); a value that
// already starts with a family is a candidate itself.
func linkCandidates(it dynamo.Item, t dynamo.Table, families []string, current string) []overlay.Link {
	var out []overlay.Link
	add := func(pk, from string) {
		if pk == current || len(out) >= maxLinks || slices.ContainsFunc(out, func(l overlay.Link) bool { return l.PK == pk }) {
			return
		}
		out = append(out, overlay.Link{PK: pk, From: from})
	}
	if t.SK != nil {
		sk := keyOf(it, t.SK.Name)
		segs := strings.Split(sk, "#")
		// The sort key's label says whose id follows it: ORDER#…#A17
		// names ORDER#A17, not CUST#A17 or WH#A17, whether or not an
		// ORDER# partition was seen yet (its confirmation tells). Only a
		// key without a label (an id or a value first) pairs its segments
		// with every family seen.
		fams := families
		if f, ok := familyOf(families, segs[0]); ok {
			fams = []string{f}
		} else if len(segs) > 1 && segs[0] != "" && keys.Classify(sk, "#").Kind == keys.KindLabel {
			fams = []string{segs[0] + "#"}
		}
		for i := 1; i < len(segs); i++ {
			seg := segs[i]
			if seg == "" || keys.TimeShape(keys.ValueShape(seg)) {
				continue
			}
			// A family's own label inside the key names its partition
			// with the segment after it (FOLLOWS#USER#2 names USER#2).
			if f, ok := familyOf(families, seg); ok && i+1 < len(segs) && segs[i+1] != "" {
				add(f+segs[i+1], "sort key segments "+seg+"#"+segs[i+1])
				i++
				continue
			}
			for _, f := range fams {
				add(f+seg, "sort key segment "+seg)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(it)) {
		if name == t.PK.Name || t.SK != nil && name == t.SK.Name {
			continue
		}
		var v string
		switch av := it[name].(type) {
		case *types.AttributeValueMemberS:
			v = av.Value
		case *types.AttributeValueMemberN:
			v = av.Value
		default:
			continue
		}
		if v == "" || len(v) > 256 {
			continue
		}
		for _, f := range families {
			entity := strings.ToLower(familyEntity(f))
			switch {
			case strings.HasPrefix(v, f):
				add(v, name)
			case entity != "" && strings.HasPrefix(strings.ToLower(name), entity):
				add(f+v, name+" = "+v)
			}
		}
	}
	return out
}

// familyOf is the family whose entity is label ("ORDER" for ORDER#),
// compared without case.
func familyOf(families []string, label string) (string, bool) {
	for _, f := range families {
		if e := familyEntity(f); e != "" && strings.EqualFold(e, label) {
			return f, true
		}
	}
	return "", false
}

// familyEntity is a family's entity, as the layout names it
// (keys.FamilyEntity): "CUST" of "CUST#", "pass" of "pass::", "META" of
// "#META#".
func familyEntity(f string) string { return keys.FamilyEntity(f, "S") }

// linksDoneMsg answers the confirmation queries.
type linksDoneMsg struct {
	id    int
	links []overlay.Link
	pages []dynamo.Page
	qs    []dynamo.QueryInput
}

// openLinks lists the partitions the item names and sends their Limit 1
// confirmations, one after the other.
func (m Model) openLinks(it dynamo.Item) (Model, tea.Cmd) {
	ls := linkCandidates(it, m.table, m.pkFamilies(), m.query.PK)
	if len(ls) == 0 {
		m.status.Info = "no partition this item names is of a family seen yet (open one of them, or the overview, first)"
		return m, nil
	}
	id := m.flight.newID()
	store, ctx, table := m.store, m.observe(m.ctx, id), m.table.Name
	cmd := func() tea.Msg {
		out := linksDoneMsg{id: id, links: slices.Clone(ls)}
		for i := range out.links {
			q := dynamo.QueryInput{Table: table, PK: out.links[i].PK, Limit: 1}
			cctx, cancel := context.WithCancel(ctx)
			p, err := store.Query(cctx, q)
			cancel()
			out.links[i].Checked = true
			if err != nil {
				out.links[i].Err = sanitize(err.Error())
			} else {
				out.links[i].Found = len(p.Items) > 0
			}
			out.pages, out.qs = append(out.pages, p), append(out.qs, q)
		}
		return out
	}
	m.status.Info = fmt.Sprintf("confirming %s: %s, 0.5 RCU each per 4 KB of the one item read",
		plural(len(ls), "candidate", "candidates"), plural(len(ls), "Limit 1 Query", "Limit 1 Queries"))
	return m.push(overlay.NewLinks(id, ls, it)), cmd
}

// linksDone shows what the confirmations found and logs their requests.
func (m Model) linksDone(msg linksDoneMsg) (Model, tea.Cmd) {
	rcu := 0.0
	for i, p := range msg.pages {
		if p.Request.Operation != "" {
			m.log = m.log.Add(p.Request, "follow keys", 1, m.queryInput(msg.qs[i]))
			rcu += p.Request.Capacity.Total
		}
	}
	o, ok := findOverlay[overlay.Links](m)
	if !ok || o.Req() != msg.id {
		return m, nil
	}
	o = o.Confirmed(msg.links)
	m.status.Info = fmt.Sprintf("confirmed %s in %s, %s RCU", plural(len(msg.links), "candidate", "candidates"),
		plural(len(msg.pages), "Limit 1 Query", "Limit 1 Queries"), fmtRCU(rcu))
	return replaceOverlay(m, o), nil
}
