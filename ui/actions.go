package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"dynascope/ui/overlay"
)

// What an overlay asks of the root (ui/overlay's actions.go declares the
// actions): Model.do carries each out. Only the root sends requests, hands
// out their ids, keeps their cancel functions and the request log.

// do carries out what an overlay asked: itself the stack, the status line
// and the clipboard, and through the steps below the rest, one family each
// (as ui/overlay's actions.go groups them). A step passes what is not its
// own to the next; TestEveryWantIsDone holds every action to a case in
// one of them.
func (m Model) do(a overlay.Want) (Model, tea.Cmd) {
	switch a := a.(type) {
	case nil:
		return m, nil
	case overlay.Then:
		var cmds []tea.Cmd
		for _, x := range a {
			var cmd tea.Cmd
			m, cmd = m.do(x)
			cmds = append(cmds, cmd)
		}
		return m, tea.Batch(cmds...)
	case overlay.Close:
		return m.pop(), nil
	case overlay.Open:
		return m.push(a.O), nil
	case overlay.Remove:
		for _, id := range a.IDs {
			m = m.remove(id)
		}
		return m, nil
	case overlay.ShowInfo:
		m.status.Info = a.Text
		return m, nil
	case overlay.ShowError:
		m.status.Err = a.Text
		return m, nil
	case overlay.CopyText:
		m.status.Info = a.Info
		return m, m.clip(a.Text)
	}
	return m.doForItem(a)
}

// doForItem does what the root's own methods do for an item, a request or
// a partition: copy, open another view, jump.
func (m Model) doForItem(a overlay.Want) (Model, tea.Cmd) {
	switch a := a.(type) {
	case overlay.CopyItem:
		return m.copyItem(a.It)
	case overlay.CopyGetItem:
		return m.copyGetItem(a.It)
	case overlay.CopyRequest:
		return m.copyCommand()
	case overlay.OpenJumpList:
		return m.openJump(a.It)
	case overlay.OpenLinkList:
		return m.openLinks(a.It)
	case overlay.EditItem:
		return m.openEdit(overlay.NewDraft(m.table, a.It, a.AsNew), a.Title)
	case overlay.DeleteItem:
		return m.deleteItem(a.It)
	case overlay.UndoLast:
		return m.undoLast()
	case overlay.JumpTo:
		return m.jump(a.It, a.To)
	case overlay.OpenCode:
		return m.openCode(a.In, a.From), nil
	case overlay.OpenPatternCode:
		return m.openCodeNoted(m.resolvedInput(a.R), a.From, a.Note), nil
	case overlay.OpenLoggedCode:
		return m.codeLogged(), nil
	case overlay.OpenLogList:
		return m.openLog(), nil
	case overlay.MoveLog:
		m.log = m.log.Move(a.Delta, a.H)
		return m, nil
	case overlay.StopLive:
		return m.stopLive(), nil
	case overlay.ChooseIndex:
		return m.chooseIndex(a.Name), nil
	case overlay.OpenIndexMap:
		return m.openIndexMap(), nil
	case overlay.OpenPartitionAt:
		return m.openPartitionOf(a.Index, a.PK)
	case overlay.SwitchConnection:
		return m.switchConnection(a.To)
	}
	return m.doRequest(a)
}

// doRequest sends a request an overlay asked for (the root hands out its
// id and keeps its cancel function), or stops one.
func (m Model) doRequest(a overlay.Want) (Model, tea.Cmd) {
	switch a := a.(type) {
	case overlay.SavePattern:
		return m, savePatternCmd(m.patternsPath, a.P)
	case overlay.RunPattern:
		return m.runPattern(a.P, a.Params)
	case overlay.KeepPatterns:
		m.patternCursor, m.patternOffset = a.Cursor, a.Offset
		return m, nil
	case overlay.ScanIndexMap:
		return m.scanIndexMap(a)
	case overlay.PlanBulk:
		id, ctx := m.flight.start(m.ctx, flightBulk)
		return m, bulkPlanCmd(ctx, m.store, id, a.In)
	case overlay.RunBulk:
		id, ctx := m.flight.start(m.ctx, flightBulk)
		return m, bulkRunCmd(ctx, m.store, m.send, id, a)
	case overlay.StopBulk:
		m.flight.cancel(flightBulk) // the reply brings what was read
		return m, nil
	case overlay.StopExplain:
		m.flight.cancel(flightExplain) // the reply logs what was read
		return m, nil
	case overlay.SendBulkChange:
		return m.sendBulkChange(a)
	case overlay.StopBulkChange:
		m.flight.cancel(flightBulkWrite) // the writes in flight finish; the reply says what was done
		return m, nil
	case overlay.SendWrite:
		id := m.flight.mark(flightWrite)
		return m, writeCmd(m.ctx, m.opts.Editor, id, a.Plan, a.Undo)
	case overlay.ReapplyWrite:
		return m.reapply(a.Plan)
	case overlay.StartExport:
		return m.startExport(a)
	case overlay.StopExport:
		if m.export.cancel != nil {
			m.export.cancel()
		}
		return m, nil
	}
	return m.doOverview(a)
}

// doOverview changes the overview's state, which the root keeps between
// openings, and sends or stops its sample.
func (m Model) doOverview(a overlay.Want) (Model, tea.Cmd) {
	switch a := a.(type) {
	case overlay.StartSample:
		return m.startSample(a.In)
	case overlay.StopSample:
		// The sample returns what it read so far; sampleDone shows it.
		m.overview.Stopping = true
		m.flight.cancel(flightSample)
		return m, nil
	case overlay.OverviewErr:
		m.overview.Err = a.Text
		return m, nil
	case overlay.ShowCaps:
		m.overview.Phase, m.overview.Err = overlay.OvSetup, ""
		return m, nil
	case overlay.ShowLayout:
		m.overview.Phase = overlay.OvDone
		return m, nil
	case overlay.KeepOverview:
		m.overview.Cursor, m.overview.Form = a.Cursor, a.Form
		return m, nil
	}
	// A new action without its case in a step: TestEveryWantIsDone fails
	// first; should one get here, it is said, not dropped.
	m.status.Err = fmt.Sprintf("ui: no root action for %T", a)
	return m, nil
}
