package cli

// --entity NAME where NAME is a declared entity (the patterns file's
// entities:, or --models): the selection is the items whose keys are of
// that declaration, exactly as entities.Match reads them, not the type
// inference names. The read's key condition is the template's literal
// prefix (begins_with, or the exact key of a template without
// parameters), so that only those keys are read and paid for; each item
// read is then kept only when its keys match the declaration, and one
// that shares the prefix but not the template (an old delimiter, a bad
// date) is counted, named in the preview and left unchanged.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/entities"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// declaredPick is the selection of a declared entity: its declaration, the
// read's sort-key condition, and what the read gave.
type declaredPick struct {
	set       *entities.Set
	entity    *entities.Entity
	table     dynamo.Table
	cond      dynamo.SKCond
	filtered  bool          // --filter was sent with the read
	read      int           // items the read gave (after --filter)
	unmatched []dynamo.Item // keys of those not of the entity, left unchanged
}

// bulkDeclarations are the entities that name --entity's types: nil when
// no --entity is given or nothing is declared for the table.
func bulkDeclarations(ctx context.Context, t dynamo.Table, opts *writeOptions) (*entities.Set, error) {
	if opts.Bulk.Entity == "" || opts.Bulk.Index != "" {
		return nil, nil
	}
	return declaredEntities(ctx, opts.Bulk.Patterns, opts.Bulk.Models, t.Name, func() (dynamo.Table, error) { return t, nil })
}

// pickDeclared is the selection of --entity when set declares it, nil when
// it does not (the name is then an inferred type's). It is refused, before
// any read, when the partition --pk is not of the entity's partition-key
// template: none of its items can be of the entity.
func pickDeclared(set *entities.Set, t dynamo.Table, opts *writeOptions) (*declaredPick, error) {
	e := set.Find(opts.Bulk.Entity)
	if e == nil {
		return nil, nil
	}
	if pk, ok := e.Keys[t.PK.Name]; ok {
		if _, ok := pk.Match(opts.PK, e.Params); !ok {
			return nil, usageError{fmt.Sprintf("--entity %s: partition %s is not of %s's %s %s, so it holds no %s item; give --pk as %s builds it.",
				e.Name, opts.PK, e.Name, t.PK.Name, pk.Raw, e.Name, pk.Raw)}
		}
	}
	p := &declaredPick{set: set, entity: e, table: t, filtered: opts.Bulk.Filter != ""}
	if t.SK == nil {
		return p, nil
	}
	sk, ok := e.Keys[t.SK.Name]
	switch {
	case !ok:
	case len(sk.Params()) == 0:
		p.cond = dynamo.SKCond{Op: dynamo.SKEq, Values: []string{sk.Prefix()}}
	case sk.Prefix() != "":
		p.cond = dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{sk.Prefix()}}
	}
	return p, nil
}

// keep keeps the items of sel whose keys match the declaration, and counts
// and notes the others.
func (p *declaredPick) keep(sel *selection) {
	p.read = len(sel.items)
	kept := sel.items[:0]
	for _, it := range sel.items {
		if m, ok := p.set.Match(itemcodec.TextAttrs(it)); ok && m.Entity == p.entity {
			kept = append(kept, it)
		} else {
			p.unmatched = append(p.unmatched, edit.KeyOf(p.table, it))
		}
	}
	sel.items = kept
}

// condText is the read's key condition in words: "SK begins_with ORDER#".
func (p *declaredPick) condText() string {
	if p.cond.Op == "" {
		return "the whole partition"
	}
	return p.table.SK.Name + " " + string(p.cond.Op) + " " + p.cond.Values[0]
}

// line is what the preview says of the pick: what was read and how many
// of it matched the declaration, and the items left as not of it.
func (p *declaredPick) line() string {
	under := p.condText()
	if p.filtered {
		under += " kept by --filter"
	}
	s := fmt.Sprintf("entity %s by its declaration (%s): read %s under %s, %d of them %s",
		p.entity.Name, p.templates(), textfmt.Plural(p.read, "item", "items"), under, p.read-len(p.unmatched), p.entity.Name)
	if n := len(p.unmatched); n > 0 {
		s += fmt.Sprintf("; %s not (its keys match no template of %s), left unchanged: %s",
			textfmt.Plural(n, "item is", "items are"), p.entity.Name, keyList(p.unmatched))
	}
	return s
}

// templates are the entity's table-key templates: "PK CUST#{customerId},
// SK ORDER#{orderDate}#{orderId}".
func (p *declaredPick) templates() string {
	var parts []string
	for _, a := range []*dynamo.KeyAttr{&p.table.PK, p.table.SK} {
		if a == nil {
			continue
		}
		if tpl, ok := p.entity.Keys[a.Name]; ok {
			parts = append(parts, a.Name+" "+tpl.Raw)
		}
	}
	return strings.Join(parts, ", ")
}

// declaredEntityObject is the pick in the preview's JSON.
type declaredEntityObject struct {
	Name      string            `json:"name"`
	Condition string            `json:"keyCondition"`
	Read      int               `json:"read"`
	Matched   int               `json:"matched"`
	Unmatched []json.RawMessage `json:"unmatched"` // the keys of the items read that are not of it
}

func (p *declaredPick) object() *declaredEntityObject {
	if p == nil {
		return nil
	}
	return &declaredEntityObject{Name: p.entity.Name, Condition: p.condText(), Read: p.read, Matched: p.read - len(p.unmatched), Unmatched: keysJSON(p.unmatched)}
}

// unknownEntity is the sentence for --entity NAME that names no type:
// the declared entities and the partition's inferred types.
func unknownEntity(set *entities.Set, opts *writeOptions, inferred []string) error {
	s := fmt.Sprintf("partition %s has no type %s; its types are %s", opts.PK, opts.Bulk.Entity, strings.Join(inferred, ", "))
	names := set.Names()
	switch {
	case len(names) > 0 && len(inferred) == 0:
		s = fmt.Sprintf("partition %s has no item, and %s is none of the declared entities, which are %s",
			opts.PK, opts.Bulk.Entity, strings.Join(names, ", "))
	case len(names) > 0:
		s = fmt.Sprintf("partition %s has no type %s: the declared entities are %s, and the types inferred from its keys are %s",
			opts.PK, opts.Bulk.Entity, strings.Join(names, ", "), strings.Join(inferred, ", "))
	}
	return usageError{s + "."}
}

// declaredNames is ", or a declared entity (Customer, Order)" for the
// sentences that name where a type's name comes from; "" without any.
func declaredNames(set *entities.Set) string {
	names := set.Names()
	if len(names) == 0 {
		return ""
	}
	return " or one of the declared entities (" + strings.Join(names, ", ") + ")"
}
