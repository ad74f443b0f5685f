package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/bench/benchdata"
	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// The streamed outputs against the documents they replace, which were
// built whole from every item once the read was over: the same bytes.

// oldQueryObject and oldBulkObject are the objects query and scan printed
// whole, as they were.
type oldQueryObject struct {
	Table            string            `json:"table"`
	Index            *string           `json:"index"`
	KeyCondition     string            `json:"keyCondition"`
	ScanIndexForward bool              `json:"scanIndexForward"`
	Limit            *int32            `json:"limit"`
	ConsistentRead   bool              `json:"consistentRead"`
	Items            []json.RawMessage `json:"items"`
	Count            int               `json:"count"`
	ScannedCount     int               `json:"scannedCount"`
	Pages            int               `json:"pages"`
	LastEvaluatedKey json.RawMessage   `json:"lastEvaluatedKey"`
	ConsumedCapacity capacityObject    `json:"consumedCapacity"`
	Requests         []requestObject   `json:"requests"`
	Filter           *string           `json:"filter,omitempty"`
	Projection       *string           `json:"projection,omitempty"`
	Notes            []string          `json:"notes,omitempty"`
}

type oldBulkObject struct {
	Operation        string            `json:"operation"`
	Statement        *string           `json:"statement,omitempty"`
	Plan             *planObject       `json:"plan,omitempty"`
	Table            string            `json:"table"`
	Index            *string           `json:"index"`
	Filter           *string           `json:"filter"`
	Projection       *string           `json:"projection"`
	Segments         int               `json:"segments,omitempty"`
	ConsistentRead   bool              `json:"consistentRead"`
	Items            []json.RawMessage `json:"items"`
	Count            int               `json:"count"`
	ScannedCount     *int              `json:"scannedCount"`
	Pages            int               `json:"pages"`
	Complete         bool              `json:"complete"`
	Stop             string            `json:"stop"`
	Resume           json.RawMessage   `json:"resume"`
	Predicted        predictedObject   `json:"predicted"`
	ConsumedCapacity capacityObject    `json:"consumedCapacity"`
	Requests         []requestObject   `json:"requests"`
	Notes            []string          `json:"notes,omitempty"`
}

func oldItems(items []dynamo.Item, ddb bool) []json.RawMessage {
	out := []json.RawMessage{}
	for _, it := range items {
		if ddb {
			out = append(out, itemcodec.DynamoJSON(it))
		} else {
			out = append(out, itemcodec.PlainJSON(it))
		}
	}
	return out
}

func oldQueryJSON(r queryResult, items []dynamo.Item) []byte {
	o := oldQueryObject{Table: r.Table, Index: nullable(r.Index), KeyCondition: r.KeyCondition, ScanIndexForward: r.Forward,
		ConsistentRead: r.Consistent, Items: oldItems(items, r.DDBJSON), Count: r.Count, ScannedCount: r.Scanned,
		Pages: len(r.Requests), LastEvaluatedKey: json.RawMessage("null"), ConsumedCapacity: capacityOfRequests(r.Requests)}
	if r.Limit > 0 {
		o.Limit = &r.Limit
	}
	o.Filter, o.Projection = nullable(r.Filter), nullable(r.Projection)
	o.Notes = readNotes(r.Count, r.Scanned, o.ConsumedCapacity.Total, r.Filter, r.Projection)
	if r.LastKey != nil {
		o.LastEvaluatedKey = oldItems([]dynamo.Item{r.LastKey}, r.DDBJSON)[0]
	}
	o.Requests = requestObjects(r.Requests)
	b, err := indentedJSON(o)
	if err != nil {
		panic(err)
	}
	return b
}

func oldBulkJSON(o *bulkOutput, items []dynamo.Item, ddb bool) []byte {
	h, t := o.head, o.tail
	obj := oldBulkObject{Operation: h.Operation, Statement: h.Statement, Plan: h.Plan, Table: h.Table, Index: h.Index, Filter: h.Filter,
		Projection: h.Projection, Segments: h.Segments, ConsistentRead: h.ConsistentRead, Items: oldItems(items, ddb), Count: t.Count,
		ScannedCount: t.ScannedCount, Pages: len(o.reqs), Complete: t.Complete, Stop: t.Stop, Resume: t.Resume, Predicted: t.Predicted,
		ConsumedCapacity: capacityOfRequests(o.reqs), Requests: requestObjects(o.reqs)}
	obj.Notes = readNotes(t.Count, o.scanned(), dynamo.TotalCapacity(o.reqs).Total, deref(h.Filter), deref(h.Projection))
	if unreported(o.reqs) > 0 {
		obj.Notes = append(obj.Notes, noCapacityNote(o.reqs))
	}
	b, err := indentedJSON(obj)
	if err != nil {
		panic(err)
	}
	return b
}

// oldTable is the table as it was written whole, through columns (text/tabwriter's alignment by display width).
func oldTable(r queryResult, items []dynamo.Item) []byte {
	var b bytes.Buffer
	if len(items) > 0 {
		names := map[string]bool{}
		for _, it := range items {
			for k := range it {
				names[k] = true
			}
		}
		cols := itemcodec.CSVColumns(names, r.KeyNames)
		tw := newColumns(&b)
		fmt.Fprintln(tw, strings.Join(sanitizeAll(cols), "\t"))
		for _, it := range items {
			cells := make([]string, len(cols))
			for i, c := range cols {
				if av, ok := it[c]; ok {
					cells[i] = cell(itemcodec.CellText(av), 60)
				}
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		_ = tw.Flush()
	}
	r.tableTail(&b)
	return b.Bytes()
}

// pagesOf cuts items into pages of at most n (an empty page when none).
func pagesOf(items []dynamo.Item, n int) []dynamo.Page {
	var pages []dynamo.Page
	for len(items) > n {
		pages = append(pages, dynamo.Page{Items: items[:n]})
		items = items[n:]
	}
	return append(pages, dynamo.Page{Items: items})
}

// stream writes the pages through the format's writer and ends it.
func stream(t *testing.T, format string, ddb bool, keyNames []string, doc readDoc, pages []dynamo.Page) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := readOutput{stdout: &b, stderr: &bytes.Buffer{}, format: format, ddbJSON: ddb, table: "T", keyNames: keyNames, doc: doc}.open()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if err := w.page(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.end(nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func testItems(n int, seed uint64) []dynamo.Item {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	num := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	var out []dynamo.Item
	for i := range n {
		it := dynamo.Item{"PK": s("CUST#7"), "SK": s(fmt.Sprintf("ORDER#%05d", i)), "total": num(fmt.Sprint(rng.IntN(100000)))}
		switch rng.IntN(5) {
		case 0:
			it["note"] = s(strings.Repeat("é<&>\"\x1b\u202e", rng.IntN(20)))
		case 1:
			it["addr"] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"city": s("Paris"), "zip": num("75001"), "none": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}}}
		case 2:
			it["tags"] = &types.AttributeValueMemberL{Value: []types.AttributeValue{s("gift"), &types.AttributeValueMemberBOOL{Value: true}, &types.AttributeValueMemberNULL{Value: true}, &types.AttributeValueMemberL{}}}
		case 3:
			it["bin"] = &types.AttributeValueMemberB{Value: []byte{0, 1, 0xff}}
			it["set"] = &types.AttributeValueMemberNS{Value: []string{"1", "2.50"}}
		}
		out = append(out, it)
	}
	return out
}

func testRequests(pages int) []dynamo.Request {
	var reqs []dynamo.Request
	for i := range pages {
		reqs = append(reqs, dynamo.Request{Operation: "Query", KeyCondition: `PK = "CUST#7"`, Count: 10, ScannedCount: 12,
			Duration: time.Duration(i+1) * 1234567, Capacity: dynamo.Capacity{Total: 1.5, Table: 1.5}, More: i < pages-1})
	}
	return reqs
}

// The query document streamed page by page is, byte for byte, the one
// built whole: every shape of head and tail, plain and typed, with 0, 1
// and many items over pages of many sizes (an empty last page too).
func TestQueryJSONStreamedEqualsWhole(t *testing.T) {
	key := dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "CUST#7"}, "SK": &types.AttributeValueMemberS{Value: "ORDER#00009"}}
	docs := []queryResult{
		{Table: "App", KeyCondition: `PK = "CUST#7"`, Forward: true, Count: 10, Scanned: 10, Requests: testRequests(1)},
		{Table: "App", Index: "GSI1", KeyCondition: `GSI1PK = "x"`, Limit: 5, Consistent: true, Count: 3, Scanned: 9, LastKey: key,
			Requests: testRequests(3), Filter: `status = "OPEN"`, Projection: "total, status"},
		{Table: "App", KeyCondition: `PK = "CUST#7"`, Count: 0, Scanned: 0, Requests: testRequests(1), DDBJSON: true, LastKey: key},
	}
	for _, n := range []int{0, 1, 7, 250} {
		items := testItems(n, uint64(n))
		for _, doc := range docs {
			for _, per := range []int{1, 3, 100, 1000} {
				d := doc
				got := stream(t, "json", d.DDBJSON, nil, &d, pagesOf(items, per))
				if want := oldQueryJSON(d, items); !bytes.Equal(got, want) {
					t.Fatalf("%d items, pages of %d, %+v:\n%s\nwhole:\n%s", n, per, d, got, want)
				}
				if !json.Valid(got) {
					t.Fatalf("not JSON: %s", got)
				}
			}
		}
	}
}

// The same for scan's and partiql's document.
func TestBulkJSONStreamedEqualsWhole(t *testing.T) {
	scanned := 40
	stmt := `SELECT * FROM "App"`
	docs := []*bulkOutput{
		{head: bulkHead{Operation: "Scan", Table: "App", Filter: nullable(`total > 5`), Segments: 4},
			tail: bulkTail{Count: 7, ScannedCount: &scanned, Stop: "max-rcu", Resume: json.RawMessage(`{"0":{"PK":"x"}}`), Predicted: predictedObject{MaxRCU: 12.5}},
			reqs: testRequests(4)},
		{head: bulkHead{Operation: "ExecuteStatement", Statement: &stmt, Table: "App", Plan: &planObject{Operation: "Scan", Why: "no WHERE"}},
			tail: bulkTail{Count: 3, Stop: "complete", Complete: true, Resume: json.RawMessage("null")},
			reqs: []dynamo.Request{{Operation: "ExecuteStatement", NoCapacity: true}}},
	}
	for _, n := range []int{0, 5, 120} {
		items := testItems(n, uint64(n)+9)
		for _, d := range docs {
			for _, ddb := range []bool{false, true} {
				got := stream(t, "json", ddb, nil, d, pagesOf(items, 50))
				if want := oldBulkJSON(d, items, ddb); !bytes.Equal(got, want) {
					t.Fatalf("%d items, ddb %v:\n%s\nwhole:\n%s", n, ddb, got, want)
				}
			}
		}
	}
}

// One page, or pages whose cells fit the first page's widths, give the
// table text/tabwriter gave the whole read.
func TestTableStreamedOnePageEqualsTabwriter(t *testing.T) {
	for _, n := range []int{0, 1, 30} {
		items := testItems(n, 3)
		doc := queryResult{Table: "App", KeyNames: []string{"PK", "SK"}, KeyCondition: `PK = "CUST#7"`, Count: n, Scanned: n, Requests: testRequests(1)}
		got := stream(t, "table", false, doc.KeyNames, &doc, pagesOf(items, 1000))
		if want := oldTable(doc, items); !bytes.Equal(got, want) {
			t.Fatalf("%d items:\n%s\ntabwriter:\n%s", n, got, want)
		}
	}
}

// Later pages keep the first page's columns: an attribute none before had
// brings the header again with it added at the end, and a cell wider
// than its column shifts its own line only.
func TestTableStreamedLaterPages(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	first := []dynamo.Item{{"PK": s("P"), "SK": s("A"), "b": s("x")}}
	second := []dynamo.Item{{"PK": s("P"), "SK": s("LONGER"), "b": s("y")}, {"PK": s("P"), "SK": s("C"), "a": s("new")}}
	doc := queryResult{Table: "App", KeyNames: []string{"PK", "SK"}, Count: 3, Scanned: 3, Requests: testRequests(2)}
	got := string(stream(t, "table", false, doc.KeyNames, &doc, []dynamo.Page{{Items: first}, {Items: second}}))
	want := "PK  SK  b\n" +
		"P   A   x\n" +
		"PK  SK  b  a\n" +
		"P   LONGER  y  \n" +
		"P   C      new\n"
	if !strings.HasPrefix(got, want) {
		t.Fatalf("got\n%s\nwant it to start with\n%s", got, want)
	}
}

// A read that stops on an error still ends its document well-formed, and
// the writer returns the error it stopped on.
func TestStreamedEndKeepsCause(t *testing.T) {
	cause := errors.New("stopped")
	for _, format := range []string{"json", "table", "jsonl"} {
		var b bytes.Buffer
		doc := queryResult{Table: "App", Requests: testRequests(1)}
		w, err := readOutput{stdout: &b, stderr: &bytes.Buffer{}, format: format, table: "App", doc: &doc}.open()
		if err != nil {
			t.Fatal(err)
		}
		if err := w.page(dynamo.Page{Items: testItems(3, 1)}); err != nil {
			t.Fatal(err)
		}
		if err := w.end(cause); err != cause {
			t.Errorf("%s: end returned %v", format, err)
		}
		if format == "json" && !json.Valid(b.Bytes()) {
			t.Errorf("json: not JSON after a stop: %s", b.Bytes())
		}
	}
}

// BenchmarkReadOut is the cost of writing a read's items in each format,
// a page of 1,000 items at a time (go test -bench ReadOut -cpuprofile):
// testItems' mix of shapes, and bench/read's own items (benchdata's, whose
// note is wider than a table's cell) in the table format.
func BenchmarkReadOut(b *testing.B) {
	for _, format := range []string{"jsonl", "json", "table", "csv"} {
		benchReadOut(b, format, testItems(1000, 5))
	}
	b.Run("benchdata", func(b *testing.B) {
		for _, format := range []string{"jsonl", "table"} {
			benchReadOut(b, format, benchdata.Big(1000))
		}
	})
}

func benchReadOut(b *testing.B, format string, items []dynamo.Item) {
	b.Run(format, func(b *testing.B) {
		doc := queryResult{Table: "App", KeyNames: []string{"PK", "SK"}, Requests: testRequests(1)}
		w, err := readOutput{stdout: io.Discard, stderr: io.Discard, format: format, table: "App", keyNames: doc.KeyNames, doc: &doc}.open()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := w.page(dynamo.Page{Items: items}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(items)), "ns/item")
	})
}

// A streamed read in dynascope's own process (Main) bounds the process's
// memory with a soft limit, unless GOMEMLIMIT gives one; in a process
// others share (a test's), it leaves the limit alone.
func TestStreamedReadBoundsMemory(t *testing.T) {
	old, oldBound := debug.SetMemoryLimit(-1), boundStreams
	t.Cleanup(func() { debug.SetMemoryLimit(old); boundStreams = oldBound })
	boundStreams = false // a test before may have run Main
	open := func() int64 {
		debug.SetMemoryLimit(math.MaxInt64)
		doc := queryResult{Table: "App"}
		if _, err := (readOutput{stdout: io.Discard, stderr: io.Discard, format: "json", doc: &doc}).open(); err != nil {
			t.Fatal(err)
		}
		return debug.SetMemoryLimit(-1)
	}
	if got := open(); got != math.MaxInt64 {
		t.Errorf("outside Main the limit became %d", got)
	}
	boundStreams = true
	if got := open(); got != streamMemoryLimit {
		t.Errorf("in Main the limit is %d, want %d", got, streamMemoryLimit)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	if got := open(); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set the limit became %d", got)
	}
}
