// Command load fills the benchmark table in a DynamoDB Local: the 100,000-item
// partition BENCH#BIG (about 300-byte items in four entity types), the small
// partition BENCH#SMALL and a long tail of small CUST# partitions, all
// generated deterministically by bench/benchdata. It creates the table with
// dynamo.EnsureTable and writes with dynamo.Seed, -workers BatchWriteItem
// requests in flight at once (12: a local engine takes more than the 4 a
// fresh on-demand table on AWS is given).
//
// It writes, so it refuses any endpoint that is not on this machine.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"dynascope/bench/benchdata"
	"dynascope/dynamo"
)

func main() {
	endpoint := flag.String("endpoint", os.Getenv("DYNASCOPE_TEST_ENDPOINT"), "DynamoDB Local endpoint (loopback only)")
	table := flag.String("table", "bench", "table to create and fill")
	big := flag.Int("big", benchdata.DefaultBig, "items in the partition "+benchdata.BigPK)
	tail := flag.Int("tail", benchdata.DefaultTailParts, "small partitions in the long tail")
	workers := flag.Int("workers", 12, "BatchWriteItem requests in flight (dynamo.SeedOptions.Workers)")
	flag.Parse()
	if err := run(*endpoint, *table, *big, *tail, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "bench/load: "+err.Error())
		os.Exit(1)
	}
}

func run(endpoint, table string, big, tail, workers int) error {
	if !dynamo.IsLoopback(endpoint) {
		return fmt.Errorf("the load writes a table: give a DynamoDB Local endpoint on this machine with -endpoint, not %q", endpoint)
	}
	if workers < 1 {
		return fmt.Errorf("-workers must be at least 1, not %d", workers)
	}
	ctx := context.Background()
	w, err := dynamo.ConnectWriter(ctx, dynamo.Options{Endpoint: endpoint, Region: "us-east-1", Timeout: time.Minute})
	if err != nil {
		return err
	}
	began := time.Now()
	items := benchdata.Big(big)
	items = append(items, benchdata.Small()...)
	items = append(items, benchdata.Tail(tail)...)
	gen := time.Since(began)
	if _, err := dynamo.EnsureTable(ctx, w, benchdata.Spec(table)); err != nil {
		return err
	}
	// Checked here rather than by Seed, whose refusal would suggest a
	// --force the bench does not have.
	empty, err := dynamo.IsEmpty(ctx, w, table)
	if err != nil {
		return err
	}
	if !empty {
		return fmt.Errorf("table %s already holds items; the bench loads a fresh table", table)
	}
	began = time.Now()
	total, err := dynamo.Seed(ctx, w, table, items, dynamo.SeedOptions{Force: true, Workers: workers})
	if err != nil {
		return err
	}
	took := time.Since(began)
	bytes := benchdata.Bytes(items)
	fmt.Printf("loaded %d items (%.1f MB) into %s in %.1f s with %d workers: %.0f items/s, %d BatchWriteItem requests, %d retries, %.0f WCU (generating them took %d ms)\n",
		total.Written, float64(bytes)/1e6, table, took.Seconds(), workers, float64(total.Written)/took.Seconds(),
		total.Batches, total.Retries, total.WCU, gen.Milliseconds())
	fmt.Printf("= load: %d items in %.1f s, %.0f items/s\n", total.Written, took.Seconds(), float64(total.Written)/took.Seconds())
	return nil
}
