package ui

// Guarded editing in the UI: the Editor it writes through (only when the
// user allowed writes), the command that sends a plan, opening the edit
// and write overlays, and what a write's answer changes. Planning is
// package edit's: the diff, the condition, the aws command and the
// predicted WCU come from there; the draft of an item being edited is the
// edit overlay's (ui/overlay's edit.go).

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"dynascope/codegen"
	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/keys"
	"dynascope/ui/overlay"
)

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
			res, err = e.Undo(ctx, p, *undo)
		} else {
			res, err = e.Apply(ctx, p)
		}
		return writeDoneMsg{id: id, plan: p, undo: undo, res: res, err: err}
	}
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

// deleteSelected shows the delete of the item under the cursor.
func (m Model) deleteSelected() (Model, tea.Cmd) {
	it, ok := m.items.Selected()
	if !ok {
		return m, nil
	}
	return m.deleteItem(it)
}

// deleteItem shows the delete of an item for confirmation.
func (m Model) deleteItem(it dynamo.Item) (Model, tea.Cmd) {
	if m.opts.Editor == nil || !m.haveTable || m.index != "" {
		if m.index != "" {
			m.status.Err = "an item is deleted from the base table: i chooses it."
		}
		return m, nil
	}
	p, err := edit.NewPlan(edit.Change{Table: m.table.Name, Keys: m.table, Old: it, Version: m.opts.Settings.VersionAttribute})
	if err != nil {
		m.status.Err = sanitize(err.Error())
		return m, nil
	}
	return m.push(overlay.NewWrite(p, nil)), nil
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
	for i := 0; i < m.items.Store.Total && len(out) < 500; i++ {
		it, ok := m.items.Store.Item(i)
		if !ok {
			continue
		}
		if id == "" || m.entityKey(keyOf(it, m.items.KeyName)) == id {
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
		if k := keyOf(it, m.items.KeyName); k == sk || row < 0 && k > sk {
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
		m.items = m.items.Move(row-m.items.Cursor(), m.layout().bodyH)
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
		m.status.Err = sanitize(err.Error())
		return m, nil
	}
	m.status.Info = "copied a get-item of this item as an aws dynamodb command (OSC 52)"
	return m, m.clip(cmd)
}

// openEdit opens a draft; the writer must be there (the keys that get
// here are enabled only then).
func (m Model) openEdit(d overlay.Draft, title string) (Model, tea.Cmd) {
	if m.opts.Editor == nil {
		return m, nil
	}
	if m.index != "" {
		// An index holds a projection: an edit or a copy of it could
		// miss attributes the item has.
		m.status.Err = "items are edited on the base table, where they are whole: i chooses it."
		return m, nil
	}
	return m.push(overlay.NewEdit(d, title)), nil
}

// editSelected edits the item under the cursor; asNew duplicates it.
func (m Model) editSelected(asNew bool) (Model, tea.Cmd) {
	it, ok := m.items.Selected()
	if !ok || !m.haveTable {
		return m, nil
	}
	title := "Edit · " + sanitize(keyOf(it, m.items.KeyName))
	if asNew {
		title = "Duplicate under a new key · " + sanitize(keyOf(it, m.items.KeyName))
	}
	return m.openEdit(overlay.NewDraft(m.table, it, asNew), title)
}

// newEntityItem starts a new item of the entity type under the groups
// cursor, with the attributes its loaded items have.
func (m Model) newEntityItem() (Model, tea.Cmd) {
	if !m.haveTable || m.query.PK == "" || m.index != "" {
		m.status.Err = "a new item is made on the base table's partition: open one (i chooses the table)."
		return m, nil
	}
	prefix, items := m.entityItems(m.groups.cursor())
	title := "New item"
	if prefix != "" {
		title += " · " + sanitize(prefix)
	}
	return m.openEdit(overlay.EntityDraft(m.table, m.query.PK, prefix, items), title)
}

// undoLast shows the undo of the session's last write for confirmation.
func (m Model) undoLast() (Model, tea.Cmd) {
	if m.opts.Editor == nil {
		return m, nil
	}
	if len(m.edits) == 0 {
		m.status.Info = "nothing to undo: no write in this session yet (dynascope journal lists earlier ones)"
		return m, nil
	}
	e := m.edits[len(m.edits)-1]
	t := m.table
	if !m.haveTable || t.Name != e.Table {
		t = e.Keys()
	}
	if len(e.Items) > 1 {
		return m.undoBulk(e, t), nil
	}
	p, err := edit.UndoPlan(e, t)
	if err != nil {
		m.status.Err = sanitize(err.Error())
		return m, nil
	}
	return m.push(overlay.NewWrite(p, &e)), nil
}

// writeDone takes the answer of a write into its overlay, the request log
// and the session's undo list, and reads the partition again to show it.
func (m Model) writeDone(msg writeDoneMsg) (Model, tea.Cmd) {
	for _, r := range msg.res.Requests {
		m.log = m.log.AddWrite(r)
	}
	o, ok := findOverlay[overlay.Write](m)
	if !ok || !m.flight.waits(flightWrite, msg.id) {
		return m, nil
	}
	o = o.Answered(msg.res, msg.err)
	// u takes back a write that was made, or may have been (in doubt:
	// undo then finds whether it landed).
	if e, ok := o.Journalled(); ok && msg.undo == nil {
		m.edits = append(m.edits, e)
	}
	if msg.undo != nil && msg.err == nil {
		if n := len(m.edits); n > 0 && m.edits[n-1].Number == msg.undo.Number {
			m.edits = m.edits[:n-1]
		}
	}
	m = replaceOverlay(m, o)
	p := o.Plan()
	if o.Failed() || !m.haveTable || p.Table != m.table.Name || m.query.PK == "" {
		return m, nil
	}
	// Show the item as it is now: the partition's first page again, one
	// request, said in the log, with the cursor back on the item.
	it := p.New
	if it == nil {
		it = p.Old
	}
	m.reselect = keyOf(it, m.items.KeyName)
	return m.runQuery(m.query)
}
