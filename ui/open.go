package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/patterns"
	"dynascope/ui/overlay"
)

// Opening the overlays: each opener reads the model for what the overlay
// shows, builds its first state and puts it on the stack, or says in the
// status line why it does not open. The keys that open them are the panes'
// (partition.go, tablepicker.go, prompt.go); an overlay asks for another
// with an action (actions.go).

// openLog shows the log, its cursor on a request in view.
func (m Model) openLog() Model {
	m.log = m.log.Move(0, m.layout().bodyH-2)
	return m.push(overlay.Log{})
}

// openDetail shows the item under the cursor.
func (m Model) openDetail() (Model, tea.Cmd) {
	it, ok := m.items.Selected()
	if !ok {
		return m, nil
	}
	sk := keyOf(it, m.items.KeyName)
	d := overlay.NewDetail(it, m.table, m.schema, sanitize(sk), m.colourOf(sk), memberships(m.table, m.index, it), m.st, m.layout().w-2).
		WithEntity(m.detailEntity(it), m.st, m.layout().w-2)
	return m.push(d), nil
}

// nextDetailView names what t switches the item shown to.
func (m Model) nextDetailView() string {
	o, _ := findOverlay[overlay.Detail](m)
	return o.NextView()
}

// openIndexes shows the table and its indexes, the one open selected.
func (m Model) openIndexes() Model {
	return m.push(overlay.NewIndexes(m.table, m.index))
}

// chooseIndex queries index name (or the table, for ""): its partition key
// is another attribute, so its value is asked for.
func (m Model) chooseIndex(name string) Model {
	ks, err := m.table.Schema(name)
	if err != nil {
		m.status.Err = sanitize(err.Error())
		return m
	}
	m.index = name
	m.setSchema(ks)
	m.screen = screenPrompt
	m.prompt = m.newPrompt("")
	return m
}

// openPatterns shows the patterns list, its cursor where it was left.
func (m Model) openPatterns() Model {
	m.status.Info = ""
	return m.push(overlay.NewPatterns(m.patterns, m.patternCursor, m.patternOffset))
}

// openSave asks how to name the current request as a pattern, or says why
// it cannot be saved.
func (m Model) openSave() Model {
	switch {
	case m.query.PK == "":
		return m
	case m.query.Filter != "" || m.query.Project != "":
		// A pattern holds key conditions only: saved, the filter would be
		// lost without a word.
		m.status.Err = "patterns hold key conditions only, not filters or projections; clear them (f, v, then empty) to save this request."
		return m
	case m.patternsPath == "":
		m.status.Err = fmt.Sprintf("no patterns file to save to: start dynascope with --patterns %s (or another FILE; created on the first save).",
			patterns.PatternsFile)
		return m
	}
	q := m.query
	q.StartKey = nil
	return m.push(overlay.NewSave(m.get, q))
}

// openExport opens the export form for what the items pane shows.
func (m Model) openExport() Model {
	src := exportItems(m.items, m.store, m.results.q, m.results.first)
	if src.n == 0 {
		m.status.Info = "no items loaded to export"
		return m
	}
	what := plural(src.n, "loaded item", "loaded items")
	if m.items.Filter != "" {
		what = plural(src.n, "filtered item", "filtered items")
	}
	return m.push(overlay.NewExport(src, what, m.table.Name, m.query.PK, m.opts.ExportDir))
}

// openScan asks for the filter and projection of a Scan of table.
func (m Model) openScan(table string) Model {
	return m.push(overlay.NewScan(table))
}

// openPartiQL asks for a SELECT, starting from one on the current table.
func (m Model) openPartiQL() Model {
	stmt := ""
	if m.table.Name != "" {
		stmt = `SELECT * FROM "` + m.table.Name + `"`
		if m.query.PK != "" && m.query.Index == "" {
			stmt += ` WHERE "` + m.table.PK.Name + `" = '` + strings.ReplaceAll(m.query.PK, "'", "''") + `'`
		}
	}
	return m.push(overlay.NewPartiQL(stmt))
}

// openOverview shows the overview of the table (or index) open: the layout
// sampled before, if it is of the same, else the caps to sample with.
func (m Model) openOverview() Model {
	if m.overview.Phase == overlay.OvRunning || (m.overview.Have && m.overview.Table == m.table.Name && m.overview.Index == m.index) {
		return m.push(overlay.NewOverview(m.overview.Form, m.overview.Cursor))
	}
	// The caps offered: the settings file's sampling, else dynamo's defaults.
	items, rcu, segs := m.opts.Settings.Sampling.Caps()
	// A stopped sample may still be on its way: its logged count
	// (m.sampled) stays.
	m.overview = overlay.OverviewState{Phase: overlay.OvSetup, Form: overlay.CapsForm(items, rcu, segs), Table: m.table.Name, Index: m.index}
	return m.push(overlay.NewOverview(m.overview.Form, 0))
}

// openPartitionOf opens partition pk of index, the table for "".
func (m Model) openPartitionOf(index, pk string) (Model, tea.Cmd) {
	if m.index != index {
		ks, err := m.table.Schema(index)
		if err != nil {
			m.status.Err = sanitize(err.Error())
			return m, nil
		}
		m.index = index
		m.setSchema(ks)
	}
	return m.openPartition(pk)
}

// openIndexMap shows the caps of the map's Scan; enter reads it.
func (m Model) openIndexMap() Model {
	items, rcu := dynamo.DefaultSampleItems, float64(dynamo.DefaultSampleRCU)
	if m.overview.In.MaxItems > 0 {
		items, rcu = m.overview.In.MaxItems, m.overview.In.MaxRCU
	}
	return m.push(overlay.NewIndexMap(m.table.Name, items, rcu))
}
