package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/ui/widget"
)

// View draws the whole screen. It reads the model only: no clock, no IO.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "dynascope"
	if m.haveTable {
		v.WindowTitle += " · " + sanitize(m.table.Name)
	}
	return v
}

func (m Model) render() string {
	lay := m.layout()
	w := lay.w
	out := make([]string, 0, lay.h)
	out = append(out, m.header(w))
	if lay.queryH > 0 {
		out = append(out, m.qline.View(m.st, m.query, m.get != nil, m.keyCondition(), m.skLabel(), w))
	}
	if lay.hintH > 0 {
		out = append(out, m.qline.Hint(m.st, m.items.Store.InMemory, m.readNote(), w)) // the filter searches the items in memory
	}
	if lay.noteH > 0 {
		out = append(out, m.projectionLines(w)...)
	}
	out = append(out, strings.Split(m.body(lay), "\n")...)
	if lay.logH > 0 {
		if lay.compact {
			out = append(out, m.log.Tail(m.st, m.table.Name, 1, w)...)
			if len(m.log.Reqs) == 0 {
				out = out[:len(out)-1]
				out = append(out, "")
			}
		} else {
			out = append(out, strings.Split(m.log.Collapsed(m.st, m.table.Name, lay.logN, w), "\n")...)
		}
	}
	out = append(out, m.statusShown().ErrorLines(m.st, w)...)
	out = append(out, m.statusBar(w))
	for i := range out {
		out[i] = widget.Fit(out[i], w)
	}
	return strings.Join(out, "\n")
}

// header names what is being looked at and where: table, index, partition,
// region or endpoint, profile, and that nothing here writes. On a narrow
// terminal the partition (also in the query line) goes first, then detail.
func (m Model) header(w int) string {
	st := m.st
	badge := st.Badge.Render(" READ-ONLY ") + " "
	if m.opts.Editor != nil {
		// Writes are on: the table and region they go to, in the colour
		// of danger, where READ-ONLY otherwise stands.
		badge = st.WritesOn.Render(" WRITES ON · "+sanitize(m.writeTarget())+" ") + " "
	}
	if m.opts.PatternsErr != nil {
		// Said once in the status line at start; kept here, where it stays.
		badge = st.Err.Render("patterns file broken (a)") + " " + badge
	}
	name := "no table chosen"
	if m.haveTable {
		name = m.table.Name
	} else if m.opts.Table != "" {
		name = m.opts.Table
	}
	index := "base table"
	if !m.haveTable && m.opts.Table == "" {
		index = ""
	} else if m.index != "" {
		index = "index " + sanitize(m.index)
	}
	index += m.crumbText()
	partition := ""
	if m.screen == screenPartition && m.query.PK != "" {
		partition = sanitize(m.schema.PK.Name) + " = " + sanitize(m.query.PK)
	}
	where := sanitize(strings.TrimSpace(m.opts.Region + " " + m.opts.Endpoint))
	short := sanitize(m.opts.Endpoint)
	if short == "" {
		short = sanitize(m.opts.Region)
	}
	if u := strings.Index(short, "://"); u >= 0 {
		short = short[u+3:]
	}
	// The connection's name stays in every width that has a name to show
	// (ctrl+k switches it): the settings' connection, else the profile.
	profile, conn := "default profile", m.opts.Profile
	if l := m.connectionLabel(); l != "" {
		profile = sanitize(l)
	}
	if m.opts.Connection != "" {
		conn = m.opts.Connection
	}
	conn = sanitize(conn)
	// The narrowest header drops the endpoint before the connection's name.
	last := short
	if conn != "" {
		last = ""
	}
	build := func(parts ...string) string {
		var ps []string
		for i, p := range parts {
			if p == "" {
				continue
			}
			switch i {
			case 0:
				ps = append(ps, st.AppName.Render(p))
			case 1:
				ps = append(ps, st.Bold.Render(p))
			case 2, 3:
				ps = append(ps, st.Text.Render(p))
			default:
				ps = append(ps, st.Muted.Render(p))
			}
		}
		return " " + strings.Join(ps, st.Faint.Render(" · "))
	}
	tname := sanitize(name)
	for _, left := range []string{
		build("dynascope", tname, index, partition, where, profile),
		build("dynascope", tname, index, "", where, profile),
		build("dynascope", tname, index, "", short, profile),
		build("dynascope", tname, index, "", short, conn),
		build("", tname, index, "", short, conn),
		build("", tname, index, "", last, conn),
	} {
		if widget.Width(left)+widget.Width(badge)+1 <= w {
			return widget.Spread(left, badge, w)
		}
	}
	return widget.Spread(build("", tname, index, "", last, conn), badge, w)
}

// keyCondition is the current request's key condition in DynamoDB's words.
func (m Model) keyCondition() string {
	if m.get != nil {
		b, err := dynamo.BuildGetItem(m.table, *m.get)
		if err != nil {
			return err.Error()
		}
		return b.KeyCondition
	}
	b, err := dynamo.BuildQuery(m.schema, m.query)
	if err != nil {
		return err.Error()
	}
	return b.KeyCondition
}

// skLabel names the sort key in the condition editor.
func (m Model) skLabel() string {
	if m.schema.SK != nil {
		return m.schema.SK.Name
	}
	return "sort key"
}

func (m Model) body(lay layout) string {
	w, h := lay.w, lay.bodyH
	st := m.st
	if o := m.top(); o != nil {
		return o.View(m.env(), w, h)
	}
	switch m.screen {
	case screenLoading:
		msg := "describing table " + sanitize(m.opts.Table) + "…"
		if m.status.Err != "" {
			msg = "could not open the table; esc quits"
		}
		return widget.Box(st, "Opening", []string{" " + st.Muted.Render(msg)}, w, h, true)
	case screenTables:
		return m.picker.View(st, w, h)
	case screenPrompt:
		return m.prompt.View(st, m.table.Name, w, h)
	}
	var left, right []string
	if lay.showGroups {
		title := "Entity types"
		if (m.groups.tbl.Listed() || m.groups.complete()) && len(m.groups.types()) > 0 {
			title += " · " + strconv.Itoa(len(m.groups.types()))
		}
		suffix := ""
		if lay.compact {
			suffix = " · tab: items"
		}
		if m.groups.byAttribute() {
			title = m.groups.attrTitle(lay.groupsW - 5 - widget.Width(suffix))
		}
		title += suffix
		left = strings.Split(m.groups.view(st, lay.groupsW, h, m.focus == paneGroups, lay.compact, title, m.groupColour), "\n")
	}
	if lay.showItems {
		right = strings.Split(m.items.View(st, lay.itemsW, h, m.focus == paneItems, m.itemsTitle(lay), m.colourOf), "\n")
	}
	if left == nil {
		return strings.Join(right, "\n")
	}
	if right == nil {
		return strings.Join(left, "\n")
	}
	rows := make([]string, h)
	for i := range rows {
		rows[i] = left[i] + right[i]
	}
	return strings.Join(rows, "\n")
}

func (m Model) itemsTitle(lay layout) string {
	t := m.items.Title(m.results.more())
	if lay.compact {
		t += " · tab: types"
	}
	return t
}

func (m Model) statusBar(w int) string {
	km := m.keyMap()
	left := m.status.Left(m.st, m.log, m.busyText(), m.items.MarkCount())
	keys := km.BarKeys(m.mode())
	return widget.Spread(left, m.shortHelp(keys, w-widget.Width(left)-3)+" ", w)
}

// shortHelp is as many of the bindings as fit in w cells, in order of
// priority: one that does not fit is left out and a shorter one after it
// may still fit. (help.Model's short view can overrun its width when the
// ellipsis does not fit.)
func (m Model) shortHelp(bindings []key.Binding, w int) string {
	st := m.st.Help
	sep := st.ShortSeparator.Render(" • ")
	var b strings.Builder
	used := 0
	for _, kb := range bindings {
		if !kb.Enabled() {
			continue
		}
		item := st.ShortKey.Render(kb.Help().Key) + " " + st.ShortDesc.Render(kb.Help().Desc)
		if used > 0 {
			item = sep + item
		}
		iw := widget.Width(item)
		if used+iw > w {
			continue
		}
		b.WriteString(item)
		used += iw
	}
	return b.String()
}
