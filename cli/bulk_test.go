package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// bulkTable is a table of the test's own: CUST#7 with n ORDER items (the
// first archived of them already ARCHIVED), a PROFILE and a NOTE#1, and
// CUST#8 with one ORDER, so that a selection has neighbours on all sides.
func bulkTable(t *testing.T, n, archived int) (*dynamodb.Client, string) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	sdk := dynamotest.SDK(t)
	table := dynamotest.Table(t, sdk, dynamotest.PKSK())
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var reqs []types.WriteRequest
	put := func(it map[string]types.AttributeValue) {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
	}
	for i := range n {
		status := "OPEN"
		if i < archived {
			status = "ARCHIVED"
		}
		put(map[string]types.AttributeValue{"PK": s("CUST#7"), "SK": s(fmt.Sprintf("ORDER#%04d", i)), "status": s(status),
			"total": &types.AttributeValueMemberN{Value: fmt.Sprint(10 + i)}, "note": s("n")})
	}
	put(map[string]types.AttributeValue{"PK": s("CUST#7"), "SK": s("PROFILE"), "status": s("OPEN"), "name": s("Ada")})
	put(map[string]types.AttributeValue{"PK": s("CUST#7"), "SK": s("NOTE#1"), "status": s("OPEN")})
	put(map[string]types.AttributeValue{"PK": s("CUST#8"), "SK": s("ORDER#0001"), "status": s("OPEN")})
	for len(reqs) > 0 {
		k := min(25, len(reqs))
		out, err := sdk.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs[:k]}})
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs[k:], out.UnprocessedItems[table]...)
	}
	return sdk, table
}

// tableImage is every item of the table as DynamoDB JSON, sorted: two
// images are equal when the table is byte-identical item by item.
func tableImage(t *testing.T, sdk *dynamodb.Client, table string) []string {
	t.Helper()
	var all []string
	p := dynamodb.NewScanPaginator(sdk, &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			all = append(all, string(itemcodec.DynamoJSON(it)))
		}
	}
	slices.Sort(all)
	return all
}

type bulkPreviewJSON struct {
	Operation, Selection string
	DryRun               bool
	Selected, ToWrite    int
	Unchanged            []map[string]string
	Changes              []attrChange
	PredictedWCU         struct{ Total, Table *float64 }
	Items                []struct {
		Key  map[string]string
		Diff []struct{ Attribute, Change string }
	}
	Command      string
	ReadRequests int
}

func previewOf(t *testing.T, out string) bulkPreviewJSON {
	t.Helper()
	var p bulkPreviewJSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	return p
}

// The preview of a bulk update: the ORDER items of CUST#7 and nothing
// else, those already as wanted counted apart, the count per attribute
// change, the WCU predicted item by item (1 each: every item is under
// 1 KB), the first three diffs and one aws command; and the table is
// left byte-identical, with or without --allow-writes.
func TestBulkUpdatePreview(t *testing.T) {
	sdk, table := bulkTable(t, 40, 5)
	before := tableImage(t, sdk, table)
	ep := dynamotest.Endpoint(t)
	for _, sel := range [][]string{{"--entity", "ORDER"}, {"--sk-begins-with", "ORDER#"}, {"--sk-between", "ORDER#0000", "ORDER#0039"}} {
		for _, allow := range [][]string{nil, {"--allow-writes"}} {
			args := slices.Concat([]string{"update", "--endpoint-url", ep, "--table", table, "--pk", "CUST#7"}, sel,
				[]string{"--set", "status=S:ARCHIVED", "--remove", "note", "--output", "json"}, allow)
			out, stderr, err := cli(t, args...)
			if err != nil {
				t.Fatalf("%v: %v", args, err)
			}
			p := previewOf(t, out)
			if !p.DryRun || p.Selected != 40 || p.ToWrite != 40 || len(p.Unchanged) != 0 {
				t.Errorf("%v: dryRun %v, selected %d, to write %d, unchanged %v; want a preview of 40, all to write (note goes from all)", sel, p.DryRun, p.Selected, p.ToWrite, p.Unchanged)
			}
			want := []attrChange{{"note", "-", 40}, {"status", "~", 35}}
			if !slices.Equal(p.Changes, want) {
				t.Errorf("%v: changes %+v, want %+v", sel, p.Changes, want)
			}
			if p.PredictedWCU.Total == nil || *p.PredictedWCU.Total != 40 {
				t.Errorf("%v: predicted %v WCU, want 40", sel, p.PredictedWCU.Total)
			}
			if len(p.Items) != 3 || p.Items[0].Key["SK"] != "ORDER#0000" || len(p.Items[0].Diff) != 1 || len(p.Items[2].Diff) != 1 {
				t.Errorf("%v: the first items %+v", sel, p.Items)
			}
			if !strings.Contains(p.Command, "aws dynamodb update-item") || !strings.Contains(p.Command, "--condition-expression") || !strings.Contains(p.Command, "ORDER#0000") {
				t.Errorf("%v: command %s", sel, p.Command)
			}
			if !strings.Contains(stderr, "the selection (PK = CUST#7") || !strings.Contains(stderr, "predicted ≤") {
				t.Errorf("%v: the read's cost is not said first: %q", sel, stderr)
			}
		}
	}
	// Only the status: the archived five are already as wanted.
	out, _, err := cli(t, "update", "--endpoint-url", ep, "--table", table, "--pk", "CUST#7", "--entity", "ORDER", "--set", "status=S:ARCHIVED", "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	if p := previewOf(t, out); p.Selected != 40 || p.ToWrite != 35 || len(p.Unchanged) != 5 || p.Unchanged[0]["SK"] != "ORDER#0000" || *p.PredictedWCU.Total != 35 {
		t.Errorf("selected %d, to write %d, unchanged %v, predicted %v; want 40, 35, ORDER#0000-0004, 35", p.Selected, p.ToWrite, p.Unchanged, *p.PredictedWCU.Total)
	}
	// The text preview says the same and how to send it.
	out, _, err = cli(t, "delete", "--endpoint-url", ep, "--table", table, "--pk", "CUST#7", "--sk-begins-with", "ORDER#003")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"preview, nothing sent: bulk delete", "selected 10 items (1 query page, ", "10 items to write", "changes: 10 items deleted", "predicted 10 WCU", "item 1: PK = CUST#7, SK = ORDER#0030", "… and 7 items more", "aws dynamodb delete-item", "--allow-writes --yes"} {
		if !strings.Contains(out, w) {
			t.Errorf("the text preview lacks %q:\n%s", w, out)
		}
	}
	if after := tableImage(t, sdk, table); !slices.Equal(before, after) {
		t.Errorf("a preview changed the table")
	}
}

// What a bulk change refuses: a key attribute set or removed, a type the
// partition does not have (its types named), --yes without --allow-writes
// (before anything connects), and, in this build, sending at all; the
// table is left as it was.
func TestBulkRefusals(t *testing.T) {
	sdk, table := bulkTable(t, 4, 0)
	before := tableImage(t, sdk, table)
	ep := dynamotest.Endpoint(t)
	base := []string{"--endpoint-url", ep, "--table", table, "--pk", "CUST#7"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"update", "--entity", "ORDER", "--set", "SK=S:MOVED"}, "--set SK: a bulk change cannot touch the key attribute SK"},
		{[]string{"update", "--entity", "ORDER", "--set", "PK=S:CUST#9"}, "--set PK: a bulk change cannot touch the key attribute PK"},
		{[]string{"update", "--sk-begins-with", "ORDER#", "--remove", "SK"}, "--remove SK: a key attribute cannot be removed"},
		{[]string{"update", "--entity", "INVOICE", "--set", "a=S:b"}, "partition CUST#7 has no type INVOICE; its types are NOTE, ORDER, PROFILE."},
		{[]string{"delete", "--entity", "ORDER", "--yes"}, "writing is off"},
		{[]string{"update", "--entity", "ORDER", "--set", "status=S:X", "--yes", "--allow-writes"}, "sending a bulk change is not built yet"},
		{[]string{"delete", "--sk-begins-with", "ORDER#", "--yes", "--allow-writes"}, "sending a bulk change is not built yet"},
	} {
		_, _, err := cli(t, slices.Concat(c.args[:1], base, c.args[1:])...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
	if after := tableImage(t, sdk, table); !slices.Equal(before, after) {
		t.Errorf("a refused bulk change changed the table")
	}
}
