package itemcodec

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// writeFile writes content to name in dir and returns its path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func gzipped(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// readItems reads files to the end: the format read, each record as
// "WHERE [TABLE] ITEM" or "WHERE !ERROR", and the error that stopped it.
func readItems(t *testing.T, files []string, format InputFormat) (InputFormat, []string, error) {
	t.Helper()
	r, err := NewItemReader(files, format)
	if err != nil {
		return "", nil, err
	}
	defer r.Close()
	var out []string
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return r.Format(), out, nil
		}
		if err != nil {
			return r.Format(), out, err
		}
		line := rec.Where
		if rec.Table != "" {
			line += " [" + rec.Table + "]"
		}
		if rec.Err != nil {
			line += " !" + rec.Err.Error()
		} else {
			line += " " + string(DynamoJSON(rec.Item))
		}
		out = append(out, line)
	}
}

// Every layout seed reads, told from its first bytes, each item where it
// is, an invalid item a record of its own and the read going on.
func TestItemReaderFormats(t *testing.T) {
	batchDoc := `{"T": [{"PutRequest": {"Item": {"PK": {"S": "a"}}}}, {"DeleteRequest": {"Key": {"PK": {"S": "b"}}}}, {"Other": {}}, {"PutRequest": {"Item": {"PK": {"S": "c"}}, "X": 1}}, {"PutRequest": {"Item": {"PK": {"X": "c"}}}}]}`
	for _, tc := range []struct {
		name, content string
		forced        InputFormat
		format        InputFormat
		want          string // the records, one a line
		fails         string // the start of the error that stops the read
	}{
		{name: "DynamoDB JSON lines", content: "\ufeff{\"PK\":{\"S\":\"a\"}}\n\n  {\"Item\":{\"PK\":{\"N\":\"1\"}}}\nnot json\n[1]\n",
			format: FormatDynamoLines, want: "line 1 {\"PK\":{\"S\":\"a\"}}\nline 3 {\"PK\":{\"N\":\"1\"}}\nline 4 !not JSON: invalid character 'o' in literal null (expecting 'u')\nline 5 !an item must be a JSON object, got an array"},
		{name: "plain JSON lines", content: "{\"PK\":\"a\",\"n\":1.50,\"b\":true,\"z\":null,\"l\":[1,\"x\"],\"m\":{\"k\":\"v\"}}\n{\"PK\":1e999}\n",
			format: FormatPlainLines, want: "line 1 {\"PK\":{\"S\":\"a\"},\"b\":{\"BOOL\":true},\"l\":{\"L\":[{\"N\":\"1\"},{\"S\":\"x\"}]},\"m\":{\"M\":{\"k\":{\"S\":\"v\"}}},\"n\":{\"N\":\"1.50\"},\"z\":{\"NULL\":true}}\nline 2 !attribute \"PK\": number 1e999: magnitude larger than 1E+126"},
		{name: "a plain array", content: ` [{"PK":"a"}, {"PK":"b"}, 3]`, format: FormatPlainArray,
			want: "item 1 {\"PK\":{\"S\":\"a\"}}\nitem 2 {\"PK\":{\"S\":\"b\"}}\nitem 3 !an item must be a JSON object, got a number"},
		{name: "a DynamoDB array", content: `[{"PK":{"S":"a"}},{"Item":{"PK":{"S":"b"}}}]`, format: FormatDynamoArray,
			want: "item 1 {\"PK\":{\"S\":\"a\"}}\nitem 2 {\"PK\":{\"S\":\"b\"}}"},
		{name: "an empty array", content: "[]", format: FormatPlainArray, want: ""},
		{name: "an array that breaks off", content: `[{"PK":"a"}, {"PK":`, format: FormatPlainArray, want: "item 1 {\"PK\":{\"S\":\"a\"}}", fails: "unexpected EOF"},
		{name: "an array with a bad value", content: `[{"PK":"a"}, {"PK":x}]`, format: FormatPlainArray, want: "item 1 {\"PK\":{\"S\":\"a\"}}", fails: "item 2: invalid JSON: invalid character 'x'"},
		{name: "an array whose end is bad", content: `[{"PK":"a"} x`, format: FormatPlainArray, want: "item 1 {\"PK\":{\"S\":\"a\"}}", fails: "item 2: invalid JSON: invalid character 'x' after array element; the array cannot be read past it."},
		{name: "lines read as an array", content: `{"PK":"a"}`, forced: FormatPlainArray, format: FormatPlainArray, fails: "a JSON array of plain JSON items wants a JSON array of items"},
		{name: "a batch document", content: strings.ReplaceAll(batchDoc, ", ", ",\n  "), format: FormatBatch,
			want: "document 1, table T request 1 [T] {\"PK\":{\"S\":\"a\"}}\n" +
				"document 1, table T request 2 [T] !a DeleteRequest; seed only puts items, it deletes none\n" +
				"document 1, table T request 3 [T] !want {\"PutRequest\": {\"Item\": {...}}}\n" +
				"document 1, table T request 4 [T] !PutRequest wants exactly {\"Item\": {...}}\n" +
				"document 1, table T request 5 [T] !attribute \"PK\": unknown type \"X\"; want one of S, N, B, BOOL, NULL, M, L, SS, NS, BS"},
		{name: "batch documents one a line", content: `{"RequestItems":{"T":[{"PutRequest":{"Item":{"PK":{"S":"a"}}}}]}}` + "\n" + `{"U":[]}` + "\n" + `{"U":[{"PutRequest":{"Item":{"PK":{"S":"b"}}}}]}` + "\n",
			format: FormatBatch, want: "line 1, table T request 1 [T] {\"PK\":{\"S\":\"a\"}}\nline 3, table U request 1 [U] {\"PK\":{\"S\":\"b\"}}"},
		{name: "an item among batch lines", content: `{"T":[{"PutRequest":{"Item":{"PK":{"S":"a"}}}}]}` + "\n" + `{"PK":{"S":"b"}}` + "\n",
			format: FormatBatch, want: "line 1, table T request 1 [T] {\"PK\":{\"S\":\"a\"}}\nline 2 !not a batch-write-item document"},
		{name: "a table twice", content: `{"T":[],"T":[]}`, format: FormatBatch, want: "line 1 !table \"T\" appears twice"},
		{name: "pretty documents, one not a batch", content: "{\"T\": [\n]}\n{\"U\": [{\"PutRequest\": {\"Item\": {\"PK\": {\"S\": \"a\"}}}}\n]}\n{\"PK\": {\"S\": \"b\"}\n}",
			format: FormatBatch, want: "document 2, table U request 1 [U] {\"PK\":{\"S\":\"a\"}}", fails: "document 3: not a batch-write-item document"},
		{name: "a pretty document that breaks off", content: "{\"T\": [\n{\"PutRequest\": ", forced: FormatBatch, format: FormatBatch, fails: "document 1: invalid JSON: unexpected EOF"},
		{name: "a second document that breaks off", content: "{\"T\": [{\"PutRequest\": {\"Item\": {\"PK\": {\"S\": \"a\"}}}}\n]}\n{\"T\": [\n{\"PutRequest\": ", forced: FormatBatch, format: FormatBatch,
			want: "document 1, table T request 1 [T] {\"PK\":{\"S\":\"a\"}}", fails: "document 2: invalid JSON: unexpected EOF"},
		{name: "a stray brace after a document", content: "{\"T\": [\n]}\n}", forced: FormatBatch, format: FormatBatch, fails: "document 2: invalid JSON: invalid character '}'"},
		{name: "an empty batch file", content: "", forced: FormatBatch, format: FormatBatch, want: ""},
		{name: "an object over lines", content: "{\"PK\":\n \"a\"}\n", fails: "f.json is in none of the formats seed reads"},
		{name: "not JSON", content: "PK,SK\n", fails: "f.json is in none of the formats seed reads"},
		{name: "a Workbench model", content: `{"ModelName":"M","DataModel":[]}`, fails: "f.json is a NoSQL Workbench data model, not a file of items"},
		{name: "a Workbench model cut off", content: `{"ModelName":"M","DataModel":[`, fails: "f.json is a NoSQL Workbench data model"},
		{name: "an unknown forced format", content: `{}`, forced: "yaml", format: "yaml", fails: `unknown format "yaml"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, t.TempDir(), "f.json", tc.content)
			format, recs, err := readItems(t, []string{p}, tc.forced)
			if got := strings.Join(recs, "\n"); got != tc.want {
				t.Errorf("records:\n%s\nwant:\n%s", got, tc.want)
			}
			if tc.format != "" && format != tc.format {
				t.Errorf("format %q, want %q", format, tc.format)
			}
			switch {
			case tc.fails == "" && err != nil:
				t.Errorf("stopped: %v", err)
			case tc.fails != "" && (err == nil || !strings.Contains(err.Error(), tc.fails)):
				t.Errorf("error %v, want %q", err, tc.fails)
			}
		})
	}
}

// An export's data files are read in order, gzipped or not, each record
// named by its file; a cut-off gzip stream stops the read in one sentence;
// progress counts the bytes of every file.
func TestItemReaderFiles(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.json.gz", gzipped(t, `{"Item":{"PK":{"S":"a"}}}`+"\n"))
	b := writeFile(t, dir, "b.json", `{"Item":{"PK":{"S":"b"}}}`)
	r, err := NewItemReader([]string{a, b}, FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	var wheres []string
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		wheres = append(wheres, rec.Where+" "+string(DynamoJSON(rec.Item)))
	}
	if got, want := strings.Join(wheres, "; "), a+` line 1 {"PK":{"S":"a"}}; `+b+` line 1 {"PK":{"S":"b"}}`; got != want {
		t.Errorf("records %s, want %s", got, want)
	}
	sa, _ := os.Stat(a)
	sb, _ := os.Stat(b)
	if read, size := r.Progress(); size != sa.Size()+sb.Size() || read != size {
		t.Errorf("progress %d of %d, want all of %d", read, size, sa.Size()+sb.Size())
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the end: %v", err)
	}
	if r.f != nil {
		t.Error("the last file is still open after the end")
	}
	if r, err = NewItemReader([]string{a, b}, FormatAuto); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil || r.f != nil {
		t.Errorf("Close while reading: %v, the file still open %v", err, r.f != nil)
	}
	if err := r.Close(); err != nil {
		t.Errorf("close after the end: %v", err)
	}

	whole := gzipped(t, `{"PK":{"S":"a"}}`+"\n"+`{"PK":{"S":"b"}}`+"\n")
	cut := writeFile(t, dir, "cut.json.gz", whole[:len(whole)-6])
	r, err = NewItemReader([]string{cut}, FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	r.ShowAs("standard input")
	_, err = r.Next()
	for err == nil {
		_, err = r.Next()
	}
	if err == io.EOF || !strings.HasPrefix(err.Error(), "standard input: the file is cut short or corrupt (unexpected EOF)") {
		t.Errorf("a cut gzip stream: %v", err)
	}
	r.Close()

	bad := writeFile(t, dir, "bad.json.gz", "\x1f\x8bnot gzip at all")
	if _, _, err := readItems(t, []string{bad}, FormatAuto); err == nil || !strings.HasPrefix(err.Error(), bad+": the file is cut short or corrupt") {
		t.Errorf("a broken gzip header: %v", err)
	}
	if _, err := NewItemReader(nil, FormatAuto); err == nil || err.Error() != "no data files to read." {
		t.Errorf("no files: %v", err)
	}
	if _, err := NewItemReader([]string{filepath.Join(dir, "none.json")}, FormatAuto); err == nil || !strings.HasPrefix(err.Error(), "cannot read "+filepath.Join(dir, "none.json")) {
		t.Errorf("a missing file: %v", err)
	}
	// A file gone between the listing and its read.
	gone := writeFile(t, dir, "gone.json", `{"PK":{"S":"a"}}`)
	r, err = NewItemReader([]string{b, gone}, FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(gone)
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err == nil || !strings.HasPrefix(err.Error(), "cannot read "+gone) {
		t.Errorf("a file gone: %v", err)
	}
}

// A line longer than 16 MB is refused, naming its line and the cap.
func TestItemReaderLongLine(t *testing.T) {
	p := writeFile(t, t.TempDir(), "f.json", `{"PK":{"S":"a"}}`+"\n"+`{"PK":{"S":"`+strings.Repeat("x", maxJSONLLine)+`"}}`+"\n")
	_, recs, err := readItems(t, []string{p}, FormatAuto)
	if len(recs) != 1 || err == nil || err.Error() != p+": line 2: longer than 16 MB, far beyond DynamoDB's 400 KB item limit." {
		t.Errorf("%d records, %v", len(recs), err)
	}
}

func TestInputFormatNames(t *testing.T) {
	for _, f := range InputFormats {
		got, err := ParseFormat(string(f))
		if err != nil || got != f || f.Describe() == "unknown" {
			t.Errorf("%q: %q %v, %s", f, got, err, f.Describe())
		}
	}
	if _, err := ParseFormat("csv"); err == nil || err.Error() != `--format "csv" is not one seed reads; use ddbjson, jsonl, json, ddbjson-array, batch.` {
		t.Errorf("csv: %v", err)
	}
	if d := InputFormat("x").Describe(); d != "unknown" {
		t.Errorf("x: %s", d)
	}
}

// --file's argument: a file; a directory's manifest or its .json and
// .json.gz files in order (no manifest-* among them); a manifest's data
// files beside it, with their item count and the table from its summary.
func TestResolveInput(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "one.json", "{}")
	if in, err := ResolveInput(f); err != nil || strings.Join(in.Paths, " ") != f || in.Items != -1 {
		t.Errorf("a file: %+v %v", in, err)
	}
	plain := filepath.Join(dir, "plain")
	writeFile(t, plain, "b/2.json.gz", "")
	writeFile(t, plain, "a.json", "")
	writeFile(t, plain, "manifest-summary.json", "")
	writeFile(t, plain, "notes.txt", "")
	writeFile(t, plain, "c.json/x.txt", "")
	if in, err := ResolveInput(plain); err != nil || strings.Join(in.Paths, " ") != filepath.Join(plain, "a.json")+" "+filepath.Join(plain, "b/2.json.gz") || in.Items != -1 {
		t.Errorf("a directory: %+v %v", in, err)
	}
	empty := filepath.Join(dir, "empty")
	writeFile(t, empty, "notes.txt", "")
	if _, err := ResolveInput(empty); err == nil || err.Error() != "directory "+empty+" holds no .json or .json.gz files." {
		t.Errorf("an empty directory: %v", err)
	}
	if _, err := ResolveInput(filepath.Join(dir, "none")); err == nil || !strings.HasPrefix(err.Error(), "cannot read "+filepath.Join(dir, "none")) {
		t.Errorf("nothing there: %v", err)
	}

	exp := filepath.Join(dir, "export")
	d1 := writeFile(t, exp, "data/one.json.gz", "")
	d2 := writeFile(t, exp, "two.json.gz", "")
	m := writeFile(t, exp, "manifest-files.json", `{"itemCount":3,"dataFileS3Key":"AWSDynamoDB/x/data/one.json.gz"}`+"\n\n"+`{"dataFileS3Key":"AWSDynamoDB/x/data/two.json.gz","itemCount":4}`+"\n"+`{"dataFileS3Key":"AWSDynamoDB/x/data/one.json.gz"}`+"\n")
	writeFile(t, exp, "manifest-summary.json", `{"tableArn":"arn:aws:dynamodb:eu-west-1:123:table/Orders"}`)
	for _, p := range []string{exp, m} {
		in, err := ResolveInput(p)
		if err != nil || strings.Join(in.Paths, " ") != d1+" "+d2+" "+d1 || in.Items != 7 || in.Table != "Orders" {
			t.Errorf("%s: %+v %v", p, in, err)
		}
	}
	for _, tc := range []struct{ manifest, want string }{
		{`{"itemCount":1}`, " line 1: not a manifest entry"},
		{"\n" + `{"dataFileS3Key":"x/three.json.gz"}`, " line 2 lists three.json.gz, which is not in " + filepath.Join(dir, "bad", "data")},
		{"\n", " lists no data files."},
	} {
		bad := writeFile(t, filepath.Join(dir, "bad"), "manifest-files.json", tc.manifest)
		if _, err := ResolveInput(bad); err == nil || !strings.HasPrefix(err.Error(), bad+tc.want) {
			t.Errorf("%q: %v, want %q", tc.manifest, err, tc.want)
		}
	}
	noSummary := filepath.Join(dir, "nosummary")
	writeFile(t, noSummary, "data/one.json.gz", "")
	writeFile(t, noSummary, "manifest-files.json", `{"dataFileS3Key":"one.json.gz"}`)
	writeFile(t, noSummary, "manifest-summary.json", `{"tableArn":"arn:aws:dynamodb:eu-west-1:123:stream/S"}`)
	if in, err := ResolveInput(noSummary); err != nil || in.Table != "" || in.Items != 0 {
		t.Errorf("no table in the summary: %+v %v", in, err)
	}
	// The table is what follows ":table/", wherever it starts.
	writeFile(t, noSummary, "manifest-summary.json", `{"tableArn":":table/T"}`)
	if in, err := ResolveInput(noSummary); err != nil || in.Table != "T" {
		t.Errorf("an ARN that is only :table/T: %+v %v", in, err)
	}
}

// Standard input and pipes are streams, copied once into a file read like
// any other; a read error is one sentence and leaves no copy.
func TestSpoolInput(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "f.json", `{"PK":"a"}`)
	if IsStream(f) || IsStream(dir) || IsStream(filepath.Join(dir, "none")) || !IsStream(StdinName) || !IsStream(os.DevNull) {
		t.Errorf("IsStream: file %v, directory %v, missing %v, - %v, %s %v", IsStream(f), IsStream(dir), IsStream(filepath.Join(dir, "none")), IsStream(StdinName), os.DevNull, IsStream(os.DevNull))
	}
	if ShownName(StdinName) != "standard input" || ShownName(f) != f {
		t.Errorf("ShownName: %q %q", ShownName(StdinName), ShownName(f))
	}
	in, remove, err := SpoolInput(StdinName, strings.NewReader(`{"PK":"a"}`))
	if err != nil || len(in.Paths) != 1 || in.Shown != "standard input" || in.Items != -1 {
		t.Fatalf("stdin: %+v %v", in, err)
	}
	if b, err := os.ReadFile(in.Paths[0]); err != nil || string(b) != `{"PK":"a"}` {
		t.Errorf("the copy: %q %v", b, err)
	}
	remove()
	if _, err := os.Stat(in.Paths[0]); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the copy after remove: %v", err)
	}
	in, remove, err = SpoolInput(f, nil)
	if err != nil || in.Shown != f {
		t.Fatalf("a path: %+v %v", in, err)
	}
	if b, _ := os.ReadFile(in.Paths[0]); string(b) != `{"PK":"a"}` {
		t.Errorf("the copy of a path: %q", b)
	}
	remove()
	if _, _, err := SpoolInput(filepath.Join(dir, "none"), nil); err == nil || !strings.HasPrefix(err.Error(), "cannot read "+filepath.Join(dir, "none")) {
		t.Errorf("a missing path: %v", err)
	}
	in, _, err = SpoolInput(StdinName, io.MultiReader(strings.NewReader("{"), iotestErr{}))
	if err == nil || err.Error() != "cannot read standard input: broken pipe; nothing was written." || in.Paths != nil {
		t.Errorf("a broken stream: %+v %v", in, err)
	}
}

type iotestErr struct{}

func (iotestErr) Read([]byte) (int, error) { return 0, errors.New("broken pipe") }

// A new file has its name only when finished without an error, and never
// over a file that exists, also one made meanwhile.
func TestCreateNewAndFinish(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.jsonl")
	f, err := CreateNew(p)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("x\n")
	if err := f.Finish(nil); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "x\n" {
		t.Errorf("finished: %q %v", b, err)
	}
	if _, err := CreateNew(p); err == nil || err.Error() != "export to "+p+": the file exists; choose another name (nothing is overwritten)" {
		t.Errorf("over a file: %v", err)
	}
	q := filepath.Join(dir, "q.jsonl")
	f, err = CreateNew(q)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Finish(errors.New("the scan failed")); err == nil || err.Error() != "the scan failed" {
		t.Errorf("failed: %v", err)
	}
	f, err = CreateNew(q)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "q.jsonl", "someone else's")
	if err := f.Finish(nil); err == nil || err.Error() != "export to "+q+": the file exists; choose another name (nothing is overwritten)" {
		t.Errorf("a file made meanwhile: %v", err)
	}
	if b, _ := os.ReadFile(q); string(b) != "someone else's" {
		t.Errorf("the file made meanwhile became %q", b)
	}
	f, err = CreateNew(filepath.Join(dir, "r.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := f.Finish(nil); err == nil || !strings.HasPrefix(err.Error(), "export to "+filepath.Join(dir, "r.jsonl")+": close ") {
		t.Errorf("a close that fails: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.partial")); len(left) > 0 {
		t.Errorf("partial files left: %v", left)
	}
	if _, err := CreateNew(filepath.Join(dir, "no", "such", "dir.jsonl")); err == nil || !strings.HasPrefix(err.Error(), "export to "+filepath.Join(dir, "no", "such", "dir.jsonl")+": ") {
		t.Errorf("no directory: %v", err)
	}
}

// A read that fails mid-file names the line it was reading.
func TestReadJSONLReadError(t *testing.T) {
	_, err := ReadJSONL(io.MultiReader(strings.NewReader(`{"PK":{"S":"a"}}`+"\n"), iotestErr{}))
	if err == nil || err.Error() != "line 2: broken pipe." {
		t.Errorf("a broken read: %v", err)
	}
}

// A partial file gone before Finish cannot be named: one sentence, not
// success.
func TestFinishWithoutThePartialFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out.jsonl")
	f, err := CreateNew(p)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(f.Name())
	if err := f.Finish(nil); err == nil || !strings.HasPrefix(err.Error(), "export to "+p+": rename ") {
		t.Errorf("no partial file: %v", err)
	}
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s: %v", p, err)
	}
}

// The code points a terminal acts on become visible escapes: in CSV an
// ASCII one as \xNN, any other as \uNNNN; in JSON text always \uNNNN,
// everything else kept byte for byte.
func TestTerminalEscapes(t *testing.T) {
	if got, want := CSVValue(&types.AttributeValueMemberS{Value: "a\x01b\u202ec\x7fd\u0080é\t"}), `a\x01b\u202ec\x7fd\u0080é`+"\t"; got != want {
		t.Errorf("CSV: %q, want %q", got, want)
	}
	for in, want := range map[string]string{
		`"é\u202e"`:            `"é\u202e"`, // an escape already
		"\"a\u202eb\x7fé\"":    `"a\u202eb\u007fé"`,
		"\x7f":                 `\u007f`,
		`"plain é text, long"`: `"plain é text, long"`,
	} {
		if got := string(EscapeTerminalJSON([]byte(in))); got != want {
			t.Errorf("EscapeTerminalJSON(%q) = %q, want %q", in, got, want)
		}
	}
}

// The code points a terminal acts on, at each edge of their ranges.
func TestTerminalRuneEdges(t *testing.T) {
	for r, want := range map[rune]bool{
		0x7e: false, 0x7f: true, 0x80: true, 0x9f: true, 0xa0: false,
		0x061b: false, 0x061c: true, 0x061d: false, 0x200d: false, 0x200e: true, 0x200f: true, 0x2010: false,
		0x2029: false, 0x202a: true, 0x202e: true, 0x202f: false, 0x2065: false, 0x2066: true, 0x2069: true, 0x206a: false,
	} {
		if got := terminalRune(r); got != want {
			t.Errorf("terminalRune(%U) = %v", r, got)
		}
	}
}

// A batch export writes each full batch of 25 as soon as it has it, and
// no empty document at the end.
func TestExportBatchOfExactly25(t *testing.T) {
	var items []Item
	for i := range BatchWriteLimit {
		items = append(items, Item{"PK": demoInt(i)})
	}
	var out bytes.Buffer
	w, err := NewExportWriter(&out, ExportBatch, ExportOptions{Table: "T"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(items); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n"); n != 1 {
		t.Errorf("after 25 items: %d documents written, want 1", n)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n"); n != 1 || strings.Count(out.String(), "PutRequest") != 25 {
		t.Errorf("after Close:\n%s", out.String())
	}
}

// Text without a terminal code point comes back as it is, the same bytes
// (no copy), also when empty; a space in CSV is a space.
func TestNoEscapeIsNoCopy(t *testing.T) {
	b := []byte(`{"a":"plain é"}`)
	if got := EscapeTerminalJSON(b); &got[0] != &b[0] || string(got) != string(b) {
		t.Errorf("a copy or a change: %q", got)
	}
	if got := EscapeTerminalJSON([]byte{}); len(got) != 0 {
		t.Errorf("empty: %q", got)
	}
	if got := CSVValue(&types.AttributeValueMemberS{Value: "a b\x1f"}); got != `a b\x1f` {
		t.Errorf("CSV: %q", got)
	}
}

// Number text DynamoDB would refuse is sized by its digits, 0 to 9 and
// nothing beside them, two a byte plus one.
func TestLenientNumberSize(t *testing.T) {
	for s, want := range map[string]int{"0x": 2, "9x": 2, "/:x": 1, "12345x": 4, "1234x": 3} {
		if got := NumberSize(s); got != want {
			t.Errorf("NumberSize(%q) = %d, want %d", s, got, want)
		}
	}
}
