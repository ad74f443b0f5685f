// Command throughput measures the reads that cost the most on a large
// table, on the bench table of bench/load in DynamoDB Local:
//
//   - sampling (dynamo.Client.Sample, what `dynascope layout` runs) with 4
//     parallel Scan segments against 1: items per second and RCUs;
//   - an exact COUNT of the big partition (Select=COUNT, page by page);
//   - skip-scan (dynamo.Client.Discover) against reading the whole big
//     partition: requests and RCUs, and that both find the same types.
//
// It only reads.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	"dynascope/bench/benchdata"
	"dynascope/dynamo"
	"dynascope/keys"
)

func main() {
	endpoint := flag.String("endpoint", os.Getenv("DYNASCOPE_TEST_ENDPOINT"), "DynamoDB Local endpoint holding the bench table")
	table := flag.String("table", "bench", "the bench table (bench/load)")
	sampleItems := flag.Int("sample-items", 50_000, "item cap of each sample")
	maxSkip := flag.Float64("max-skipscan", 0.01, "fail when skip-scan costs this share of the full read's RCUs or more")
	flag.Parse()
	ok, err := run(*endpoint, *table, *sampleItems, *maxSkip)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/throughput: "+err.Error())
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

func run(endpoint, table string, sampleItems int, maxSkip float64) (bool, error) {
	if endpoint == "" {
		return false, errors.New("give the DynamoDB Local endpoint with -endpoint")
	}
	ctx := context.Background()
	c, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: endpoint, Region: "us-east-1", Timeout: time.Minute})
	if err != nil {
		return false, err
	}
	ok := true

	// Sampling: 1 segment, then 4, with the same caps. The capacity cap is
	// lifted so the item cap decides, and both read the same number of items.
	var rates [2]float64
	for i, segs := range []int{1, dynamo.DefaultSampleSegments} {
		began := time.Now()
		s, err := c.Sample(ctx, dynamo.SampleInput{Table: table, Segments: segs, MaxItems: sampleItems, MaxRCU: 1e6})
		took := time.Since(began)
		if err != nil {
			return false, fmt.Errorf("sample with %d segments: %w", segs, err)
		}
		rates[i] = float64(len(s.Items)) / took.Seconds()
		rcu := s.Capacity().Total
		fmt.Printf("sample, %d segment(s): %d items in %.2f s = %.0f items/s, %d Scan requests, %.1f RCU (%.0f items/RCU), stop: %s\n",
			segs, len(s.Items), took.Seconds(), rates[i], len(s.Requests), rcu, float64(len(s.Items))/rcu, s.Stop)
	}
	fmt.Printf("= sampling throughput, %d vs 1 scan segments: %.2fx items/s (%.0f vs %.0f items/s; no bound: DynamoDB Local on %d cores, and %s sits in one segment)\n",
		dynamo.DefaultSampleSegments, rates[1]/rates[0], rates[1], rates[0], runtime.NumCPU(), benchdata.BigPK)

	// The whole partition: once counted, once read item by item.
	count, countReqs, countTook, err := countAll(ctx, c, table)
	if err != nil {
		return false, err
	}
	fmt.Printf("COUNT of %s: %d items in %.2f s = %.0f items/s, %d requests, %.1f RCU\n",
		benchdata.BigPK, count, countTook.Seconds(), float64(count)/countTook.Seconds(), len(countReqs), dynamo.TotalCapacity(countReqs).Total)
	sks, fullReqs, fullTook, err := benchdata.ReadSortKeys(ctx, c, table, benchdata.BigPK)
	if err != nil {
		return false, err
	}
	fmt.Printf("full read of %s: %d items in %.2f s = %.0f items/s, %d requests, %.1f RCU\n",
		benchdata.BigPK, len(sks), fullTook.Seconds(), float64(len(sks))/fullTook.Seconds(), len(fullReqs), dynamo.TotalCapacity(fullReqs).Total)
	fmt.Printf("= count throughput on %s: %.0f items/s, %.1f RCU (%d pages; full read %.0f items/s, %.1f RCU)\n",
		benchdata.BigPK, float64(count)/countTook.Seconds(), dynamo.TotalCapacity(countReqs).Total, len(countReqs), float64(len(sks))/fullTook.Seconds(), dynamo.TotalCapacity(fullReqs).Total)

	began := time.Now()
	d, err := c.Discover(ctx, dynamo.DiscoverInput{Table: table, PK: benchdata.BigPK})
	skipTook := time.Since(began)
	if err != nil {
		return false, err
	}
	// The skip-scan leaves an end it did not read "" and counts nothing:
	// the types are the same when names, prefixes, kinds and every end it
	// read are (benchdata.SameTypes, as bench/skipscan checks them).
	same := benchdata.SameTypes(d.Groups, keys.GroupSortKeys(sks, "S", d.Delimiter))
	share := d.Capacity().Total / dynamo.TotalCapacity(fullReqs).Total
	fmt.Printf("skip-scan of %s: %d types in %d requests, %.1f RCU, %.1f ms; the full read found the same types: %v\n",
		benchdata.BigPK, len(d.Groups), len(d.Requests), d.Capacity().Total, float64(skipTook.Microseconds())/1000, same)
	verdict := "ok"
	if !same || share >= maxSkip {
		verdict, ok = "FAIL", false
	}
	fmt.Printf("= skip-scan vs full read RCU: %.3f%% (%.1f of %.1f RCU; bound < %g%%) %s\n",
		100*share, d.Capacity().Total, dynamo.TotalCapacity(fullReqs).Total, 100*maxSkip, verdict)
	return ok, nil
}

// countAll pages through the big partition with Select=COUNT.
func countAll(ctx context.Context, c *dynamo.Client, table string) (int, []dynamo.Request, time.Duration, error) {
	q := dynamo.QueryInput{Table: table, PK: benchdata.BigPK, CountOnly: true}
	n := 0
	var reqs []dynamo.Request
	began := time.Now()
	for {
		p, err := c.Query(ctx, q)
		if err != nil {
			return n, reqs, 0, err
		}
		reqs = append(reqs, p.Request)
		n += int(p.Count)
		if p.LastEvaluatedKey == nil {
			return n, reqs, time.Since(began), nil
		}
		q.StartKey = p.LastEvaluatedKey
	}
}
