package dynamotest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The second writer: a colleague who changes the item between the
// program's read and its write. The proxy holds the program's next write
// request, lets the other writer's requests reach DynamoDB Local first
// (straight, not through the proxy), then forwards the program's request,
// so the race a conditional write must win is played on the real engine
// every time, not by luck of timing.

// writeOps are the operations a program's edit is sent as.
var writeOps = []string{"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems"}

// SecondWriter is one second writer waiting for, or done with, the
// program's write.
type SecondWriter struct {
	t     testing.TB
	once  sync.Once
	other func() error
	mu    sync.Mutex
	ran   bool
}

func (*SecondWriter) String() string { return "second writer" }
func (f *SecondWriter) apply(x *exchange) {
	// Its rules go with its first write: a later write passes untouched,
	// and a second writer set up after this one gets the next write.
	x.p.mu.Lock()
	x.p.rules = slices.DeleteFunc(x.p.rules, func(r *ruleState) bool { return r.Fault == Fault(f) })
	x.p.mu.Unlock()
	f.once.Do(func() {
		if err := f.other(); err != nil {
			f.t.Errorf("the second writer's request failed: %v", err)
			x.fail(fmt.Errorf("the second writer failed: %w", err))
			return
		}
		f.mu.Lock()
		f.ran = true
		f.mu.Unlock()
	})
	if x.status == 0 {
		x.forward(false)
	}
}

// Ran tells whether the other writer's requests went out before a write
// of the program's: a test checks that the race it meant to play was
// played.
func (f *SecondWriter) Ran() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ran
}

// BeforeNextWrite makes the program's next write request (PutItem,
// UpdateItem, DeleteItem or TransactWriteItems, whichever comes first)
// wait while other runs — another writer's requests, sent to DynamoDB
// Local with a client of the test's own — and then go on to DynamoDB. A
// failure of other fails the test and answers the program's request 502.
func (p *Proxy) BeforeNextWrite(t testing.TB, other func() error) *SecondWriter {
	f := &SecondWriter{t: t, other: other}
	rules := make([]Rule, len(writeOps))
	for i, op := range writeOps {
		rules[i] = Rule{Op: op, Count: 1, Fault: f}
	}
	p.Inject(rules...)
	return f
}

// OtherWriter is the second writer's client: raw SDK requests on one item,
// straight to DynamoDB Local.
type OtherWriter struct {
	SDK   *dynamodb.Client
	Table string
	Key   map[string]types.AttributeValue
}

// Get reads the item, strongly consistent; nil when there is none.
func (o OtherWriter) Get(t testing.TB) map[string]types.AttributeValue {
	t.Helper()
	out, err := o.SDK.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(o.Table), Key: o.Key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Item) == 0 {
		return nil
	}
	return out.Item
}

// Set sets one attribute (SET #n = :v), creating the item if need be, as
// a colleague's aws dynamodb update-item would.
func (o OtherWriter) Set(name string, v types.AttributeValue) error {
	_, err := o.SDK.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{TableName: aws.String(o.Table), Key: o.Key,
		UpdateExpression: aws.String("SET #n = :v"), ExpressionAttributeNames: map[string]string{"#n": name},
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": v}})
	return err
}

// Put replaces the item (its key is its own, not Key).
func (o OtherWriter) Put(it map[string]types.AttributeValue) error {
	_, err := o.SDK.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(o.Table), Item: it})
	return err
}

// Delete deletes the item.
func (o OtherWriter) Delete() error {
	_, err := o.SDK.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{TableName: aws.String(o.Table), Key: o.Key})
	return err
}

// At is the same writer on another item of the table.
func (o OtherWriter) At(key map[string]types.AttributeValue) OtherWriter {
	o.Key = key
	return o
}
