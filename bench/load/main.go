// Command load fills the benchmark table in a DynamoDB Local: the 100,000-item
// partition BENCH#BIG (about 300-byte items in four entity types), the small
// partition BENCH#SMALL and a long tail of small CUST# partitions, all
// generated deterministically by bench/benchdata. It creates the table with
// dynamo.EnsureTable and writes with dynamo.Seed (parallel BatchWriteItem);
// -parallel runs several Seed calls side by side on slices of the data,
// because one Seed keeps only a few batches in flight.
//
// It writes, so it refuses any endpoint that is not on this machine.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	"dynascope/bench/benchdata"
	"dynascope/dynamo"
)

func main() {
	endpoint := flag.String("endpoint", os.Getenv("DYNASCOPE_TEST_ENDPOINT"), "DynamoDB Local endpoint (loopback only)")
	table := flag.String("table", "bench", "table to create and fill")
	big := flag.Int("big", benchdata.DefaultBig, "items in the partition "+benchdata.BigPK)
	tail := flag.Int("tail", benchdata.DefaultTailParts, "small partitions in the long tail")
	parallel := flag.Int("parallel", 4, "dynamo.Seed calls running side by side, each on its slice of the items")
	flag.Parse()
	if err := run(*endpoint, *table, *big, *tail, *parallel); err != nil {
		fmt.Fprintln(os.Stderr, "bench/load: "+err.Error())
		os.Exit(1)
	}
}

func run(endpoint, table string, big, tail, parallel int) error {
	if !dynamo.IsLoopback(endpoint) {
		return fmt.Errorf("the load writes a table: give a DynamoDB Local endpoint on this machine with -endpoint, not %q", endpoint)
	}
	if parallel < 1 {
		return fmt.Errorf("-parallel must be at least 1, not %d", parallel)
	}
	ctx := context.Background()
	c, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: endpoint, Region: "us-east-1", Timeout: time.Minute})
	if err != nil {
		return err
	}
	began := time.Now()
	items := benchdata.Big(big)
	items = append(items, benchdata.Small()...)
	items = append(items, benchdata.Tail(tail)...)
	gen := time.Since(began)
	if _, err := dynamo.EnsureTable(ctx, c.SDK(), benchdata.Spec(table)); err != nil {
		return err
	}

	// Seed refuses a table that holds items unless forced; the slices after
	// the first race into a table the others are filling, so they are forced,
	// and the first one still checks that the table started empty.
	began = time.Now()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total dynamo.SeedResult
		first error
	)
	per := (len(items) + parallel - 1) / parallel
	empty, err := dynamo.IsEmpty(ctx, c.SDK(), table)
	if err != nil {
		return err
	}
	if !empty {
		return fmt.Errorf("table %s already holds items; the bench loads a fresh table", table)
	}
	for i := 0; i < len(items); i += per {
		part := items[i:min(i+per, len(items))]
		wg.Go(func() {
			r, err := dynamo.Seed(ctx, c.SDK(), table, part, dynamo.SeedOptions{Force: true})
			mu.Lock()
			defer mu.Unlock()
			total.Written += r.Written
			total.Batches += r.Batches
			total.Retries += r.Retries
			total.WCU += r.WCU
			if err != nil && first == nil {
				first = err
			}
		})
	}
	wg.Wait()
	if first != nil {
		return first
	}
	took := time.Since(began)
	bytes := benchdata.Bytes(items)
	fmt.Printf("loaded %d items (%.1f MB) into %s in %.1f s with %d Seed calls of 4 workers: %.0f items/s, %d BatchWriteItem requests, %d retries, %.0f WCU (generating them took %d ms)\n",
		total.Written, float64(bytes)/1e6, table, took.Seconds(), parallel, float64(total.Written)/took.Seconds(),
		total.Batches, total.Retries, total.WCU, gen.Milliseconds())
	fmt.Printf("= load: %d items in %.1f s, %.0f items/s\n", total.Written, took.Seconds(), float64(total.Written)/took.Seconds())
	return nil
}
