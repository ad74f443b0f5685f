package dynamo

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DemoTrafficInterval is the pause between two writes of the demo's
// traffic: a few a second, slow enough to read as they arrive.
const DemoTrafficInterval = 400 * time.Millisecond

// DemoTrafficWrite is the demo application's step-th write (from 0), in a
// cycle of three: a new order for CUST#42, that order shipped (its status
// changes and it leaves the warehouse queue in GSI1), and a line item added
// to it. id names the orders of this run ("T" and a number); day is the
// orders' date.
func DemoTrafficWrite(step int, id int, day time.Time) Item {
	order := "T" + strconv.Itoa(id+step/3)
	date := day.Format(time.DateOnly)
	total := 1500 + (step/3*731)%9000
	it := Item{
		"PK": demoS(DemoPartition), "SK": demoS("ORDER#" + date + "#" + order),
		"orderId": demoS(order), "total": demoMoney(total), "itemCount": demoInt(1),
	}
	switch step % 3 {
	case 0:
		it["status"] = demoS("OPEN")
		it["GSI1PK"] = demoS("WH#" + strconv.Itoa(1+step/3%demoWarehouses))
		it["GSI1SK"] = demoS("OPEN#" + date + "#" + order)
	case 1:
		it["status"] = demoS("SHIPPED")
	default:
		p := demoCatalog[step/3%len(demoCatalog)]
		return Item{
			"PK": demoS("ORDER#" + order), "SK": demoS("ITEM#1"),
			"sku": demoS(p.sku), "name": demoS(p.name), "qty": demoInt(1), "price": demoMoney(p.cents),
		}
	}
	return it
}

// DemoTraffic plays the demo application's writes into table, one every
// interval, until ctx ends; it returns the number written. It writes only
// to a local engine: the demo's own table, never a table on AWS.
func DemoTraffic(ctx context.Context, api WriteAPI, table string, interval time.Duration) (int, error) {
	endpoint := sdkEndpoint(api)
	if !IsLoopback(endpoint) {
		return 0, &UserError{Msg: fmt.Sprintf("demo traffic writes only to DynamoDB Local on this machine, not to %s.", PublicEndpoint(endpoint))}
	}
	id := int(time.Now().Unix() % 100000)
	day := time.Now().UTC()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	// step counts the writes DynamoDB took: a write it hands back
	// unprocessed (as a throttled batch does) is sent again at the next
	// tick, not counted.
	for step := 0; ; {
		select {
		case <-ctx.Done():
			return step, nil
		case <-tick.C:
		}
		it := DemoTrafficWrite(step, id, day)
		cctx, cancel := context.WithTimeout(ctx, seedCallTimeout)
		out, err := api.BatchWriteItem(cctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
			table: {{PutRequest: &types.PutRequest{Item: it}}},
		}})
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return step, nil
			}
			return step, Explain(err, "write the demo traffic to "+table, endpoint)
		}
		if len(out.UnprocessedItems[table]) == 0 {
			step++
		}
	}
}

// streamUpdater is the one more write the demo needs: the SDK client that
// seeding writes through has it.
type streamUpdater interface {
	UpdateTable(ctx context.Context, in *dynamodb.UpdateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error)
}

// EnableDemoStream gives the demo's own local table a stream with both
// images, after seeding: DynamoDB Local writes many times slower into a
// table with a stream (measured: 1,000 items in 54 s against 4.6 s), so the
// demo data goes in first. It refuses any endpoint but a local engine; a
// table that already has a stream is left as it is.
func EnableDemoStream(ctx context.Context, api WriteAPI, table string) error {
	endpoint := sdkEndpoint(api)
	u, ok := api.(streamUpdater)
	if !IsLoopback(endpoint) || !ok {
		return &UserError{Msg: fmt.Sprintf("the demo enables a stream only on its own DynamoDB Local table, not at %s.", PublicEndpoint(endpoint))}
	}
	d, err := describeRaw(ctx, api, table)
	if err != nil {
		return Explain(err, "describe table "+table, endpoint)
	}
	if s := d.StreamSpecification; s != nil && s.StreamEnabled != nil && *s.StreamEnabled {
		return nil
	}
	cctx, cancel := context.WithTimeout(ctx, seedCallTimeout)
	defer cancel()
	_, err = u.UpdateTable(cctx, &dynamodb.UpdateTableInput{TableName: &table, StreamSpecification: &types.StreamSpecification{
		StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages,
	}})
	if err != nil {
		return Explain(err, "enable the stream of the demo table "+table, endpoint)
	}
	return seedWaitActive(ctx, api, table)
}
