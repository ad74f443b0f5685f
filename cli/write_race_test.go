package cli

import (
	"maps"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
)

func sv(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func nv(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// The races, on the command line: a second writer changes the item
// after dynascope read it and before its write reaches DynamoDB Local (the
// proxy holds the write while they do). Each case ends with the other
// writer's change intact: refused with a non-zero exit and nothing
// written, or written around it; and undo after it takes back only
// dynascope's own change, if any.
func TestWritesAgainstASecondWriter(t *testing.T) {
	sdk := dynamotest.SDK(t)
	table := dynamotest.Table(t, sdk, dynamotest.PKSK())
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	read := func(sk string) dynamo.Item { // the item as dynascope reads it: no status
		return dynamo.Item{"PK": sv("CUST#42"), "SK": sv(sk), "total": nv("20"), "note": sv("gift")}
	}
	for i, tc := range []struct {
		name    string
		absent  bool     // the item does not exist when read (a put)
		args    []string // after --sk
		other   func(o dynamotest.OtherWriter) error
		refused bool
		ours    func(it dynamo.Item) // what a write that goes through adds to theirs
	}{
		{name: "the attribute being added was added", args: []string{"update", "--set", "status=S:SHIPPED"},
			other: func(o dynamotest.OtherWriter) error { return o.Set("status", sv("CANCELLED")) }, refused: true},
		{name: "the attribute being changed was changed", args: []string{"update", "--set", "total=N:25"},
			other: func(o dynamotest.OtherWriter) error { return o.Set("total", nv("30")) }, refused: true},
		{name: "the attribute being removed was changed", args: []string{"update", "--remove", "note"},
			other: func(o dynamotest.OtherWriter) error { return o.Set("note", sv("urgent")) }, refused: true},
		{name: "the item was deleted", args: []string{"update", "--set", "status=S:SHIPPED"},
			other: func(o dynamotest.OtherWriter) error { return o.Delete() }, refused: true},
		{name: "the item was replaced", args: []string{"update", "--set", "status=S:SHIPPED"},
			other: func(o dynamotest.OtherWriter) error {
				return o.Put(dynamo.Item{"PK": o.Key["PK"], "SK": o.Key["SK"], "total": nv("20"), "status": sv("NEW")})
			}, refused: true},
		{name: "an unrelated attribute was added", args: []string{"update", "--set", "status=S:SHIPPED"},
			other: func(o dynamotest.OtherWriter) error { return o.Set("flag", sv("theirs")) },
			ours:  func(it dynamo.Item) { it["status"] = sv("SHIPPED") }},
		{name: "delete: an attribute read was changed", args: []string{"delete"},
			other: func(o dynamotest.OtherWriter) error { return o.Set("total", nv("30")) }, refused: true},
		{name: "put: the key was taken", absent: true, args: []string{"put", "--set", "total=N:12"},
			other: func(o dynamotest.OtherWriter) error {
				return o.Put(dynamo.Item{"PK": o.Key["PK"], "SK": o.Key["SK"], "total": nv("99")})
			}, refused: true},
		{name: "key change: an attribute read was changed", args: []string{"update", "--set", "SK=S:ORDER#moved"},
			other: func(o dynamotest.OtherWriter) error { return o.Set("note", sv("urgent")) }, refused: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_STATE_HOME", t.TempDir()) // a journal of the case's own
			sk := "ORDER#2025-01-09#A" + string(rune('A'+i))
			o := dynamotest.OtherWriter{SDK: sdk, Table: table, Key: dynamo.Item{"PK": sv("CUST#42"), "SK": sv(sk)}}
			if !tc.absent {
				if err := o.Put(read(sk)); err != nil {
					t.Fatal(err)
				}
			}
			var theirs dynamo.Item
			sw := p.BeforeNextWrite(t, func() error {
				err := tc.other(o)
				theirs = o.Get(t)
				return err
			})
			args := append([]string{tc.args[0], "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#42", "--sk", sk, "--allow-writes"}, tc.args[1:]...)
			out, _, err := cli(t, args...)
			if !sw.Ran() {
				t.Fatalf("the second writer did not run before the write: %v\n%s", err, out)
			}
			want := maps.Clone(theirs)
			if tc.refused {
				if err == nil || !strings.HasPrefix(err.Error(), "nothing was written") || !strings.Contains(out, "refused:") {
					t.Fatalf("not refused: %v\n%s", err, out)
				}
				// Three columns, as read · now · yours, in 120 columns (after
				// the line naming the table and key, which are the user's).
				for _, l := range strings.Split(out, "\n")[1:] {
					if w := ansi.StringWidth(l); w > 120 && !strings.HasPrefix(l, "  condition: ") { // the request's own text
						t.Errorf("a line of %d columns: %s", w, l)
					}
				}
				if !strings.Contains(out, "attribute  as read") {
					t.Errorf("no table of the attributes that differ:\n%s", out)
				}
			} else {
				if err != nil {
					t.Fatalf("%v\n%s", err, out)
				}
				tc.ours(want)
			}
			if got := o.Get(t); !edit.SameItem(got, want) {
				t.Fatalf("after the write: %s, want %s (the other writer left %s)", edit.ItemText(got), edit.ItemText(want), edit.ItemText(theirs))
			}
			if got := o.Get(t); strings.Contains(tc.args[len(tc.args)-1], "moved") {
				if o.At(dynamo.Item{"PK": sv("CUST#42"), "SK": sv("ORDER#moved")}).Get(t) != nil {
					t.Fatalf("the refused key change wrote its new item; old item %s", edit.ItemText(got))
				}
			}

			// Undo: only dynascope's own change goes; a refused write left
			// nothing to undo.
			out, _, err = cli(t, "undo", "--endpoint-url", p.URL, "--table", table, "--allow-writes")
			if tc.refused != (err != nil) {
				t.Fatalf("undo: %v\n%s", err, out)
			}
			if got := o.Get(t); !edit.SameItem(got, theirs) {
				t.Errorf("after the undo: %s, want the other writer's %s", edit.ItemText(got), edit.ItemText(theirs))
			}
		})
	}
}
