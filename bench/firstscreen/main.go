// Command firstscreen measures issue 41.3: the terminal UI's first screen of
// a big partition against a small one's, on DynamoDB Local, in a table of
// its own holding both (with -table-items, more partitions of the small
// shape to make the table that big). It times `dynascope --table T --pk P`
// in a pseudo-terminal (script(1), as bench/startup does) from process
// start until the partition's first items are on the screen, -runs times
// for each partition, interleaved, and prints the medians and their ratio;
// it fails when the big one's is more than -max-ratio times the small
// one's. DynamoDB Local answers a Query without a Limit in time that grows
// with the partition, so a UI whose first Query has none fails here.
//
// It writes, so it refuses any endpoint that is not on this machine.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"dynascope/bench/benchdata"
	"dynascope/dynamo"
)

const (
	bigPK   = "SCREEN#BIG"
	smallPK = "SCREEN#SMALL"
	// marker is the first item's sort key in both partitions: on screen
	// only once the items are.
	marker = "EVENT#0000000"
)

func main() {
	endpoint := flag.String("endpoint", os.Getenv("DYNASCOPE_TEST_ENDPOINT"), "DynamoDB Local endpoint (loopback only)")
	bin := flag.String("bin", "bin/dynascope", "the dynascope binary")
	table := flag.String("table", "firstscreen", "table to create and fill")
	big := flag.Int("big", 200_000, "items in the big partition")
	small := flag.Int("small", 2_000, "items in the small partition")
	tableItems := flag.Int("table-items", 0, "items in the whole table (filled with partitions of the small one's size); 0: the two partitions only")
	runs := flag.Int("runs", 5, "runs of each partition")
	maxRatio := flag.Float64("max-ratio", 1.5, "fail when the big partition's first screen takes more than this many times the small one's")
	flag.Parse()
	ok, err := run(*endpoint, *bin, *table, *big, *small, *tableItems, *runs, *maxRatio)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/firstscreen: "+err.Error())
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

func run(endpoint, bin, table string, big, small, tableItems, runs int, maxRatio float64) (bool, error) {
	if !dynamo.IsLoopback(endpoint) {
		return false, fmt.Errorf("the bench writes a table: give a DynamoDB Local endpoint on this machine with -endpoint, not %q", endpoint)
	}
	abs, err := filepath.Abs(bin)
	if err != nil {
		return false, err
	}
	total, err := load(endpoint, table, big, small, tableItems)
	if err != nil {
		return false, err
	}
	cfg, err := os.MkdirTemp("", "bench-firstscreen-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(cfg)
	env := append(os.Environ(),
		"AWS_ACCESS_KEY_ID=local", "AWS_SECRET_ACCESS_KEY=local",
		"AWS_REGION=us-east-1", "AWS_DEFAULT_REGION=us-east-1",
		"AWS_EC2_METADATA_DISABLED=true", "XDG_CONFIG_HOME="+cfg, "XDG_CACHE_HOME="+filepath.Join(cfg, "cache"), "TERM=xterm-256color")
	ui := func(pk string) string {
		return fmt.Sprintf("stty rows 35 cols 120; exec %s --endpoint-url %s --table %s --pk '%s'", abs, endpoint, table, pk)
	}
	// One untimed run of each warms DynamoDB Local's JIT and the schema cache.
	for _, pk := range []string{smallPK, bigPK} {
		if _, err := benchdata.TimeUI(env, ui(pk), marker); err != nil {
			return false, fmt.Errorf("the UI on %s: %w", pk, err)
		}
	}
	var bigT, smallT []time.Duration
	for range runs {
		for _, c := range []struct {
			pk  string
			out *[]time.Duration
		}{{smallPK, &smallT}, {bigPK, &bigT}} {
			t, err := benchdata.TimeUI(env, ui(c.pk), marker)
			if err != nil {
				return false, fmt.Errorf("the UI on %s: %w", c.pk, err)
			}
			*c.out = append(*c.out, t.Results)
		}
	}
	mb, ms := benchdata.Median(bigT), benchdata.Median(smallT)
	fmt.Printf("first screen at 120x35 on DynamoDB Local, table of %d items (%d runs each, medians; min–max):\n", total, runs)
	fmt.Printf("  %s, %7d items %7.1f ms  (%.1f–%.1f)\n", bigPK, big, msOf(mb), msOf(slices.Min(bigT)), msOf(slices.Max(bigT)))
	fmt.Printf("  %s, %7d items %7.1f ms  (%.1f–%.1f)\n", smallPK, small, msOf(ms), msOf(slices.Min(smallT)), msOf(slices.Max(smallT)))
	r := float64(mb) / float64(ms)
	verdict := "ok"
	if r > maxRatio {
		verdict = "FAIL"
	}
	fmt.Printf("= first screen, big partition over small: %.2fx (%.0f vs %.0f ms; %d items vs %d, table of %d; bound <= %gx) %s\n",
		r, msOf(mb), msOf(ms), big, small, total, maxRatio, verdict)
	return verdict == "ok", nil
}

// load creates the table and fills it: the two partitions, then as many
// partitions of the small one's size as make tableItems.
func load(endpoint, table string, big, small, tableItems int) (int, error) {
	if big < 1 || small < 1 {
		return 0, errors.New("-big and -small must be at least 1")
	}
	ctx := context.Background()
	w, err := dynamo.ConnectWriter(ctx, dynamo.Options{Endpoint: endpoint, Region: "us-east-1", Timeout: time.Minute})
	if err != nil {
		return 0, err
	}
	if _, err := dynamo.EnsureTable(ctx, w, benchdata.Spec(table)); err != nil {
		return 0, err
	}
	empty, err := dynamo.IsEmpty(ctx, w, table)
	if err != nil {
		return 0, err
	}
	if !empty {
		return 0, fmt.Errorf("table %s already holds items; the bench loads a fresh table", table)
	}
	began := time.Now()
	items := append(benchdata.Partition(bigPK, big), benchdata.Partition(smallPK, small)...)
	for p := 0; len(items) < tableItems; p++ {
		items = append(items, benchdata.Partition(fmt.Sprintf("SCREEN#%06d", p), min(small, tableItems-len(items)))...)
	}
	n, err := dynamo.Seed(ctx, w, table, items, dynamo.SeedOptions{Force: true, Workers: 12})
	if err != nil {
		return 0, err
	}
	fmt.Printf("loaded %d items into %s in %.1f s\n", n.Written, table, time.Since(began).Seconds())
	return n.Written, nil
}

func msOf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
