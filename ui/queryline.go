package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/ui/keymap"
	"dynascope/ui/pane"
	"dynascope/ui/widget"
)

// editKey handles the query line's field: the sort-key condition, the Limit,
// or the local filter.
func (m Model) editKey(msg tea.KeyPressMsg, km keymap.KeyMap, md *keymap.Mode) (Model, tea.Cmd) {
	switch {
	case key.Matches(msg, km.Cancel):
		if md == modeFilter {
			m.items = m.items.SetFilter("")
		}
		m.qline = pane.QueryLine{}
		return m.maybeLoadMore()
	case key.Matches(msg, km.Open):
		text := m.qline.Input.String()
		switch md {
		case modeCondition:
			c, isDate, err := m.groups.labelDatePrefix(text, m.query.SK)
			if !isDate {
				c, isDate, err = m.groups.datePrefix(text)
			}
			if !isDate {
				c, err = pane.ParseCondition(text)
			}
			if err != nil {
				m.qline.Err = sanitize(err.Error())
				return m, nil
			}
			q := m.query
			q.SK = c
			if _, err := dynamo.BuildQuery(m.schema, q); err != nil {
				m.qline.Err = sanitize(err.Error())
				return m, nil
			}
			m.qline = pane.QueryLine{}
			return m.runQuery(q)
		case modeRequestFilter, modeProjection:
			q := m.query
			if md == modeProjection {
				q.Project = text
			} else {
				q.Filter = text
			}
			if _, err := dynamo.BuildQuery(m.schema, q); err != nil {
				m.qline.Err = sanitize(err.Error())
				return m, nil
			}
			m.qline = pane.QueryLine{}
			return m.runQuery(q)
		case modeLimit:
			n, err := pane.ParseLimit(text)
			if err != nil {
				m.qline.Err = err.Error()
				return m, nil
			}
			m.qline = pane.QueryLine{}
			q := m.query
			q.Limit = n
			return m.runQuery(q)
		default:
			m.qline = pane.QueryLine{}
			m.focus = paneItems
			return m, nil
		}
	}
	return m.editText(msg)
}

func (m Model) editText(msg tea.Msg) (Model, tea.Cmd) {
	in, ok := m.qline.Input.Update(msg)
	if !ok {
		return m, nil
	}
	m.qline.Input, m.qline.Err = in, ""
	if m.qline.Edit == pane.EditFilter {
		m.items = m.items.SetFilter(in.String())
		return m.itemsFollowUp()
	}
	return m, nil
}

func (m Model) startEdit(k pane.EditKind, text string) Model {
	m.qline = pane.QueryLine{Edit: k, Input: widget.NewLineEdit(text)}
	if t, _, ok := m.groups.labelTimes(m.query.SK); ok && k == pane.EditCondition {
		m.qline.Dates = sanitize(t.Entity)
	} else if t, ok := m.groups.timeGroup(); ok && k == pane.EditCondition {
		m.qline.Dates = sanitize(t.Entity)
	}
	return m
}

// The query line's fields: enter applies, esc cancels, printable keys type.
var (
	modeCondition = editMode("condition", "run query")
	modeLimit     = editMode("limit", "apply Limit")
	modeFilter    = editMode("filter", "keep filter")
	// requestFilterMode edits the FilterExpression DynamoDB applies after
	// reading: it narrows what comes back, not what is charged.
	modeRequestFilter = editMode("request filter", "run with this filter")
	modeProjection    = editMode("projection", "run with this projection")
)

func editMode(name, apply string) *keymap.Mode {
	return &keymap.Mode{Name: name, Typing: true, Keys: []keymap.Binding{keymap.InBar("open", apply), keymap.InBar("cancel", "cancel")}}
}
