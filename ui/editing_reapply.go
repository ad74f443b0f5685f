package ui

// After a refused write, the way forward (r on the refusal screen): the
// item read again, strongly consistent, and the refused plan's changes
// put on it as it is now (edit.Reapply), shown in the write overlay as a
// new write before it is sent.

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/ui/overlay"
)

// reapplyReadMsg answers reapplyReadCmd: the item now at the plan's key
// and, for a key change, at its new key.
type reapplyReadMsg struct {
	id         int
	plan       *edit.Plan
	gets       []dynamo.GetInput
	pages      []dynamo.Page
	now, atNew dynamo.Item
	err        error
}

// reapplyReadCmd reads the refused plan's item again: at the key it had
// (a put's new key), and at a key change's new key.
func reapplyReadCmd(ctx context.Context, s Store, id int, p *edit.Plan) tea.Cmd {
	return func() tea.Msg {
		msg := reapplyReadMsg{id: id, plan: p}
		at := p.Old
		if at == nil {
			at = p.New
		}
		keys := []dynamo.Item{at}
		if p.Op == edit.OpTransact {
			keys = append(keys, p.New)
		}
		for i, it := range keys {
			g := dynamo.GetInput{Table: p.Table, Consistent: true}
			_, g.PK = edit.ValueInput(it[p.Keys.PK.Name])
			if p.Keys.SK != nil {
				_, g.SK = edit.ValueInput(it[p.Keys.SK.Name])
			}
			page, err := s.GetItem(ctx, g)
			msg.gets, msg.pages = append(msg.gets, g), append(msg.pages, page)
			if err != nil {
				msg.err = err
				return msg
			}
			var found dynamo.Item
			if len(page.Items) > 0 {
				found = page.Items[0]
			}
			if i == 0 {
				msg.now = found
			} else {
				msg.atNew = found
			}
		}
		return msg
	}
}

// reapply has the refused plan's item read again.
func (m Model) reapply(p *edit.Plan) (Model, tea.Cmd) {
	id := m.flight.mark(flightWrite)
	m.status.info = "reading the item again to put your changes on it…"
	return m, reapplyReadCmd(m.ctx, m.store, id, p)
}

// reapplyRead logs the reads and shows the refused plan's changes put on
// the item as it is now, in place of the refusal.
func (m Model) reapplyRead(msg reapplyReadMsg) (Model, tea.Cmd) {
	for i, page := range msg.pages {
		m.log = m.log.add(page.Request, "read again for your changes", 1, m.getInput(msg.gets[i]))
	}
	if !m.flight.waits(flightWrite, msg.id) {
		return m, nil
	}
	m.status.info = ""
	if msg.err != nil {
		m.status.err = sanitize("could not read the item again: " + msg.err.Error())
		return m, nil
	}
	r, err := edit.Reapply(msg.plan, msg.now, msg.atNew)
	if err != nil {
		m.status.err = sanitize(err.Error())
		return m, nil
	}
	return replaceOverlay(m, overlay.Reapplied(msg.plan, r)), nil
}
