package ui

import (
	"fmt"
	"slices"
	"strings"

	"dynascope/itemcodec"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The export overlay: x on a partition asks for a format and a file, then
// shows the export's progress until it is done (export.go writes it). The
// export in flight stays on the root model (m.exp): its replies arrive
// there, and the last one closes the overlay.

type exportOverlay struct{}

func (exportOverlay) id() overlayID { return overlayExport }
func (exportOverlay) hides() hidden { return hidden{} }

func (exportOverlay) mode(m Model) mode {
	if m.exp.running {
		return modeExporting
	}
	return modeExport
}

func (exportOverlay) view(m Model, w, h int) string { return m.exportBox(w, h) }

// openExport opens the export form for what the items pane shows.
func (m Model) openExport() Model {
	src := exportItems(m.items, m.store, m.results.q)
	if src.n == 0 {
		m.status.info = "no items loaded to export"
		return m
	}
	what := plural(src.n, "loaded item", "loaded items")
	if m.items.filter != "" {
		what = plural(src.n, "filtered item", "filtered items")
	}
	m.exp = exportPane{src: src, what: what, named: itemcodec.ExportJSONL,
		form: newForm([]string{expFormat, expPath}, []string{string(itemcodec.ExportJSONL), defaultExportPath(m.table.Name, m.query.PK, itemcodec.ExportJSONL)})}
	return m.push(exportOverlay{})
}

func (exportOverlay) update(m Model, msg tea.Msg) (Model, tea.Cmd) {
	if _, ok := msg.(tea.MouseWheelMsg); ok {
		return m, nil
	}
	km := m.keyMap()
	if m.exp.running {
		if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, km.Cancel) && m.exp.job.cancel != nil {
			m.exp.job.cancel()
		}
		return m, nil
	}
	f, ev := m.exp.form.handle(msg, km)
	m.exp.form = f
	switch ev {
	case formSubmit:
		return m.startExport()
	case formCancel:
		m.exp = exportPane{}
		return m.pop(), nil
	case formTyped:
		m.exp.err = ""
		// A file still named after the format follows it to the new one.
		now := itemcodec.ExportFormat(strings.TrimSpace(f.value(expFormat)))
		if now != m.exp.named && slices.Contains(itemcodec.ExportFormats, now) {
			p, old := f.value(expPath), exportExt(m.exp.named)
			if strings.HasSuffix(p, old) {
				m.exp.form.fields[1].input.set(strings.TrimSuffix(p, old) + exportExt(now))
			}
			m.exp.named = now
		}
	}
	return m, nil
}

func formatNames() string {
	names := make([]string, len(itemcodec.ExportFormats))
	for i, f := range itemcodec.ExportFormats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// exportBox is the export form, or the progress of the export in flight.
func (m Model) exportBox(w, h int) string {
	st := m.st
	inner := w - 2
	e := m.exp
	intro := "Write the " + e.what + " to a local file (nothing is sent to DynamoDB)."
	if e.src.released > 0 {
		intro = fmt.Sprintf("Write the %s to a local file. %d of them are in pages released to keep memory within the cap: those pages are read again, one at a time (reads only).", e.what, e.src.released)
	}
	var lines []string
	for _, l := range wrapText(intro, inner-2) {
		lines = append(lines, " "+st.text.Render(l))
	}
	lines = append(lines, "")
	if e.running {
		frac := float64(e.done) / float64(max(1, e.src.n))
		pct := fmt.Sprintf(" %3d%%", int(frac*100))
		lines = append(lines, " "+m.bar(frac, min(60, inner-2-len(pct)))+st.bold.Render(pct),
			" "+st.muted.Render(trunc(fmt.Sprintf("%d of %d items written to %s", e.done, e.src.n, sanitize(e.path)), inner-2)), "",
			" "+st.accent.Render("esc")+st.muted.Render(" stops and removes the partial file"))
		return box(st, "Export", lines, w, h, true)
	}
	lines = append(lines, e.form.view(st, inner)...)
	lines = append(lines, "", " "+st.muted.Render(trunc("formats: "+formatNames()+" (ddbjson-batch: batch-write-item documents of 25)", inner-2)))
	lines = append(lines, " "+st.muted.Render(trunc("an existing file is never overwritten; a stopped export removes its file", inner-2)))
	if e.err != "" {
		lines = append(lines, "")
		for _, l := range wrapText("✗ "+e.err, inner-2) {
			lines = append(lines, " "+st.err.Render(l))
		}
	}
	return box(st, "Export", lines, w, h, true)
}

var (
	exportMode    = formMode("export", "export", "don't export")
	exportingMode = modeDef{name: "exporting", keys: []binding{inBar("cancel", "stop, remove the partial file")}}
)
