// Command skipscan measures what skip-scan discovery saves: it loads one
// partition of 50,000 items in 4 entity types into DynamoDB Local, finds the
// types once by reading the whole partition and once by skip-scan
// (dynamo.Client.Discover), and prints requests, RCUs and milliseconds of
// both side by side. It exits non-zero when the two disagree on the types or
// skip-scan costs 1% of the full read's RCUs or more.
//
// Run it through scripts/bench-skipscan.sh, which starts and stops a DynamoDB
// Local of its own; it writes, so never point it at AWS.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/bench/benchdata"
	"dynascope/dynamo"
	"dynascope/keys"
)

const partition = "BENCH#1"

// entityShares splits the partition into its 4 types: one profile and three
// collections of different sizes, so the types are not all alike.
var entityShares = []struct {
	prefix string
	share  float64
}{{"EVENT#", 0.5}, {"INVOICE#", 0.2}, {"ORDER#", 0.3}}

func main() {
	endpoint := flag.String("endpoint", os.Getenv("DYNASCOPE_TEST_ENDPOINT"), "DynamoDB Local endpoint (loopback only)")
	items := flag.Int("items", 50000, "items in the partition")
	workers := flag.Int("workers", 16, "BatchWriteItem requests in flight while loading")
	flag.Parse()
	if err := run(*endpoint, *items, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "bench-skipscan: "+err.Error())
		os.Exit(1)
	}
}

func run(endpoint string, n, workers int) error {
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
	all := benchItems(n)
	if err := load(ctx, w, table, all, workers); err != nil {
		return err
	}
	fmt.Printf("loaded %d items into partition %s of %s in %.1f s (%d parallel BatchWriteItem requests), average item %d bytes\n",
		len(all), partition, table, time.Since(began).Seconds(), workers, avgSize(all))

	full, fullReqs, fullMs, err := fullRead(ctx, c, table)
	if err != nil {
		return err
	}
	began = time.Now()
	d, err := c.Discover(ctx, dynamo.DiscoverInput{Table: table, PK: partition})
	skipMs := float64(time.Since(began).Microseconds()) / 1000
	if err != nil {
		return err
	}
	for i := range full {
		full[i].Count = -1 // skip-scan does not count
	}
	var names []string
	for _, g := range d.Groups {
		names = append(names, g.Entity)
	}
	fullRCU, skipRCU := dynamo.TotalCapacity(fullReqs).Total, d.Capacity().Total
	fmt.Printf("entity types: %s\n\n", strings.Join(names, ", "))
	fmt.Printf("%-22s %10s %10s %12s\n", "", "requests", "RCU", "ms")
	fmt.Printf("%-22s %10d %10.1f %12.1f\n", "full read (all pages)", len(fullReqs), fullRCU, fullMs)
	fmt.Printf("%-22s %10d %10.1f %12.1f\n", "skip-scan (Discover)", len(d.Requests), skipRCU, skipMs)
	fmt.Printf("%-22s %9.2f%% %9.2f%% %11.2f%%\n", "skip-scan / full read",
		100*float64(len(d.Requests))/float64(len(fullReqs)), 100*skipRCU/fullRCU, 100*skipMs/fullMs)
	fmt.Println("\n(DynamoDB Local charges 0 RCU for a query that finds nothing; AWS charges 0.5, which would add 0.5 RCU to skip-scan's last request.)")

	if !reflect.DeepEqual(d.Groups, full) {
		return fmt.Errorf("skip-scan found %+v, the full read %+v", d.Groups, full)
	}
	if skipRCU >= 0.01*fullRCU {
		return errors.New("skip-scan used 1% of the full read's RCUs or more")
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
		total += dynamo.ItemSize(it)
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

// fullRead reads the whole partition page by page, as the UI would without
// skip-scan, and groups it.
func fullRead(ctx context.Context, c *dynamo.Client, table string) ([]keys.Group, []dynamo.Request, float64, error) {
	sks, reqs, took, err := benchdata.ReadSortKeys(ctx, c, table, partition)
	if err != nil {
		return nil, nil, 0, err
	}
	ms := float64(took.Microseconds()) / 1000
	return keys.GroupSortKeys(sks, "S", keys.InferDelimiter(sks[:1])), reqs, ms, nil
}
