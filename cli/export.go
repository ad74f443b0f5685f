package cli

// The export formats of every read (readout.go's exportOut): --output
// jsonl (plain, or typed with --dynamodb-json), csv and ddbjson-batch
// write each page's items as it arrives, with a progress line on a
// terminal's stderr.

import (
	"fmt"
	"io"
	"os"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// exportFormat maps --output (and --dynamodb-json) to a streaming export
// format; ok is false for json and table, documents with more than the
// items (readout.go's jsonOut and tableOut, streamed too).
func exportFormat(output string, ddbJSON bool) (f itemcodec.ExportFormat, ok bool, err error) {
	switch output {
	case "jsonl":
		if ddbJSON {
			return itemcodec.ExportDynamoJSONL, true, nil
		}
		return itemcodec.ExportJSONL, true, nil
	case "csv":
		if ddbJSON {
			return "", false, usageError{"--dynamodb-json does not go with --output csv: CSV cells are plain values; use --output jsonl --dynamodb-json for typed items."}
		}
		return itemcodec.ExportCSV, true, nil
	case "ddbjson-batch":
		return itemcodec.ExportBatch, true, nil
	}
	return "", false, nil
}

// exporter feeds a query's pages to an export writer and, when stderr is a
// terminal, keeps one progress line there (never on stdout, which holds
// the export).
type exporter struct {
	w        itemcodec.ItemWriter
	progress io.Writer // nil unless stderr is a terminal
	items    int
	pages    int
	rcu      float64
}

func newExporter(stdout, stderr io.Writer, f itemcodec.ExportFormat, table string, keyNames []string) (*exporter, error) {
	w, err := itemcodec.NewExportWriter(stdout, f, itemcodec.ExportOptions{Table: table, KeyNames: keyNames})
	if err != nil {
		return nil, err
	}
	e := &exporter{w: w}
	if isTerminal(stderr) {
		e.progress = stderr
	}
	return e, nil
}

// page writes one page's items and updates the progress line.
func (e *exporter) page(p dynamo.Page) error {
	if err := e.w.Write(p.Items); err != nil {
		return fmt.Errorf("writing the export: %w", err)
	}
	e.items += len(p.Items)
	e.pages++
	e.rcu += p.Request.Capacity.Total
	if e.progress != nil {
		fmt.Fprintf(e.progress, "\r\x1b[Kexporting: %s, %s, %s RCU", textfmt.Plural(e.items, "item", "items"), textfmt.Plural(e.pages, "page", "pages"), jsonFloat(e.rcu))
	}
	return nil
}

// close finishes the export with what was written; a failed or cancelled
// query (cause) still leaves a complete file of the pages that arrived,
// and cause is what the command reports.
func (e *exporter) close(cause error) error {
	err := e.w.Close()
	if e.progress != nil {
		verb := "exported"
		if cause != nil {
			verb = "stopped after"
		}
		fmt.Fprintf(e.progress, "\r\x1b[K%s %s in %s, %s RCU\n", verb, textfmt.Plural(e.items, "item", "items"), textfmt.Plural(e.pages, "page", "pages"), jsonFloat(e.rcu))
	}
	if cause != nil {
		return cause
	}
	if err != nil {
		return fmt.Errorf("writing the export: %w", err)
	}
	return nil
}

// isTerminal tells whether w is a character device such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
