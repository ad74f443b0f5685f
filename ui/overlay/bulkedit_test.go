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
		"~ status on 2 items", "predicted: 2 WCU · about 40ms at 50 WCU/s", `"ORDER#1"`, "aws dynamodb"} {
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
