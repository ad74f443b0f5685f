package demodata

import (
	"strings"
	"testing"
	"time"

	"dynascope/itemcodec"
)

// The demo's traffic writes one order the old way (ORDER|…), once, after
// its first cycle, and keeps its cycle of three around it.
func TestTrafficDriftsOnce(t *testing.T) {
	write := Traffic(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))
	old := 0
	var cycle []string
	for step := range 30 {
		it := write(step)
		sk := itemcodec.KeyString(it["SK"])
		if strings.HasPrefix(sk, "ORDER|") {
			old++
			if step != DriftStep || itemcodec.KeyString(it["PK"]) != Partition || !strings.HasPrefix(sk, "ORDER|2026-12-01|T") {
				t.Errorf("step %d wrote %s / %s", step, itemcodec.KeyString(it["PK"]), sk)
			}
			continue
		}
		kind := "ITEM"
		if strings.HasPrefix(sk, "ORDER#2026-12-01#T") {
			kind = "ORDER " + itemcodec.KeyString(it["status"])
		}
		cycle = append(cycle, kind)
	}
	if old != 1 {
		t.Errorf("%d old-way orders in 30 writes, want 1", old)
	}
	for i, k := range cycle {
		if want := []string{"ORDER OPEN", "ORDER SHIPPED", "ITEM"}[i%3]; k != want {
			t.Fatalf("write %d of the cycle is %s, want %s: %v", i, k, want, cycle)
		}
	}
}
