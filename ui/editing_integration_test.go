package ui

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
)

// editingActions are the keymap's actions that write or prepare a write:
// enabled only with writes on, so TestUINeverWrites presses their keys to
// no effect and TestEditingFlow takes every one of them.
var editingActions = []string{"EditItem", "DuplicateItem", "DeleteItem", "NewItem", "Undo", "AddAttribute", "RemoveAttribute", "WriteItem", "Reapply"}

// The "done when", through Update against DynamoDB Local: a wrong
// status on one of CUST#42's orders fixed in the UI with its diff and 1 WCU
// shown before sending, undone; a second writer's change in between is
// refused, not overwritten; then every other editing action, each write
// through a recording proxy.
func TestEditingFlow(t *testing.T) {
	table, ep := demoTable(t)
	p := dynamotest.StartProxy(t, ep)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sdk := dynamotest.SDK(t)
	order := dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17")}
	get := func() dynamo.Item {
		out, err := sdk.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: order, ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Fatal(err)
		}
		return out.Item
	}
	setStatus := func(v string) { // the other writer
		_, err := sdk.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: order,
			UpdateExpression: aws.String("SET #s = :v"), ExpressionAttributeNames: map[string]string{"#s": "status"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":v": s(v)}})
		if err != nil {
			t.Fatal(err)
		}
	}
	status := func() string {
		v, _ := get()["status"].(*types.AttributeValueMemberS)
		if v == nil {
			return ""
		}
		return v.Value
	}
	setStatus("SHIPPD") // the wrong status to fix

	client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: p.URL, Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	j, err := edit.OpenJournal(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := edit.Open(ctx, dynamo.Options{Endpoint: p.URL, Region: "us-east-1"}, true, j)
	if err != nil {
		t.Fatal(err)
	}
	hs := newHarnessOn(t, Options{Store: newPrefetchStore(ctx, client, table, "", "CUST#42", config.Settings{}, 35), Editor: w,
		Table: table, PK: "CUST#42", Region: "us-east-1", Endpoint: p.URL}, 120, 35)
	hs.contains("WRITES ON · "+table+" (us-east-1)", "Items · 3 loaded")

	// Fix the status: E on the order, enter on status, the new value, w.
	hs.keys("tab", "j", "E")
	hs.contains("Edit · ORDER#2025-03-01#A17", "status S    SHIPPD")
	hs.keys("j", "j", "enter", "ctrl+u")
	hs.typeText("SHIPPED")
	hs.keys("enter", "w")
	hs.contains("Write · shown before it is sent", `~ status: S "SHIPPD" → S "SHIPPED"`,
		"predicted: 1 WCU (item size rounded up to 1 KB)", "aws dynamodb update-item")
	if p.Count("UpdateItem") != 0 || status() != "SHIPPD" {
		t.Fatal("something was sent before the confirmation")
	}
	hs.keys("y")
	hs.contains("written: 1 WCU consumed (predicted 1) · journal entry 1 · u undoes it")
	if status() != "SHIPPED" {
		t.Fatalf("status %q after the write", status())
	}
	hs.keys("esc")
	hs.contains("SHIPPED", " WRITE ")

	// Undo it, on the condition that the item is as the write left it.
	hs.keys("u")
	hs.contains("undo of write 1 · UpdateItem", `~ status: S "SHIPPED" → S "SHIPPD"`)
	hs.keys("y")
	hs.contains("written: 1 WCU consumed (predicted 1) · journal entry 2")
	if status() != "SHIPPD" {
		t.Fatalf("status %q after the undo", status())
	}
	hs.keys("esc")

	// A second writer between our read and our write: refused, shown
	// beside our version, and their value stays.
	hs.keys("E", "j", "j", "enter", "ctrl+u")
	hs.typeText("SHIPPED")
	hs.keys("enter", "w")
	setStatus("CANCELLED")
	hs.keys("y")
	hs.contains("Write · refused: nothing was written", "the item was changed by someone else", `S "CANCELLED"`, `S "SHIPPED"`)
	if status() != "CANCELLED" {
		t.Fatalf("the other writer's change was overwritten: %q", status())
	}
	// r: the way forward; both changed status, so nothing is sent.
	hs.keys("r")
	hs.contains("nothing to send", "theirs (kept)")
	hs.keys("esc", "esc")

	// Bad typed input: one sentence, the form stays, nothing is sent.
	writes := len(p.Writes())
	hs.keys("E", "a")
	hs.typeText("qty")
	hs.keys("tab", "ctrl+u")
	hs.typeText("N")
	hs.keys("tab")
	hs.typeText("12x")
	hs.keys("enter")
	hs.contains(`qty: "12x" is not a DynamoDB number`)
	hs.keys("esc", "a")
	hs.typeText("tags")
	hs.keys("tab", "ctrl+u")
	hs.typeText("SS")
	hs.keys("tab")
	hs.typeText(`["a","a"]`)
	hs.keys("enter")
	hs.contains(`tags: the SS has "a" twice`)
	// A good one, and a removal: one UpdateItem with SET and REMOVE.
	hs.keys("ctrl+u")
	hs.typeText(`["a","b"]`)
	hs.keys("enter", "up", "up", "x", "w")
	hs.contains(`+ tags: SS ["a","b"]`, "- status:")
	if len(p.Writes()) != writes {
		t.Fatal("bad input sent a write")
	}
	hs.keys("y")
	hs.contains("written: 1 WCU consumed (predicted 1)")
	if it := get(); it["status"] != nil || it["tags"] == nil {
		t.Errorf("after SET tags, REMOVE status: %v", edit.ItemText(it))
	}
	hs.keys("esc")

	// Duplicate under a new key (a put that must find the key free), then
	// change that copy's key (one transaction), then delete it.
	hs.keys("d", "j", "enter", "ctrl+u")
	hs.typeText("ORDER#2025-03-02#A18")
	hs.keys("enter", "w")
	hs.contains("PutItem on "+table, "attribute_not_exists (PK)")
	hs.keys("y")
	hs.contains("written: 1 WCU consumed (predicted 1)")
	hs.keys("esc") // the cursor is on the copy
	hs.contains("▌ ORDER#2025-03-02#A18")
	hs.keys("E", "j", "enter", "ctrl+u")
	hs.typeText("ORDER#2025-03-03#A18")
	hs.keys("enter", "w")
	hs.contains("TransactWriteItems on "+table, "predicted: 4 WCU")
	hs.keys("y")
	hs.contains("written: 4 WCU consumed (predicted 4)")
	hs.keys("esc")
	hs.contains("ORDER#2025-03-03#A18")
	hs.lacks("▌ ORDER#2025-03-02#A18")
	hs.keys("D")
	hs.contains("DeleteItem on "+table, "- total: N 35")
	hs.keys("y")
	hs.contains("written: 1 WCU consumed (predicted 1)")
	hs.keys("esc")
	hs.lacks("▌ ORDER#2025-03-03#A18")

	// A new item of the ORDER entity type, from its attributes.
	hs.keys("shift+tab", "j", "N")
	hs.contains("New item · ORDER#", "tags  SS", "total N")
	hs.keys("j", "enter")
	hs.typeText("2025-04-01#A20")
	hs.keys("enter", "j", "j", "enter") // tags stays empty: not part of the item
	hs.typeText("12")
	hs.keys("enter", "w")
	hs.contains("PutItem on "+table, "+ SK: S \"ORDER#2025-04-01#A20\"", "+ total: N 12")
	hs.keys("y")
	hs.contains("written: 1 WCU consumed (predicted 1)")
	hs.keys("esc")

	// The log keeps the writes apart: their own lines, their WCU apart.
	hs.keys("L")
	hs.contains(" WRITE ", "8 writes, ≥ 10 WCU") // the refused one among them: its units unknown
	// The undo is marked as one, the refused write says it was refused.
	hs.contains(" UNDO ", "refused: the item had changed")
	hs.keys("esc")

	ops := map[string]int{}
	for _, c := range p.Writes() {
		ops[c.Op]++
	}
	if ops["UpdateItem"] != 4 || ops["PutItem"] != 2 || ops["TransactWriteItems"] != 1 || ops["DeleteItem"] != 1 {
		t.Errorf("writes sent: %v", ops)
	}
	entries, _, _ := j.Read()
	refused := 0
	for _, e := range entries {
		if e.State == edit.StateRefused {
			refused++
		}
	}
	// Each write is journalled before it is sent: the refused one too,
	// marked refused.
	if len(entries) != 8 || refused != 1 {
		t.Errorf("the journal holds %d entries, %d refused; want 8, 1 refused", len(entries), refused)
	}
	for _, a := range editingActions {
		if !hs.actions[a] {
			t.Errorf("the flow never takes the action %s", a)
		}
	}
	if !slices.Contains(keymapActions(), "WriteItem") {
		t.Error("keymapActions does not list the editing actions")
	}
}
