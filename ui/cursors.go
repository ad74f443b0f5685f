package ui

import "dynascope/dynamo"

// Cursors kept across a partition change. Leaving a partition closes every
// overlay (enterPartition). The overview and the patterns keep their
// cursors with the root already (keepOverview, keepPatterns), because
// they are the table's, whichever partition is open. An overlay about one
// item of the partition (F's links, I's targets) lost its cursor: open a
// link, come back with esc, press F again, and the cursor was on the first
// candidate. Such an overlay is a cursorKeeper: the cursor it had when
// leaving closed it is kept for its item in that partition, and given back
// once, the next time it opens on that item there.

// cursorKeeper is an overlay about one item whose cursor outlives its
// closing by a partition change.
type cursorKeeper interface {
	overlay
	subject() dynamo.Item   // the item it is about
	cursorAt() int          // where its cursor is
	withCursor(int) overlay // the overlay with the cursor there, clamped to its rows
}

// partitionPlace is a partition of the table or of one of its indexes.
type partitionPlace struct{ index, pk string }

// cursorSpot is where a kept cursor belongs: an overlay, a partition, an item.
type cursorSpot struct {
	id         overlayID
	at         partitionPlace
	itemPK, sk string
}

// spotOf is where keeper o's cursor belongs in the partition open.
func (m Model) spotOf(o cursorKeeper) cursorSpot {
	s := cursorSpot{id: o.id(), at: m.openAt, itemPK: keyOf(o.subject(), m.table.PK.Name)}
	if m.table.SK != nil {
		s.sk = keyOf(o.subject(), m.table.SK.Name)
	}
	return s
}

// keepCursors remembers the cursors of the keepers on the stack, before
// leaving the partition open (m.openAt) closes them.
func (m Model) keepCursors() Model {
	for _, o := range m.overlays {
		k, ok := o.(cursorKeeper)
		if !ok {
			continue
		}
		if m.cursors == nil {
			m.cursors = map[cursorSpot]int{}
		}
		m.cursors[m.spotOf(k)] = k.cursorAt()
	}
	return m
}

// keptCursor gives o the cursor kept for it in the partition open, once.
func (m Model) keptCursor(o overlay) overlay {
	k, ok := o.(cursorKeeper)
	if !ok || len(m.cursors) == 0 {
		return o
	}
	s := m.spotOf(k)
	c, ok := m.cursors[s]
	if !ok {
		return o
	}
	delete(m.cursors, s)
	return k.withCursor(c)
}
