package cli

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
)

// otherWriter is the colleague: raw SDK requests straight to DynamoDB
// Local, and the item as they left it, read back.
type otherWriter struct {
	t     *testing.T
	sdk   *dynamodb.Client
	table string
	key   dynamo.Item
}

func (o otherWriter) get() dynamo.Item {
	o.t.Helper()
	out, err := o.sdk.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(o.table), Key: o.key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		o.t.Fatal(err)
	}
	if len(out.Item) == 0 {
		return nil
	}
	return out.Item
}

func (o otherWriter) set(name string, v types.AttributeValue) error {
	_, err := o.sdk.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{TableName: aws.String(o.table), Key: o.key,
		UpdateExpression: aws.String("SET #n = :v"), ExpressionAttributeNames: map[string]string{"#n": name},
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": v}})
	return err
}

func (o otherWriter) put(it dynamo.Item) error {
	_, err := o.sdk.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(o.table), Item: it})
	return err
}

func (o otherWriter) delete() error {
	_, err := o.sdk.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{TableName: aws.String(o.table), Key: o.key})
	return err
}

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
		other   func(o otherWriter) error
		refused bool
		ours    func(it dynamo.Item) // what a write that goes through adds to theirs
	}{
		{name: "the attribute being added was added", args: []string{"update", "--set", "status=S:SHIPPED"},
			other: func(o otherWriter) error { return o.set("status", sv("CANCELLED")) }, refused: true},
		{name: "the attribute being changed was changed", args: []string{"update", "--set", "total=N:25"},
			other: func(o otherWriter) error { return o.set("total", nv("30")) }, refused: true},
		{name: "the attribute being removed was changed", args: []string{"update", "--remove", "note"},
			other: func(o otherWriter) error { return o.set("note", sv("urgent")) }, refused: true},
		{name: "the item was deleted", args: []string{"update", "--set", "status=S:SHIPPED"},
			other: func(o otherWriter) error { return o.delete() }, refused: true},
		{name: "the item was replaced", args: []string{"update", "--set", "status=S:SHIPPED"},
			other: func(o otherWriter) error {
				return o.put(dynamo.Item{"PK": o.key["PK"], "SK": o.key["SK"], "total": nv("20"), "status": sv("NEW")})
			}, refused: true},
		{name: "an unrelated attribute was added", args: []string{"update", "--set", "status=S:SHIPPED"},
			other: func(o otherWriter) error { return o.set("flag", sv("theirs")) },
			ours:  func(it dynamo.Item) { it["status"] = sv("SHIPPED") }},
		{name: "delete: an attribute read was changed", args: []string{"delete"},
			other: func(o otherWriter) error { return o.set("total", nv("30")) }, refused: true},
		{name: "put: the key was taken", absent: true, args: []string{"put", "--set", "total=N:12"},
			other: func(o otherWriter) error {
				return o.put(dynamo.Item{"PK": o.key["PK"], "SK": o.key["SK"], "total": nv("99")})
			}, refused: true},
		{name: "key change: an attribute read was changed", args: []string{"update", "--set", "SK=S:ORDER#moved"},
			other: func(o otherWriter) error { return o.set("note", sv("urgent")) }, refused: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_STATE_HOME", t.TempDir()) // a journal of the case's own
			sk := "ORDER#2025-01-09#A" + string(rune('A'+i))
			o := otherWriter{t: t, sdk: sdk, table: table, key: dynamo.Item{"PK": sv("CUST#42"), "SK": sv(sk)}}
			if !tc.absent {
				if err := o.put(read(sk)); err != nil {
					t.Fatal(err)
				}
			}
			var theirs dynamo.Item
			sw := p.BeforeNextWrite(t, func() error {
				err := tc.other(o)
				theirs = o.get()
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
					if w := ansi.StringWidth(l); w > 120 {
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
			if got := o.get(); !edit.SameItem(got, want) {
				t.Fatalf("after the write: %s, want %s (the other writer left %s)", edit.ItemText(got), edit.ItemText(want), edit.ItemText(theirs))
			}
			if got := o.get(); strings.Contains(tc.args[len(tc.args)-1], "moved") {
				moved := o
				moved.key = dynamo.Item{"PK": sv("CUST#42"), "SK": sv("ORDER#moved")}
				if moved.get() != nil {
					t.Fatalf("the refused key change wrote its new item; old item %s", edit.ItemText(got))
				}
			}

			// Undo: only dynascope's own change goes; a refused write left
			// nothing to undo.
			out, _, err = cli(t, "undo", "--endpoint-url", p.URL, "--table", table, "--allow-writes")
			if tc.refused != (err != nil) {
				t.Fatalf("undo: %v\n%s", err, out)
			}
			if got := o.get(); !edit.SameItem(got, theirs) {
				t.Errorf("after the undo: %s, want the other writer's %s", edit.ItemText(got), edit.ItemText(theirs))
			}
		})
	}
}
