package ui

import "dynascope/ui/overlay"

// Cursors kept across a partition change. Leaving a partition closes every
// overlay (enterPartition). The overview and the patterns keep their
// cursors with the root already (keepOverview, keepPatterns), because
// they are the table's, whichever partition is open. An overlay about one
// item of the partition (F's links, I's targets) lost its cursor: open a
// link, come back with esc, press F again, and the cursor was on the first
// candidate. Such an overlay is an overlay.CursorKeeper: the cursor it had when
// leaving closed it is kept for its item in that partition, and given back
// once, the next time it opens on that item there.

// spotOf is where keeper o's cursor belongs in the partition open.
func (m Model) spotOf(o overlay.CursorKeeper) cursorSpot {
	s := cursorSpot{id: o.ID(), at: m.openAt, itemPK: keyOf(o.Subject(), m.table.PK.Name)}
	if m.table.SK != nil {
		s.sk = keyOf(o.Subject(), m.table.SK.Name)
	}
	return s
}

// keepCursors remembers the cursors of the keepers on the stack, before
// leaving the partition open (m.openAt) closes them.
func (m Model) keepCursors() Model {
	for _, o := range m.overlays {
		k, ok := o.(overlay.CursorKeeper)
		if !ok {
			continue
		}
		if m.cursors == nil {
			m.cursors = map[cursorSpot]int{}
		}
		m.cursors[m.spotOf(k)] = k.CursorAt()
	}
	return m
}

// keptCursor gives o the cursor kept for it in the partition open, once.
func (m Model) keptCursor(o overlay.Overlay) overlay.Overlay {
	k, ok := o.(overlay.CursorKeeper)
	if !ok || len(m.cursors) == 0 {
		return o
	}
	s := m.spotOf(k)
	c, ok := m.cursors[s]
	if !ok {
		return o
	}
	delete(m.cursors, s)
	return k.WithCursor(c)
}
