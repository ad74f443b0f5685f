package overlay

import (
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"dynascope/dynamo"
	"dynascope/edit"
)

// A change is typed as the command line takes it; a mistake is a
// sentence that says what is taken.
func TestParseBulkChange(t *testing.T) {
	for _, c := range []struct {
		in   string
		want edit.BulkChange
		err  string
	}{
		{"set status=S:SHIPPED", edit.BulkChange{Sets: []edit.Assignment{{Name: "status", Value: s("SHIPPED")}}}, ""},
		{"  default total=N:0 ", edit.BulkChange{Defaults: []edit.Assignment{{Name: "total", Value: n("0")}}}, ""},
		{"remove notes, tags", edit.BulkChange{Removals: []string{"notes", "tags"}}, ""},
		{"rename state=status", edit.BulkChange{Renames: []edit.Rename{{From: "state", To: "status"}}}, ""},
		{"delete", edit.BulkChange{Delete: true}, ""},
		{"delete now", edit.BulkChange{}, "delete takes nothing more"},
		{"rename a=a", edit.BulkChange{}, "two different names"},
		{"remove ", edit.BulkChange{}, "remove takes the attributes"},
		{"set status", edit.BulkChange{}, "NAME=TYPE:VALUE"},
		{"upsert x", edit.BulkChange{}, `"upsert" is not a change`},
	} {
		got, err := ParseBulkChange(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: error %v, want one saying %q", c.in, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%q: %v", c.in, err)
		case c.err == "" && !reflect.DeepEqual(got, c.want):
			t.Errorf("%q: %+v, want %+v", c.in, got, c.want)
		}
	}
}

// The overlay plans the change typed on the items it was given and shows
// the preview; y asks the root to send exactly those plans at the rate;
// esc in the preview goes back to the change, esc there closes, sending
// nothing. A change to a key attribute is refused in the form.
func TestBulkEditFlow(t *testing.T) {
	e := envFor()
	items := []dynamo.Item{
		{"PK": s("CUST#7"), "SK": s("ORDER#1"), "status": s("OPEN")},
		{"PK": s("CUST#7"), "SK": s("ORDER#2"), "status": s("OPEN")},
		{"PK": s("CUST#7"), "SK": s("ORDER#3"), "status": s("SHIPPED")},
	}
	var o Overlay = NewBulkEdit(items, 2, e.Table, 50)
	typeIn := func(text string) {
		for _, r := range text {
			o, _ = o.Update(e, keyPress(string(r)))
		}
	}
	typeIn("set SK=S:x")
	o, w := o.Update(e, keyPress("enter"))
	if w != nil || !strings.Contains(ansi.Strip(o.View(e, 120, 28)), "SK is a key attribute") {
		t.Fatalf("a key change: action %#v, view %s", w, ansi.Strip(o.View(e, 120, 28)))
	}
	o = NewBulkEdit(items, 2, e.Table, 50)
	typeIn("set status=S:SHIPPED")
	o, _ = o.Update(e, keyPress("enter"))
	view := ansi.Strip(o.View(e, 120, 28))
	for _, want := range []string{"3 marked items on App", "2 more marked, not in memory", "2 items to write · 1 already as wanted",
		"~ status on 2 items", "predicted: 2 WCU · under 1 s at 50 WCU/s", `"ORDER#1"`, "aws dynamodb"} {
		if !strings.Contains(view, want) {
			t.Errorf("the preview lacks %q:\n%s", want, view)
		}
	}
	o, w = o.Update(e, keyPress("y"))
	send, ok := w.(SendBulkChange)
	if !ok || len(send.Plans) != 2 || send.Rate != 50 || send.Plans[0].Old["SK"].(*types.AttributeValueMemberS).Value != "ORDER#1" {
		t.Fatalf("y asked for %#v", w)
	}
	if o.Mode(e) != modeBulkSending {
		t.Errorf("after y the mode is %s", o.Mode(e))
	}
	if _, w = o.Update(e, keyPress("esc")); w != (StopBulkChange{}) {
		t.Errorf("esc while sending asked for %#v", w)
	}
	// esc in a preview goes back to the change, esc there closes.
	o = NewBulkEdit(items, 0, e.Table, 50)
	typeIn("delete")
	o, _ = o.Update(e, keyPress("enter"))
	o, _ = o.Update(e, keyPress("esc"))
	if o.Mode(e) != modeBulkChoose {
		t.Fatalf("esc in the preview: mode %s", o.Mode(e))
	}
	_, w = o.Update(e, keyPress("esc"))
	sameWant(t, w, Then{Close{}, ShowInfo{Text: "no bulk change: nothing was sent"}})
}

// What a bulk change did, as the overlay shows it: the counts, an item
// refused because someone else changed it with that attribute as read ·
// now · yours, an item in doubt named as in doubt, one left unsent, and
// units unknown where an answer reported none.
func TestBulkEditSentView(t *testing.T) {
	e := envFor()
	var items []dynamo.Item
	for _, sk := range []string{"ORDER#1", "ORDER#2", "ORDER#3", "ORDER#4"} {
		items = append(items, dynamo.Item{"PK": s("CUST#7"), "SK": s(sk), "status": s("OPEN")})
	}
	o := NewBulkEdit(items, 0, e.Table, 50)
	plan, err := edit.PlanBulk(edit.BulkInput{Table: e.Table, Items: items, Change: edit.BulkChange{Sets: []edit.Assignment{{Name: "status", Value: s("SHIPPED")}}}})
	if err != nil || len(plan.Plans) != 4 {
		t.Fatalf("plan: %d plans, %v", len(plan.Plans), err)
	}
	o.plan, o.phase = plan, bulkSending
	o = o.Progress(BulkProgress{Done: 2, Total: 4, Written: 1, Refused: 1, Rate: 50})
	if v := ansi.Strip(o.View(e, 120, 28)); !strings.Contains(v, "2/4") || !strings.Contains(v, "written 1 · refused 1 · in doubt 0 · 50.0 WCU/s") {
		t.Errorf("progress:\n%s", v)
	}
	p := plan.Plans
	now := dynamo.Item{"PK": s("CUST#7"), "SK": s("ORDER#2"), "status": s("CANCELLED")}
	entry := &edit.Entry{Number: 7}
	res := edit.BulkResult{Entry: entry, WCU: 1, Unknown: 1, Items: []edit.BulkOutcome{
		{Plan: p[0], Sent: true, Result: edit.Result{Plan: p[0], State: edit.StateDone, WCU: 1}},
		{Plan: p[1], Sent: true, Result: edit.Result{Plan: p[1], State: edit.StateRefused}, Err: &edit.ConflictError{Plan: p[1], Current: now, NoWCU: true}},
		{Plan: p[2], Sent: true, Result: edit.Result{Plan: p[2], State: edit.StateInDoubt, NoWCU: true}, Err: &edit.InDoubtError{Plan: p[2], Cause: "no answer within the time-out"}},
		{Plan: p[3], Result: edit.Result{Plan: p[3], State: edit.StateFailed}},
	}}
	v := ansi.Strip(o.Sent(res, nil).View(e, 120, 28))
	for _, want := range []string{"written 1 of 4 · refused 1 · in doubt 1 · left 1", "at least 1 WCU consumed (1 answers reported none",
		"one journal entry: 7 · u takes it all back", "refused: someone else changed these", `SK = ORDER#2`,
		`status: S "OPEN" · S "CANCELLED" · S "SHIPPED"`, "in doubt: no answer came", "SK = ORDER#3", "1 left, not sent"} {
		if !strings.Contains(v, want) {
			t.Errorf("the outcome lacks %q:\n%s", want, v)
		}
	}
}
