package ui

// Exporting the loaded items (or the filtered ones) to a local file in one
// of dynamo's export formats. It writes that file only — never to DynamoDB.
// The items are those already loaded; a page released to keep memory within
// the cap (itemscap.go) is read again, one page at a time, with the
// ExclusiveStartKey it was first read with, and the request log shows it.
//
// The file is created new (an existing file is never overwritten). An
// export stopped with esc, or one that fails, removes its file: a file
// that is there is a whole export.

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/ui/overlay"
	"dynascope/ui/pane"
)

// exportChunk is how many items are written between progress reports and
// checks for esc.
const exportChunk = 1000

// exportProgressMsg says how many items export id has written.
type exportProgressMsg struct{ id, done int }

// exportDoneMsg answers exportCmd.
type exportDoneMsg struct {
	id   int
	path string
	n    int
	err  error // stopped or failed: the file was removed (unless it existed before)
}

// exportRereadMsg logs a released page that export id read again.
type exportRereadMsg struct {
	id     int
	pageNo int
	q      dynamo.QueryInput
	req    dynamo.Request
}

// exportItems are the rows the items pane shows: the filtered ones while a
// filter is on, else every loaded item, in the order shown. The pane is a
// copy: its store never changes under it.
func exportItems(p pane.Items, s Store, q dynamo.QueryInput, first int32) exportSource {
	src := exportSource{
		n:    p.Rows(),
		item: func(row int) (dynamo.Item, bool) { return p.Store.Item(p.At(row)) },
		where: func(row int) (int, dynamo.Item, int, int) {
			r := p.At(row)
			pg := p.Store.Pages[p.Store.PageOf(r)]
			return pg.No, pg.StartKey, pg.N, r - pg.First
		},
		store: s, q: q, first: first,
	}
	if p.Filter == "" {
		src.released = p.Store.Total - p.Store.InMemory
	}
	return src
}

// exportKeyNames are the key attributes CSV puts first: the index's, then the table's.
func (m Model) exportKeyNames() []string {
	var out []string
	add := func(a *dynamo.KeyAttr) {
		if a != nil && !slices.Contains(out, a.Name) {
			out = append(out, a.Name)
		}
	}
	add(&m.schema.PK)
	add(m.schema.SK)
	add(&m.table.PK)
	add(m.table.SK)
	return out
}

// startExport sends the export the form asked for.
func (m Model) startExport(a overlay.StartExport) (Model, tea.Cmd) {
	ctx, cancel := context.WithCancel(m.ctx)
	src, _ := a.Src.(exportSource) // the one the root made when the form opened (openExport)
	m.export = exportJob{job: job{id: m.flight.newID(), cancel: cancel}, running: true, src: src, path: a.Path}
	o := itemcodec.ExportOptions{Table: m.table.Name, KeyNames: m.exportKeyNames()}
	// Retries of a released page read again show in the status line.
	m.exports.start()
	return m, exportCmd(m.observe(ctx, m.export.id), m.send, m.exports, m.export.id, src, a.Path, a.Format, o)
}

// exportCmd writes items to a new file at path, reporting progress through
// send. Stopped or failed, it removes the file.
func exportCmd(ctx context.Context, send *sender, track *exportTracker, id int, src exportSource, path string, f itemcodec.ExportFormat, o itemcodec.ExportOptions) tea.Cmd {
	return func() tea.Msg {
		n, err := writeExport(ctx, send, id, src, path, f, o)
		track.end(path, n, src.n, err)
		return exportDoneMsg{id: id, path: path, n: n, err: err}
	}
}

func writeExport(ctx context.Context, send *sender, id int, src exportSource, path string, f itemcodec.ExportFormat, o itemcodec.ExportOptions) (n int, err error) {
	if o.TempDir == "" {
		o.TempDir = filepath.Dir(path)
	}
	file, err := itemcodec.CreateNew(path)
	if err != nil {
		return 0, err
	}
	defer func() { err = file.Finish(err) }()
	w, err := itemcodec.NewExportWriter(file, f, o)
	if err != nil {
		return 0, fmt.Errorf("export to %s: %w", path, err)
	}
	chunk := make([]dynamo.Item, 0, min(exportChunk, src.n))
	var again rereadPage // the released page read last
	for n < src.n {
		if cerr := ctx.Err(); cerr != nil {
			w.Close()
			return n, fmt.Errorf("export to %s: stopped after %d of %d items: %w", path, n, src.n, cerr)
		}
		chunk = chunk[:0]
		for ; n < src.n && len(chunk) < exportChunk; n++ {
			it, ok := src.item(n)
			if !ok {
				if it, err = again.item(ctx, send, id, src, n); err != nil {
					w.Close()
					return n, fmt.Errorf("export to %s: %w", path, err)
				}
			}
			chunk = append(chunk, it)
		}
		if err := w.Write(chunk); err != nil {
			w.Close()
			return n, fmt.Errorf("export to %s: %w", path, err)
		}
		send.deliver(exportProgressMsg{id: id, done: n})
	}
	if err := w.Close(); err != nil {
		return n, fmt.Errorf("export to %s: %w", path, err)
	}
	return n, nil
}

// rereadPage is a released page read again for an export.
type rereadPage struct {
	no    int
	items []dynamo.Item
}

// item is row's item from its released page, which is read again unless
// it was the last one read. A page whose item count changed since it was
// first read would shift every row after it, so the export stops.
func (p *rereadPage) item(ctx context.Context, send *sender, id int, src exportSource, row int) (dynamo.Item, error) {
	no, startKey, n, at := src.where(row)
	if p.no != no {
		q := pageQuery(src.q, src.first, no, startKey)
		page, err := src.store.Query(ctx, q)
		if page.Request.Operation != "" {
			send.deliver(exportRereadMsg{id: id, pageNo: no, q: q, req: page.Request})
		}
		if err != nil {
			return nil, fmt.Errorf("reading released page %d again: %w", no, err)
		}
		if len(page.Items) != n {
			return nil, fmt.Errorf("page %d changed since it was loaded (%d items now, %d before); open the partition again and export then", no, len(page.Items), n)
		}
		p.no, p.items = no, page.Items
	}
	return p.items[at], nil
}

func (m Model) exportProgress(msg exportProgressMsg) Model {
	if msg.id == m.export.id && m.export.running {
		m.export.done = msg.done
	}
	return m
}

func (m Model) exportDone(msg exportDoneMsg) Model {
	if msg.id != m.export.id {
		return m
	}
	m.export.job.stop()
	m.export = exportJob{}
	m.status.ClearRetry(msg.id)
	switch {
	case errors.Is(msg.err, context.Canceled):
		m = m.remove(overlay.ExportID)
		m.status.Info = fmt.Sprintf("export stopped after %d items; removed %s", msg.n, sanitize(msg.path))
	case msg.err != nil:
		// The form again, with why.
		if o, ok := findOverlay[overlay.Export](m); ok {
			m = replaceOverlay(m, o.Failed(sanitize(msg.err.Error())))
		}
	default:
		m = m.remove(overlay.ExportID)
		m.status.Err = ""
		m.status.Info = fmt.Sprintf("exported %s to %s (local file only)", plural(msg.n, "item", "items"), sanitize(msg.path))
	}
	return m
}
