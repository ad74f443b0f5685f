package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

// partitionPrompt asks for a partition key value, offering the partitions
// opened before on this table and index.
type partitionPrompt struct {
	schema  dynamo.KeySchema
	input   widget.LineEdit
	history []historyEntry // every index of the table, most recent first
	matches []string       // values for this index that fit what is typed
	// list is the cursor over matches: on none (widget.List.AllowNone)
	// unless browsing with ↑/↓. It is moved with no height, which only the
	// drawing knows, so it keeps no window of its own: the one drawn ends
	// on the value browsed to.
	list  widget.List
	err   string      // why the value was refused, sanitised
	cycle promptCycle // tab pressed again: the next match (prompt_cycle.go)
}

func newPrompt(schema dynamo.KeySchema, value string, history []historyEntry) partitionPrompt {
	p := partitionPrompt{schema: schema, input: widget.NewLineEdit(value), history: history}
	return p.refilter()
}

// refilter lists remembered values of this index: those that start with the
// input first, then those that merely contain it.
func (p partitionPrompt) refilter() partitionPrompt {
	in := p.input.String()
	var pre, sub []string
	for _, h := range p.history {
		if h.Index != p.schema.Index {
			continue
		}
		switch {
		case strings.HasPrefix(h.PK, in):
			pre = append(pre, h.PK)
		case strings.Contains(strings.ToLower(h.PK), strings.ToLower(in)):
			sub = append(sub, h.PK)
		}
	}
	p.matches = append(pre, sub...)
	p.list = widget.NewList(len(p.matches)).AllowNone()
	return p
}

// ghost is the rest of the first remembered value that starts with the input.
func (p partitionPrompt) ghost() string {
	in := p.input.String()
	if _, browsing := p.list.Selected(); in == "" || browsing || !p.input.AtEnd() {
		return ""
	}
	for _, m := range p.matches {
		if strings.HasPrefix(m, in) && m != in {
			return m[len(in):]
		}
	}
	return ""
}

// complete accepts the completion; pressed again it cycles (nextMatch).
func (p partitionPrompt) complete() partitionPrompt {
	if q, ok := p.nextMatch(); ok {
		return q
	}
	if g := p.ghost(); g != "" {
		stem := p.input.String()
		p.input.Set(stem + g)
		p = p.refilter()
		p.cycle = promptCycle{stem: stem, at: p.input.String()}
	}
	return p
}

// browse steps through the remembered values, shell-history style.
func (p partitionPrompt) browse(delta int) partitionPrompt {
	if len(p.matches) == 0 {
		return p
	}
	p.list = p.list.Move(delta)
	if i, ok := p.list.Selected(); ok {
		p.input.Set(p.matches[i])
	}
	p.err = ""
	return p
}

func (p partitionPrompt) viewBox(st styles, table string, w, h int) string {
	inner := w - 2
	where := "table " + sanitize(table)
	if p.schema.Index != "" {
		where = "index " + sanitize(p.schema.Index) + " of " + sanitize(table)
	}
	pk := sanitize(p.schema.PK.Name)
	lines := []string{
		" " + st.Muted.Render("partition key ") + st.Bold.Render(pk) + st.Muted.Render(" ("+typeWord(p.schema.PK.Type)+") of "+where),
		"",
	}
	label := " " + st.Accent.Render(pk+" ›") + " "
	lines = append(lines, label+p.input.View(st, max(1, inner-widget.Width(label)-1), p.ghost()))
	if p.err != "" {
		for _, l := range widget.WrapLines(p.err, inner-3) {
			lines = append(lines, "   "+st.Err.Render(l))
		}
	} else {
		lines = append(lines, "")
	}
	lines = append(lines, "")
	if len(p.matches) > 0 {
		lines = append(lines, " "+st.Muted.Render("opened before"))
		room := h - 2 - len(lines)
		lines = append(lines, p.list.SetHeight(room).View(inner, widget.Delegate{Render: func(r widget.Row, inner int) []string {
			l := "   " + sanitize(p.matches[r.Index])
			if r.Cursor {
				l = st.Sel.Render(widget.Fit(l, inner))
			}
			return []string{l}
		}})...)
	} else if len(p.history) == 0 {
		lines = append(lines, " "+st.Muted.Render("partitions you open are remembered here"))
	}
	return widget.Box(st, "Open a partition", lines, w, h, true)
}

// typeWord names a key type for people.
func typeWord(t string) string {
	switch t {
	case "S":
		return "string"
	case "N":
		return "number"
	case "B":
		return "binary, as base64"
	}
	return t
}

func (m Model) promptKey(msg tea.KeyPressMsg, km keymap.KeyMap) (Model, tea.Cmd) {
	switch {
	case key.Matches(msg, km.ListUp):
		m.prompt = m.prompt.browse(1)
	case key.Matches(msg, km.ListDown):
		m.prompt = m.prompt.browse(-1)
	case key.Matches(msg, km.Complete):
		m.prompt = m.prompt.complete()
	case key.Matches(msg, km.OverviewCtrl):
		return m.openOverview(), nil
	case key.Matches(msg, km.Scan):
		return m.openScan(m.table.Name), nil
	case key.Matches(msg, km.Open):
		return m.openPartition(m.prompt.input.String())
	case key.Matches(msg, km.Cancel):
		switch {
		case m.results.pages() > 0 || m.query.PK != "":
			// Back to the partition that was open; the index it was read
			// through may have been switched here, so restore it.
			m.index = m.query.Index
			ks, _ := m.table.Schema(m.index)
			m.setSchema(ks)
			m.screen = screenPartition
		case m.opts.Table == "":
			m.screen = screenTables
		default:
			return m, tea.Quit
		}
	default:
		return m.promptText(msg)
	}
	return m, nil
}

func (m Model) promptText(msg tea.Msg) (Model, tea.Cmd) {
	if in, ok := m.prompt.input.Update(msg); ok {
		m.prompt.input = in
		m.prompt.err = ""
		m.prompt = m.prompt.refilter()
	}
	return m, nil
}

// The status bar shows what fits in this order: the keys of the prompt
// itself before the ones that leave it.
var modePrompt = &keymap.Mode{Name: "prompt", Typing: true, Keys: []keymap.Binding{
	keymap.InBar("open", "open partition"), keymap.InBar("complete", "complete (again: next)"), keymap.InBar("overviewCtrl"),
	keymap.InBar("cancel", "back"), keymap.InBar("scan", "scan table"), keymap.InBar("listUp", "older"), keymap.InBar("listDown", "newer"),
	keymap.Bind("connections"),
}}
