// Command skipscan measures what skip-scan discovery saves, on three shapes
// of partition loaded into a table of its own in DynamoDB Local:
//
//   - labels: 50,000 items in four label types (PROFILE, EVENT#, INVOICE#,
//     ORDER#), and the demo's CUST#7;
//   - timestamps: 20,000 messages under ISO-8601 sort keys and one meta item,
//     as ChatSystemSchema.json keys them;
//   - mixed: 25,000 items of three label types and 25,000 timestamps.
//
// and, when -bench-table names it, bench/load's 100,000-item partition.
//
// For each it finds the types once by reading the whole partition, then by
// skip-scan (dynamo.Client.Discover, as groups sends it) three times in a
// row through the fault proxy with 50 ms added to every request, as a real
// region's round trip would be, and once walking one way for comparison.
// It prints, per shape, the skip-scan's share of the full read's RCU (bound
// 1%), its requests (bound: types + 2), its round trips waited through in
// sequence (bound: types/2 + 2) and whether the three runs gave the same
// requests, RCU and types; it fails when a bound fails, the runs differ, or
// the skip-scan's types are not the full read's (names, prefixes, kinds, and
// every end it read).
//
// Run it through scripts/bench-skipscan.sh or make bench, which start and stop
// a DynamoDB Local of their own; it writes, so never point it at AWS.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/bench/benchdata"
	"dynascope/dynamo"
	"dynascope/itemcodec"
)

const partition = "BENCH#1"

// entityShares splits the labels partition into its 4 types: one profile and
// three collections of different sizes, so the types are not all alike.
var entityShares = []struct {
	prefix string
	share  float64
}{{"EVENT#", 0.5}, {"INVOICE#", 0.2}, {"ORDER#", 0.3}}

func main() {
	endpoint := flag.String("endpoint", os.Getenv("DYNASCOPE_TEST_ENDPOINT"), "DynamoDB Local endpoint (loopback only)")
	items := flag.Int("items", 50000, "items in the labels partition")
	messages := flag.Int("messages", 20000, "timestamped messages in the timestamps partition")
	mixed := flag.Int("mixed", 25000, "timestamps in the mixed partition, and as many label items")
	workers := flag.Int("workers", 16, "BatchWriteItem requests in flight while loading")
	benchTable := flag.String("bench-table", "", "the bench table of bench/load, whose "+benchdata.BigPK+" is also timed through the proxy")
	rtt := flag.Duration("rtt", 50*time.Millisecond, "delay the proxy adds to every request")
	flag.Parse()
	if err := run(*endpoint, *items, *messages, *mixed, *workers, *benchTable, *rtt); err != nil {
		fmt.Fprintln(os.Stderr, "bench-skipscan: "+err.Error())
		os.Exit(1)
	}
}

func run(endpoint string, n, msgs, mix, workers int, benchTable string, rtt time.Duration) error {
	if !dynamo.IsLoopback(endpoint) {
		return fmt.Errorf("the bench writes a table: give a DynamoDB Local endpoint on this machine with -endpoint, not %q", endpoint)
	}
	ctx := context.Background()
	o := dynamo.Options{Endpoint: endpoint, Region: "us-east-1", Timeout: time.Minute}
	c, err := dynamo.Connect(ctx, o)
	if err != nil {
		return err
	}
	w, err := dynamo.ConnectWriter(ctx, o)
	if err != nil {
		return err
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	table := "bench-skipscan-" + hex.EncodeToString(b)
	if _, err := dynamo.EnsureTable(ctx, w, dynamo.TableSpec{Name: table, PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}); err != nil {
		return err
	}
	defer func() {
		// Deleting is no part of WriteAPI (seeding never deletes), so the
		// bench removes its table with a plain SDK client of its own.
		raw := dynamodb.New(dynamodb.Options{
			Region: "us-east-1", BaseEndpoint: aws.String(endpoint),
			Credentials: credentials.NewStaticCredentialsProvider("local", "local", ""),
		})
		_, _ = raw.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	}()

	began := time.Now()
	all := append(benchItems(n), timestampItems(timestampsPK, msgs, true)...)
	all = append(all, mixedItems(mix)...)
	all = append(all, cust7()...)
	if err := load(ctx, w, table, all, workers); err != nil {
		return err
	}
	fmt.Printf("loaded %d items into %s in %.1f s (%d parallel BatchWriteItem requests), average item %d bytes\n\n",
		len(all), table, time.Since(began).Seconds(), workers, avgSize(all))

	shapes := []shape{
		{"labels: 4 label types", table, partition},
		{fmt.Sprintf("timestamps: %d + meta", msgs), table, timestampsPK},
		{"mixed: 3 label types + timestamps", table, mixedPK},
		{"labels: the demo's CUST#7", table, demoPK},
	}
	if benchTable != "" {
		shapes = append(shapes, shape{"labels: bench/load's " + benchdata.BigPK, benchTable, benchdata.BigPK})
	}
	var failed []string
	for _, sh := range shapes {
		fails, err := measure(ctx, c, endpoint, sh, rtt)
		if err != nil {
			return fmt.Errorf("%s: %w", sh.name, err)
		}
		failed = append(failed, fails...)
	}
	fmt.Println("\n(DynamoDB Local charges 0 RCU for a query that finds nothing; AWS charges 0.5: the RCU share is of what AWS would charge, each such answer counted 0.5.)")
	if len(failed) > 0 {
		return errors.New("failed: " + strings.Join(failed, "; "))
	}
	return nil
}

// benchItems builds the partition: a profile and the three collections, with
// ordinary attributes so items weigh what real ones do (about 150 bytes).
func benchItems(n int) []dynamo.Item {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	num := func(v int) types.AttributeValue { return &types.AttributeValueMemberN{Value: fmt.Sprint(v)} }
	out := []dynamo.Item{{"PK": s(partition), "SK": s("PROFILE"), "name": s("Bench Corp"), "createdAt": s("2019-04-02T08:00:00Z")}}
	left := n - 1
	for i, e := range entityShares {
		count := int(float64(n-1) * e.share)
		if i == len(entityShares)-1 {
			count = left
		}
		left -= count
		for j := range count {
			day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(j) * time.Minute)
			out = append(out, dynamo.Item{
				"PK": s(partition), "SK": s(fmt.Sprintf("%s%s#%07d", e.prefix, day.Format(time.DateOnly), j)),
				"status": s([]string{"OPEN", "SHIPPED", "DELIVERED", "CANCELLED"}[j%4]),
				"total":  num(100 + j%9000), "createdAt": s(day.Format(time.RFC3339)),
				"note": s(fmt.Sprintf("bench item %d of %s, deterministic filler text", j, e.prefix)),
			})
		}
	}
	return out
}

func avgSize(items []dynamo.Item) int {
	total := 0
	for _, it := range items {
		total += itemcodec.ItemSize(it)
	}
	return total / len(items)
}

// load writes the items 25 at a time with several BatchWriteItem requests in
// flight, resending whatever DynamoDB leaves unprocessed.
func load(ctx context.Context, api dynamo.WriteAPI, table string, items []dynamo.Item, workers int) error {
	batches := make(chan []types.WriteRequest)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for reqs := range batches {
				for tries := 0; len(reqs) > 0; tries++ {
					if tries == 10 {
						errs <- errors.New("BatchWriteItem left items unprocessed 10 times")
						return
					}
					out, err := api.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs}})
					if err != nil {
						errs <- err
						return
					}
					reqs = out.UnprocessedItems[table]
					if len(reqs) > 0 {
						time.Sleep(time.Duration(tries+1) * 20 * time.Millisecond)
					}
				}
			}
		})
	}
	var err error
send:
	for i := 0; i < len(items); i += 25 {
		reqs := make([]types.WriteRequest, 0, 25)
		for _, it := range items[i:min(i+25, len(items))] {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
		}
		select {
		case batches <- reqs:
		case err = <-errs:
			break send
		}
	}
	close(batches)
	wg.Wait()
	if err == nil && len(errs) > 0 {
		err = <-errs
	}
	return err
}
