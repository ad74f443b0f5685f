package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// countReads counts the reads of a seed file (each opening of its items).
func countReads(t *testing.T) *int {
	n := new(int)
	old := newItemReader
	newItemReader = func(paths []string, f itemcodec.InputFormat) (*itemcodec.ItemReader, error) {
		*n++
		return old(paths, f)
	}
	t.Cleanup(func() { newItemReader = old })
	return n
}

// seed --file reads a regular file once: the first pass, which checks
// every item before anything is written, keeps them for the writes.
// Past heldBudget it lets them go and the writes read the file again;
// both load every item. Before, every load read the file twice.
func TestSeedFileReadsARegularFileOnce(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	const n = 1200
	path := filepath.Join(t.TempDir(), "items.jsonl")
	if err := os.WriteFile(path, []byte(streamItems(n)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int{heldBudget, 50_000} {
		t.Run(fmt.Sprintf("budget %d", budget), func(t *testing.T) {
			old := heldBudget
			heldBudget = budget
			t.Cleanup(func() { heldBudget = old })
			reads := countReads(t)
			table := dynamotest.UniqueName("once")
			t.Cleanup(func() { deleteTables(table) })
			out, _, err := cli(t, "seed", "--endpoint-url", ep, "--table", table, "--file", path)
			if err != nil {
				t.Fatal(err)
			}
			want := 1
			if budget < old {
				want = 2 // 1,200 items take more than 50,000 bytes
			}
			if *reads != want {
				t.Errorf("the file was read %d times; want %d", *reads, want)
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
