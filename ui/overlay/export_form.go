package overlay

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/itemcodec"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

// The export overlay: x on a partition asks for a format and a file, then
// shows the export's progress until it is done (export.go writes it). The
// form is the overlay's; the export in flight is the root's (m.export, an
// exportJob): its replies arrive there, and the last one closes the overlay.

// Export asks for a format and a file, then shows the export's progress.
type Export struct {
	form  widget.Form
	err   string // why the form was refused, or the export failed; sanitised
	what  string // "12 loaded items", "3 filtered items"
	src   ExportSource
	named itemcodec.ExportFormat // the format the file's extension was chosen for
	dir   string                 // the folder a relative file name is in ("" for as typed)
}

// NewExport asks where to write src, the rows the items pane shows (what
// says which: "12 loaded items"), as JSON Lines by default, to a file named
// after the table and the partition, in dir (the folder the process gives
// for exports; "" for the working folder, unnamed).
func NewExport(src ExportSource, what, table, pk, dir string) Export {
	return Export{src: src, what: what, named: itemcodec.ExportJSONL, dir: dir,
		form: widget.NewForm([]string{expFormat, expPath}, []string{string(itemcodec.ExportJSONL), inDir(dir, defaultExportPath(table, pk, itemcodec.ExportJSONL))})}
}

// inDir is the path a file name stands for: a relative one is in dir.
func inDir(dir, name string) string {
	if dir == "" || filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(dir, name)
}

// Failed shows the form again with why the export failed (sanitised).
func (o Export) Failed(why string) Export {
	o.err = why
	return o
}

// Err is the sentence under the form: why it was refused or why the
// export failed; "" for none.
func (o Export) Err() string { return o.err }

// ID names the overlay.
func (Export) ID() ID { return ExportID }

// Hides says which lines of the screen the overlay takes over.
func (Export) Hides() Hidden { return Hidden{} }

// Mode is the keymap mode the overlay is in, by its phase.
func (Export) Mode(e Env) *keymap.Mode {
	if e.Exporting {
		return modeExporting
	}
	return modeExport
}

// View draws the overlay w×h from what the root gives it.
func (o Export) View(e Env, w, h int) string { return o.box(e, w, h) }

// Update is the form until it is submitted; then, while the export runs
// (the form is kept, for a failure to show under), esc stops it.
func (o Export) Update(e Env, msg tea.Msg) (Overlay, Want) {
	if _, ok := msg.(tea.MouseWheelMsg); ok {
		return o, nil
	}
	km := e.Keys
	if e.Exporting {
		if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, km.Cancel) {
			return o, StopExport{}
		}
		return o, nil
	}
	f, ev := o.form.Handle(msg, km.FormKeys())
	o.form = f
	switch ev {
	case widget.FormSubmit:
		return o.submit()
	case widget.FormCancel:
		return o, Close{}
	case widget.FormTyped:
		o.err = ""
		// A file still named after the format follows it to the new one.
		now := itemcodec.ExportFormat(strings.TrimSpace(f.Value(expFormat)))
		if now != o.named && slices.Contains(itemcodec.ExportFormats, now) {
			p, old := f.Value(expPath), exportExt(o.named)
			if strings.HasSuffix(p, old) {
				o.form.Fields[1].Input.Set(strings.TrimSuffix(p, old) + exportExt(now))
			}
			o.named = now
		}
	}
	return o, nil
}

// submit asks for the export the form describes, or says what is wrong.
func (o Export) submit() (Overlay, Want) {
	f := itemcodec.ExportFormat(strings.TrimSpace(o.form.Value(expFormat)))
	if !slices.Contains(itemcodec.ExportFormats, f) {
		o.err = fmt.Sprintf("the format must be one of %s, not %q.", formatNames(), textfmt.Sanitize(string(f)))
		return o, nil
	}
	path := strings.TrimSpace(o.form.Value(expPath))
	if path == "" {
		o.err = "name the file to write."
		return o, nil
	}
	if ext := strings.ToLower(filepath.Ext(path)); (ext == ".csv") != (f == itemcodec.ExportCSV) && (ext == ".csv" || ext == ".json" || ext == ".jsonl") {
		// A name the format does not match writes a file other tools
		// misread: JSON in a .csv, CSV in a .json.
		o.err = fmt.Sprintf("the file's name ends in %s but the format is %s: change the format or the name.", ext, f)
		return o, nil
	}
	o.err = ""
	return o, StartExport{Src: o.src, Path: inDir(o.dir, path), Format: f}
}

func formatNames() string {
	names := make([]string, len(itemcodec.ExportFormats))
	for i, f := range itemcodec.ExportFormats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// box is the export form, or the progress of the export in flight.
func (o Export) box(e Env, w, h int) string {
	st := e.St
	inner := w - 2
	intro := "Write the " + o.what + " to a local file (nothing is sent to DynamoDB)."
	if o.src.Released() > 0 {
		intro = fmt.Sprintf("Write the %s to a local file. %d of them are in pages released to keep memory within the cap: those pages are read again, one at a time (reads only).", o.what, o.src.Released())
	}
	var lines []string
	for _, l := range widget.WrapLines(intro, inner-2) {
		lines = append(lines, " "+st.Text.Render(l))
	}
	lines = append(lines, "")
	if e.Exporting {
		run := e.Export
		frac := float64(run.Done) / float64(max(1, run.N))
		pct := fmt.Sprintf(" %3d%%", int(frac*100))
		lines = append(lines, " "+bar(st, frac, min(60, inner-2-len(pct)))+st.Bold.Render(pct),
			" "+st.Muted.Render(widget.Trunc(fmt.Sprintf("%d of %d items written to %s", run.Done, run.N, textfmt.Sanitize(run.Path)), inner-2)), "",
			" "+st.Accent.Render("esc")+st.Muted.Render(" stops and removes the partial file"))
		return widget.Box(st, "Export", lines, w, h, true)
	}
	lines = append(lines, o.form.View(st, inner)...)
	// The whole path it will write, wrapped rather than cut: where the
	// file lands is the point (the demo's working folder is a checkout).
	if p := strings.TrimSpace(o.form.Value(expPath)); p != "" {
		for _, l := range widget.WrapLines("writes "+textfmt.Sanitize(inDir(o.dir, p)), inner-2) {
			lines = append(lines, " "+st.Muted.Render(l))
		}
	}
	lines = append(lines, "", " "+st.Muted.Render(widget.Trunc("formats: "+formatNames()+" (ddbjson-batch: batch-write-item documents of 25)", inner-2)))
	lines = append(lines, " "+st.Muted.Render(widget.Trunc("an existing file is never overwritten; a stopped export removes its file", inner-2)))
	if o.err != "" {
		lines = append(lines, "")
		for _, l := range widget.WrapLines("✗ "+o.err, inner-2) {
			lines = append(lines, " "+st.Err.Render(l))
		}
	}
	return widget.Box(st, "Export", lines, w, h, true)
}

var (
	modeExport    = keymap.FormMode("export", "export", "don't export")
	modeExporting = &keymap.Mode{Name: "exporting", Keys: []keymap.Binding{keymap.InBar("cancel", "stop, remove the partial file")}}
)

// The fields of the export form.
const (
	expFormat = "format"
	expPath   = "file"
)

var unsafeFileChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// defaultExportPath names the file after the table and partition.
func defaultExportPath(table, pk string, f itemcodec.ExportFormat) string {
	name := strings.Trim(unsafeFileChars.ReplaceAllString(table+"-"+pk, "_"), "_.")
	if name == "" {
		name = "export"
	}
	return name + exportExt(f)
}

func exportExt(f itemcodec.ExportFormat) string {
	switch f {
	case itemcodec.ExportCSV:
		return ".csv"
	case itemcodec.ExportJSONL:
		return ".jsonl"
	}
	return ".json"
}
