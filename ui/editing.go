package ui

// Guarded editing in the UI: the Editor it writes through (only when the
// user allowed writes), the draft of an item being edited, and the command
// that sends a plan. Planning is package edit's: the diff, the condition,
// the aws command and the predicted WCU come from there.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"dynascope/codegen"
	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
	"dynascope/keys"
)

// Editor is what the UI writes through. *edit.Writer satisfies it, and
// exists only when writes were allowed; Options.Editor is nil otherwise,
// and then no key that edits is enabled.
type Editor interface {
	Apply(ctx context.Context, p *edit.Plan) (edit.Result, error)
	Undo(ctx context.Context, p *edit.Plan, entry int) (edit.Result, error)
	Target() edit.Target
}

var _ Editor = (*edit.Writer)(nil)

// writeDoneMsg answers writeCmd.
type writeDoneMsg struct {
	id   int
	plan *edit.Plan
	undo *edit.Entry // the entry undone; nil for a write
	res  edit.Result
	err  error
}

// writeCmd sends a plan (the undo of entry undo, when not nil).
func writeCmd(ctx context.Context, e Editor, id int, p *edit.Plan, undo *edit.Entry) tea.Cmd {
	return func() tea.Msg {
		var res edit.Result
		var err error
		if undo != nil {
			res, err = e.Undo(ctx, p, undo.Number)
		} else {
			res, err = e.Apply(ctx, p)
		}
		return writeDoneMsg{id: id, plan: p, undo: undo, res: res, err: err}
	}
}

// draftRow is one attribute of a draft: its name, type and value as text.
type draftRow struct {
	name, typ, text string
	key             bool // a key attribute of the table
	removed         bool // marked for removal
}

// draft is an item being edited: from an item read (old), or a new one.
type draft struct {
	table dynamo.Table
	old   dynamo.Item // nil for a new item (or a duplicate)
	rows  []draftRow
	// blanks: a row left empty is no attribute (the form of a new item of
	// an entity type offers every attribute the type has).
	blanks bool
}

// newDraft starts a draft from an item: its key attributes first, then
// the rest by name. asNew makes it a new item with the same attributes
// (duplicate under a new key).
func newDraft(t dynamo.Table, it dynamo.Item, asNew bool) draft {
	d := draft{table: t}
	if !asNew {
		d.old = it
	}
	keys := edit.KeyNames(t)
	names := slices.Sorted(maps.Keys(it))
	slices.SortStableFunc(names, edit.KeysFirst(t))
	for _, n := range names {
		typ, text := edit.ValueInput(it[n])
		d.rows = append(d.rows, draftRow{name: n, typ: typ, text: text, key: slices.Contains(keys, n)})
	}
	return d
}

// entityDraft is a new item of an entity type: the partition's key, the
// sort key's prefix, and every other attribute the loaded items of that
// type have, with the type most of them have and an empty value.
func entityDraft(t dynamo.Table, pk, prefix string, items []dynamo.Item) draft {
	d := draft{table: t, blanks: true}
	d.rows = append(d.rows, draftRow{name: t.PK.Name, typ: t.PK.Type, text: pk, key: true})
	if t.SK != nil {
		d.rows = append(d.rows, draftRow{name: t.SK.Name, typ: t.SK.Type, text: prefix, key: true})
	}
	counts := map[string]map[string]int{}
	for _, it := range items {
		for n, v := range it {
			if slices.Contains(edit.KeyNames(t), n) {
				continue
			}
			if counts[n] == nil {
				counts[n] = map[string]int{}
			}
			counts[n][itemcodec.AttributeTypeName(v)]++
		}
	}
	for _, n := range slices.Sorted(maps.Keys(counts)) {
		typ, best := "S", 0
		for _, ty := range edit.Types {
			if c := counts[n][ty]; c > best {
				typ, best = ty, c
			}
		}
		d.rows = append(d.rows, draftRow{name: n, typ: typ})
	}
	return d
}

// item is the item the draft describes; the first value that DynamoDB
// would refuse is one sentence, and its row.
func (d draft) item() (dynamo.Item, int, error) {
	it := dynamo.Item{}
	for i, r := range d.rows {
		if r.removed {
			if r.key {
				return nil, i, fmt.Errorf("%s is part of the key and cannot be removed; change its value to change the key", r.name)
			}
			continue
		}
		if r.name == "" {
			return nil, i, fmt.Errorf("row %d has no attribute name", i+1)
		}
		if _, dup := it[r.name]; dup {
			return nil, i, fmt.Errorf("%s appears twice", r.name)
		}
		if d.blanks && !r.key && strings.TrimSpace(r.text) == "" && r.typ != "NULL" {
			continue // an attribute of the entity type left empty: not part of the new item
		}
		av, err := edit.ParseValue(r.name, r.typ, r.text)
		if err != nil {
			return nil, i, err
		}
		it[r.name] = av
	}
	return it, -1, nil
}

// change is what the draft does to row i of an item read: "+" added, "-"
// removed, "~" changed, "" as read (and for a new item, where all is new).
func (d draft) change(i int) string {
	r := d.rows[i]
	if d.old == nil {
		return ""
	}
	was, ok := d.old[r.name]
	switch {
	case r.removed && ok:
		return "-"
	case r.removed:
		return ""
	case !ok:
		return "+"
	}
	if av, err := edit.ParseValue(r.name, r.typ, r.text); err != nil || !edit.Equal(av, was) {
		return "~"
	}
	return ""
}

// plan is the change the draft makes, checked and ready to confirm.
func (d draft) plan(version string) (*edit.Plan, int, error) {
	it, row, err := d.item()
	if err != nil {
		return nil, row, err
	}
	p, err := edit.NewPlan(edit.Change{Table: d.table.Name, Keys: d.table, Old: d.old, New: it, Version: version})
	return p, -1, err
}

// writeTarget is where writes go, for the header: the table and region.
func (m Model) writeTarget() string {
	name := m.opts.Table
	if m.haveTable {
		name = m.table.Name
	}
	region := m.opts.Editor.Target().Region
	if name == "" {
		return region
	}
	return name + " (" + region + ")"
}

// writesOn and writesOnItem turn the editing keys on only with a writer
// (and an item under the cursor).
func writesOn(st keyState) bool     { return st.writes }
func writesOnItem(st keyState) bool { return st.writes && st.hasItem }

// deleteSelected shows the delete of the item under the cursor.
func (m Model) deleteSelected() (Model, tea.Cmd) {
	it, ok := m.items.selected()
	if !ok {
		return m, nil
	}
	return m.deleteItem(it)
}

// deleteItem shows the delete of an item for confirmation.
func (m Model) deleteItem(it dynamo.Item) (Model, tea.Cmd) {
	if m.opts.Editor == nil || !m.haveTable || m.index != "" {
		if m.index != "" {
			m.status.err = "an item is deleted from the base table: i chooses it."
		}
		return m, nil
	}
	p, err := edit.NewPlan(edit.Change{Table: m.table.Name, Keys: m.table, Old: it, Version: m.opts.Settings.VersionAttribute})
	if err != nil {
		m.status.err = sanitize(err.Error())
		return m, nil
	}
	return m.push(newWriteOverlay(p, nil)), nil
}

// entityItems are the loaded items of the entity type on groups row row
// (all of them for row 0), and the sort-key prefix a new one starts with.
func (m Model) entityItems(row int) (string, []dynamo.Item) {
	prefix, id := "", ""
	if row > 0 && row <= len(m.groups.types()) && !m.groups.byAttribute() {
		t := m.groups.types()[row-1]
		id = t.ID()
		if t.Kind != keys.KindValue {
			prefix = t.Prefix
		}
	}
	var out []dynamo.Item
	for i := 0; i < m.items.store.total && len(out) < 500; i++ {
		it, ok := m.items.store.item(i)
		if !ok {
			continue
		}
		if id == "" || m.entityKey(keyOf(it, m.items.keyName)) == id {
			out = append(out, it)
		}
	}
	return prefix, out
}

// reselectWritten puts the cursor back on the item a write changed, when
// the reload after it holds the item (a deleted one: where it was).
func (m Model) reselectWritten(items []dynamo.Item) Model {
	sk := m.reselect
	if sk == "" {
		return m
	}
	m.reselect = ""
	row := -1
	for i, it := range items {
		if k := keyOf(it, m.items.keyName); k == sk || row < 0 && k > sk {
			row = i
			if k == sk {
				break
			}
		}
	}
	if row < 0 {
		row = len(items) - 1
	}
	if row > 0 {
		m.items = m.items.move(row-m.items.cursor(), m.layout().bodyH)
	}
	return m
}

// copyGetItem copies the aws command that reads this one item (get-item,
// strongly consistent, on the base table), not the partition's query: Y in
// the item detail, where the item is what is shown.
func (m Model) copyGetItem(it dynamo.Item) (Model, tea.Cmd) {
	if !m.haveTable {
		return m.copyCommand()
	}
	g := dynamo.GetInput{Table: m.table.Name, Consistent: true}
	_, g.PK = edit.ValueInput(it[m.table.PK.Name])
	if m.table.SK != nil {
		_, g.SK = edit.ValueInput(it[m.table.SK.Name])
	}
	cmd, err := codegen.GetItemCode(codegen.LangCLI, m.table, g, m.codeTarget())
	if err != nil {
		m.status.err = sanitize(err.Error())
		return m, nil
	}
	m.status.info = "copied a get-item of this item as an aws dynamodb command (OSC 52)"
	return m, m.clip(cmd)
}
