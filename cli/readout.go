package cli

// A read's output, written as the read goes: each page's items as the
// page arrives, then what the read was. Memory stays at one page whatever
// the read's size, in every format. A format is one type with a page and
// an end (readOut); what a command says of its read besides the items is
// its readDoc. A consumer that needs the whole document at once (a query
// language over it) writes the JSON format into a buffer and reads that.

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"runtime/debug"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// readOut is one read's output in one --output format.
type readOut interface {
	// page writes one page's items. After it fails, end still ends the
	// output (an export leaves its file well-formed).
	page(p dynamo.Page) error
	// end writes what follows the items and flushes. cause is the error
	// the read stopped on, if any: the output still ends well-formed, and
	// end returns cause (or its own failure to write).
	end(cause error) error
}

// readDoc is what a command prints of its read besides the items: the
// JSON object's fields before "items" and those after (each a struct of
// the fields in their order, encoded by encoding/json), and the lines
// after a table's rows. The head is asked for when the first page is
// written, the tail and the table's lines at the end, so a command fills
// its doc as the read goes.
type readDoc interface {
	jsonHead() any
	jsonTail() any
	tableTail(b *bytes.Buffer)
}

// readOutput says how a read is printed.
type readOutput struct {
	stdout, stderr io.Writer
	format         string // --output
	ddbJSON        bool   // --dynamodb-json
	table          string // for ddbjson-batch
	keyNames       []string
	doc            readDoc
}

// streamMemoryLimit is the soft memory limit of a process whose read is
// streamed (boundMemory): what it holds is a few pages (one, or one for
// each segment of a parallel scan), some 25 MB at most, which the
// garbage collector's default headroom (twice what is live) would let
// reach 80 MB at times; a limit above what is live makes it collect
// sooner instead, at no cost while the heap stays below it.
const streamMemoryLimit = 48 << 20

// boundStreams is set by Main, the process's own run (not a test's,
// which shares its process with others): its streamed reads bound the
// process's memory.
var boundStreams bool

// boundMemory sets streamMemoryLimit, unless GOMEMLIMIT says otherwise.
func boundMemory() {
	if boundStreams && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(streamMemoryLimit)
	}
}

// open returns the writer of o's format.
func (o readOutput) open() (readOut, error) {
	boundMemory()
	if f, streaming, err := exportFormat(o.format, o.ddbJSON); err != nil || streaming {
		if err != nil {
			return nil, err
		}
		exp, err := newExporter(o.stdout, o.stderr, f, o.table, o.keyNames)
		if err != nil {
			return nil, err
		}
		return exportOut{exp}, nil
	}
	w := bufio.NewWriterSize(o.stdout, 64<<10)
	if o.format == "table" {
		return &tableOut{w: w, doc: o.doc, keyNames: o.keyNames}, nil
	}
	return &jsonOut{w: w, doc: o.doc, enc: itemcodec.ItemJSON{Dynamo: o.ddbJSON, Indent: true, Depth: 2}}, nil
}

// exportOut is jsonl, csv and ddbjson-batch: items only, with a progress
// line on a terminal's stderr.
type exportOut struct{ exp *exporter }

func (o exportOut) page(p dynamo.Page) error { return o.exp.page(p) }

func (o exportOut) end(cause error) error { return o.exp.close(cause) }

// jsonOut writes the document as encoding/json's indented layout would
// write it whole, byte for byte: the head's fields, "items" streamed page
// by page, the tail's fields.
type jsonOut struct {
	w       *bufio.Writer
	doc     readDoc
	enc     itemcodec.ItemJSON
	buf     []byte
	items   int
	started bool
}

func (o *jsonOut) start() error {
	o.started = true
	head, err := indentedJSON(o.doc.jsonHead())
	if err != nil {
		return err
	}
	// {\n  "a": 1\n}\n less its closing brace, then the items' key.
	head = bytes.TrimSuffix(head, []byte("\n}\n"))
	if bytes.Equal(head, []byte("{}\n")) {
		head = []byte("{")
	} else {
		head = append(head, ',')
	}
	o.w.Write(head)
	_, err = o.w.WriteString("\n  \"items\": [")
	return err
}

func (o *jsonOut) page(p dynamo.Page) error {
	if !o.started {
		if err := o.start(); err != nil {
			return err
		}
	}
	for _, it := range p.Items {
		o.buf = o.buf[:0]
		if o.items > 0 {
			o.buf = append(o.buf, ',')
		}
		o.buf = append(o.buf, "\n    "...)
		o.buf = o.enc.Append(o.buf, it)
		o.items++
		if _, err := o.w.Write(o.buf); err != nil {
			return err
		}
	}
	return o.w.Flush()
}

func (o *jsonOut) end(cause error) error {
	if !o.started {
		if err := o.start(); err != nil {
			return err
		}
	}
	if o.items > 0 {
		o.w.WriteString("\n  ")
	}
	o.w.WriteByte(']')
	tail, err := indentedJSON(o.doc.jsonTail())
	if err != nil {
		return err
	}
	if rest, ok := bytes.CutPrefix(tail, []byte("{\n")); ok {
		o.w.WriteString(",\n")
		o.w.Write(rest)
	} else {
		o.w.WriteString("\n}\n") // no fields after the items
	}
	if err := o.w.Flush(); err != nil {
		return err
	}
	return cause
}

// indentedJSON is v as writeIndentedJSON writes it.
func indentedJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	err := writeIndentedJSON(&b, v)
	return b.Bytes(), err
}

// tableOut writes items for a human: key attributes first, then the
// others, values compact and sanitised, aligned as columns aligns them
// (two spaces between columns, widths as the terminal shows them). The first page sets the columns and
// their widths, so rows are written as they arrive: a later page with
// attributes none before had prints the header again with them added; a
// cell wider than its column shifts its own line only. After the rows,
// the doc's lines.
type tableOut struct {
	w          *bufio.Writer
	doc        readDoc
	keyNames   []string
	cols       []string
	widths     []int
	seen       map[string]bool
	line       []byte
	cells      []string
	cellWidths []int
}

func (o *tableOut) page(p dynamo.Page) error {
	if len(p.Items) == 0 {
		return nil
	}
	if added := o.columns(p.Items); len(added) > 0 {
		o.widen(p.Items, len(o.cols)-len(added))
		o.writeLine(sanitizeAll(o.cols))
	}
	for _, it := range p.Items {
		o.row(it)
		o.writeRow()
	}
	return o.w.Flush()
}

// columns adds the attributes of items no page before had: on the first
// page in CSVColumns' order (keys first), later ones after, sorted.
func (o *tableOut) columns(items []dynamo.Item) []string {
	names := map[string]bool{}
	for _, it := range items {
		for k := range it {
			if !o.seen[k] {
				names[k] = true
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	keys := o.keyNames
	if o.seen != nil {
		keys = nil // the keys came first on the first page
	}
	added := itemcodec.CSVColumns(names, keys)
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	for _, k := range added {
		o.seen[k] = true
	}
	o.cols = append(o.cols, added...)
	return added
}

// widen sizes the columns from from on: the widest of the header and
// this page's cells.
func (o *tableOut) widen(items []dynamo.Item, from int) {
	for j := from; j < len(o.cols); j++ {
		w := textWidth(textfmt.Sanitize(o.cols[j]))
		for _, it := range items {
			if av, ok := it[o.cols[j]]; ok {
				_, cw := tableCell(av)
				w = max(w, cw)
			}
		}
		o.widths = append(o.widths, w)
	}
}

// row is an item's cells, one per column ("" for none), with their
// widths in o.cellWidths.
func (o *tableOut) row(it dynamo.Item) []string {
	o.cells, o.cellWidths = o.cells[:0], o.cellWidths[:0]
	for _, c := range o.cols {
		s, w := "", 0
		if av, ok := it[c]; ok {
			s, w = tableCell(av)
		}
		o.cells, o.cellWidths = append(o.cells, s), append(o.cellWidths, w)
	}
	return o.cells
}

// writeRow writes the row o.row made.
func (o *tableOut) writeRow() { o.writeCells(o.cells, o.cellWidths) }

// writeLine writes cells as columns would: each but the last padded to
// its column's width and two spaces, the last as it is.
func (o *tableOut) writeLine(cells []string) {
	o.cellWidths = o.cellWidths[:0]
	for _, c := range cells {
		o.cellWidths = append(o.cellWidths, textWidth(c))
	}
	o.writeCells(cells, o.cellWidths)
}

// writeCells is writeLine of cells whose widths are known.
func (o *tableOut) writeCells(cells []string, widths []int) {
	o.line = o.line[:0]
	for j, c := range cells {
		o.line = append(o.line, c...)
		if j == len(cells)-1 {
			break
		}
		pad := max(o.widths[j]-widths[j], 0) + 2
		for range pad {
			o.line = append(o.line, ' ')
		}
	}
	o.line = append(o.line, '\n')
	o.w.Write(o.line)
}

func (o *tableOut) end(cause error) error {
	var b bytes.Buffer
	o.doc.tableTail(&b)
	o.w.Write(b.Bytes())
	if err := o.w.Flush(); err != nil {
		return err
	}
	return cause
}

// tableCell is a value as a table cell, at most 60 columns wide and safe
// to print, with its width.
func tableCell(av types.AttributeValue) (string, int) { return cellWidth(itemcodec.CellText(av), 60) }

// cell makes a value safe to print and shortens it to at most max columns
// of a terminal, cutting between grapheme clusters (a flag, a ZWJ family,
// a letter with its marks stay whole) and ending it with "…". It is
// sanitised first, so that an escape shown as \x1b counts as it is shown.
func cell(s string, max int) string {
	s, _ = cellWidth(s, max)
	return s
}

// cellWidth is cell(s, max) and its width as a terminal shows it.
// Printable ASCII, what most values are, is safe as it is, one column a
// byte and a grapheme cluster a byte: it is measured and cut by its
// length, as the grapheme segmentation it needs no part of would.
func cellWidth(s string, max int) (string, int) {
	if printableASCII(s) && max >= 1 {
		if len(s) > max {
			return s[:max-1] + "…", max
		}
		return s, len(s)
	}
	s = textfmt.Sanitize(s)
	w := ansi.StringWidth(s)
	if w > max {
		s = ansi.Truncate(s, max, "…")
		w = ansi.StringWidth(s)
	}
	return s, w
}

// textWidth is s's width as a terminal shows it (ansi.StringWidth), by
// its length when it is printable ASCII.
func textWidth(s string) int {
	if printableASCII(s) {
		return len(s)
	}
	return ansi.StringWidth(s)
}

// printableASCII tells whether s is only the bytes 0x20 to 0x7e.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

func sanitizeAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = textfmt.Sanitize(s)
	}
	return out
}
