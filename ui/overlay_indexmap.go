package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/indexes"
	"dynascope/ui/widget"
)

// The overview's index map (M): every secondary index over a bounded Scan
// of whole items — the overview's sample reads keys only, and index keys
// are other attributes — its caps said before anything is read: members
// and share (sparse), partitions and the largest one's share (skew), the
// entity types (overloaded), what it projects, and the violations.

// indexMapOverlay asks for the Scan, then shows the map.
type indexMapOverlay struct {
	req              int // the Scan's id; 0 until enter
	maxItems         int
	maxRCU           float64
	stats            []indexes.Stats
	rcu              float64
	requests         int
	stop, err, table string
}

func (indexMapOverlay) id() overlayID   { return overlayIndexMap }
func (indexMapOverlay) mode(Model) mode { return modeIndexMap }
func (indexMapOverlay) hides() hidden   { return hidden{query: true} }

// indexMapDoneMsg answers the map's Scan.
type indexMapDoneMsg struct {
	id    int
	items []dynamo.Item
	res   dynamo.ScanResult
	err   error
}

// openIndexMap shows the caps of the map's Scan; enter reads it.
func (m Model) openIndexMap() Model {
	items, rcu := dynamo.DefaultSampleItems, float64(dynamo.DefaultSampleRCU)
	if m.overview.in.MaxItems > 0 {
		items, rcu = m.overview.in.MaxItems, m.overview.in.MaxRCU
	}
	return m.push(indexMapOverlay{maxItems: items, maxRCU: rcu, table: m.table.Name})
}

func (o indexMapOverlay) update(e overlayEnv, msg tea.Msg) (overlay, want) {
	_, act := listKey(e.keys, msg, 0, 1)
	switch {
	case act == "close":
		return o, closeOverlay{}
	case act == "open" && o.req == 0:
		return o, scanIndexMap{table: o.table, maxItems: o.maxItems, maxRCU: o.maxRCU}
	}
	return o, nil
}

// scanIndexMap sends the map's Scan; the overlay knows it by its id.
func (m Model) scanIndexMap(a scanIndexMap) (Model, tea.Cmd) {
	o, ok := findOverlay[indexMapOverlay](m)
	if !ok {
		return m, nil
	}
	id := m.flight.newID()
	o.req = id
	store, ctx := m.store, m.observe(m.ctx, id)
	cmd := func() tea.Msg {
		items, res, err := dynamo.SampleItems(ctx, store.Scan, a.table, a.maxItems, a.maxRCU)
		return indexMapDoneMsg{id: id, items: items, res: res, err: err}
	}
	return replaceOverlay(m, o), cmd
}

// indexMapDone logs the Scan's requests and shows the map.
func (m Model) indexMapDone(msg indexMapDoneMsg) (Model, tea.Cmd) {
	for i, r := range msg.res.Requests {
		m.log = m.log.add(r, "index map", i+1, reqInput{})
	}
	o, ok := findOverlay[indexMapOverlay](m)
	if !ok || o.req != msg.id {
		return m, nil
	}
	o.stats, o.rcu, o.requests, o.stop = indexes.Compute(m.table, msg.items), msg.res.Capacity().Total, len(msg.res.Requests), string(msg.res.Stop)
	if msg.err != nil {
		o.err = sanitize(msg.err.Error())
	}
	return replaceOverlay(m, o), nil
}

func (o indexMapOverlay) view(m Model, w, h int) string {
	st, inner := m.st, w-2
	var lines []string
	addWrapped := func(s string) {
		for _, l := range strings.Split(widget.Wrap(s, max(8, inner-2)), "\n") {
			lines = append(lines, " "+l)
		}
	}
	switch {
	case o.req == 0:
		addWrapped(fmt.Sprintf("The map reads whole items of %s with one Scan: up to %d items / %s RCU (the overview's caps). enter reads it, esc closes.",
			sanitize(o.table), o.maxItems, fmtRCU(o.maxRCU)))
	case o.stop == "" && o.err == "":
		addWrapped("reading the sample…")
	default:
		items := 0
		if len(o.stats) > 0 {
			items = o.stats[0].Items
		}
		addWrapped(fmt.Sprintf("a sample of %s, stopped: %s · %s · %s RCU", plural(items, "item", "items"), o.stop,
			plural(o.requests, "request", "requests"), fmtRCU(o.rcu)) + overCapText(o.rcu, o.maxRCU))
		if o.err != "" {
			lines = append(lines, " "+st.Err.Render(o.err))
		}
		if len(o.stats) == 0 {
			addWrapped("the table has no secondary indexes")
		}
		for _, s := range o.stats {
			lines = append(lines, "")
			ix := s.Index
			lines = append(lines, " "+st.Bold.Render(sanitize(ix.Name))+st.Muted.Render(" · "+strings.ToLower(string(ix.Kind))+" "+ix.Projection))
			shape := []string{}
			if s.Members < s.Items {
				shape = append(shape, "sparse")
			}
			if s.Overloaded() {
				shape = append(shape, "overloaded")
			}
			addWrapped(fmt.Sprintf("  %s (%.1f%%) %s in %s", plural(s.Members, "member", "members"), s.Share*100, strings.Join(shape, ", "), plural(s.Partitions, "partition", "partitions")))
			if s.Members > 0 {
				addWrapped(fmt.Sprintf("  largest %s: %s (%.0f%% of the members)", sanitize(s.Largest.Key), plural(s.Largest.Items, "item", "items"), s.Largest.Share*100))
			}
			var types []string
			for _, e := range s.EntityTypes {
				types = append(types, fmt.Sprintf("%s %d", sanitize(e.Entity), e.Items))
			}
			if len(types) > 0 {
				addWrapped("  entity types " + strings.Join(types, " · "))
			}
			if s.ViolationCount > 0 {
				addWrapped(fmt.Sprintf("  %s it skips:", plural(s.ViolationCount, "item", "items")))
				for _, v := range s.Violations[:min(3, len(s.Violations))] {
					addWrapped("    " + sanitize(v.Why))
				}
			}
		}
	}
	return widget.Box(st, "Index map · "+sanitize(o.table), lines, w, h, true)
}

var indexMapMode = modeDef{name: "index map", keys: []binding{
	inBar("open", "read the sample"), inBar("back", "close"), bind("cancel", "close"), bind("help"),
}}
