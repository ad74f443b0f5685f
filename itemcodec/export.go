package itemcodec

// Exporting items: writers that take items page by page as a query or scan
// delivers them, so an export of any size streams instead of waiting for
// the last page. The CLI (`query --output ...`) and the UI share them.

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ExportFormat names an export format.
type ExportFormat string

// The export formats.
const (
	// ExportJSONL is one plain JSON item per line (exact number digits,
	// binary as base64, sets as arrays): for jq and scripts. Types are lost.
	ExportJSONL ExportFormat = "jsonl"
	// ExportDynamoJSONL is one DynamoDB JSON item per line, the AWS CLI's
	// typed shape: `dynascope seed --file` reads it back exactly.
	ExportDynamoJSONL ExportFormat = "ddbjson"
	// ExportBatch is one `aws dynamodb batch-write-item --request-items`
	// document per line, each with at most 25 PutRequests (the most one
	// call takes), so every line can be sent as it is.
	ExportBatch ExportFormat = "ddbjson-batch"
	// ExportCSV is RFC 4180 CSV: a header of every attribute name (key
	// attributes first, then the rest sorted), strings raw, numbers with
	// their exact digits, binary as base64, anything else as plain JSON.
	ExportCSV ExportFormat = "csv"
)

// ExportFormats lists the formats in the order help text shows them.
var ExportFormats = []ExportFormat{ExportJSONL, ExportDynamoJSONL, ExportBatch, ExportCSV}

// ExportOptions say what an export writer needs beyond the items.
type ExportOptions struct {
	// Table names the table in ExportBatch documents.
	Table string
	// KeyNames are the key attributes ExportCSV puts first, in this order
	// (an index's keys, then the table's).
	KeyNames []string
	// TempDir is where ExportCSV spools items until it knows every column;
	// "" means os.TempDir().
	TempDir string
}

// ItemWriter writes items in one export format as they arrive. Close
// finishes the export with what was written so far, so a cancelled export
// still leaves a well-formed file; it must be called exactly once.
type ItemWriter interface {
	Write(items []Item) error
	Close() error
}

// NewExportWriter returns a writer of the format onto w.
func NewExportWriter(w io.Writer, f ExportFormat, o ExportOptions) (ItemWriter, error) {
	switch f {
	case ExportJSONL:
		return &lineWriter{w: bufio.NewWriterSize(w, 64<<10)}, nil
	case ExportDynamoJSONL:
		return &lineWriter{w: bufio.NewWriterSize(w, 64<<10), enc: ItemJSON{Dynamo: true}}, nil
	case ExportBatch:
		if o.Table == "" {
			return nil, fmt.Errorf("the %s format needs a table name", f)
		}
		return &batchWriter{w: bufio.NewWriter(w), table: o.Table}, nil
	case ExportCSV:
		return newCSVWriter(w, o)
	}
	return nil, fmt.Errorf("unknown export format %q", f)
}

// lineWriter writes one encoded item per line, flushing after each page so
// a reader downstream (jq, a pipe) sees pages as they arrive.
type lineWriter struct {
	w   *bufio.Writer
	enc ItemJSON
	buf []byte
}

func (l *lineWriter) Write(items []Item) error {
	for _, it := range items {
		l.buf = append(l.enc.Append(l.buf[:0], it), '\n')
		l.w.Write(l.buf)
	}
	return l.w.Flush()
}

func (l *lineWriter) Close() error { return l.w.Flush() }

// batchWriter groups items into batch-write-item documents of 25.
type batchWriter struct {
	w       *bufio.Writer
	table   string
	pending []Item
}

func (b *batchWriter) Write(items []Item) error {
	b.pending = append(b.pending, items...)
	for len(b.pending) >= BatchWriteLimit {
		b.emit(b.pending[:BatchWriteLimit])
		b.pending = b.pending[BatchWriteLimit:]
	}
	return b.w.Flush()
}

func (b *batchWriter) Close() error {
	if len(b.pending) > 0 {
		b.emit(b.pending)
		b.pending = nil
	}
	return b.w.Flush()
}

func (b *batchWriter) emit(items []Item) {
	e := ItemJSON{Dynamo: true}
	out := append(AppendQuoted([]byte{'{'}, b.table), ":["...)
	for i, it := range items {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, `{"PutRequest":{"Item":`...)
		out = e.Append(out, it)
		out = append(out, "}}"...)
	}
	b.w.Write(append(out, "]}\n"...))
}

// csvWriter spools items as DynamoDB JSON lines to a temporary file while it
// learns the columns (the header must name every attribute, and the last
// page may bring a new one), then writes the CSV in Close. Memory stays at
// one item whatever the export's size.
type csvWriter struct {
	out      io.Writer
	keyNames []string
	spool    *os.File
	buf      *bufio.Writer
	cols     map[string]bool
}

func newCSVWriter(w io.Writer, o ExportOptions) (*csvWriter, error) {
	f, err := os.CreateTemp(o.TempDir, "dynascope-export-*.jsonl")
	if err != nil {
		return nil, fmt.Errorf("cannot create a spool file for the CSV export: %w", err)
	}
	return &csvWriter{out: w, keyNames: o.KeyNames, spool: f, buf: bufio.NewWriter(f), cols: map[string]bool{}}, nil
}

func (c *csvWriter) Write(items []Item) error {
	for _, it := range items {
		for k := range it {
			c.cols[k] = true
		}
		c.buf.Write(DynamoJSON(it))
		c.buf.WriteByte('\n')
	}
	return nil
}

func (c *csvWriter) Close() error {
	defer os.Remove(c.spool.Name())
	defer c.spool.Close()
	if err := c.buf.Flush(); err != nil {
		return fmt.Errorf("spooling the CSV export: %w", err)
	}
	if _, err := c.spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	cols := CSVColumns(c.cols, c.keyNames)
	if len(cols) == 0 {
		return nil // no items: an empty file rather than an empty header line
	}
	cw := csv.NewWriter(c.out)
	header := make([]string, len(cols))
	for i, col := range cols {
		header[i] = csvText(col)
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	sc := bufio.NewScanner(c.spool)
	sc.Buffer(make([]byte, 0, 64<<10), maxJSONLLine)
	row := make([]string, len(cols))
	for sc.Scan() {
		it, err := ParseDynamoJSON(sc.Bytes())
		if err != nil {
			return fmt.Errorf("reading the CSV spool back: %w", err)
		}
		for i, col := range cols {
			row[i] = ""
			if av, ok := it[col]; ok {
				row[i] = CSVValue(av)
			}
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// CSVColumns orders the attribute names of an export: the key names that
// occur first, in the order given, then the others sorted by bytes.
func CSVColumns(names map[string]bool, keyNames []string) []string {
	var cols []string
	for _, k := range keyNames {
		if names[k] && !slices.Contains(cols, k) {
			cols = append(cols, k)
		}
	}
	var rest []string
	for k := range names {
		if !slices.Contains(cols, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(cols, rest...)
}

// CSVValue renders one attribute value as a CSV cell: a string as it is
// (but for csvText's escapes), a number with its exact digits, binary as
// base64, and booleans, null, sets, lists and maps as plain JSON. A missing
// attribute is the empty cell, like an empty string: CSV cannot tell them
// apart, DynamoDB JSON can.
func CSVValue(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return csvText(v.Value)
	case *types.AttributeValueMemberN, *types.AttributeValueMemberB:
		return KeyString(av) // as a user types them
	}
	return string(MarshalPlainValue(av))
}

// csvText writes the code points a terminal would act on (ESC and the other
// C0 controls but tab and newline, DEL, C1, bidi controls) as visible
// escapes such as \x1b: CSV has no escape of its own, and a CSV export
// printed to a terminal must not drive it. Every other string is kept.
func csvText(s string) string {
	unsafe := func(r rune) bool { return r < 0x20 && r != '\t' && r != '\n' || terminalRune(r) }
	if !strings.ContainsFunc(s, unsafe) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !unsafe(r):
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// ReadItemLines reads items for seeding, one line at a time, in either of
// the shapes exports write: a DynamoDB JSON item (or {"Item": ...}) per
// line, as ReadJSONL takes, or a batch-write-item document per line
// ({"Table": [{"PutRequest": {"Item": ...}}]}), whose items are loaded
// whatever table it names. Errors name the line.
func ReadItemLines(r io.Reader) ([]Item, error) {
	return readLines(r, func(line []byte) ([]Item, error) {
		if batch, ok, err := parseBatchLine(line); ok {
			return batch, err
		}
		it, err := ParseDynamoJSON(line)
		return []Item{it}, err
	})
}

// readNodeBytes reads one JSON value that must fill b.
func readNodeBytes(b []byte) (JSONNode, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	n, err := ReadJSONNode(dec)
	if err != nil {
		return JSONNode{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return JSONNode{}, errors.New("more data after the value")
	}
	return n, nil
}

// parseBatchLine reads a batch-write-item document. ok is false when the
// line is not one (its values are not arrays), so the caller reads it as an
// item: an item's values are always typed objects, never arrays.
func parseBatchLine(line []byte) (items []Item, ok bool, err error) {
	root, rerr := readNodeBytes(line)
	if rerr != nil || root.Kind != JSONObject || len(root.Keys) == 0 {
		return nil, false, nil
	}
	for _, e := range root.Elems {
		if e.Kind != JSONArray {
			return nil, false, nil
		}
	}
	if root.Dup != "" {
		return nil, true, fmt.Errorf("table %q appears twice", root.Dup)
	}
	for ti, reqs := range root.Elems {
		table := root.Keys[ti]
		for i, req := range reqs.Elems {
			where := fmt.Sprintf("%s request %d", table, i+1)
			if req.Kind != JSONObject || len(req.Keys) != 1 || req.Keys[0] != "PutRequest" {
				return nil, true, fmt.Errorf("%s: want {\"PutRequest\": {\"Item\": {...}}}; only puts can be loaded", where)
			}
			put := req.Elems[0]
			if put.Kind != JSONObject || len(put.Keys) != 1 || put.Keys[0] != "Item" || put.Elems[0].Kind != JSONObject {
				return nil, true, fmt.Errorf("%s: PutRequest wants exactly {\"Item\": {...}}", where)
			}
			it, err := ParseAttributes(put.Elems[0], "")
			if err != nil {
				return nil, true, fmt.Errorf("%s: %w", where, err)
			}
			items = append(items, it)
		}
	}
	return items, true, nil
}
