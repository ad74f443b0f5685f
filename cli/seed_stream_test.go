package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"dynascope/dynamo/dynamotest"
)

// streamItems is n plain JSON lines in one partition.
func streamItems(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"PK":"CUST#1","SK":"ORDER#%05d","n":%d}`+"\n", i, i)
	}
	return b.String()
}

// withStdin makes os.Stdin the read end of a pipe fed with s, as
// `cat items.jsonl | dynascope seed --file -` has it, for the rest of the
// test (not parallel: os.Stdin is the process's).
func withStdin(t *testing.T, s string) {
	t.Helper()
	old := os.Stdin
	os.Stdin = feedPipe(t, s)
	t.Cleanup(func() { os.Stdin = old })
}

// feedPipe is the read end of a pipe a goroutine writes s into.
func feedPipe(t *testing.T, s string) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	go func() {
		w.WriteString(s)
		w.Close()
	}()
	return r
}

// Standard input, a pipe named as the shell's <(...) names it (/dev/fd/N,
// which /dev/stdin is too) and a FIFO are read once and load every item; before,
// the second pass found the pipe empty and "loaded 0 items" exited 0, and
// `--file -` was refused.
func TestSeedFileFromStreams(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	const n = 3000 // more than one peek buffer of lines, many batches
	for _, path := range []string{"-", "/dev/fd", "fifo"} {
		t.Run(path, func(t *testing.T) {
			table := dynamotest.UniqueName("pipe")
			t.Cleanup(func() { deleteTables(table) })
			if path == "fifo" {
				path = filepath.Join(t.TempDir(), "items.fifo")
				if err := syscall.Mkfifo(path, 0o600); err != nil {
					t.Fatal(err)
				}
				go func() {
					f, err := os.OpenFile(path, os.O_WRONLY, 0)
					if err == nil {
						f.WriteString(streamItems(n))
						f.Close()
					}
				}()
			} else if path == "/dev/fd" {
				path = fmt.Sprintf("/dev/fd/%d", feedPipe(t, streamItems(n)).Fd())
			} else {
				withStdin(t, streamItems(n))
			}
			out, _, err := cli(t, "seed", "--endpoint-url", ep, "--table", table, "--file", path)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, fmt.Sprintf(": %d items in", n)) {
				t.Errorf("output:\n%s", out)
			}
			if got := countItems(t, table); got != n {
				t.Errorf("the table holds %d items; want %d", got, n)
			}
		})
	}
}

// An invalid item on a pipe refuses the load before anything is written,
// and the message names standard input, not a temporary copy.
func TestSeedFileStdinInvalidWritesNothing(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	table := dynamotest.UniqueName("pipe")
	t.Cleanup(func() { deleteTables(table) })
	withStdin(t, streamItems(40)+`{"PK":"CUST#1"}`+"\n")
	_, _, err := cli(t, "seed", "--endpoint-url", ep, "--table", table, "--file", "-")
	want := "standard input: line 41: the key attribute SK is missing"
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("got %v; want %q", err, want)
	}
	if _, _, err := cli(t, "get", "--endpoint-url", ep, "--table", table, "--pk", "CUST#1", "--sk", "ORDER#00001"); err == nil {
		t.Error("the table exists with an item; want nothing written")
	}
}

// A NoSQL Workbench model given to --file points to --workbench, from a
// file or a pipe, and whether pretty-printed or on one line.
func TestSeedFileWorkbenchModel(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	b, err := os.ReadFile(shopModel)
	if err != nil {
		t.Fatal(err)
	}
	one := filepath.Join(t.TempDir(), "model.json")
	os.WriteFile(one, []byte(strings.Join(strings.Fields(string(b)), " ")), 0o644)
	for _, path := range []string{shopModel, one, "-"} {
		if path == "-" {
			withStdin(t, string(b))
		}
		table := dynamotest.UniqueName("wbfile")
		_, _, err := cli(t, "seed", "--endpoint-url", ep, "--table", table, "--file", path)
		if err == nil || !strings.Contains(err.Error(), "is a NoSQL Workbench data model, not a file of items; load it with --workbench instead of --file.") {
			t.Errorf("%s: %v", path, err)
		}
		deleteTables(table)
	}
}
