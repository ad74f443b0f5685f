package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"dynascope/indexes"
	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
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

func (indexMapOverlay) ID() overlay.ID                { return overlay.IndexMapID }
func (indexMapOverlay) Mode(overlay.Env) *keymap.Mode { return modeIndexMap }
func (indexMapOverlay) Hides() overlay.Hidden         { return overlay.Hidden{Query: true} }

func (o indexMapOverlay) Update(e overlay.Env, msg tea.Msg) (overlay.Overlay, overlay.Want) {
	_, act := listKey(e.Keys, msg, 0, 1)
	switch {
	case act == "close":
		return o, overlay.Close{}
	case act == "open" && o.req == 0:
		return o, overlay.ScanIndexMap{Table: o.table, MaxItems: o.maxItems, MaxRCU: o.maxRCU}
	}
	return o, nil
}

func (o indexMapOverlay) View(e overlay.Env, w, h int) string {
	st, inner := e.St, w-2
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

var modeIndexMap = &keymap.Mode{Name: "index map", Keys: []keymap.Binding{
	keymap.InBar("open", "read the sample"), keymap.InBar("back", "close"), keymap.Bind("cancel", "close"), keymap.Bind("help"),
}}
