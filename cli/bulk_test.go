package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
	"dynascope/itemcodec"
)

// bulkTable is a table of the test's own: CUST#7 with n ORDER items (the
// first archived of them already ARCHIVED), a PROFILE and a NOTE#1, and
// CUST#8 with one ORDER, so that a selection has neighbours on all sides.
func bulkTable(t *testing.T, n, archived int) (*dynamodb.Client, string) {
	t.Helper()
	return paddedBulkTable(t, n, archived, 0)
}

// paddedBulkTable is bulkTable with a pad attribute of that many bytes on
// each ORDER item, for writes of several WCU each.
func paddedBulkTable(t *testing.T, n, archived, pad int) (*dynamodb.Client, string) {
	t.Helper()
	return bulkTableOf(t, dynamotest.PKSK(), n, archived, pad)
}

// bulkTableOf is paddedBulkTable, created as in says (its indexes).
func bulkTableOf(t *testing.T, in dynamodb.CreateTableInput, n, archived, pad int) (*dynamodb.Client, string) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	sdk := dynamotest.SDK(t)
	table := dynamotest.Table(t, sdk, in)
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
		it := map[string]types.AttributeValue{"PK": s("CUST#7"), "SK": s(fmt.Sprintf("ORDER#%04d", i)), "status": s(status),
			"total": &types.AttributeValueMemberN{Value: fmt.Sprint(10 + i)}, "note": s("n")}
		if pad > 0 {
			it["pad"] = s(strings.Repeat("p", pad))
		}
		put(it)
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
	Changes              []edit.AttrChange
	PredictedWCU         struct{ Total, Table *float64 }
	Items                []struct {
		Key  map[string]string
		Diff []struct{ Attribute, Change string }
	}
	Command      string
	ReadRequests int
	Time         *struct{ WCUPerSecond, Seconds float64 }
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
			want := []edit.AttrChange{{Attribute: "note", Change: "-", Items: 40}, {Attribute: "status", Change: "~", Items: 35}}
			if !slices.Equal(p.Changes, want) {
				t.Errorf("%v: changes %+v, want %+v", sel, p.Changes, want)
			}
			if p.PredictedWCU.Total == nil || *p.PredictedWCU.Total != 40 {
				t.Errorf("%v: predicted %v WCU, want 40", sel, p.PredictedWCU.Total)
			}
			if p.Time == nil || p.Time.WCUPerSecond != defaultBulkWCU || p.Time.Seconds != 40.0/defaultBulkWCU {
				t.Errorf("%v: time %+v, want the 40 WCU at the default rate", sel, p.Time)
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
	out, _, err = cli(t, "delete", "--endpoint-url", ep, "--table", table, "--pk", "CUST#7", "--sk-begins-with", "ORDER#003", "--max-wcu-per-second", "4")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"preview, nothing sent: bulk delete", "selected 10 items (1 query page, ", "10 items to write", "changes: 10 items deleted", "predicted 10 WCU",
		"time at 4 WCU per second (--max-wcu-per-second): about 3 s, longer if DynamoDB throttles", "item 1: PK = CUST#7, SK = ORDER#0030", "… and 7 items more", "aws dynamodb delete-item", "--allow-writes --yes"} {
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
// (before anything connects) and a pace that is none; the table is left
// as it was.
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
		{[]string{"update", "--entity", "ORDER", "--set", "SK=S:X", "--yes", "--allow-writes"}, "cannot touch the key attribute SK"},
		{[]string{"update", "--entity", "ORDER", "--set", "a=S:b", "--yes", "--allow-writes", "--max-wcu-per-second", "0"}, "--max-wcu-per-second takes a positive number of WCU, not 0."},
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

type bulkSentJSON struct {
	DryRun                                     bool
	Selected                                   int
	Unchanged, Written, Refused, InDoubt, Left struct {
		Count int
		Keys  []map[string]string
	}
	RefusedItems []struct {
		Key, Current map[string]any
		Diff         []struct{ Attribute, Change string }
		Attributes   []struct {
			Attribute        string
			Read, Now, Yours map[string]string
			ChangedMeanwhile bool
		}
	}
	ConsumedCapacity struct{ Total *float64 }
	Journal          *struct {
		File  string
		Entry int
		State string
	}
}

func sentOf(t *testing.T, out string) bulkSentJSON {
	t.Helper()
	var s bulkSentJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	return s
}

func sks(keys []map[string]string) []string {
	var out []string
	for _, k := range keys {
		out = append(out, k["SK"])
	}
	return out
}

// A bulk update sent: the 35 items not yet as wanted written, each once,
// the 5 already so left alone and counted apart, nothing outside the
// selection touched, the units DynamoDB reported summed, and one journal
// entry holding the 35 items, each done with its image before and after.
func TestBulkUpdateSent(t *testing.T) {
	sdk, table := bulkTable(t, 40, 5)
	before := tableImage(t, sdk, table)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	out, _, err := cli(t, "update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#7", "--entity", "ORDER", "--set", "status=S:ARCHIVED",
		"--yes", "--allow-writes", "--max-wcu-per-second", "1000", "--output", "json")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	s := sentOf(t, out)
	if s.DryRun || s.Selected != 40 || s.Written.Count != 35 || s.Unchanged.Count != 5 || s.Refused.Count != 0 || s.InDoubt.Count != 0 || s.Left.Count != 0 {
		t.Fatalf("sent: %+v", s)
	}
	if n := p.Count("UpdateItem"); n != 35 {
		t.Errorf("%d UpdateItem requests, want 35: one per item to write", n)
	}
	if s.ConsumedCapacity.Total == nil || *s.ConsumedCapacity.Total != 35 {
		t.Errorf("consumed %v WCU, want 35 as DynamoDB reported it", s.ConsumedCapacity.Total)
	}
	after := tableImage(t, sdk, table)
	changed := 0
	for i := range before {
		if before[i] != after[i] {
			changed++
			if !strings.Contains(after[i], `"status":{"S":"ARCHIVED"}`) || !strings.Contains(after[i], `"SK":{"S":"ORDER#`) {
				t.Errorf("changed: %s", after[i])
			}
		}
	}
	if changed != 35 || len(after) != len(before) {
		t.Errorf("%d items changed of %d (was %d), want 35", changed, len(after), len(before))
	}
	if s.Journal == nil || s.Journal.State != "done" {
		t.Fatalf("journal %+v", s.Journal)
	}
	j, err := edit.OpenJournal(s.Journal.File)
	if err != nil {
		t.Fatal(err)
	}
	entries, _, err := j.Read()
	if err != nil || len(entries) != 1 {
		t.Fatalf("%d entries (%v), want one for the bulk change", len(entries), err)
	}
	e := entries[0]
	if len(e.Items) != 35 || e.State != edit.StateDone || e.WCU == nil || *e.WCU != 35 || e.PredictedWCU != 35 {
		t.Fatalf("entry: %d items, state %s, WCU %v, predicted %v", len(e.Items), e.State, e.WCU, e.PredictedWCU)
	}
	for _, it := range e.Items {
		if it.State != edit.StateDone || !strings.Contains(string(it.Old), `"OPEN"`) || !strings.Contains(string(it.New), `"ARCHIVED"`) {
			t.Errorf("journal item %s: %s, old %s, new %s", it.Key, it.State, it.Old, it.New)
		}
	}
}

// A second writer changes ten of the selected items after the selection
// was read and while the first write is held back by the proxy: exactly
// those ten are refused by their condition and listed with the item now,
// their change kept; the other thirty are written.
func TestBulkSecondWriter(t *testing.T) {
	sdk, table := bulkTable(t, 40, 0)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	p.Inject(dynamotest.Rule{Op: "UpdateItem", Count: 1, Fault: dynamotest.Delay(time.Second)})
	theirs, done := cancelWhileHeld(t, p, sdk, table, 20)
	out, _, err := cli(t, "update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#7", "--sk-begins-with", "ORDER#", "--set", "status=S:ARCHIVED",
		"--yes", "--allow-writes", "--max-wcu-per-second", "1000", "--output", "json")
	<-done
	if err == nil || !strings.Contains(err.Error(), "not every item was written: 30 written, 10 refused, 0 in doubt, 0 left") {
		t.Fatalf("the bulk update: %v", err)
	}
	s := sentOf(t, out)
	if got := sks(s.Refused.Keys); !slices.Equal(got, theirs) || s.Written.Count != 30 || len(s.RefusedItems) != 10 {
		t.Fatalf("refused %v, written %d; want exactly %v refused", got, s.Written.Count, theirs)
	}
	for _, r := range s.RefusedItems {
		if st, _ := r.Current["status"].(string); st != "CANCELLED" || len(r.Diff) != 1 || r.Diff[0].Attribute != "status" {
			t.Errorf("refused %v: now %v, diff %+v", r.Key, r.Current, r.Diff)
		}
		// As read · now · yours, as for one item.
		if a := r.Attributes; len(a) != 1 || a[0].Attribute != "status" || a[0].Read["S"] != "OPEN" || a[0].Now["S"] != "CANCELLED" || a[0].Yours["S"] != "ARCHIVED" || !a[0].ChangedMeanwhile {
			t.Errorf("refused %v: attributes %+v, want status as read OPEN, now CANCELLED, yours ARCHIVED", r.Key, a)
		}
	}
	img := strings.Join(tableImage(t, sdk, table), "\n")
	if n := strings.Count(img, `"CANCELLED"`); n != 10 {
		t.Errorf("%d items CANCELLED, want the second writer's 10 kept", n)
	}
	if n := strings.Count(img, `"ARCHIVED"`); n != 30 {
		t.Errorf("%d items ARCHIVED, want 30", n)
	}
}

// A few hundred items of one type updated (a set and a remove), then
// `undo --allow-writes` with no --entry: the table is byte-identical to
// before, by a full read. Before the undo a second writer changes three
// of them: those three are refused, listed and left as they are, and a
// second undo of the same entry has nothing but them to take back.
func TestBulkUpdateUndone(t *testing.T) {
	const n = 300
	sdk, table := bulkTable(t, n, 0)
	ep := dynamotest.Endpoint(t)
	before := tableImage(t, sdk, table)
	if _, _, err := cli(t, "update", "--endpoint-url", ep, "--table", table, "--pk", "CUST#7", "--entity", "ORDER", "--set", "status=S:ARCHIVED",
		"--set", "archivedAt=N:20261202", "--remove", "note", "--yes", "--allow-writes", "--max-wcu-per-second", "100000"); err != nil {
		t.Fatal(err)
	}
	if after := tableImage(t, sdk, table); slices.Equal(before, after) {
		t.Fatal("the update changed nothing")
	}
	out, _, err := cli(t, "journal")
	if err != nil || !strings.Contains(out, fmt.Sprintf("bulk UpdateItem of %d items on %s", n, table)) || !strings.Contains(out, fmt.Sprintf("%d done", n)) {
		t.Fatalf("journal: %v\n%s", err, out)
	}
	// Its preview says how to send it: undo sends without --dry-run (it
	// takes no --yes).
	out, _, err = cli(t, "undo", "--endpoint-url", ep, "--table", table, "--dry-run")
	if err != nil || !strings.Contains(out, "to send it: the same command without --dry-run, with --allow-writes") || strings.Contains(out, "--yes") {
		t.Fatalf("undo --dry-run: %v\n%s", err, out)
	}
	if _, _, err := cli(t, "undo", "--endpoint-url", ep, "--table", table, "--allow-writes"); err != nil {
		t.Fatal(err)
	}
	if after := tableImage(t, sdk, table); !slices.Equal(before, after) {
		t.Fatalf("after the undo the table differs from before")
	}
	// Again, with a second writer between the change and its undo.
	if _, _, err := cli(t, "update", "--endpoint-url", ep, "--table", table, "--pk", "CUST#7", "--sk-begins-with", "ORDER#000", "--set", "status=S:ARCHIVED",
		"--yes", "--allow-writes"); err != nil {
		t.Fatal(err)
	}
	theirs := []string{"ORDER#0002", "ORDER#0005", "ORDER#0007"}
	for _, sk := range theirs {
		secondWriter(t, sdk, table, sk, "CANCELLED")
	}
	out, _, err = cli(t, "undo", "--endpoint-url", ep, "--table", table, "--allow-writes", "--output", "json")
	if err == nil || !strings.Contains(err.Error(), "7 undone, 3 refused (changed since)") {
		t.Fatalf("the undo: %v", err)
	}
	if s := sentOf(t, out); !slices.Equal(sks(s.Refused.Keys), theirs) || s.Written.Count != 7 {
		t.Errorf("refused %v, undone %d; want %v refused and 7 undone", sks(s.Refused.Keys), s.Written.Count, theirs)
	}
	img := strings.Join(tableImage(t, sdk, table), "\n")
	if strings.Count(img, `"CANCELLED"`) != 3 || strings.Contains(img, `"ARCHIVED"`) {
		t.Errorf("after the undo: the second writer's 3 kept and no ARCHIVED left? %d CANCELLED", strings.Count(img, `"CANCELLED"`))
	}
}
