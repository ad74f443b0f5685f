package dynamo_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"dynascope/demodata"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// The demo table gets a stream after seeding, and its traffic (a new order for
// CUST#42, the order shipped, a line item) reaches a tail of it as INSERT
// ORDER, MODIFY ORDER (status) and INSERT ITEM. (How soon: BenchmarkTailLatency.)
func TestDemoTrafficOnTheDemoStream(t *testing.T) {
	api := dynamotest.SDK(t)
	table := dynamotest.UniqueName("demo-traffic")
	dynamotest.DeleteAtEnd(t, api, table)
	if _, err := dynamo.EnsureTable(context.Background(), api, demodata.TableSpec(table)); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second finds the stream there and leaves it
		if err := dynamo.EnableDemoStream(context.Background(), api, table); err != nil {
			t.Fatal(err)
		}
	}
	c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: dynamotest.Endpoint(t), Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := dynamo.ConnectStreams(context.Background(), dynamo.Options{Endpoint: dynamotest.Endpoint(t), Region: "us-east-1"}, c)
	if err != nil {
		t.Fatal(err)
	}
	info, err := sc.Stream(context.Background(), table)
	if err != nil || info.ViewType != "NEW_AND_OLD_IMAGES" {
		t.Fatalf("demo stream %+v: %v", info, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type seen struct {
		rec dynamo.StreamRecord
		at  time.Time
	}
	ch := make(chan seen, 100)
	go sc.Tail(ctx, info, dynamo.TailOptions{From: dynamo.TailTrimHorizon}, func(recs []dynamo.StreamRecord) error {
		for _, r := range recs {
			ch <- seen{r, time.Now()}
		}
		return nil
	})
	trafficDone := make(chan int, 1)
	go func() {
		n, err := dynamo.DemoTraffic(ctx, api, table, 300*time.Millisecond, demodata.Traffic(time.Now()))
		if err != nil {
			t.Error(err)
		}
		trafficDone <- n
	}()
	var got []string
	names := info.Names("")
	start := time.Now()
	for len(got) < 3 {
		select {
		case s := <-ch:
			got = append(got, s.rec.Event+" "+names.Entity(s.rec)+" "+strings.Join(s.rec.Changed(), ","))
		case <-time.After(10 * time.Second):
			t.Fatalf("after %v only %v", time.Since(start), got)
		}
	}
	cancel()
	<-trafficDone
	if strings.Join(got, "|") != "INSERT ORDER |MODIFY ORDER GSI1PK,GSI1SK,status|INSERT ITEM " {
		t.Errorf("traffic seen as %q", got)
	}
}

// The traffic and the stream never go anywhere but a local engine.
func TestDemoTrafficOnlyLocal(t *testing.T) {
	api := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String("https://dynamodb.us-east-1.amazonaws.com"),
		Credentials: credentials.NewStaticCredentialsProvider("a", "b", "")})
	n, err := dynamo.DemoTraffic(context.Background(), api, "App", time.Millisecond, demodata.Traffic(time.Now()))
	if n != 0 || err == nil || !strings.Contains(err.Error(), "only to DynamoDB Local") {
		t.Errorf("wrote %d, err %v", n, err)
	}
	if err := dynamo.EnableDemoStream(context.Background(), api, "App"); err == nil || !strings.Contains(err.Error(), "only on its own DynamoDB Local") {
		t.Errorf("enable stream on AWS: %v", err)
	}
}
