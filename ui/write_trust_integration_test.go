package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/exp/golden"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
)

// writeRig is the demo table behind a fault proxy, a writer with a short
// time-out through it, and the UI on CUST#42 with writes on.
type writeRig struct {
	hs    *harness
	p     *dynamotest.Proxy
	table string
	sdk   *dynamodb.Client
	ctx   context.Context
}

var rigOrder = dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17")}

func newWriteRig(t *testing.T, w, h int, timeout time.Duration) writeRig {
	t.Helper()
	table, ep := demoTable(t)
	p := dynamotest.StartProxy(t, ep)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: p.URL, Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	j, err := edit.OpenJournal(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	wr, err := edit.Open(ctx, dynamo.Options{Endpoint: p.URL, Region: "us-east-1", Timeout: timeout}, true, j)
	if err != nil {
		t.Fatal(err)
	}
	r := writeRig{p: p, table: table, sdk: dynamotest.SDK(t), ctx: ctx}
	r.set(t, "status", "PENDING")
	r.hs = newHarnessOn(t, Options{Store: newPrefetchStore(ctx, client, table, "", "CUST#42", config.Settings{}, 35), Editor: wr,
		Table: table, PK: "CUST#42", Region: "us-east-1", Endpoint: p.URL}, w, h)
	r.hs.contains("Items · 3 loaded")
	return r
}

// set is the other writer: SET name = v on the order.
func (r writeRig) set(t *testing.T, name, v string) {
	t.Helper()
	_, err := r.sdk.UpdateItem(r.ctx, &dynamodb.UpdateItemInput{TableName: aws.String(r.table), Key: rigOrder,
		UpdateExpression: aws.String("SET #n = :v"), ExpressionAttributeNames: map[string]string{"#n": name},
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": s(v)}})
	if err != nil {
		t.Fatal(err)
	}
}

func (r writeRig) get(t *testing.T) dynamo.Item {
	t.Helper()
	out, err := r.sdk.GetItem(r.ctx, &dynamodb.GetItemInput{TableName: aws.String(r.table), Key: rigOrder, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item
}

func attrS(it dynamo.Item, name string) string {
	if v, ok := it[name].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

// screen with the unique table name and the proxy's port made fixed
// words of their length, for goldens.
func (r writeRig) screen() string {
	sc := strings.ReplaceAll(r.hs.screen(), r.table, strings.Repeat("T", len(r.table)))
	port := r.p.URL[strings.LastIndex(r.p.URL, ":")+1:]
	return strings.ReplaceAll(sc, "127.0.0.1:"+port, "127.0.0.1:"+strings.Repeat("P", len(port)))
}

// editStatus opens the order's editor and types a new status, up to the
// write shown before it is sent.
func (r writeRig) editStatus(v string) {
	r.hs.keys("tab", "j", "E", "j", "j", "enter", "ctrl+u")
	r.hs.typeText(v)
	r.hs.keys("enter", "w")
}

// 37.2: a write refused because someone changed another attribute is
// not a dead end: r reads the item again and shows the user's change put
// on it as it is now — the new diff, the new condition — and y sends it:
// both changes stay. Where the other writer changed the same attribute,
// the collision is shown as read · theirs · yours and nothing is sent
// until the user decides (E).
func TestRefusedWriteReapplied(t *testing.T) {
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("partly_theirs/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			r := newWriteRig(t, sz[0], sz[1], 0)
			hs := r.hs
			// Yours: status and total; theirs, between: status.
			hs.keys("tab", "j", "E", "j", "j", "enter", "ctrl+u")
			hs.typeText("SHIPPED")
			hs.keys("enter", "j", "enter", "ctrl+u")
			hs.typeText("40")
			hs.keys("enter", "w")
			hs.contains(`~ total: N 35 → N 40`)
			r.set(t, "status", "CANCELLED")
			hs.keys("y")
			hs.contains("Write · refused")
			hs.keys("r")
			hs.contains("the item read again, as it is now", `~ total: N 35 → N 40`, "changed by you and by someone else", "theirs (kept)")
			hs.lacks(`~ status:`)
			golden.RequireEqual(t, []byte(r.screen()))
			hs.keys("y")
			hs.contains("written: 1 WCU consumed (predicted 1)")
			it := r.get(t)
			if attrS(it, "status") != "CANCELLED" {
				t.Errorf("the other writer's status was overwritten: %s", edit.ItemText(it))
			}
			if n, _ := it["total"].(*types.AttributeValueMemberN); n == nil || n.Value != "40" {
				t.Errorf("your total was not written: %s", edit.ItemText(it))
			}
		})
		t.Run(fmt.Sprintf("same_attribute/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			r := newWriteRig(t, sz[0], sz[1], 0)
			hs := r.hs
			r.editStatus("SHIPPED")
			r.set(t, "status", "CANCELLED")
			hs.keys("y", "r")
			hs.contains("nothing to send", "status", "PENDING", "CANCELLED", "SHIPPED", "as read", "theirs (kept)", "yours")
			golden.RequireEqual(t, []byte(r.screen()))
			writes := len(r.p.Writes())
			hs.keys("y")
			if len(r.p.Writes()) != writes {
				t.Error("a collision was sent without the user deciding")
			}
			if attrS(r.get(t), "status") != "CANCELLED" {
				t.Error("the other writer's value was overwritten")
			}
			// E: the draft on the item as it is now, the user decides.
			hs.keys("E")
			hs.contains("Edit · yours on the item as it is now · decide status", "CANCELLED")
			hs.keys("j", "j", "enter", "ctrl+u")
			hs.typeText("SHIPPED")
			hs.keys("enter", "w")
			hs.contains(`~ status: S "CANCELLED" → S "SHIPPED"`)
			hs.keys("y")
			hs.contains("written: 1 WCU consumed")
			if attrS(r.get(t), "status") != "SHIPPED" {
				t.Error("the user's decision was not written")
			}
		})
	}
}

// 35.1 and 35.7 in the UI: a write held by a slow link past the writer's
// time-out, delivered to DynamoDB Local after dynascope gave up. The
// overlay says it is in doubt and may still be applied, never that
// nothing was written, and its units are unknown, not 0; the request log
// says the same; once it has landed, u takes it back.
func TestWriteInDoubtInTheUI(t *testing.T) {
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			r := newWriteRig(t, sz[0], sz[1], time.Second)
			hs := r.hs
			late := dynamotest.DeliverLate(2 * time.Second)
			r.p.Inject(dynamotest.Rule{Op: "UpdateItem", Count: 1, Fault: late})
			r.editStatus("SHIPPED")
			hs.contains("Write · shown before it is sent")
			hs.keys("y")
			hs.contains("no answer: in doubt", "it may still be applied", "units unknown", "journal entry 1, in doubt")
			hs.lacks("nothing was written", "0 WCU", "failed")
			golden.RequireEqual(t, []byte(r.screen()))
			hs.keys("esc", "L")
			hs.contains("no answer: in doubt", "unknown WCU")
			hs.lacks(" 0 WCU", "1 write, 0")
			hs.keys("esc")
			if !late.WaitLanded(10 * time.Second) {
				t.Fatal("the held write never reached DynamoDB Local")
			}
			if got := attrS(r.get(t), "status"); got != "SHIPPED" {
				t.Fatalf("the late write did not land: %q", got)
			}
			hs.keys("u")
			hs.contains("undo of write 1")
			hs.keys("y")
			hs.contains("written: 1 WCU consumed")
			if got := attrS(r.get(t), "status"); got != "PENDING" {
				t.Errorf("after the undo of the landed write: %q", got)
			}
		})
	}
}

// 35.7 rechecked: a write DynamoDB applied and answered, but whose answer
// carries no ConsumedCapacity (asked for), shows its units as unknown in
// the overlay and in the request log, never as 0 WCU; the write is done.
func TestWriteWithoutCapacityShowsUnknownWCU(t *testing.T) {
	r := newWriteRig(t, 120, 35, 5*time.Second)
	hs := r.hs
	r.p.Inject(dynamotest.Rule{Op: "UpdateItem", Fault: dynamotest.NoCapacity})
	r.editStatus("SHIPPED")
	hs.keys("y")
	hs.contains("Write · done", "written: unknown WCU consumed", "the units are unknown, not 0")
	hs.lacks("0 WCU consumed")
	if got := attrS(r.get(t), "status"); got != "SHIPPED" {
		t.Fatalf("the write did not land: %q", got)
	}
	hs.keys("esc", "L")
	hs.contains("1 write, unknown WCU", "UpdateItem", "unknown WCU")
	hs.lacks(" 0 WCU")
}
