package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
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

// 40.2: --rename and --set-default change many items, so on one item
// (--pk and --sk, no selector) update refuses them in one sentence that
// says what to give instead: with or without --allow-writes, --yes or
// --dry-run, before anything connects (not one request reaches the
// proxy), and the item is left as it was.
func TestSingleItemUpdateRefusesRenameAndDefault(t *testing.T) {
	sdk, table := bulkTable(t, 2, 0)
	before := tableImage(t, sdk, table)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	const want = "--rename and --set-default change many items: give a sort-key condition, --entity, --filter, --index, --keys or --scan (for one item, --set and --remove)."
	for _, change := range [][]string{{"--rename", "note=remark"}, {"--set-default", "tier=S:basic"}, {"--rename", "note=remark", "--set-default", "tier=S:basic", "--set", "status=S:X"}} {
		for _, extra := range [][]string{nil, {"--allow-writes"}, {"--dry-run"}, {"--allow-writes", "--output", "json"}} {
			args := slices.Concat([]string{"update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#7", "--sk", "ORDER#0001"}, change, extra)
			out, _, err := cli(t, args...)
			if err == nil || err.Error() != want {
				t.Errorf("%v: %v, want %q", args, err, want)
			}
			if strings.TrimSpace(out) != "" {
				t.Errorf("%v printed %q, want nothing on stdout", args, out)
			}
		}
	}
	if calls := p.Calls(); len(calls) != 0 {
		t.Errorf("%d requests reached DynamoDB (%v), want none: the refusal comes before connecting", len(calls), p.Ops())
	}
	if after := tableImage(t, sdk, table); !slices.Equal(before, after) {
		t.Error("a refused single-item update changed the table")
	}
}

// 40.4, 40.6: Ctrl-C mid-way through the undo of a bulk change: the
// writes in flight finish, the error says what was undone, refused and
// left, the exit status is 130, and the last line is the command that
// undoes only the items left (--entry N --keys of a file of their keys).
// Meanwhile `undo` with no --entry goes on with that entry (not an older
// one) and would send only the items left. Run, the printed command
// undoes exactly those: every item undone once over the two runs (the
// proxy saw one write per item), none refused, and the table is
// byte-identical to before the change; run again it sends nothing.
func TestBulkUndoCtrlCThenTheRest(t *testing.T) {
	const n = 120
	sdk, table := bulkTable(t, n, 0)
	before := tableImage(t, sdk, table)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t)) // the undo goes where the change went
	if _, _, err := cli(t, "update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#7", "--entity", "ORDER",
		"--set", "status=S:ARCHIVED", "--remove", "note", "--yes", "--allow-writes", "--max-wcu-per-second", "100000"); err != nil {
		t.Fatal(err)
	}
	changed := len(p.Writes())
	undos := func() int { return len(p.Writes()) - changed }
	p.Inject(dynamotest.Rule{Op: "UpdateItem", Fault: dynamotest.Delay(50 * time.Millisecond)})
	out, stderr, status := signalAfter(t, p, "UpdateItem", changed+20, os.Interrupt, "undo", "--endpoint-url", p.URL, "--allow-writes", "--output", "json")
	first := sentOf(t, out)
	t.Logf("stderr of the stopped undo:\n%s", stderr)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	lead := fmt.Sprintf("to undo only the %d items left, run: ", first.Left.Count)
	if status != exitInterrupted || first.Left.Count == 0 || first.Written.Count == 0 || first.Written.Count+first.Left.Count != n || !strings.HasPrefix(last, lead) {
		t.Fatalf("exit %d, undone %d, left %d; stderr:\n%s", status, first.Written.Count, first.Left.Count, stderr)
	}
	if want := fmt.Sprintf("undo entry 1: stopped by Ctrl-C after the writes in flight: %d undone, 0 refused (changed since), 0 in doubt, 0 not landed (nothing to undo), %d left (not undone)",
		first.Written.Count, first.Left.Count); !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q", want)
	}
	if w := undos(); w != first.Written.Count {
		t.Errorf("%d writes reached DynamoDB, %d undone: a write in flight was dropped", w, first.Written.Count)
	}
	cmd := strings.TrimPrefix(last, lead)
	if !strings.HasPrefix(cmd, "dynascope undo ") || !strings.Contains(cmd, " --entry 1 --keys ") || !strings.Contains(cmd, "--allow-writes") {
		t.Fatalf("the command: %s", cmd)
	}
	jout, _, err := cli(t, "journal")
	if err != nil || !strings.Contains(jout, fmt.Sprintf("undoes 1; %d done, %d left (not sent: stopped first)", first.Written.Count, first.Left.Count)) || strings.Contains(jout, "undone by 2") {
		t.Errorf("journal after the stop: %v\n%s", err, jout)
	}
	// undo with no --entry goes on with entry 1, the items undone left be.
	dry, dstderr, err := cli(t, "undo", "--endpoint-url", p.URL, "--dry-run", "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	if pre := previewOf(t, dry); pre.ToWrite != first.Left.Count || pre.Selection != "journal entry 1" ||
		!strings.Contains(dstderr, fmt.Sprintf("%d items of entry 1 were taken back by an earlier undo: left be, not sent again", first.Written.Count)) {
		t.Errorf("undo --dry-run after the stop: %d to write of %q, want the %d left of entry 1; stderr %q", pre.ToWrite, pre.Selection, first.Left.Count, dstderr)
	}
	rest := runBash(t, cmd)
	if rest.Written.Count != first.Left.Count || rest.Refused.Count != 0 || rest.Left.Count != 0 {
		t.Errorf("the rest: undone %d, refused %d, left %d; want the %d left undone", rest.Written.Count, rest.Refused.Count, rest.Left.Count, first.Left.Count)
	}
	both := slices.Concat(sks(first.Written.Keys), sks(rest.Written.Keys))
	if distinct := len(slices.Compact(slices.Sorted(slices.Values(both)))); len(both) != n || distinct != n || undos() != n {
		t.Errorf("%d undone in the two runs, %d distinct, %d writes sent; want each of the %d once", len(both), distinct, undos(), n)
	}
	if after := tableImage(t, sdk, table); !slices.Equal(before, after) {
		t.Error("after the stopped undo and its rest the table differs from before the change")
	}
	// Run again, the command finds nothing left to undo and sends nothing.
	again := exec.Command("bash", "-c", cmd)
	var aout, aerr bytes.Buffer
	again.Stdout, again.Stderr = &aout, &aerr
	if err := again.Run(); err != nil || !strings.Contains(aerr.String(), fmt.Sprintf("%d items of entry 1 were taken back by an earlier undo", first.Left.Count)) || undos() != n {
		t.Errorf("the command again: %v, %d writes in all; stderr:\n%s", err, undos(), aerr.String())
	}
	jout, _, err = cli(t, "journal")
	if err != nil || !strings.Contains(jout, "undone by 3") {
		t.Errorf("journal after the rest: %v\n%s", err, jout)
	}
}

// runBash runs a printed command line through bash and decodes what it
// printed as a bulk change's JSON outcome.
func runBash(t *testing.T, cmd string) bulkSentJSON {
	t.Helper()
	run := exec.Command("bash", "-c", cmd)
	var out, errb bytes.Buffer
	run.Stdout, run.Stderr = &out, &errb
	if err := run.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, errb.String())
	}
	return sentOf(t, out.String())
}

// 40.1: --entity of a value group (sort keys that are timestamps: a
// shape, no common prefix) with --filter is refused in one sentence that
// names what works, before any request, where it used to read under the
// prefix "timestamp" and select 0 items without a word; what it names
// (--sk-between the group's ends with --filter) selects exactly the
// items. A type no sort key begins with is refused after its one read,
// never a silent 0. Without --filter, --entity timestamp selects the
// group, as before. Nothing is written.
func TestBulkEntityFilterOfAValueGroup(t *testing.T) {
	sdk, table := bulkTable(t, 4, 0)
	for i := range 10 {
		status := "OPEN"
		if i%3 == 0 {
			status = "ARCHIVED" // 0, 3, 6, 9
		}
		if _, err := sdk.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: &table, Item: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "CUST#7"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("2024-01-05T10:00:%02dZ", i)},
			"status": &types.AttributeValueMemberS{Value: status}}}); err != nil {
			t.Fatal(err)
		}
	}
	before := tableImage(t, sdk, table)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	base := []string{"update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#7", "--set", "note=S:old", "--output", "json"}
	_, _, err := cli(t, slices.Concat(base, []string{"--entity", "timestamp", "--filter", `status = "ARCHIVED"`})...)
	const want = "--entity timestamp with --filter: timestamp is a group of values (its sort keys share a shape, not a prefix), so a filtered read cannot be narrowed to it; select its keys by their range with --sk-between FIRST LAST and --filter (dynascope groups --pk 'CUST#7' shows the group's first and last keys), or leave out --filter."
	if err == nil || err.Error() != want {
		t.Errorf("--entity timestamp --filter: %v, want %q", err, want)
	}
	if n := len(p.Calls()); n != 0 {
		t.Errorf("%d requests (%v) before the refusal, want none", n, p.Ops())
	}
	// What the sentence names works: the group's ends, and the filter.
	out, _, err := cli(t, slices.Concat(base, []string{"--sk-between", "2024-01-05T10:00:00Z", "2024-01-05T10:00:09Z", "--filter", `status = "ARCHIVED"`})...)
	if err != nil {
		t.Fatal(err)
	}
	pre := previewOf(t, out)
	var got []string
	for _, it := range pre.Items {
		got = append(got, it.Key["SK"])
	}
	if pre.Selected != 4 || !slices.Equal(got, []string{"2024-01-05T10:00:00Z", "2024-01-05T10:00:03Z", "2024-01-05T10:00:06Z"}) {
		t.Errorf("--sk-between with --filter: selected %d, first %v; want the 4 ARCHIVED timestamps", pre.Selected, got)
	}
	// Without --filter the value group is selected by its name.
	out, _, err = cli(t, slices.Concat(base, []string{"--entity", "timestamp"})...)
	if err != nil {
		t.Fatal(err)
	}
	if pre := previewOf(t, out); pre.Selected != 10 {
		t.Errorf("--entity timestamp: selected %d, want the 10 timestamps", pre.Selected)
	}
	// A type no key begins with: one read, then a sentence, not a 0.
	queries := p.Count("Query")
	_, _, err = cli(t, slices.Concat(base, []string{"--entity", "INVOICE", "--filter", `status = "ARCHIVED"`})...)
	if err == nil || !strings.Contains(err.Error(), "--entity INVOICE with --filter: no sort key of partition CUST#7 begins with INVOICE, so the read found no item of it") ||
		p.Count("Query")-queries != 1 {
		t.Errorf("--entity INVOICE --filter: %v after %d queries, want the sentence after one", err, p.Count("Query")-queries)
	}
	if after := tableImage(t, sdk, table); !slices.Equal(before, after) {
		t.Error("a preview or a refusal changed the table")
	}
}

// 40.7: 5,000 items of one type updated (a set, a new attribute, a
// remove) and then undone with `undo --allow-writes` (no --entry) leave
// the table byte-identical, compared by a full strongly consistent read;
// the change wrote exactly the 5,000 and nothing else, as one journal
// entry that the journal shows with its counts and, after, as undone.
func TestBulk5000UpdatedThenUndone(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 5,000 items twice: run without -short")
	}
	const n = 5000
	sdk, table := bulkTable(t, n, 0)
	ep := dynamotest.Endpoint(t)
	before := tableImage(t, sdk, table)
	out, _, err := cli(t, "update", "--endpoint-url", ep, "--table", table, "--pk", "CUST#7", "--entity", "ORDER", "--set", "status=S:ARCHIVED",
		"--set", "archivedAt=N:20261202", "--remove", "note", "--yes", "--allow-writes", "--max-wcu-per-second", "100000", "--output", "json")
	if err != nil {
		t.Fatalf("the update: %v", err)
	}
	if s := sentOf(t, out); s.Selected != n || s.Written.Count != n || s.Refused.Count+s.InDoubt.Count+s.Left.Count != 0 {
		t.Fatalf("the update: selected %d, written %d, refused %d, in doubt %d, left %d; want all %d written", s.Selected, s.Written.Count, s.Refused.Count, s.InDoubt.Count, s.Left.Count, n)
	}
	changed := tableImage(t, sdk, table)
	differ := 0
	for i := range before {
		if before[i] != changed[i] {
			differ++
		}
	}
	if len(changed) != len(before) || differ != n || strings.Count(strings.Join(changed, "\n"), `"archivedAt":{"N":"20261202"}`) != n {
		t.Fatalf("%d of %d items changed (%d before), want the %d ORDER items", differ, len(changed), len(before), n)
	}
	jout, _, err := cli(t, "journal")
	if err != nil || !strings.Contains(jout, fmt.Sprintf("bulk UpdateItem of %d items on %s", n, table)) || !strings.Contains(jout, fmt.Sprintf("; %d done", n)) {
		t.Fatalf("journal: %v\n%.600s", err, jout)
	}
	out, _, err = cli(t, "undo", "--endpoint-url", ep, "--allow-writes", "--max-wcu-per-second", "100000", "--output", "json")
	if err != nil {
		t.Fatalf("the undo: %v", err)
	}
	if s := sentOf(t, out); s.Written.Count != n || s.Refused.Count+s.InDoubt.Count+s.Left.Count != 0 {
		t.Errorf("the undo: %d undone, %d refused, %d in doubt, %d left; want all %d undone", s.Written.Count, s.Refused.Count, s.InDoubt.Count, s.Left.Count, n)
	}
	if after := tableImage(t, sdk, table); !slices.Equal(before, after) {
		t.Fatalf("after the undo the table differs from before (%d items, %d before)", len(after), len(before))
	}
	if jout, _, err = cli(t, "journal"); err != nil || !strings.Contains(jout, "undone by 2") {
		t.Errorf("journal after the undo: %v\n%.600s", err, jout)
	}
}

// 40.5: the text summary lists each refused item as a refused single
// write is shown: its attributes that differ in three columns, as read ·
// now · yours, what someone else changed marked.
func TestBulkRefusedAsReadNowYours(t *testing.T) {
	tbl := dynamo.Table{Name: "App", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	old := dynamo.Item{"PK": s("CUST#7"), "SK": s("ORDER#0020"), "status": s("OPEN")}
	new := dynamo.Item{"PK": s("CUST#7"), "SK": s("ORDER#0020"), "status": s("ARCHIVED")}
	plan, err := edit.NewPlan(edit.Change{Table: "App", Keys: tbl, Old: old, New: new})
	if err != nil {
		t.Fatal(err)
	}
	now := dynamo.Item{"PK": s("CUST#7"), "SK": s("ORDER#0020"), "status": s("CANCELLED")}
	sent := bulkSent{pre: bulkPreview{command: "update", table: "App", plans: []*edit.Plan{plan}},
		res: edit.BulkResult{Items: []edit.BulkOutcome{{Plan: plan, Sent: true, Result: edit.Result{Plan: plan, State: edit.StateRefused}, Err: &edit.ConflictError{Plan: plan, Current: now}}}}}
	var b strings.Builder
	if err := sent.print(&b, "text"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	var row string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "status") {
			row = strings.Join(strings.Fields(l), " ")
		}
	}
	if !strings.Contains(out, `refused, changed by someone else since it was read: {"PK":"CUST#7","SK":"ORDER#0020"}`) || !strings.Contains(out, "as read") ||
		row != `* status S "OPEN" S "CANCELLED" S "ARCHIVED"` {
		t.Errorf("the refused item's lines (status row %q):\n%s", row, out)
	}
}

// 40.2, 40.6: a bulk delete sent: exactly the ten items selected are
// gone, one journal entry holds them, and undo puts each back as it was
// (the table byte-identical by a full read), its summary naming each item
// by its key (the undo of a delete reads no image: the key is the one it
// puts back; it printed {} before).
func TestBulkDeleteSentThenUndone(t *testing.T) {
	sdk, table := bulkTable(t, 30, 0)
	ep := dynamotest.Endpoint(t)
	before := tableImage(t, sdk, table)
	var want []string
	for i := 10; i < 20; i++ {
		want = append(want, fmt.Sprintf("ORDER#%04d", i))
	}
	out, _, err := cli(t, "delete", "--endpoint-url", ep, "--table", table, "--pk", "CUST#7", "--sk-begins-with", "ORDER#001", "--yes", "--allow-writes", "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	if s := sentOf(t, out); s.Written.Count != 10 || !slices.Equal(sks(s.Written.Keys), want) {
		t.Fatalf("deleted %v, want %v", sks(s.Written.Keys), want)
	}
	img := strings.Join(tableImage(t, sdk, table), "\n")
	if len(tableImage(t, sdk, table)) != len(before)-10 || strings.Contains(img, `"ORDER#001`) {
		t.Errorf("after the delete: %d items of %d, ORDER#001x left: %v", len(tableImage(t, sdk, table)), len(before), strings.Contains(img, `"ORDER#001`))
	}
	jout, _, err := cli(t, "journal")
	if err != nil || !strings.Contains(jout, "bulk DeleteItem of 10 items on "+table) || !strings.Contains(jout, "; 10 done") {
		t.Errorf("journal: %v\n%s", err, jout)
	}
	out, _, err = cli(t, "undo", "--endpoint-url", ep, "--allow-writes", "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	if s := sentOf(t, out); s.Written.Count != 10 || !slices.Equal(sks(s.Written.Keys), want) {
		t.Errorf("undone %v, want %v", sks(s.Written.Keys), want)
	}
	if after := tableImage(t, sdk, table); !slices.Equal(before, after) {
		t.Error("after the undo of the delete the table differs from before")
	}
}

// 40.1: --scan selects from the whole table by one strongly consistent
// Scan, its estimate said first: with --filter the items it keeps in any
// partition (CUST#7's and CUST#8's), every item read charged and said so;
// sent, only those are written. It names no partition, so --pk beside it
// is refused in one sentence, before any request.
func TestBulkScan(t *testing.T) {
	sdk, table := bulkTable(t, 20, 5) // ORDER#0000..0004 of CUST#7 ARCHIVED
	if _, err := sdk.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: &table, Item: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "CUST#9"}, "SK": &types.AttributeValueMemberS{Value: "ORDER#0001"}, "status": &types.AttributeValueMemberS{Value: "ARCHIVED"}}}); err != nil {
		t.Fatal(err)
	}
	before := tableImage(t, sdk, table)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	args := []string{"update", "--endpoint-url", p.URL, "--table", table, "--scan", "--filter", `status = "ARCHIVED"`, "--set", "note=S:old"}
	out, stderr, err := cli(t, append(args, "--output", "json")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var pre struct {
		Selected, ToWrite, ReadItems int
		Selection                    string
	}
	decodeInto(t, out, &pre)
	if pre.Selected != 6 || pre.ToWrite != 6 || pre.ReadItems != len(before) || pre.Selection != `scan of table `+table+`, filter status = "ARCHIVED"` {
		t.Errorf("preview %+v; want 6 selected of the %d items read", pre, len(before))
	}
	if !strings.Contains(stderr, "the selection (scan of table "+table+`, filter status = "ARCHIVED") reads every item of the table once, strongly consistent: at most the whole table `+table) ||
		p.Count("Scan") == 0 || p.Count("Query") != 0 {
		t.Errorf("%d Scan, %d Query; the estimate first? stderr:\n%s", p.Count("Scan"), p.Count("Query"), stderr)
	}
	if !slices.Equal(before, tableImage(t, sdk, table)) {
		t.Fatal("the preview changed the table")
	}
	text, _, err := cli(t, args...)
	if err != nil || !strings.Contains(text, "selected 6 items (1 scan page, ") || !strings.Contains(text, "filter: kept 6 of 24 read") {
		t.Errorf("text preview: %v\n%s", err, text)
	}
	out, _, err = cli(t, append(args, "--yes", "--allow-writes", "--output", "json")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if s := sentOf(t, out); s.Written.Count != 6 {
		t.Errorf("written %d, want 6", s.Written.Count)
	}
	img := strings.Join(tableImage(t, sdk, table), "\n")
	if strings.Count(img, `"note":{"S":"old"}`) != 6 || !strings.Contains(img, `{"PK":{"S":"CUST#9"},"SK":{"S":"ORDER#0001"},"note":{"S":"old"}`) {
		t.Errorf("%d items with the new note, want the 6 ARCHIVED of both partitions", strings.Count(img, `"note":{"S":"old"}`))
	}
	calls := len(p.Calls())
	_, _, err = cli(t, "delete", "--endpoint-url", p.URL, "--table", table, "--scan", "--pk", "CUST#7")
	if err == nil || err.Error() != "--scan reads the whole table: leave out --pk (or leave out --scan)." || len(p.Calls()) != calls {
		t.Errorf("--scan --pk: %v after %d requests", err, len(p.Calls())-calls)
	}
}

// 40 "Done when", in one run of the CLI: the ORDER items of CUST#7 are
// changed at a stated rate; a second writer changes ten of them after the
// selection read them (while the first write is held back), and Ctrl-C
// stops the change part-way. Exactly those ten are refused and listed;
// the printed command sends the rest; every item's write went out once
// (the proxy saw one UpdateItem per item over both runs); then two undos
// (one per run, each `undo --allow-writes` with no --entry) leave the
// table as before but for the second writer's ten, which are theirs.
func TestBulkSecondWriterCtrlCThenUndo(t *testing.T) {
	const n = 120
	sdk, table := bulkTable(t, n, 0)
	before := map[string]string{}
	for _, line := range tableImage(t, sdk, table) {
		before[skOf(t, line)] = line
	}
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	p.Inject(dynamotest.Rule{Op: "UpdateItem", Count: 1, Fault: dynamotest.Delay(time.Second)},
		dynamotest.Rule{Op: "UpdateItem", From: 2, Fault: dynamotest.Delay(50 * time.Millisecond)})
	theirs, done := cancelWhileHeld(t, p, sdk, table, 5)
	out, stderr, status := signalAfter(t, p, "UpdateItem", 30, os.Interrupt, "update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#7",
		"--entity", "ORDER", "--set", "status=S:ARCHIVED", "--yes", "--allow-writes", "--max-wcu-per-second", "60", "--output", "json")
	<-done
	first := sentOf(t, out)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	lead := fmt.Sprintf("to send only the %d items left, run: ", first.Left.Count)
	if status != exitInterrupted || first.Left.Count == 0 || !slices.Equal(sks(first.Refused.Keys), theirs) || first.Written.Count+first.Refused.Count+first.Left.Count != n ||
		!strings.HasPrefix(lines[len(lines)-1], lead) {
		t.Fatalf("exit %d: written %d, refused %v, left %d; stderr:\n%s", status, first.Written.Count, sks(first.Refused.Keys), first.Left.Count, stderr)
	}
	rest := runBash(t, strings.TrimPrefix(lines[len(lines)-1], lead))
	if rest.Written.Count != first.Left.Count || rest.Refused.Count != 0 {
		t.Fatalf("the rest: written %d, refused %d; want the %d left written", rest.Written.Count, rest.Refused.Count, first.Left.Count)
	}
	if got, want := p.Count("UpdateItem"), first.Written.Count+first.Refused.Count+rest.Written.Count; got != want || want != n {
		t.Errorf("%d UpdateItem sent, want %d: one per item over both runs", got, n)
	}
	img := strings.Join(tableImage(t, sdk, table), "\n")
	if strings.Count(img, `"ARCHIVED"`) != n-10 || strings.Count(img, `"CANCELLED"`) != 10 {
		t.Errorf("%d ARCHIVED and %d CANCELLED, want %d and the second writer's 10", strings.Count(img, `"ARCHIVED"`), strings.Count(img, `"CANCELLED"`), n-10)
	}
	// One undo takes back both: the rest's entry continues the stopped run's.
	if _, _, err := cli(t, "undo", "--endpoint-url", p.URL, "--allow-writes", "--max-wcu-per-second", "10000"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := cli(t, "undo", "--endpoint-url", p.URL, "--allow-writes"); err == nil || !strings.Contains(err.Error(), "no write left to undo") {
		t.Errorf("a second undo: %v, want nothing left", err)
	}
	after := tableImage(t, sdk, table)
	if len(after) != len(before) {
		t.Fatalf("%d items after the undos, %d before", len(after), len(before))
	}
	for _, line := range after {
		sk := skOf(t, line)
		switch {
		case slices.Contains(theirs, sk):
			if want := strings.Replace(before[sk], `"OPEN"`, `"CANCELLED"`, 1); line != want {
				t.Errorf("%s: %s, want the second writer's %s", sk, line, want)
			}
		case line != before[sk]:
			t.Errorf("%s after the undos: %s, want %s", sk, line, before[sk])
		}
	}
}

// cancelWhileHeld is the second writer of ten ORDER items of CUST#7 from
// ORDER#first: once the first UpdateItem reached the proxy (which holds
// it back), it sets their status to CANCELLED; done is closed after.
func cancelWhileHeld(t *testing.T, p *dynamotest.Proxy, sdk *dynamodb.Client, table string, first int) (theirs []string, done chan struct{}) {
	t.Helper()
	for i := first; i < first+10; i++ {
		theirs = append(theirs, fmt.Sprintf("ORDER#%04d", i))
	}
	done = make(chan struct{})
	go func() {
		defer close(done)
		for p.Count("UpdateItem") == 0 {
			time.Sleep(2 * time.Millisecond)
		}
		for _, sk := range theirs {
			secondWriter(t, sdk, table, sk, "CANCELLED")
		}
	}()
	return theirs, done
}

// secondWriter sets CUST#7 sk's status to v, as another program would.
func secondWriter(t *testing.T, sdk *dynamodb.Client, table, sk, v string) {
	t.Helper()
	if _, err := sdk.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{TableName: &table,
		Key:              map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "CUST#7"}, "SK": &types.AttributeValueMemberS{Value: sk}},
		UpdateExpression: aws.String("SET #s = :v"), ExpressionAttributeNames: map[string]string{"#s": "status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": &types.AttributeValueMemberS{Value: v}}}); err != nil {
		t.Error(err)
	}
}

// skOf is the partition and sort key of an item line of tableImage.
func skOf(t *testing.T, line string) string {
	t.Helper()
	var it map[string]map[string]string
	if err := json.Unmarshal([]byte(line), &it); err != nil {
		t.Fatal(err)
	}
	if it["PK"]["S"] != "CUST#7" {
		return it["PK"]["S"] + " " + it["SK"]["S"]
	}
	return it["SK"]["S"]
}

// 40.1: --keys - reads the keys from standard input (the program's own
// stdin, as a pipe gives them): those items and no other are written.
func TestBulkKeysFromStdin(t *testing.T) {
	sdk, table := bulkTable(t, 6, 0)
	run := exec.Command("dynascope", "update", "--endpoint-url", dynamotest.Endpoint(t), "--table", table, "--keys", "-", "--set", "status=S:ARCHIVED",
		"--yes", "--allow-writes", "--output", "json")
	run.Stdin = strings.NewReader(`{"PK":"CUST#7","SK":"ORDER#0002"}` + "\n" + `{"PK":{"S":"CUST#7"},"SK":{"S":"ORDER#0004"}}` + "\n")
	var out, errb bytes.Buffer
	run.Stdout, run.Stderr = &out, &errb
	if err := run.Run(); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if s := sentOf(t, out.String()); !slices.Equal(sks(s.Written.Keys), []string{"ORDER#0002", "ORDER#0004"}) {
		t.Errorf("written %v, want ORDER#0002 and ORDER#0004", sks(s.Written.Keys))
	}
	if !strings.Contains(errb.String(), "the selection (2 keys from standard input)") {
		t.Errorf("stderr: %s", errb.String())
	}
	if n := strings.Count(strings.Join(tableImage(t, sdk, table), "\n"), `"ARCHIVED"`); n != 2 {
		t.Errorf("%d items ARCHIVED, want 2", n)
	}
}
