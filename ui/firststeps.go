package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
	"dynascope/ui/pane"
)

// The first steps: on a first start (the table's history was empty when
// read), the partition screen says, on the line above the status bar, the
// keys a newcomer needs — another partition, the query's condition and
// order, help — until one of them is used. Their keys come from the keymap,
// so keys rebound in the settings are the ones shown.

// statusShown is the status line as drawn: the first steps added while
// they are due.
func (m Model) statusShown() pane.Status {
	s := m.status
	if m.firstSteps && !m.firstStepsDone && m.screen == screenPartition {
		k := m.keymap
		s.Tip = fmt.Sprintf("start with: %s partition · %s sort-key condition · %s reverse order · %s help",
			k.Partition.Help().Key, k.EditCondition.Help().Key, k.Reverse.Help().Key, k.Help.Help().Key)
	} else if m.emptyResult() && m.topID() == overlay.None {
		s.Tip = m.emptyTip()
	}
	return s
}

// firstStepTaken ends the first steps once one of their keys is used
// where it works (km is the keymap of the mode the key was pressed in).
func (m Model) firstStepTaken(msg tea.KeyPressMsg, km keymap.KeyMap) Model {
	if m.firstSteps && !m.firstStepsDone && key.Matches(msg, km.Partition, km.EditCondition, km.Reverse, km.Help) {
		m.firstStepsDone = true
	}
	return m
}
