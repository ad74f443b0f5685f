package itemcodec

// Reading the item files seed loads, whatever tool wrote them: DynamoDB JSON
// or plain JSON, one item per line or in an array, the AWS CLI's
// batch-write-item documents, and DynamoDB's export to S3 (gzipped, a
// directory of files, or its manifest). Items stream one at a time so a
// file of any size loads in a few megabytes.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"dynascope/textfmt"
)

// InputFormat names a layout of items in a file.
type InputFormat string

// The formats ItemReader reads.
const (
	FormatAuto        InputFormat = ""
	FormatDynamoLines InputFormat = "ddbjson"       // DynamoDB JSON, one item per line ({"Item": ...} too, as S3 exports write)
	FormatPlainLines  InputFormat = "jsonl"         // plain JSON, one item per line
	FormatPlainArray  InputFormat = "json"          // a JSON array of plain JSON items
	FormatDynamoArray InputFormat = "ddbjson-array" // a JSON array of DynamoDB JSON items
	FormatBatch       InputFormat = "batch"         // batch-write-item documents, pretty or one per line (ddbjson-batch)
)

// InputFormats lists the formats --format takes, in help order.
var InputFormats = []InputFormat{FormatDynamoLines, FormatPlainLines, FormatPlainArray, FormatDynamoArray, FormatBatch}

// Describe says what the format is, for the sentence a load prints.
func (f InputFormat) Describe() string {
	switch f {
	case FormatDynamoLines:
		return "DynamoDB JSON lines"
	case FormatPlainLines:
		return "plain JSON lines"
	case FormatPlainArray:
		return "a JSON array of plain JSON items"
	case FormatDynamoArray:
		return "a JSON array of DynamoDB JSON items"
	case FormatBatch:
		return "batch-write-item documents"
	}
	return "unknown"
}

// errNotAFormat is the sentence for input in none of the formats.
const errNotAFormat = "is in none of the formats seed reads: DynamoDB JSON lines, plain JSON lines, a JSON array of items (plain or DynamoDB JSON), an AWS CLI batch-write-item document, or a DynamoDB export to S3 (.json, .json.gz, its data directory or manifest-files.json)"

// Record is one item read from a file, or why the item there cannot be read.
type Record struct {
	Table string // the table a batch-write-item document names it for; "" otherwise
	Item  Item
	Where string // where it is: "line 3", "item 4", "data/x.json.gz line 7"
	Err   error  // the item is invalid (Item is nil): skipped or refused by the caller
}

// lineReaderMax is one line's cap (see maxJSONLLine); peekSize is how much
// of a file is looked at to tell lines from a document.
const peekSize = 1 << 20

// ItemReader reads items from one or more files (an export's data files),
// in one format.
type ItemReader struct {
	files  []string
	multi  bool // name the file in Where
	format InputFormat
	shown  string // the name messages give the one file, "" for its path

	fi     int // next file
	f      *os.File
	count  *countingReader
	zr     *gzip.Reader
	next   func() (Record, error) // the current file's decoder
	queue  []Record               // records of a batch document not yet returned
	size   int64                  // bytes of all files, for progress
	before int64                  // bytes of the files already read
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// NewItemReader reads the files in order; format FormatAuto detects it from
// the first file's content.
func NewItemReader(files []string, format InputFormat) (*ItemReader, error) {
	if len(files) == 0 {
		return nil, &textfmt.UserError{Msg: "no data files to read."}
	}
	r := &ItemReader{files: files, multi: len(files) > 1, format: format}
	for _, p := range files {
		st, err := os.Stat(p)
		if err != nil {
			return nil, &textfmt.UserError{Msg: fmt.Sprintf("cannot read %s: %v.", p, err), Err: err}
		}
		r.size += st.Size()
	}
	return r, nil
}

// ShowAs names the reader's one file name in messages, where it is a copy
// of a stream (InputFiles.Shown); "" keeps the path.
func (r *ItemReader) ShowAs(name string) { r.shown = name }

func (r *ItemReader) display(path string) string {
	if r.shown != "" && !r.multi {
		return r.shown
	}
	return path
}

// Format is the format read (after the first Next when detected).
func (r *ItemReader) Format() InputFormat { return r.format }

// Progress is how many bytes of the files have been read, of how many.
func (r *ItemReader) Progress() (read, size int64) {
	read = r.before
	if r.count != nil {
		read += r.count.n
	}
	return read, r.size
}

// Close closes the file being read.
func (r *ItemReader) Close() error {
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	r.f = nil
	return err
}

// Next returns the next record, io.EOF after the last. An error is fatal:
// the file cannot be read on (a truncated gzip stream, an array whose JSON
// breaks off); an invalid item is a Record with Err set.
func (r *ItemReader) Next() (Record, error) {
	for {
		if len(r.queue) > 0 {
			return r.pop(), nil
		}
		if r.next == nil {
			if r.fi >= len(r.files) {
				return Record{}, io.EOF
			}
			if err := r.open(r.files[r.fi]); err != nil {
				return Record{}, err
			}
			r.fi++
		}
		rec, err := r.next()
		if err == io.EOF {
			r.before += r.count.n
			r.count = nil
			r.next = nil
			r.Close()
			continue
		}
		if err != nil {
			return Record{}, r.fileErr(r.display(r.files[r.fi-1]), err)
		}
		if r.multi {
			rec.Where = r.files[r.fi-1] + " " + rec.Where
		}
		return rec, nil
	}
}

// pop takes the first record of a batch document's queue.
func (r *ItemReader) pop() Record {
	rec := r.queue[0]
	r.queue = r.queue[1:]
	return rec
}

func (r *ItemReader) fileErr(name string, err error) error {
	var ue *textfmt.UserError
	if errors.As(err, &ue) {
		return &textfmt.UserError{Msg: name + ": " + ue.Msg, Err: err}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) {
		return &textfmt.UserError{Msg: fmt.Sprintf("%s: the file is cut short or corrupt (%v); nothing after this point can be read.", name, err), Err: err}
	}
	return &textfmt.UserError{Msg: fmt.Sprintf("%s: %v.", name, err), Err: err}
}

func (r *ItemReader) open(file string) error {
	path := r.display(file)
	f, err := os.Open(file)
	if err != nil {
		return &textfmt.UserError{Msg: fmt.Sprintf("cannot read %s: %v.", path, err), Err: err}
	}
	r.f = f
	r.count = &countingReader{r: f}
	br := bufio.NewReaderSize(r.count, 64<<10)
	var in io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return r.fileErr(path, err)
		}
		in = zr
	}
	pr := bufio.NewReaderSize(in, peekSize)
	head, err := pr.Peek(peekSize)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return r.fileErr(path, err)
	}
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	if r.format == FormatAuto {
		if r.format, err = detectFormat(head); err == errWorkbenchModel {
			return &textfmt.UserError{Msg: path + " " + err.Error() + "."}
		} else if err != nil {
			return &textfmt.UserError{Msg: path + " " + errNotAFormat + "."}
		}
	}
	switch r.format {
	case FormatDynamoLines, FormatPlainLines:
		r.next = r.lines(pr)
	case FormatPlainArray, FormatDynamoArray:
		r.next = r.array(pr)
	case FormatBatch:
		if first, _ := firstByte(head); first == '{' && lineIsValue(head) {
			r.next = r.lines(pr)
		} else {
			r.next = r.documents(pr)
		}
	default:
		return &textfmt.UserError{Msg: fmt.Sprintf("unknown format %q.", r.format)}
	}
	return nil
}

// item turns one JSON value into a record in the reader's format.
func (r *ItemReader) item(n JSONNode, where string) Record {
	rec := Record{Where: where}
	var err error
	switch {
	case n.Kind != JSONObject:
		err = fmt.Errorf("an item must be a JSON object, got %s", n.Kind)
	case r.format == FormatPlainLines || r.format == FormatPlainArray:
		rec.Item, err = plainItem(n)
	default:
		if isItemWrapper(n) {
			n = n.Elems[0]
		}
		rec.Item, err = ParseAttributes(n, "")
	}
	if err != nil {
		rec.Item, rec.Err = nil, err
	}
	return rec
}

// lines reads one value per line; a line that is not JSON is an invalid
// item, and reading goes on with the next line.
func (r *ItemReader) lines(in io.Reader) func() (Record, error) {
	sc := newLineScanner(in)
	return func() (Record, error) {
		for {
			line, ok := sc.next()
			if !ok {
				break
			}
			where := fmt.Sprintf("line %d", sc.n)
			node, err := readNodeBytes(line)
			if err != nil {
				return Record{Where: where, Err: fmt.Errorf("not JSON: %v", err)}, nil
			}
			if isBatchDoc(node) {
				if r.queue = batchRecords(node, where); len(r.queue) == 0 {
					continue
				}
				return r.pop(), nil
			}
			if r.format == FormatBatch {
				return Record{Where: where, Err: errors.New("not a batch-write-item document")}, nil
			}
			return r.item(node, where), nil
		}
		if err := sc.err(); err != nil {
			return Record{}, err
		}
		return Record{}, io.EOF
	}
}

// array reads a JSON array element by element. JSON that breaks off stops
// the read: nothing after it can be trusted to start an item.
func (r *ItemReader) array(in io.Reader) func() (Record, error) {
	dec := json.NewDecoder(in)
	dec.UseNumber()
	n, started := 0, false
	return func() (Record, error) {
		if !started {
			started = true
			tok, err := dec.Token()
			if d, ok := tok.(json.Delim); err != nil || !ok || d != '[' {
				return Record{}, &textfmt.UserError{Msg: fmt.Sprintf("%s wants a JSON array of items", r.format.Describe())}
			}
		}
		if !dec.More() {
			if _, err := dec.Token(); err != nil {
				return Record{}, arrayErr(n, err)
			}
			return Record{}, io.EOF
		}
		n++
		node, err := ReadJSONNode(dec)
		if err != nil {
			return Record{}, arrayErr(n, err)
		}
		return r.item(node, fmt.Sprintf("item %d", n)), nil
	}
}

func arrayErr(n int, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) {
		return err
	}
	return &textfmt.UserError{Msg: fmt.Sprintf("item %d: invalid JSON: %v; the array cannot be read past it.", n, err), Err: err}
}

// documents reads batch-write-item documents that span lines, one after
// another (the AWS CLI's --request-items file, pretty-printed).
func (r *ItemReader) documents(in io.Reader) func() (Record, error) {
	dec := json.NewDecoder(in)
	dec.UseNumber()
	n := 0
	return func() (Record, error) {
		for {
			// The input may end between documents (an empty file has
			// none); a document cut off is an error, not the end: its
			// items would be lost without a word.
			if !dec.More() {
				if _, err := dec.Token(); err == io.EOF {
					return Record{}, io.EOF
				}
			}
			node, err := ReadJSONNode(dec)
			n++
			where := fmt.Sprintf("document %d", n)
			if err != nil {
				return Record{}, &textfmt.UserError{Msg: fmt.Sprintf("%s: invalid JSON: %v.", where, err), Err: err}
			}
			if !isBatchDoc(node) {
				return Record{}, &textfmt.UserError{Msg: where + ": not a batch-write-item document ({\"Table\": [{\"PutRequest\": {\"Item\": {...}}}]})."}
			}
			if r.queue = batchRecords(node, where); len(r.queue) == 0 {
				continue
			}
			return r.pop(), nil
		}
	}
}

// batchRecords reads a batch-write-item document's put requests. A
// DeleteRequest is an invalid record: seed only puts.
func batchRecords(n JSONNode, where string) []Record {
	if len(n.Keys) == 1 && n.Keys[0] == "RequestItems" && n.Elems[0].Kind == JSONObject {
		n = n.Elems[0]
	}
	var out []Record
	if n.Dup != "" {
		return []Record{{Where: where, Err: fmt.Errorf("table %q appears twice", n.Dup)}}
	}
	for ti, reqs := range n.Elems {
		table := n.Keys[ti]
		for i, req := range reqs.Elems {
			rec := Record{Table: table, Where: fmt.Sprintf("%s, table %s request %d", where, table, i+1)}
			switch {
			case req.Kind == JSONObject && len(req.Keys) == 1 && req.Keys[0] == "DeleteRequest":
				rec.Err = errors.New("a DeleteRequest; seed only puts items, it deletes none")
			case req.Kind != JSONObject || len(req.Keys) != 1 || req.Keys[0] != "PutRequest":
				rec.Err = errors.New(`want {"PutRequest": {"Item": {...}}}`)
			default:
				put := req.Elems[0]
				if put.Kind != JSONObject || len(put.Keys) != 1 || put.Keys[0] != "Item" || put.Elems[0].Kind != JSONObject {
					rec.Err = errors.New(`PutRequest wants exactly {"Item": {...}}`)
					break
				}
				rec.Item, rec.Err = ParseAttributes(put.Elems[0], "")
				if rec.Err != nil {
					rec.Item = nil
				}
			}
			out = append(out, rec)
		}
	}
	return out
}
