package dynamo_test

import (
	"context"
	"sort"
	"testing"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// A sample never costs more than reading the table: the 835-item,
// 115 KiB table is read whole in one Scan at the table's price (it cost 17
// RCU in a tail of shrinking pages before), and a sample capped below the
// table's size ends each segment at its cap without a tail of Limit 1
// pages (what its segments leave of the cap is read in a second round:
// two more pages). Every logged figure is what DynamoDB Local answered.
func TestSampleNeverCostsMoreThanTheTable(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	items := customers(167, 4, 100) // 835 items
	batchPut(t, api, table, items)
	size := 0
	for _, it := range items {
		size += itemcodec.ItemSize(it)
	}
	whole := itemcodec.ReadUnits(size, false)
	c, tap, _, _ := tapped(t, table)
	for _, tc := range []struct {
		in       dynamo.SampleInput
		stop     dynamo.StopReason
		requests int
	}{
		{dynamo.SampleInput{Table: table}, dynamo.StopComplete, 1},
		{dynamo.SampleInput{Table: table, MaxRCU: 5}, dynamo.StopMaxRCU, 10},
		{dynamo.SampleInput{Table: table, MaxItems: 300}, dynamo.StopMaxItems, 8},
	} {
		before := len(tap.Exchanges("Scan"))
		smp, err := c.Sample(context.Background(), tc.in)
		if err != nil {
			t.Fatal(err)
		}
		xs := tap.Exchanges("Scan")[before:]
		var answered, logged float64
		var counts, want []int
		for _, x := range xs {
			answered += x.Capacity
			want = append(want, x.Count)
			if x.Limit == 1 {
				t.Errorf("%+v: a Limit 1 page: %v", tc.in, x)
			}
		}
		for _, r := range smp.Requests {
			logged += r.Capacity.Total
			counts = append(counts, int(r.Count))
		}
		sort.Ints(counts)
		sort.Ints(want)
		if logged != answered || len(counts) != len(want) || len(smp.Requests) > tc.requests || smp.Stop != tc.stop {
			t.Errorf("%+v: stop %s, %d requests (at most %d), logged %v RCU, DynamoDB answered %v RCU over %d", tc.in, smp.Stop, len(smp.Requests), tc.requests, logged, answered, len(xs))
		}
		for i := range counts {
			if counts[i] != want[i] {
				t.Errorf("%+v: logged counts %v, answered %v", tc.in, counts, want)
				break
			}
		}
		if answered > whole || tc.in.MaxRCU > 0 && answered > tc.in.MaxRCU {
			t.Errorf("%+v: the sample cost %v RCU, reading the table %v", tc.in, answered, whole)
		}
		if tc.stop == dynamo.StopComplete && (len(smp.Items) != len(items) || answered != whole) {
			t.Errorf("whole read: %d items for %v RCU, want %d for %v", len(smp.Items), answered, len(items), whole)
		}
	}
}
