package dynamo

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func keyItem(pk, sk string) Item {
	return Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}
}

// A Scan segment's memory of its keys refuses an item read before, in an
// earlier page however many runs ago or in the same page, naming the first
// such item of the page; it refuses no item it has not read, and forgets
// nothing of a page it refused (so the page's other items were never
// remembered).
func TestScanKeysRefuseRepeatsOnly(t *testing.T) {
	// 100,000 keys in pages of 3,000 and a last short one, runs merging
	// many times over; in pages of 20,000, each longer than a chunk.
	for _, perPage := range []int{3_000, 20_000} {
		t.Run(fmt.Sprint(perPage), func(t *testing.T) { testScanKeysRepeats(t, perPage) })
	}
}

func testScanKeysRepeats(t *testing.T, perPage int) {
	ks, _ := benchScanTable.Schema("")
	s := newScanKeys()
	const keys = 100_000
	for from := 0; from < keys; from += perPage {
		if p := s.page(benchScanTable, ks, scanPageOf(from, min(perPage, keys-from)), nil); p != "" {
			t.Fatalf("page from %d refused: %s", from, p)
		}
	}
	if s.n != keys || len(s.runs) > 8 {
		t.Fatalf("%d hashes in %d runs, want %d in at most 8", s.n, len(s.runs), keys)
	}
	for i, r := range s.runs {
		if i > 0 && r.n >= s.runs[i-1].n {
			t.Errorf("run %d holds %d, the one before it %d", i, r.n, s.runs[i-1].n)
		}
		var all []uint64
		for _, c := range r.chunks {
			all = append(all, c...)
		}
		if len(all) != r.n || !slices.IsSorted(all) {
			t.Errorf("run %d: %d hashes in its chunks, %d said, sorted %v", i, len(all), r.n, slices.IsSorted(all))
		}
	}
	// Every key read is remembered.
	for i := 0; i < keys; i += 997 {
		if p := s.page(benchScanTable, ks, scanPageOf(i, 1), nil); !strings.Contains(p, "it had sent before") {
			t.Fatalf("key %d read again: %q", i, p)
		}
	}
	for _, tc := range []struct {
		name  string
		items []Item
		want  string // the item named, "" for none refused
	}{
		{"the first key read", append(scanPageOf(keys, 2), scanPageOf(0, 1)...), `{PK "P#0", SK "ITEM#000000000"}`},
		{"a key of the last page", append(scanPageOf(keys, 1), scanPageOf(keys-1, 1)...), `{PK "P#99", SK "ITEM#000099999"}`},
		{"a key twice in the page", append(scanPageOf(keys, 3), scanPageOf(keys+1, 1)...), `{PK "P#100", SK "ITEM#000100001"}`},
		{"the first of two repeats", append(scanPageOf(keys, 2), append(scanPageOf(keys, 1), scanPageOf(5, 1)...)...), `{PK "P#100", SK "ITEM#000100000"}`},
		// the keys' bytes run together alike, but they are other keys
		{"new keys", []Item{keyItem("P#1", "0ITEM#000001000"), keyItem("P#", "10ITEM#000001000"), keyItem("P#10", "")}, ""},
	} {
		got := s.page(benchScanTable, ks, tc.items, nil)
		switch {
		case tc.want == "" && got != "":
			t.Errorf("%s: refused: %s", tc.name, got)
		case tc.want != "" && got != "an item "+tc.want+" it had sent before in this read":
			t.Errorf("%s: got %q, want the item %s", tc.name, got, tc.want)
		}
	}
	// The refused pages' new keys were not remembered; the last page's
	// were.
	if p := s.page(benchScanTable, ks, scanPageOf(keys, 3), nil); p != "" {
		t.Errorf("keys of refused pages remembered: %s", p)
	}
	if p := s.page(benchScanTable, ks, []Item{keyItem("P#", "10ITEM#000001000")}, nil); !strings.Contains(p, "it had sent before") {
		t.Errorf("a key of the passed page not remembered: %q", p)
	}
}

// On an index the key is the index's and the table's, each attribute
// once: two items of one index key are two items when their table keys
// differ.
func TestScanKeysOnAnIndex(t *testing.T) {
	tbl := benchScanTable
	tbl.Indexes = []Index{{Name: "bySK", PK: KeyAttr{Name: "SK", Type: "S"}, SK: &KeyAttr{Name: "GSI1SK", Type: "S"}}}
	ks, err := tbl.Schema("bySK")
	if err != nil {
		t.Fatal(err)
	}
	item := func(pk, sk, g string) Item {
		it := keyItem(pk, sk)
		it["GSI1SK"] = &types.AttributeValueMemberS{Value: g}
		return it
	}
	s := newScanKeys()
	if p := s.page(tbl, ks, []Item{item("A", "X", "1"), item("B", "X", "1")}, nil); p != "" {
		t.Fatalf("two items of one index key refused: %s", p)
	}
	if p := s.page(tbl, ks, []Item{item("C", "X", "1"), item("B", "X", "1")}, nil); p != `an item {GSI1SK "1", PK "B", SK "X"} it had sent before in this read` {
		t.Errorf("got %q", p)
	}
}
