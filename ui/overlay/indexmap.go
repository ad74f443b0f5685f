package overlay

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/indexes"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

// The overview's index map (M): every secondary index over a bounded Scan
// of whole items — the overview's sample reads keys only, and index keys
// are other attributes — its caps said before anything is read: members
// and share (sparse), partitions and the largest one's share (skew), the
// entity types (overloaded), what it projects, and the violations.

// IndexMap asks for the Scan, then shows the map.
type IndexMap struct {
	req              int // the Scan's id; 0 until enter
	maxItems         int
	maxRCU           float64
	stats            []indexes.Stats
	rcu              float64
	requests         int
	stop, err, table string
}

// NewIndexMap shows the caps of the map's Scan of table: maxItems items
// and maxRCU RCU at most.
func NewIndexMap(table string, maxItems int, maxRCU float64) IndexMap {
	return IndexMap{maxItems: maxItems, maxRCU: maxRCU, table: table}
}

// Sent says the Scan is on its way as request id.
func (o IndexMap) Sent(id int) IndexMap {
	o.req = id
	return o
}

// Req is the id of the Scan it waits for; 0 before enter.
func (o IndexMap) Req() int { return o.req }

// Done shows the map of what the Scan read: each index's stats, what it
// cost, in how many requests, why it stopped, and its error (sanitised).
func (o IndexMap) Done(stats []indexes.Stats, rcu float64, requests int, stop, err string) IndexMap {
	o.stats, o.rcu, o.requests, o.stop, o.err = stats, rcu, requests, stop, err
	return o
}

// ID names the overlay.
func (IndexMap) ID() ID { return IndexMapID }

// Mode is the keymap mode the overlay is in, by its phase.
func (IndexMap) Mode(Env) *keymap.Mode { return modeIndexMap }

// Hides says which lines of the screen the overlay takes over.
func (IndexMap) Hides() Hidden { return Hidden{Query: true} }

// Update handles a key, pasted text or a wheel message and returns
// what the overlay asks of the root.
func (o IndexMap) Update(e Env, msg tea.Msg) (Overlay, Want) {
	_, act := listKey(e.Keys, msg, widget.List{})
	switch {
	case act == "close":
		return o, Close{}
	case act == "open" && o.req == 0:
		return o, ScanIndexMap{Table: o.table, MaxItems: o.maxItems, MaxRCU: o.maxRCU}
	}
	return o, nil
}

// View draws the overlay w×h from what the root gives it.
func (o IndexMap) View(e Env, w, h int) string {
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
			textfmt.Sanitize(o.table), o.maxItems, textfmt.Units(o.maxRCU)))
	case o.stop == "" && o.err == "":
		addWrapped("reading the sample…")
	default:
		items := 0
		if len(o.stats) > 0 {
			items = o.stats[0].Items
		}
		addWrapped(fmt.Sprintf("a sample of %s, stopped: %s · %s · %s RCU", textfmt.Plural(items, "item", "items"), o.stop,
			textfmt.Plural(o.requests, "request", "requests"), textfmt.Units(o.rcu)) + overCapText(o.rcu, o.maxRCU))
		if o.err != "" {
			lines = append(lines, " "+st.Err.Render(o.err))
		}
		if len(o.stats) == 0 {
			addWrapped("the table has no secondary indexes")
		}
		for _, s := range o.stats {
			lines = append(lines, "")
			ix := s.Index
			lines = append(lines, " "+st.Bold.Render(textfmt.Sanitize(ix.Name))+st.Muted.Render(" · "+strings.ToLower(string(ix.Kind))+" "+ix.Projection))
			shape := []string{}
			if s.Members < s.Items {
				shape = append(shape, "sparse")
			}
			if s.Overloaded() {
				shape = append(shape, "overloaded")
			}
			addWrapped(fmt.Sprintf("  %s (%.1f%%) %s in %s", textfmt.Plural(s.Members, "member", "members"), s.Share*100, strings.Join(shape, ", "), textfmt.Plural(s.Partitions, "partition", "partitions")))
			if s.Members > 0 {
				addWrapped(fmt.Sprintf("  largest %s: %s (%.0f%% of the members)", textfmt.Sanitize(s.Largest.Key), textfmt.Plural(s.Largest.Items, "item", "items"), s.Largest.Share*100))
			}
			var types []string
			for _, e := range s.EntityTypes {
				types = append(types, fmt.Sprintf("%s %d", textfmt.Sanitize(e.Marked()), e.Items))
			}
			if len(types) > 0 {
				addWrapped("  entity types " + strings.Join(types, " · "))
			}
			if s.ViolationCount > 0 {
				addWrapped(fmt.Sprintf("  %s it skips:", textfmt.Plural(s.ViolationCount, "item", "items")))
				for _, v := range s.Violations[:min(3, len(s.Violations))] {
					addWrapped("    " + textfmt.Sanitize(v.Why))
				}
			}
		}
	}
	return widget.Box(st, "Index map · "+textfmt.Sanitize(o.table), lines, w, h, true)
}

var modeIndexMap = &keymap.Mode{Name: "index map", Keys: []keymap.Binding{
	keymap.InBar("open", "read the sample"), keymap.InBar("back", "close"), keymap.Bind("cancel", "close"), keymap.Bind("help"),
}}

// overCapText is what a read under an RCU cap adds to its summary when it
// spent past the cap, in the CLI's words, or "".
func overCapText(spent, maxRCU float64) string {
	if maxRCU <= 0 || spent <= maxRCU {
		return ""
	}
	return " · " + dynamo.OverCapText(textfmt.Units(spent-maxRCU), "RCU cap")
}
