package dynamo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// layout's and the overview's default RCU cap (250 RCU, four segments)
// holds at every item size, run after run, on tables larger than it reads
// (2.6 MB; 250 RCU read 2 MB). Before, the sampler sized its pages by the
// average bytes per item read so far and passed the cap by 0.5 to 1.5 RCU
// at every size.
func TestSampleDefaultRCUCapHoldsAtEverySize(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	c, _ := connect(t)
	for _, size := range []int{1000, 3500, 9000} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			t.Parallel()
			table := dynamotest.Table(t, api, dynamotest.PKSK())
			var items []dynamo.Item
			pad := strings.Repeat("x", size)
			for i := range 2_600_000 / size {
				items = append(items, dynamo.Item{"PK": s(fmt.Sprintf("P#%03d", i%97)), "SK": s(fmt.Sprintf("I#%06d", i)), "pad": s(pad)})
			}
			batchPut(t, api, table, items)
			var first []float64
			for run := range 3 {
				smp, err := c.Sample(context.Background(), dynamo.SampleInput{Table: table, MaxItems: 100_000})
				if err != nil {
					t.Fatal(err)
				}
				got := []float64{float64(len(smp.Items)), float64(len(smp.Requests)), smp.Capacity().Total}
				t.Logf("%d B items, run %d: %v items, requests, RCU; stop %s", size, run+1, got, smp.Stop)
				if smp.Stop != dynamo.StopMaxRCU || got[2] > dynamo.DefaultSampleRCU || smp.Spent > dynamo.DefaultSampleRCU || got[2] < dynamo.DefaultSampleRCU-5 {
					t.Errorf("%d B items: stop %s, %v RCU answered, %v counted, %d items", size, smp.Stop, got[2], smp.Spent, len(smp.Items))
				}
				if run == 0 {
					first = got
				} else if fmt.Sprint(got) != fmt.Sprint(first) {
					t.Errorf("%d B items: run %d gave %v, run 1 %v", size, run+1, got, first)
				}
			}
		})
	}
}
