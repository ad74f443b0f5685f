package ui

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
)

// The live pane's memory stays flat however long it runs: 100,000 records
// through the root model's handler, heap measured after 10,000 and after
// 100,000 (metrics heap-10k-MB and heap-100k-MB; they should be equal).
//
//	go test -run '^$' -bench LiveRecords ./ui/
func BenchmarkLiveRecords(b *testing.B) {
	const total, batch = 100_000, 100
	recs := make([]dynamo.StreamRecord, batch)
	for i := range recs {
		k := dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "CUST#42"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("ORDER#2025-03-01#A%03d", i)}}
		old := dynamo.Item{"PK": k["PK"], "SK": k["SK"], "status": &types.AttributeValueMemberS{Value: "OPEN"}, "total": &types.AttributeValueMemberN{Value: "35"}}
		nw := dynamo.Item{"PK": k["PK"], "SK": k["SK"], "status": &types.AttributeValueMemberS{Value: "SHIPPED"}, "total": &types.AttributeValueMemberN{Value: "35"}}
		recs[i] = dynamo.StreamRecord{Event: "MODIFY", Time: time.Now(), Sequence: fmt.Sprint(i), Keys: k, Old: old, New: nw}
	}
	heap := func() float64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapAlloc) / (1 << 20)
	}
	var at10k, at100k float64
	b.ReportAllocs()
	for b.Loop() {
		m := New(Options{})
		m.query.PK = "CUST#42"
		m.live.info = dynamo.StreamInfo{Table: "App", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}, ViewType: "NEW_AND_OLD_IMAGES"}
		for n := batch; n <= total; n += batch {
			m = m.liveRecords(recs)
			if n == 10_000 {
				at10k = heap()
			}
		}
		at100k = heap()
		if m.live.seen != total || len(m.live.lines) != maxLiveLines {
			b.Fatalf("seen %d, %d lines", m.live.seen, len(m.live.lines))
		}
	}
	b.ReportMetric(at10k, "heap-10k-MB")
	b.ReportMetric(at100k, "heap-100k-MB")
}
