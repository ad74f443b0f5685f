package dynamo

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// benchScanTable is the bench table's key: PK and SK, both strings.
var benchScanTable = Table{Name: "bench", PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "SK", Type: "S"}}

// scanPageOf is a Scan page of n items, keys only, the i-th item of the
// read being {PK "P#<i/1000>", SK "ITEM#<i>"}.
func scanPageOf(from, n int) []Item {
	items := make([]Item, n)
	for j := range items {
		i := from + j
		items[j] = Item{
			"PK": &types.AttributeValueMemberS{Value: fmt.Sprintf("P#%d", i/1000)},
			"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("ITEM#%09d", i)},
		}
	}
	return items
}

// What a Scan segment's memory of the items it has read costs (issue
// 41.2: scan --yes of a million items must stay within 64 MB): the heap
// it still holds after 1,000,000 keys, fed in pages of 3,000 (a 1 MB page
// of the bench's ~300-byte items), per key. Metrics: heap-B/key, retained
// after a GC; peak-B/key, the most the heap held (by samples after each
// page) over what it held before, garbage included; ns/key to check a key
// (with two GCs of the test's million items each run). On 2026-12-02:
// 8.2 and 8.3 B a key (the map[uint64]struct{} it replaced: 37.8 and 303).
//
//	go test -run '^$' -bench ScanKeysMemory ./dynamo/
func BenchmarkScanKeysMemory(b *testing.B) {
	const keys, perPage = 1_000_000, 3_000
	pages := make([][]Item, 0, keys/perPage+1)
	for from := 0; from < keys; from += perPage {
		pages = append(pages, scanPageOf(from, min(perPage, keys-from)))
	}
	ks, _ := benchScanTable.Schema("")
	var heapPerKey, peakPerKey float64
	for b.Loop() {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		before, peak := ms.HeapAlloc, ms.HeapAlloc
		s := newScanKeys()
		for _, p := range pages {
			if problem := s.page(benchScanTable, ks, p, nil); problem != "" {
				b.Fatal(problem)
			}
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
		runtime.GC()
		runtime.ReadMemStats(&ms)
		heapPerKey = float64(ms.HeapAlloc-before) / keys
		peakPerKey = float64(peak-before) / keys
		runtime.KeepAlive(s)
	}
	b.ReportMetric(heapPerKey, "heap-B/key")
	b.ReportMetric(peakPerKey, "peak-B/key")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/keys, "ns/key")
}
