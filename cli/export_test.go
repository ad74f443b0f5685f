package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"dynascope/dynamo/dynamotest"
)

const exportItems = "testdata/export/items.jsonl"

// seedFile loads a JSONL file into a new uniquely named table.
func seedFile(t *testing.T, ep, file string) string {
	t.Helper()
	table := dynamotest.UniqueName("export")
	t.Cleanup(func() { deleteTables(table) })
	if _, _, err := cli(t, "seed", "--endpoint-url", ep, "--table", table, "--file", file); err != nil {
		t.Fatalf("seed --file %s: %v", file, err)
	}
	return table
}

// export runs a query of the EXPORT#1 partition, two items a page, in one
// output format.
func export(t *testing.T, ep, table string, format ...string) string {
	t.Helper()
	args := append([]string{"query", "--endpoint-url", ep, "--table", table, "--pk", "EXPORT#1", "--all-pages", "--limit", "2", "--output"}, format...)
	out, _, err := cli(t, args...)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every export format gives exactly the expected bytes: 38-digit numbers,
// binary, sets, nested maps, empty strings and unicode included. The two
// typed formats go back in through `seed --file` and come out identical.
func TestExportFormatsRoundTrip(t *testing.T) {
	t.Parallel()
	ep := dynamotest.Endpoint(t)
	src := seedFile(t, ep, exportItems)

	if got, want := export(t, ep, src, "csv"), readFile(t, "testdata/export/expected.csv"); got != want {
		t.Errorf("csv:\n got\n%s\n want\n%s", got, want)
	}
	if got, want := export(t, ep, src, "jsonl"), readFile(t, "testdata/export/expected.jsonl"); got != want {
		t.Errorf("jsonl:\n got\n%s\n want\n%s", got, want)
	}
	typed := export(t, ep, src, "jsonl", "--dynamodb-json")
	if want := readFile(t, "testdata/export/expected.ddb.jsonl"); typed != want {
		t.Errorf("jsonl --dynamodb-json:\n got\n%s\n want\n%s", typed, want)
	}
	batch := export(t, ep, src, "ddbjson-batch")
	if want := strings.ReplaceAll(readFile(t, "testdata/export/expected.batch.jsonl"), `"TABLE"`, `"`+src+`"`); batch != want {
		t.Errorf("ddbjson-batch:\n got\n%s\n want\n%s", batch, want)
	}

	for name, content := range map[string]string{"typed.jsonl": typed, "batch.jsonl": batch} {
		file := t.TempDir() + "/" + name
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		copyTable := seedFile(t, ep, file)
		if got := export(t, ep, copyTable, "jsonl", "--dynamodb-json"); got != typed {
			t.Errorf("%s through seed --file:\n got\n%s\n want\n%s", name, got, typed)
		}
	}
}

// Batches hold at most 25 puts, the most one batch-write-item call takes.
func TestExportBatchesOf25(t *testing.T) {
	t.Parallel()
	ep := dynamotest.Endpoint(t)
	var lines strings.Builder
	for i := range 60 {
		fmt.Fprintf(&lines, `{"PK":{"S":"EXPORT#1"},"SK":{"S":"N#%03d"}}`+"\n", i)
	}
	file := t.TempDir() + "/60.jsonl"
	if err := os.WriteFile(file, []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	src := seedFile(t, ep, file)
	batch := export(t, ep, src, "ddbjson-batch")
	docs := strings.Split(strings.TrimSuffix(batch, "\n"), "\n")
	if len(docs) != 3 || strings.Count(docs[0], "PutRequest") != 25 || strings.Count(docs[1], "PutRequest") != 25 || strings.Count(docs[2], "PutRequest") != 10 {
		t.Errorf("batches: %d lines", len(docs))
	}
}

// pageWatcher records, at each write to stdout, how many Query requests
// had reached DynamoDB.
type pageWatcher struct {
	mu      sync.Mutex
	queries func() int
	at      []int
	buf     bytes.Buffer
}

func (w *pageWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.at = append(w.at, w.queries())
	return w.buf.Write(p)
}

// --all-pages exports stream: each page is written before the next is read.
func TestExportStreamsPages(t *testing.T) {
	t.Parallel()
	ep := dynamotest.Endpoint(t)
	src := seedFile(t, ep, exportItems)
	p := dynamotest.StartProxy(t, ep)
	for _, format := range [][]string{{"jsonl"}, {"jsonl", "--dynamodb-json"}} {
		w := &pageWatcher{queries: func() int { return p.Count("Query") }}
		before := p.Count("Query")
		args := append([]string{"query", "--endpoint-url", p.URL, "--table", src, "--pk", "EXPORT#1", "--all-pages", "--limit", "2", "--output"}, format...)
		if err := run(context.Background(), args, w, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		// 6 items, 2 a page: pages 1-3 hold items, a 4th finds the end.
		want := []int{before + 1, before + 2, before + 3}
		if len(w.at) != 3 || w.at[0] != want[0] || w.at[1] != want[1] || w.at[2] != want[2] {
			t.Errorf("%v: writes after query %v, want %v", format, w.at, want)
		}
		if strings.Count(w.buf.String(), "\n") != 6 {
			t.Errorf("%v: %s", format, w.buf.String())
		}
	}
}

func TestExportUsageErrors(t *testing.T) {
	cases := []struct{ args []string }{
		{[]string{"query", "--table", "App", "--pk", "x", "--output", "csv", "--dynamodb-json"}},
		{[]string{"get", "--table", "App", "--pk", "x", "--output", "csv", "--dynamodb-json"}},
	}
	for _, c := range cases {
		_, _, err := cli(t, c.args...)
		want := "--dynamodb-json does not go with --output csv: CSV cells are plain values; use --output jsonl --dynamodb-json for typed items."
		if err == nil || err.Error() != want {
			t.Errorf("%v: %v", c.args, err)
		}
	}
	_, _, err := cli(t, "query", "--table", "App", "--pk", "x", "--output", "xml")
	if err == nil || err.Error() != `--output takes json, jsonl, table, csv, ddbjson-batch, text or yaml, not "xml".` {
		t.Errorf("xml: %v", err)
	}
}

// get exports its one item in the same formats.
func TestGetExport(t *testing.T) {
	t.Parallel()
	ep := dynamotest.Endpoint(t)
	src := seedFile(t, ep, exportItems)
	out, _, err := cli(t, "get", "--endpoint-url", ep, "--table", src, "--pk", "EXPORT#1", "--sk", "C#ü-unicode-key", "--output", "csv")
	if err != nil || out != "PK,SK,n\nEXPORT#1,C#ü-unicode-key,-1\n" {
		t.Errorf("get csv: %v\n%s", err, out)
	}
}
