package dynamo_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// How long a write takes to reach a tail of DynamoDB Local's stream, the
// tail idle (polling backed off to its longest wait) before each write.
// Metrics: p50-ms and max-ms from PutItem's return to the record's
// delivery; the goal is within one poll interval (dynamo.TailMaxPoll, 1 s)
// plus a request.
//
//	go test -run '^$' -bench TailLatency ./dynamo/
func BenchmarkTailLatency(b *testing.B) {
	api := dynamotest.SDK(b)
	table := dynamotest.Table(b, api, dynamotest.WithStream(dynamotest.PKSK(), types.StreamViewTypeNewAndOldImages))
	o := dynamo.Options{Endpoint: dynamotest.Endpoint(b), Region: "us-east-1", NoSchemaCache: true}
	c, err := dynamo.Connect(context.Background(), o)
	if err != nil {
		b.Fatal(err)
	}
	sc, _ := dynamo.ConnectStreams(context.Background(), o, c)
	info, err := sc.Stream(context.Background(), table)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan time.Time, 16)
	polling := make(chan struct{}, 1)
	go sc.Tail(ctx, info, dynamo.TailOptions{OnRequest: func(r dynamo.Request) {
		if r.Operation == "GetRecords" {
			select {
			case polling <- struct{}{}:
			default:
			}
		}
	}}, func(recs []dynamo.StreamRecord) error {
		for range recs {
			got <- time.Now()
		}
		return nil
	})
	<-polling
	var lags []time.Duration
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		time.Sleep(2 * dynamo.TailMaxPoll) // idle: the longest wait between polls
		b.StartTimer()
		if _, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "CUST#42"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("ORDER#%d", i)}}}); err != nil {
			b.Fatal(err)
		}
		written := time.Now()
		select {
		case at := <-got:
			lags = append(lags, at.Sub(written))
		case <-time.After(10 * time.Second):
			b.Fatal("no record within 10 s")
		}
	}
	slices.Sort(lags)
	b.ReportMetric(float64(lags[len(lags)/2].Milliseconds()), "p50-ms")
	b.ReportMetric(float64(lags[len(lags)-1].Milliseconds()), "max-ms")
}
