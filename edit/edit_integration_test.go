package edit_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
)

var pksk = dynamo.Table{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// fixture is a table, a raw SDK client playing the other writer, and a
// Writer journalling to a file of the test's own.
type fixture struct {
	t       *testing.T
	sdk     *dynamodb.Client
	table   string
	keys    dynamo.Table
	w       *edit.Writer
	journal *edit.Journal
	ctx     context.Context
}

func newFixture(t *testing.T, endpoint string) *fixture {
	t.Helper()
	sdk := dynamotest.SDK(t)
	table := dynamotest.Table(t, sdk, dynamotest.PKSK())
	if endpoint == "" {
		endpoint = dynamotest.Endpoint(t)
	}
	j, err := edit.OpenJournal(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := edit.Open(context.Background(), dynamo.Options{Endpoint: endpoint, Region: "us-east-1", Timeout: 5 * time.Second, MaxAttempts: 3}, true, j)
	if err != nil {
		t.Fatal(err)
	}
	keys := pksk
	keys.Name = table
	return &fixture{t: t, sdk: sdk, table: table, keys: keys, w: w, journal: j, ctx: context.Background()}
}

// put writes an item as the other writer, unconditionally.
func (f *fixture) put(it dynamo.Item) {
	f.t.Helper()
	if _, err := f.sdk.PutItem(f.ctx, &dynamodb.PutItemInput{TableName: aws.String(f.table), Item: it}); err != nil {
		f.t.Fatal(err)
	}
}

// get reads an item, strongly consistent; nil when there is none.
func (f *fixture) get(pk, sk string) dynamo.Item {
	f.t.Helper()
	out, err := f.sdk.GetItem(f.ctx, &dynamodb.GetItemInput{TableName: aws.String(f.table), Key: dynamo.Item{"PK": s(pk), "SK": s(sk)}, ConsistentRead: aws.Bool(true)})
	if err != nil {
		f.t.Fatal(err)
	}
	if len(out.Item) == 0 {
		return nil
	}
	return out.Item
}

// undo sends the undo of a journal entry.
func (f *fixture) undo(e edit.Entry) (edit.Result, error) {
	f.t.Helper()
	p, err := edit.UndoPlan(e, f.keys)
	if err != nil {
		f.t.Fatal(err)
	}
	return f.w.Undo(f.ctx, p, e)
}

func (f *fixture) plan(old, new dynamo.Item) *edit.Plan {
	f.t.Helper()
	p, err := edit.NewPlan(edit.Change{Table: f.table, Keys: f.keys, Old: old, New: new})
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

func clone(it dynamo.Item) dynamo.Item {
	out := dynamo.Item{}
	for k, v := range it {
		out[k] = v
	}
	return out
}

// richItem holds every type, so the condition over the read image is
// tried on each.
func richItem(sk string) dynamo.Item {
	return dynamo.Item{
		"PK": s("CUST#42"), "SK": s(sk), "status": s("OPEN"), "total": n("35.50"),
		"paid": &types.AttributeValueMemberBOOL{Value: false}, "note": &types.AttributeValueMemberNULL{Value: true},
		"blob": &types.AttributeValueMemberB{Value: []byte{0, 1, 2}},
		"tags": &types.AttributeValueMemberSS{Value: []string{"b", "a"}}, "nums": &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
		"bins":  &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}},
		"lines": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("x"), n("1")}},
		"addr":  &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"city": s("Oslo"), "zip": n("150")}},
		"a.b":   s("a name with a dot"),
	}
}

func TestUpdateDeletePutOnEveryType(t *testing.T) {
	f := newFixture(t, "")
	f.put(richItem("ORDER#1"))
	read := f.get("CUST#42", "ORDER#1")

	// Update: one attribute changed, one added, one removed.
	want := clone(read)
	want["status"] = s("SHIPPED")
	want["shippedOn"] = s("2025-03-02")
	delete(want, "note")
	p := f.plan(read, want)
	if p.Op != edit.OpUpdate || p.PredictedWCU != 1 {
		t.Fatalf("plan %s, %v WCU", p.Op, p.PredictedWCU)
	}
	res, err := f.w.Apply(f.ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.get("CUST#42", "ORDER#1"); !edit.SameItem(got, want) {
		t.Errorf("after the update: %s, want %s", edit.ItemText(got), edit.ItemText(want))
	}
	if res.WCU != p.PredictedWCU || res.Entry == nil || !edit.SameItem(res.New, want) {
		t.Errorf("WCU %v predicted %v; entry %v; new %s", res.WCU, p.PredictedWCU, res.Entry, edit.ItemText(res.New))
	}
	if len(res.Requests) != 1 || res.Requests[0].Operation != "UpdateItem" || res.Requests[0].Capacity.Total != 1 || res.Requests[0].Note != "write" {
		t.Errorf("requests %+v", res.Requests)
	}

	// Delete, on the item as the update left it.
	read = f.get("CUST#42", "ORDER#1")
	p = f.plan(read, nil)
	if res, err = f.w.Apply(f.ctx, p); err != nil {
		t.Fatal(err)
	}
	if f.get("CUST#42", "ORDER#1") != nil || res.WCU != 1 || !edit.SameItem(res.Old, read) {
		t.Errorf("the delete left the item, or WCU %v, or old %s", res.WCU, edit.ItemText(res.Old))
	}

	// Put a new item; a second put of the same key finds it there.
	item := richItem("ORDER#2")
	if res, err = f.w.Apply(f.ctx, f.plan(nil, item)); err != nil || res.WCU != 1 {
		t.Fatalf("put: %v, %v WCU", err, res.WCU)
	}
	if !edit.SameItem(f.get("CUST#42", "ORDER#2"), item) {
		t.Error("the put did not write the item")
	}
	other := clone(item)
	other["status"] = s("MINE")
	_, err = f.w.Apply(f.ctx, f.plan(nil, other))
	var ce *edit.ConflictError
	if !errors.As(err, &ce) || !edit.SameItem(ce.Current, item) {
		t.Fatalf("a put over an existing item: %v", err)
	}
	if !edit.SameItem(f.get("CUST#42", "ORDER#2"), item) {
		t.Error("a refused put changed the item")
	}
	entries, bad, err := f.journal.Read()
	// Every write is journalled before it is sent, the refused one too,
	// each marked with what came of it.
	if err != nil || len(bad) > 0 || len(entries) != 4 {
		t.Fatalf("journal: %d entries, %v, %v", len(entries), bad, err)
	}
	if entries[0].Operation != edit.OpUpdate || entries[1].Operation != edit.OpDelete || entries[2].Operation != edit.OpPut || entries[2].Number != 3 {
		t.Errorf("journal %+v", entries)
	}
	for i, want := range []edit.State{edit.StateDone, edit.StateDone, edit.StateDone, edit.StateRefused} {
		if e := entries[i]; e.State != want || e.Unanswered || e.Items[0].Condition == "" {
			t.Errorf("entry %d: %s (unanswered %v, condition %q), want %s", e.Number, e.State, e.Unanswered, e.Items[0].Condition, want)
		}
	}
	if e := entries[3]; e.WCU != nil {
		t.Errorf("the refused put's units: %v; DynamoDB Local reports none, so unknown", *e.WCU)
	}
}

// The other writer changes the item between our read and our write: the
// write is refused, nothing of ours is written, and the item now is
// returned for the diff.
func TestConcurrentChangeIsDetected(t *testing.T) {
	f := newFixture(t, "")
	for _, tc := range []struct {
		name  string
		other func(read dynamo.Item) dynamo.Item // the other writer's version; nil deletes
		ours  func(read dynamo.Item) dynamo.Item // nil deletes
	}{
		{"changed value, our update", func(r dynamo.Item) dynamo.Item { r["total"] = n("99"); return r }, func(r dynamo.Item) dynamo.Item { r["status"] = s("SHIPPED"); return r }},
		{"the attribute we add, added meanwhile", func(r dynamo.Item) dynamo.Item { r["shippedBy"] = s("them"); return r }, func(r dynamo.Item) dynamo.Item { r["shippedBy"] = s("us"); return r }},
		{"same attribute", func(r dynamo.Item) dynamo.Item { r["status"] = s("CANCELLED"); return r }, func(r dynamo.Item) dynamo.Item { r["status"] = s("SHIPPED"); return r }},
		{"removed attribute", func(r dynamo.Item) dynamo.Item { delete(r, "tags"); return r }, func(r dynamo.Item) dynamo.Item { r["status"] = s("SHIPPED"); return r }},
		{"map member", func(r dynamo.Item) dynamo.Item {
			r["addr"] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"city": s("Bergen"), "zip": n("150")}}
			return r
		}, func(r dynamo.Item) dynamo.Item { r["status"] = s("SHIPPED"); return r }},
		{"deleted, our update", nil, func(r dynamo.Item) dynamo.Item { r["status"] = s("SHIPPED"); return r }},
		{"changed, our delete", func(r dynamo.Item) dynamo.Item { r["status"] = s("CANCELLED"); return r }, nil},
		{"changed, our key change", func(r dynamo.Item) dynamo.Item { r["status"] = s("CANCELLED"); return r }, func(r dynamo.Item) dynamo.Item { r["SK"] = s("ORDER#moved"); return r }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sk := "ORDER#" + strings.ReplaceAll(tc.name, " ", "-")
			f.put(richItem(sk))
			read := f.get("CUST#42", sk)
			var ours dynamo.Item
			if tc.ours != nil {
				ours = tc.ours(clone(read))
			}
			p := f.plan(read, ours)
			var theirs dynamo.Item
			if tc.other != nil {
				theirs = tc.other(clone(read))
				f.put(theirs)
			} else if _, err := f.sdk.DeleteItem(f.ctx, &dynamodb.DeleteItemInput{TableName: aws.String(f.table), Key: edit.KeyOf(f.keys, read)}); err != nil {
				t.Fatal(err)
			}
			res, err := f.w.Apply(f.ctx, p)
			var ce *edit.ConflictError
			if !errors.As(err, &ce) {
				t.Fatalf("the write went through: %v", err)
			}
			if ops := len(res.Requests); ops < 2 || res.Requests[ops-1].Operation != "GetItem" || !res.Requests[ops-1].Consistent {
				t.Fatalf("requests %+v", res.Requests)
			}
			// The read again is logged with its cost and what it found
			// (a key change reads the new key last: nothing there).
			found := int32(0)
			if theirs != nil {
				found = 1
			}
			reads := res.Requests[len(res.Requests)-1:]
			if p.Op == edit.OpTransact {
				reads = res.Requests[len(res.Requests)-2:]
			}
			for i, r := range reads {
				if i > 0 {
					found = 0
				}
				if r.Count != found || r.ScannedCount != found || r.Capacity.Total <= 0 {
					t.Errorf("the read again of %s: %d items (%d scanned), %v RCU; want %d items and its cost", r.KeyCondition, r.Count, r.ScannedCount, r.Capacity.Total, found)
				}
			}
			if got := f.get("CUST#42", sk); !edit.SameItem(got, theirs) || !edit.SameItem(ce.Current, theirs) {
				t.Errorf("now %s, conflict shows %s, the other writer left %s", edit.ItemText(got), edit.ItemText(ce.Current), edit.ItemText(theirs))
			}
			if f.get("CUST#42", "ORDER#moved") != nil {
				t.Error("the key change wrote its new item")
			}
			if len(ce.Diff()) == 0 || !strings.HasPrefix(err.Error(), "nothing was written") {
				t.Errorf("diff %v, %q", ce.Diff(), err)
			}
		})
	}
}

// An attribute the other writer adds is not in our read image, so the
// condition cannot see it; an update touches only what it changes, so the
// addition survives: still no lost update.
func TestUpdateKeepsAnAttributeAddedMeanwhile(t *testing.T) {
	f := newFixture(t, "")
	f.put(richItem("ORDER#1"))
	read := f.get("CUST#42", "ORDER#1")
	ours := clone(read)
	ours["status"] = s("SHIPPED")
	p := f.plan(read, ours)
	theirs := clone(read)
	theirs["flag"] = s("theirs")
	f.put(theirs)
	res, err := f.w.Apply(f.ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	got := f.get("CUST#42", "ORDER#1")
	if !edit.Equal(got["flag"], s("theirs")) || !edit.Equal(got["status"], s("SHIPPED")) {
		t.Errorf("now %s", edit.ItemText(got))
	}
	// The result is the item DynamoDB found and left (ALL_NEW), with the
	// other writer's attribute, not the image planned.
	if !edit.SameItem(res.New, got) || !edit.Equal(res.Old["flag"], s("theirs")) || !edit.Equal(res.Old["status"], s("OPEN")) {
		t.Errorf("result: old %s, new %s", edit.ItemText(res.Old), edit.ItemText(res.New))
	}
	// A delete's result is the item it removed (ALL_OLD): what the other
	// writer added went with it (the plan says it cannot see that).
	theirs = clone(got)
	theirs["late"] = s("theirs")
	p = f.plan(got, nil)
	f.put(theirs)
	if res, err = f.w.Apply(f.ctx, p); err != nil {
		t.Fatal(err)
	}
	if !edit.SameItem(res.Old, theirs) || res.New != nil {
		t.Errorf("delete result: old %s, new %s", edit.ItemText(res.Old), edit.ItemText(res.New))
	}
}

func TestKeyChangeIsOneTransaction(t *testing.T) {
	f := newFixture(t, "")
	f.put(richItem("ORDER#old"))
	read := f.get("CUST#42", "ORDER#old")
	moved := clone(read)
	moved["SK"] = s("ORDER#new")
	p := f.plan(read, moved)
	if p.Op != edit.OpTransact || p.PredictedWCU != 4 {
		t.Fatalf("plan %s, %v WCU", p.Op, p.PredictedWCU)
	}
	res, err := f.w.Apply(f.ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if f.get("CUST#42", "ORDER#old") != nil || !edit.SameItem(f.get("CUST#42", "ORDER#new"), moved) {
		t.Error("the key change did not move the item")
	}
	if res.WCU != p.PredictedWCU {
		t.Errorf("WCU %v, predicted %v", res.WCU, p.PredictedWCU)
	}
	// Undo moves it back.
	if _, err := f.undo(*res.Entry); err != nil {
		t.Fatal(err)
	}
	if !edit.SameItem(f.get("CUST#42", "ORDER#old"), read) || f.get("CUST#42", "ORDER#new") != nil {
		t.Error("undo did not move the item back")
	}

	// A key change onto an existing item is refused whole.
	f.put(dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#taken")})
	taken := clone(read)
	taken["SK"] = s("ORDER#taken")
	_, err = f.w.Apply(f.ctx, f.plan(read, taken))
	var ce *edit.ConflictError
	if !errors.As(err, &ce) || ce.AtNewKey == nil || !strings.Contains(err.Error(), "new key already exists") {
		t.Fatalf("onto an existing key: %v", err)
	}
	if !edit.SameItem(f.get("CUST#42", "ORDER#old"), read) || len(f.get("CUST#42", "ORDER#taken")) != 2 {
		t.Error("a refused key change wrote something")
	}
}

// The connection breaks at the transaction, in each way the fault proxy
// knows: before it reaches DynamoDB, or after, with the answer lost. The
// result is both writes or neither, never one.
func TestKeyChangeIsAtomicWhenTheConnectionBreaks(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	for _, fault := range []dynamotest.Fault{dynamotest.Drop, dynamotest.Reset, dynamotest.Truncate, dynamotest.Hang} {
		for _, count := range []int{1, 0} { // once (a retry gets through), and for good
			t.Run(fault.String()+map[int]string{1: " once", 0: " always"}[count], func(t *testing.T) {
				p := dynamotest.StartProxy(t, ep)
				f := newFixture(t, p.URL)
				f.put(richItem("ORDER#old"))
				read := f.get("CUST#42", "ORDER#old")
				moved := clone(read)
				moved["SK"] = s("ORDER#new")
				plan := f.plan(read, moved)
				p.Inject(dynamotest.Rule{Op: "TransactWriteItems", Count: count, Fault: fault})
				ctx, cancel := context.WithTimeout(f.ctx, 3*time.Second)
				defer cancel()
				_, err := f.w.Apply(ctx, plan)
				old, new := f.get("CUST#42", "ORDER#old"), f.get("CUST#42", "ORDER#new")
				switch {
				case old != nil && new != nil:
					t.Fatalf("both items exist (err %v)", err)
				case old == nil && new == nil:
					t.Fatalf("neither item exists (err %v)", err)
				case old != nil && !edit.SameItem(old, read), new != nil && !edit.SameItem(new, moved):
					t.Fatalf("an item changed: old %s new %s", edit.ItemText(old), edit.ItemText(new))
				}
				if err == nil && new == nil || count == 1 && err != nil && fault != dynamotest.Hang {
					t.Errorf("moved %v, err %v", new != nil, err)
				}
				if p.Count("TransactWriteItems") == 0 {
					t.Error("no transaction went through the proxy")
				}
			})
		}
	}
}

func TestUndoRefusesAfterALaterChange(t *testing.T) {
	f := newFixture(t, "")
	f.put(richItem("ORDER#1"))
	read := f.get("CUST#42", "ORDER#1")
	ours := clone(read)
	ours["status"] = s("SHIPPED")
	res, err := f.w.Apply(f.ctx, f.plan(read, ours))
	if err != nil {
		t.Fatal(err)
	}
	later := f.get("CUST#42", "ORDER#1")
	later["status"] = s("DELIVERED")
	f.put(later)
	_, err = f.undo(*res.Entry)
	var ue *edit.UndoConflictError
	if !errors.As(err, &ue) || !edit.SameItem(ue.Current, later) {
		t.Fatalf("undo after a later change: %v", err)
	}
	if !edit.SameItem(f.get("CUST#42", "ORDER#1"), later) {
		t.Error("the refused undo wrote")
	}
	// Put back as our write left it, the undo goes through.
	f.put(res.New)
	u, err := f.undo(*res.Entry)
	if err != nil {
		t.Fatal(err)
	}
	if !edit.SameItem(f.get("CUST#42", "ORDER#1"), read) || u.Entry.Undoes != res.Entry.Number {
		t.Errorf("after undo %s; entry %+v", edit.ItemText(f.get("CUST#42", "ORDER#1")), u.Entry)
	}
	entries, _, _ := f.journal.Read()
	if undone := edit.Undone(entries); !undone[res.Entry.Number] {
		t.Errorf("the journal does not show the write undone: %v", undone)
	}
}

func TestVersionAttribute(t *testing.T) {
	f := newFixture(t, "")
	it := richItem("ORDER#v")
	it["version"] = n("7")
	f.put(it)
	read := f.get("CUST#42", "ORDER#v")
	ours := clone(read)
	ours["status"] = s("SHIPPED")
	p, err := edit.NewPlan(edit.Change{Table: f.table, Keys: f.keys, Old: read, New: ours, Version: "version"})
	if err != nil {
		t.Fatal(err)
	}
	// The version, and the attribute the write sets; not the rest.
	if strings.Contains(p.Condition, "total") || !strings.Contains(p.Condition, "version = N 7") || !strings.Contains(p.Condition, `status = S "OPEN"`) {
		t.Errorf("condition %q", p.Condition)
	}
	res, err := f.w.Apply(f.ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.get("CUST#42", "ORDER#v"); !edit.Equal(got["version"], n("8")) {
		t.Errorf("version now %v", edit.ItemText(got))
	}
	// Another writer adds an attribute and bumps the version: the version
	// condition sees what the image condition could not.
	read = f.get("CUST#42", "ORDER#v")
	theirs := clone(read)
	theirs["flag"], theirs["version"] = s("x"), n("9")
	f.put(theirs)
	gone, _ := edit.NewPlan(edit.Change{Table: f.table, Keys: f.keys, Old: read, Version: "version"})
	var ce *edit.ConflictError
	if _, err := f.w.Apply(f.ctx, gone); !errors.As(err, &ce) {
		t.Fatalf("a delete on an old version: %v", err)
	}
	// Undo of the first write refuses too; versions only go up.
	if _, err := f.undo(*res.Entry); err == nil {
		t.Error("undo over a later version went through")
	}
}

func TestWritesOff(t *testing.T) {
	if _, err := edit.Open(context.Background(), dynamo.Options{Endpoint: "http://127.0.0.1:1", Region: "us-east-1"}, false, nil); !errors.Is(err, edit.ErrWritesOff) {
		t.Errorf("Open without allowWrites: %v", err)
	}
}

// Predicted units match what DynamoDB Local consumed, with a sparse GSI of
// all attributes and one of keys only: an index entry added, changed,
// moved and removed, an update that touches nothing an index holds, a key
// change and a delete.
func TestPredictedUnitsWithIndexes(t *testing.T) {
	sdk := dynamotest.SDK(t)
	def := dynamotest.PKSK()
	def.AttributeDefinitions = append(def.AttributeDefinitions,
		types.AttributeDefinition{AttributeName: aws.String("G1"), AttributeType: types.ScalarAttributeTypeS},
		types.AttributeDefinition{AttributeName: aws.String("G2"), AttributeType: types.ScalarAttributeTypeN})
	gsi := func(name, pk string, proj types.ProjectionType) types.GlobalSecondaryIndex {
		return types.GlobalSecondaryIndex{IndexName: aws.String(name), Projection: &types.Projection{ProjectionType: proj},
			KeySchema: []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}}}
	}
	def.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsi("ALLG", "G1", types.ProjectionTypeAll), gsi("KEYSG", "G2", types.ProjectionTypeKeysOnly)}
	table := dynamotest.Table(t, sdk, def)
	ctx := context.Background()
	client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: dynamotest.Endpoint(t), Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	keys, err := client.DescribeTable(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	w, err := edit.Open(ctx, dynamo.Options{Endpoint: dynamotest.Endpoint(t), Region: "us-east-1"}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	pad := s(strings.Repeat("x", 1500)) // the base item over 1 KB, the keys-only entry under
	steps := []dynamo.Item{
		{"PK": s("P"), "SK": s("A"), "pad": pad},                                          // put, in no index
		{"PK": s("P"), "SK": s("A"), "pad": pad, "G1": s("g")},                            // added to ALLG
		{"PK": s("P"), "SK": s("A"), "pad": pad, "G1": s("g"), "G2": n("1")},              // added to KEYSG
		{"PK": s("P"), "SK": s("A"), "pad": pad, "G1": s("g"), "G2": n("1"), "x": n("1")}, // ALLG changes, KEYSG not
		{"PK": s("P"), "SK": s("A"), "pad": pad, "G1": s("h"), "G2": n("2"), "x": n("1")}, // both keys move
		{"PK": s("P"), "SK": s("B"), "pad": pad, "G1": s("h"), "G2": n("2"), "x": n("1")}, // key change
		{"PK": s("P"), "SK": s("B"), "pad": pad, "x": n("1")},                             // out of both
		nil, // delete
	}
	var old dynamo.Item
	for i, next := range steps {
		p, err := edit.NewPlan(edit.Change{Table: table, Keys: keys, Old: old, New: next})
		if err != nil {
			t.Fatal(err)
		}
		res, err := w.Apply(ctx, p)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if res.WCU != p.PredictedWCU {
			t.Errorf("step %d %s: consumed %v WCU, predicted %v (table %v, indexes %v)", i, p.Op, res.WCU, p.PredictedWCU, p.TableWCU, p.IndexWCU)
		}
		old = next
	}
}
