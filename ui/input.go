package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"dynascope/codegen"
	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/ui/request"
	"dynascope/ui/widget"
)

// Input every view shares: the movement keys as a step, the mouse, and
// copying to the clipboard. Each mode's own key handler sits with the pane
// or overlay it drives (tablepicker.go, prompt.go, queryline.go,
// partition.go, overlay_*.go); bindings are matched first, and in modes
// with a text field anything else is typing.

func (m Model) copyItem(it dynamo.Item) (Model, tea.Cmd) {
	b := itemcodec.PlainJSON(it)
	m.status.Info = fmt.Sprintf("copied the item as JSON (%s) to the clipboard (OSC 52)", plural(len(b), "byte", "bytes"))
	return m, m.clip(string(b))
}

// copyCommand copies the current request as the aws CLI command that sends
// exactly it: one request, the same page.
func (m Model) copyCommand() (Model, tea.Cmd) {
	if m.query.PK == "" {
		return m, nil
	}
	cmd, err := request.Code(codegen.LangCLI, m.currentInput(), m.codeTarget())
	if err != nil {
		m.status.Err = sanitize(err.Error())
		return m, nil
	}
	op := "query"
	if m.get != nil {
		op = "get-item"
	}
	m.status.Info = "copied the request as an aws dynamodb " + op + " command (OSC 52)"
	return m, m.clip(cmd)
}

// handleMouse: the wheel scrolls what is under the pointer, a left click
// focuses a pane and selects the row under the pointer.
func (m Model) handleMouse(msg tea.MouseMsg) (Model, tea.Cmd) {
	mo := msg.Mouse()
	lay := m.layout()
	md := m.mode()
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		delta := widget.WheelDelta(msg)
		if delta == 0 {
			return m, nil
		}
		if o := m.top(); o != nil {
			return m.updateTop(o, msg)
		}
		switch md {
		case modeTables:
			m.picker = m.picker.Move(delta, m.picker.ListHeight(lay.w, lay.bodyH))
		case modeGroups, modeItems:
			if lay.showGroups && (!lay.showItems || mo.X < lay.itemsX) {
				m.groups = m.groups.move(delta, lay.groupRows())
				return m, nil
			}
			m.items = m.items.Move(delta, lay.itemRows)
			return m.maybeLoadMore()
		}
		return m, nil
	case tea.MouseClickMsg:
		if mo.Button != tea.MouseLeft || mo.Y < lay.bodyY || mo.Y >= lay.bodyY+lay.bodyH {
			return m, nil
		}
		y := mo.Y - lay.bodyY
		switch md {
		case modeTables:
			l := m.picker.List.SetHeight(m.picker.ListHeight(lay.w, lay.bodyH))
			row := l.Offset() + y - m.picker.FirstRow(lay.w)
			if row >= 0 && row < l.Len() {
				m.picker.List = l.MoveTo(row)
			}
		case modeGroups, modeItems:
			if lay.showGroups && (!lay.showItems || mo.X < lay.itemsX) {
				m.focus = paneGroups
				rh := groupRowHeight(lay.compact)
				l := m.groups.list().SetHeight(lay.groupRows())
				if row := l.Offset() + (y-1)/rh; y >= 1 && row < l.Len() {
					m.groups.nav = l.MoveTo(row)
				}
				return m, nil
			}
			m.focus = paneItems
			l := m.items.Nav().SetHeight(lay.itemRows)
			if row := l.Offset() + y - 2; y >= 2 && row < l.Len() {
				m.items.List = l.MoveTo(row)
			}
			return m.maybeLoadMore()
		}
	}
	return m, nil
}
