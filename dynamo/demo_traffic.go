package dynamo

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DemoTraffic plays the demo application's writes (write gives the
// step-th, from 0: demodata.Traffic) into table, one every interval, until
// ctx ends; it returns the number written. It writes only to a local
// engine: the demo's own table, never a table on AWS.
func DemoTraffic(ctx context.Context, api WriteAPI, table string, interval time.Duration, write func(step int) Item) (int, error) {
	endpoint := sdkEndpoint(api)
	if !IsLoopback(endpoint) {
		return 0, &UserError{Msg: fmt.Sprintf("demo traffic writes only to DynamoDB Local on this machine, not to %s.", PublicEndpoint(endpoint))}
	}
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
		reqs := []types.WriteRequest{{PutRequest: &types.PutRequest{Item: write(step)}}}
		cctx, cancel := context.WithTimeout(ctx, seedCallTimeout)
		out, err := api.BatchWriteItem(cctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs}})
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return step, nil
			}
			return step, Explain(err, "write the demo traffic to "+table, endpoint)
		}
		if err := checkUnprocessed("write the demo traffic to "+table, table, reqs, out.UnprocessedItems); err != nil {
			return step, err
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
	return seedWaitActive(ctx, api, table, nil)
}
