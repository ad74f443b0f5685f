package edit_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
)

// inDoubtFixture is a fixture whose writer gives up after one second,
// through a proxy that can hold a write past that and deliver it later.
func inDoubtFixture(t *testing.T) (*fixture, *dynamotest.Proxy) {
	t.Helper()
	return inDoubtFixtureWaiting(t, time.Second)
}

// inDoubtFixtureWaiting is inDoubtFixture whose writer gives up after d:
// for tests whose held write is held for good, a time-out that a loaded
// machine's DynamoDB Local meets for the requests that are not held.
func inDoubtFixtureWaiting(t *testing.T, d time.Duration) (*fixture, *dynamotest.Proxy) {
	t.Helper()
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	f := newFixture(t, p.URL)
	w, err := edit.Open(f.ctx, dynamo.Options{Endpoint: p.URL, Region: "us-east-1", Timeout: d, MaxAttempts: 3}, true, f.journal)
	if err != nil {
		t.Fatal(err)
	}
	f.w = w
	return f, p
}

// entry is the journal's entry number n, as read back from the file.
func (f *fixture) entry(n int) edit.Entry {
	f.t.Helper()
	entries, _, err := f.journal.Read()
	if err != nil || n > len(entries) {
		f.t.Fatalf("the journal has %d entries (%v), want entry %d", len(entries), err, n)
	}
	return entries[n-1]
}

// The first point, for each write: the request is held by a slow
// link past the writer's time-out and delivered to DynamoDB Local after
// the writer gave up. The writer never says "nothing was written": the
// write is in doubt, journalled before it was sent; once it has landed,
// undo takes it back, conditional on the image it left, and the journal
// then shows it done.
func TestWriteInDoubtLandsLateAndIsUndone(t *testing.T) {
	for _, tc := range []struct {
		name string
		op   string
		ours func(read dynamo.Item) dynamo.Item // nil deletes; read nil: a put
		put  bool
	}{
		{name: "put", op: "PutItem", put: true, ours: func(dynamo.Item) dynamo.Item { return richItem("ORDER#late") }},
		{name: "update", op: "UpdateItem", ours: func(r dynamo.Item) dynamo.Item { r["status"] = s("SHIPPED"); return r }},
		{name: "delete", op: "DeleteItem"},
		{name: "key move", op: "TransactWriteItems", ours: func(r dynamo.Item) dynamo.Item { r["SK"] = s("ORDER#moved"); return r }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, p := inDoubtFixture(t)
			var read dynamo.Item
			if !tc.put {
				f.put(richItem("ORDER#late"))
				read = f.get("CUST#42", "ORDER#late")
			}
			var ours dynamo.Item
			if tc.ours != nil {
				ours = tc.ours(clone(read))
			}
			plan := f.plan(read, ours)
			late := dynamotest.DeliverLate(2 * time.Second)
			p.Inject(dynamotest.Rule{Op: tc.op, Count: 1, Fault: late})

			res, err := f.w.Apply(f.ctx, plan)
			var doubt *edit.InDoubtError
			if !errors.As(err, &doubt) || res.State != edit.StateInDoubt {
				t.Fatalf("a write with no answer: %s, %v; want it in doubt", res.State, err)
			}
			msg := err.Error()
			if strings.Contains(msg, "nothing was written") || !strings.Contains(msg, "no answer within the time-out: it may still be applied") ||
				!strings.Contains(msg, "'dynascope journal' shows it as entry 1") || !strings.Contains(msg, "'dynascope undo --entry 1' can take it back once it has landed") {
				t.Errorf("the sentence: %s", msg)
			}
			if len(msg) > 300 {
				t.Errorf("the sentence is %d characters", len(msg))
			}
			if !res.NoWCU {
				t.Errorf("a write with no answer has %v WCU, not unknown", res.WCU)
			}
			e := f.entry(1)
			if e.State != edit.StateInDoubt || e.Unanswered || e.WCU != nil || res.Entry == nil || res.Entry.Number != 1 {
				t.Fatalf("journal entry: %s (unanswered %v, %v WCU)", e.State, e.Unanswered, e.WCU)
			}
			if got, _ := e.NewItem(); !edit.SameItem(got, plan.New) {
				t.Errorf("the entry's image %s, want the one the write leaves %s", edit.ItemText(got), edit.ItemText(plan.New))
			}

			if !late.WaitLanded(10 * time.Second) {
				t.Fatal("the held write never reached DynamoDB Local")
			}
			if late.Status() != 200 {
				t.Fatalf("the late write was answered %d", late.Status())
			}
			atOld := f.get("CUST#42", "ORDER#late")
			switch tc.name {
			case "delete":
				if atOld != nil {
					t.Fatal("the late delete did not land")
				}
			case "key move":
				if atOld != nil || !edit.SameItem(f.get("CUST#42", "ORDER#moved"), ours) {
					t.Fatal("the late key move did not land")
				}
			default:
				if !edit.SameItem(atOld, ours) {
					t.Fatalf("after the late write: %s, want %s", edit.ItemText(atOld), edit.ItemText(ours))
				}
			}

			// Undo of the entry in doubt: it has landed, so it goes back.
			u, err := f.undo(f.entry(1))
			if err != nil {
				t.Fatalf("undo of the landed write: %v", err)
			}
			if back := f.get("CUST#42", "ORDER#late"); !edit.SameItem(back, read) || f.get("CUST#42", "ORDER#moved") != nil {
				t.Errorf("after the undo: %s, want %s", edit.ItemText(back), edit.ItemText(read))
			}
			first, undo := f.entry(1), f.entry(2)
			if first.State != edit.StateDone || !strings.Contains(first.Note, "landed: undo entry 2") || first.WCU != nil {
				t.Errorf("the write after its undo: %s %q %v", first.State, first.Note, first.WCU)
			}
			if undo.State != edit.StateDone || undo.Undoes != 1 || u.Entry.Number != 2 || !edit.Undone([]edit.Entry{first, undo})[1] {
				t.Errorf("the undo's entry: %+v", undo)
			}
		})
	}
}

// A write that got no answer and never lands (the link holds it for
// good): undo of its entry says so and changes nothing; the entry stays in
// doubt. The undo's own entry is refused, and nothing else was sent but
// the undo and its read.
func TestUndoOfAWriteThatNeverLanded(t *testing.T) {
	f, p := inDoubtFixtureWaiting(t, 4*time.Second)
	f.put(richItem("ORDER#lost"))
	read := f.get("CUST#42", "ORDER#lost")
	ours := clone(read)
	ours["status"] = s("SHIPPED")
	p.Inject(dynamotest.Rule{Op: "UpdateItem", Count: 1, Fault: dynamotest.Hang})
	if _, err := f.w.Apply(f.ctx, f.plan(read, ours)); !errors.As(err, new(*edit.InDoubtError)) {
		t.Fatalf("a write held for good: %v", err)
	}
	before := len(p.Calls())
	_, err := f.undo(f.entry(1))
	var nl *edit.NotLandedError
	if !errors.As(err, &nl) || !strings.HasPrefix(err.Error(), "nothing to undo: journal entry 1 has not landed") {
		t.Fatalf("undo of a write that never landed: %v", err)
	}
	if now := f.get("CUST#42", "ORDER#lost"); !edit.SameItem(now, read) {
		t.Errorf("the undo changed the item: %s", edit.ItemText(now))
	}
	if e := f.entry(1); e.State != edit.StateInDoubt {
		t.Errorf("the write that never landed is %s, want still in doubt", e.State)
	}
	if e := f.entry(2); e.State != edit.StateRefused || e.Undoes != 1 {
		t.Errorf("the undo's entry: %s", e.State)
	}
	if ops := p.Ops()[before:]; strings.Join(ops, " ") != "UpdateItem GetItem" {
		t.Errorf("requests of the undo: %v", ops)
	}
}

// Undo itself can get no answer: its entry is in doubt, and when it lands
// the item is back as it was.
func TestUndoInDoubt(t *testing.T) {
	f, p := inDoubtFixture(t)
	f.put(richItem("ORDER#u"))
	read := f.get("CUST#42", "ORDER#u")
	ours := clone(read)
	ours["status"] = s("SHIPPED")
	if _, err := f.w.Apply(f.ctx, f.plan(read, ours)); err != nil {
		t.Fatal(err)
	}
	late := dynamotest.DeliverLate(2 * time.Second)
	p.Inject(dynamotest.Rule{Op: "UpdateItem", Count: 1, Fault: late})
	_, err := f.undo(f.entry(1))
	if !errors.As(err, new(*edit.InDoubtError)) || !strings.Contains(err.Error(), "entry 2") {
		t.Fatalf("an undo with no answer: %v", err)
	}
	if e := f.entry(2); e.State != edit.StateInDoubt || e.Undoes != 1 || edit.Undone([]edit.Entry{f.entry(1), e})[1] {
		t.Errorf("the undo in doubt: %s; the write must not count as undone yet", e.State)
	}
	if !late.WaitLanded(10*time.Second) || !edit.SameItem(f.get("CUST#42", "ORDER#u"), read) {
		t.Errorf("the late undo: landed %v, item %s", late.Status(), edit.ItemText(f.get("CUST#42", "ORDER#u")))
	}
}

// A write DynamoDB answered with an error, or one that never left (the
// endpoint refuses connections), was not applied: failed, not in doubt.
func TestWriteFailedIsNotInDoubt(t *testing.T) {
	f, p := inDoubtFixture(t)
	f.put(richItem("ORDER#f"))
	read := f.get("CUST#42", "ORDER#f")
	ours := clone(read)
	ours["status"] = s("SHIPPED")
	p.Inject(dynamotest.Rule{Op: "UpdateItem", Fault: dynamotest.AccessDenied})
	res, err := f.w.Apply(f.ctx, f.plan(read, ours))
	if err == nil || res.State != edit.StateFailed || errors.As(err, new(*edit.InDoubtError)) || f.entry(1).State != edit.StateFailed {
		t.Errorf("an access-denied write: %s, %v", res.State, err)
	}
	j, _ := edit.OpenJournal(filepath.Join(t.TempDir(), "j.jsonl"))
	w, err := edit.Open(f.ctx, dynamo.Options{Endpoint: "http://127.0.0.1:1", Region: "us-east-1", Timeout: time.Second, MaxAttempts: 2}, true, j)
	if err != nil {
		t.Fatal(err)
	}
	res, err = w.Apply(f.ctx, f.plan(read, ours))
	entries, _, _ := j.Read()
	if err == nil || res.State != edit.StateFailed || len(entries) != 1 || entries[0].State != edit.StateFailed {
		t.Errorf("a write to an endpoint that refuses connections: %s, %v", res.State, err)
	}
	// A server error may come after the write was applied: in doubt.
	p.ClearFaults()
	p.Inject(dynamotest.Rule{Op: "UpdateItem", Fault: dynamotest.InternalError})
	if res, err = f.w.Apply(f.ctx, f.plan(read, ours)); res.State != edit.StateInDoubt || !strings.Contains(err.Error(), "server error (InternalServerError)") {
		t.Errorf("a write answered 500: %s, %v", res.State, err)
	}
}

// A success answer that is not DynamoDB's to the write — the answer to
// another write, replayed by a cache that ignores what was asked, or one
// without the item's image (ReturnValues), which DynamoDB always sends
// for an update or a delete — leaves the write in doubt, never done.
// Before, an UpdateItem answered with another request's answer was said
// written while the item was unchanged (the UI's fault corpus, replay).
func TestWriteAnsweredWithAnotherAnswerIsInDoubt(t *testing.T) {
	f, p := inDoubtFixture(t)
	for _, sk := range []string{"ORDER#a", "ORDER#b", "ORDER#c"} {
		f.put(richItem(sk))
	}
	shipped := func(sk string) *edit.Plan {
		read := f.get("CUST#42", sk)
		ours := clone(read)
		ours["status"] = s("SHIPPED")
		return f.plan(read, ours)
	}
	replay := dynamotest.Replay()
	p.Inject(dynamotest.Rule{Op: "UpdateItem", Fault: replay})
	if res, err := f.w.Apply(f.ctx, shipped("ORDER#a")); err != nil || res.State != edit.StateDone {
		t.Fatalf("the first write, forwarded: %s, %v", res.State, err)
	}
	res, err := f.w.Apply(f.ctx, shipped("ORDER#b"))
	var doubt *edit.InDoubtError
	if !errors.As(err, &doubt) || res.State != edit.StateInDoubt || !strings.Contains(err.Error(), "not DynamoDB's to this write") {
		t.Errorf("a write answered with another write's answer: %s, %v", res.State, err)
	}
	if got := f.get("CUST#42", "ORDER#b")["status"]; !edit.Equal(got, s("OPEN")) {
		t.Fatalf("the replayed answer's write reached the table: %v", got)
	}
	// Forwarded, answered {}: it landed, and reading the item again says so.
	p.ClearFaults()
	p.Inject(dynamotest.Rule{Op: "UpdateItem", Fault: dynamotest.EmptyObject200})
	res, err = f.w.Apply(f.ctx, shipped("ORDER#c"))
	if err != nil || res.State != edit.StateDone || !strings.Contains(res.Note, "the write landed") {
		t.Errorf("a write answered {}: %s, %v, %q", res.State, err, res.Note)
	}
}
