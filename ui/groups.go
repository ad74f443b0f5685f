package ui

import (
	"strconv"

	"charm.land/lipgloss/v2"

	"dynascope/dynamo"
	"dynascope/keys"
)

// groupsPane lists the entity types of the partition: the groups of sort keys
// loaded by the whole-partition query, with the query each one stands for.
// Row 0 is the whole partition.
type groupsPane struct {
	groups  []keys.Group
	loaded  int  // items of the whole-partition query seen so far
	partial bool // that query has more pages: the last group may grow, more may come
	cursor  int
	offset  int
	active  int // the row the current query selects, -1 for none
}

func (g groupsPane) rows() int { return len(g.groups) + 1 }

// reset starts over from the first page of a whole-partition query.
// count is the items of the page, which a key without sort key does not list.
func (g groupsPane) reset(sortKeys []string, count int, keyType, delim string, more bool) groupsPane {
	g.groups = keys.GroupSortKeys(sortKeys, keyType, delim)
	g.loaded = count
	g.partial = more
	g.cursor = clamp(g.cursor, 0, g.rows()-1)
	return g
}

// add merges a further page of the whole-partition query.
func (g groupsPane) add(sortKeys []string, count int, keyType, delim string, more bool) groupsPane {
	g.groups = keys.MergeGroups(g.groups, keys.GroupSortKeys(sortKeys, keyType, delim))
	g.loaded += count
	g.partial = more
	return g
}

func (g groupsPane) move(delta, rowsShown int) groupsPane {
	g.cursor = clamp(g.cursor+delta, 0, g.rows()-1)
	g.offset = scrollOffset(g.offset, g.cursor, rowsShown, g.rows())
	return g
}

// condition is the sort-key condition that selects a row: none for the whole
// partition and for number or binary keys, = for a key that is a type of its
// own (PROFILE), begins_with for a prefix (ORDER#).
func (g groupsPane) condition(row int) dynamo.SKCond {
	if row <= 0 || row > len(g.groups) {
		return dynamo.SKCond{}
	}
	gr := g.groups[row-1]
	switch {
	case gr.Prefix == "":
		return dynamo.SKCond{}
	case gr.Prefix == gr.Entity:
		return dynamo.SKCond{Op: dynamo.SKEq, Values: []string{gr.Prefix}}
	default:
		return dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{gr.Prefix}}
	}
}

// rowFor finds the row a sort-key condition selects, or -1.
func (g groupsPane) rowFor(c dynamo.SKCond) int {
	if c.Op == dynamo.SKNone {
		return 0
	}
	for i := range g.groups {
		gc := g.condition(i + 1)
		if gc.Op == c.Op && len(gc.Values) == 1 && len(c.Values) == 1 && gc.Values[0] == c.Values[0] {
			return i + 1
		}
	}
	return -1
}

// countText is a count that says when it may grow: 120+.
func (g groupsPane) countText(row int) string {
	if row == 0 {
		s := strconv.Itoa(g.loaded)
		if g.partial {
			s += "+"
		}
		return s
	}
	s := strconv.Itoa(g.groups[row-1].Count)
	if g.partial && row == len(g.groups) {
		s += "+"
	}
	return s
}

// groupRowHeight is two lines (name and count; prefix) unless space is short.
func groupRowHeight(compact bool) int {
	if compact {
		return 1
	}
	return 2
}

func (g groupsPane) view(st styles, w, h int, focused, compact bool, title string, colour func(keys.Group) int) string {
	inner := w - 2
	rh := groupRowHeight(compact)
	shown := max(1, (h-2)/rh)
	g.offset = scrollOffset(g.offset, g.cursor, shown, g.rows())
	var lines []string
	for row := g.offset; row < g.rows() && row < g.offset+shown; row++ {
		sel := row == g.cursor
		base := lipgloss.NewStyle()
		if sel && focused {
			base = st.sel
		} else if sel {
			base = st.selBlur
		}
		mark := " "
		if row == g.active {
			mark = "›"
		}
		markStyle := st.active.Inherit(base)
		count := g.countText(row)
		var name, sub string
		var block lipgloss.Style
		if row == 0 {
			name, sub = "partition", "no SK condition"
			block = st.muted.Inherit(base)
		} else {
			gr := g.groups[row-1]
			name = Sanitize(gr.Entity)
			switch {
			case gr.Prefix == "":
				sub = "all " + name + " keys"
			case gr.Prefix == gr.Entity:
				sub = "= " + Sanitize(gr.Prefix)
			default:
				sub = Sanitize(gr.Prefix)
			}
			block = st.entityStyle(colour(gr)).Inherit(base)
		}
		if compact && row > 0 {
			name = sub
			if g.groups[row-1].Prefix == g.groups[row-1].Entity || g.groups[row-1].Prefix == "" {
				name = Sanitize(g.groups[row-1].Entity)
			}
		}
		nameW := max(1, inner-4-width(count)-1)
		line1 := markStyle.Render(mark) + base.Render(" ") + block.Render("▌") + base.Render(" "+fit(name, nameW)+" "+count)
		lines = append(lines, line1)
		if rh == 2 {
			lines = append(lines, base.Render("    ")+st.muted.Inherit(base).Render(fit(sub, inner-4)))
		}
	}
	return box(st, title, lines, w, h, focused)
}
