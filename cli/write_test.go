package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/config"
	"dynascope/dynamo/dynamotest"
)

// orderTable is a table of the test's own with one order in it, and the
// journal in a directory of the test's own.
func orderTable(t *testing.T) (*dynamodb.Client, string) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	sdk := dynamotest.SDK(t)
	table := dynamotest.Table(t, sdk, dynamotest.PKSK())
	_, err := sdk.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "CUST#42"}, "SK": &types.AttributeValueMemberS{Value: "ORDER#1"},
		"status": &types.AttributeValueMemberS{Value: "OPEN"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return sdk, table
}

func status(t *testing.T, sdk *dynamodb.Client, table string) string {
	t.Helper()
	out, err := sdk.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true), Key: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "CUST#42"}, "SK": &types.AttributeValueMemberS{Value: "ORDER#1"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := out.Item["status"].(*types.AttributeValueMemberS)
	if s == nil {
		return ""
	}
	return s.Value
}

// writes: true on a named connection allows writes as --allow-writes does;
// a connection without it does not.
func TestWritesFromTheSettings(t *testing.T) {
	sdk, table := orderTable(t)
	ep := dynamotest.Endpoint(t)
	settings := filepath.Join(t.TempDir(), "config.yaml")
	yaml := "connections:\n  rw:\n    endpoint: " + ep + "\n    writes: true\n  ro:\n    endpoint: " + ep + "\n"
	if err := os.WriteFile(settings, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(config.EnvSettings, settings)
	args := []string{"update", "--table", table, "--pk", "CUST#42", "--sk", "ORDER#1", "--set", "status=S:SHIPPED"}
	if _, _, err := cli(t, append(args, "--connection", "ro")...); err == nil || !strings.Contains(err.Error(), "writing is off") {
		t.Fatalf("connection ro: %v", err)
	}
	if got := status(t, sdk, table); got != "OPEN" {
		t.Fatalf("refused, yet status is %q", got)
	}
	if _, _, err := cli(t, append(args, "--connection", "rw")...); err != nil {
		t.Fatal(err)
	}
	if got := status(t, sdk, table); got != "SHIPPED" {
		t.Errorf("allowed by writes: true, status is %q", got)
	}
}

// Another client changes the item between update's read and its write
// (the proxy holds the write back while it does): the write is refused,
// the other client's change stays, and the output shows the item now
// against the user's version.
func TestUpdateRefusesAfterAConcurrentChange(t *testing.T) {
	sdk, table := orderTable(t)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	p.Inject(dynamotest.Rule{Op: "UpdateItem", Count: 1, Fault: dynamotest.Delay(time.Second)})
	done := make(chan struct{})
	var out string
	var err error
	go func() {
		defer close(done)
		out, _, err = cli(t, "update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#42", "--sk", "ORDER#1",
			"--set", "status=S:SHIPPED", "--allow-writes", "--output", "json")
	}()
	for p.Count("UpdateItem") == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	if _, perr := sdk.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{
		TableName: aws.String(table), Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "CUST#42"}, "SK": &types.AttributeValueMemberS{Value: "ORDER#1"}},
		UpdateExpression: aws.String("SET #s = :v"), ExpressionAttributeNames: map[string]string{"#s": "status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": &types.AttributeValueMemberS{Value: "CANCELLED"}},
	}); perr != nil {
		t.Fatal(perr)
	}
	<-done
	if err == nil || !strings.HasPrefix(err.Error(), "nothing was written: the item was changed by someone else") {
		t.Fatalf("the update: %v", err)
	}
	if got := status(t, sdk, table); got != "CANCELLED" {
		t.Errorf("the other client's change was overwritten: status %q", got)
	}
	var res struct {
		Written  bool
		Conflict struct {
			Current map[string]any
			Diff    []struct {
				Attribute, Change string
				Old, New          map[string]string
			}
			Attributes []struct {
				Attribute        string
				Read, Now, Yours map[string]string
				ChangedMeanwhile bool
			}
		}
	}
	if jerr := json.Unmarshal([]byte(out), &res); jerr != nil {
		t.Fatalf("%v: %s", jerr, out)
	}
	d := res.Conflict.Diff
	if res.Written || res.Conflict.Current["status"] != "CANCELLED" || len(d) != 1 || d[0].Attribute != "status" || d[0].Old["S"] != "CANCELLED" || d[0].New["S"] != "SHIPPED" {
		t.Errorf("output: %s", out)
	}
	// As read · now · yours, of the one attribute that differs.
	if a := res.Conflict.Attributes; len(a) != 1 || a[0].Attribute != "status" || a[0].Read["S"] != "OPEN" || a[0].Now["S"] != "CANCELLED" || a[0].Yours["S"] != "SHIPPED" || !a[0].ChangedMeanwhile {
		t.Errorf("conflict.attributes: %s", out)
	}
	// The refused write and the read after it went out; nothing else.
	if ops := p.Ops(); !slices.Equal(ops[len(ops)-2:], []string{"UpdateItem", "GetItem"}) {
		t.Errorf("requests %v", ops)
	}
}
