package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/config"
	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
)

// --keys: the items a file of keys names, in dynascope's plain form and
// the AWS CLI's, a key given twice read once, a key no item has listed as
// missing; one GetItem each, strongly consistent, its cost said first;
// then sent, only those items written. A line that is no key is one
// sentence, before any request.
func TestBulkKeysFile(t *testing.T) {
	sdk, table := bulkTable(t, 10, 0)
	before := tableImage(t, sdk, table)
	path := filepath.Join(t.TempDir(), "keys.jsonl")
	keys := `{"PK":"CUST#7","SK":"ORDER#0001"}

{"PK":{"S":"CUST#7"},"SK":{"S":"ORDER#0003"}}
{"PK":"CUST#7","SK":"ORDER#0001"}
{"PK":"CUST#8","SK":"ORDER#0001"}
{"PK":"CUST#9","SK":"NONE"}
`
	if err := os.WriteFile(path, []byte(keys), 0o600); err != nil {
		t.Fatal(err)
	}
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	args := []string{"update", "--endpoint-url", p.URL, "--table", table, "--keys", path, "--set", "status=S:ARCHIVED", "--output", "json"}
	out, stderr, err := cli(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	pre := previewOf(t, out)
	var missing struct{ Missing []map[string]string }
	decodeInto(t, out, &missing)
	if pre.Selected != 3 || pre.ToWrite != 3 || len(missing.Missing) != 1 || missing.Missing[0]["PK"] != "CUST#9" || pre.ReadRequests != 4 {
		t.Errorf("preview: selected %d, to write %d, missing %v, %d reads; want 3, 3, CUST#9, 4", pre.Selected, pre.ToWrite, missing.Missing, pre.ReadRequests)
	}
	if n := p.Count("GetItem"); n != 4 || p.Count("Query")+p.Count("Scan") != 0 {
		t.Errorf("%d GetItem (want 4, one per distinct key) and %d Query/Scan", n, p.Count("Query")+p.Count("Scan"))
	}
	if !strings.Contains(stderr, "the selection (4 keys from "+path+") reads each item once, strongly consistent: 4 GetItem requests, at least 4 RCU") {
		t.Errorf("the cost is not said first: %q", stderr)
	}
	if !slices.Equal(before, tableImage(t, sdk, table)) {
		t.Fatal("the preview changed the table")
	}
	out, _, err = cli(t, append(args, "--yes", "--allow-writes")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	s := sentOf(t, out)
	if got := sks(s.Written.Keys); s.Written.Count != 3 || !slices.Equal(got, []string{"ORDER#0001", "ORDER#0003", "ORDER#0001"}) {
		t.Errorf("written %v", got)
	}
	if n := strings.Count(strings.Join(tableImage(t, sdk, table), "\n"), `"ARCHIVED"`); n != 3 {
		t.Errorf("%d items ARCHIVED, want 3", n)
	}
	// The mistakes, each one sentence before any request.
	calls := len(p.Calls())
	for _, c := range []struct{ text, want string }{
		{`{"PK":"CUST#7"}`, "line 1 lacks the sort key SK of table " + table},
		{"{\"PK\":\"CUST#7\",\"SK\":\"A\"}\nnot json", "line 2 is not JSON"},
		{"\n\n", "holds no key"},
		{`{"PK":"CUST#7","SK":"A","x":"y"}`, "which is not a key attribute of " + table + "; a key holds only PK, SK."},
	} {
		if err := os.WriteFile(path, []byte(c.text), 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, err := cli(t, args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
	if n := len(p.Calls()) - calls; n != 4 { // each run's DescribeTable, no read of an item
		t.Errorf("%d requests for 4 bad files, want only their DescribeTable", n)
	}
	if _, _, err := cli(t, "update", "--endpoint-url", p.URL, "--table", table, "--keys", filepath.Join(t.TempDir(), "none"), "--set", "a=S:b"); err == nil || !strings.Contains(err.Error(), "cannot read it") {
		t.Errorf("a missing file: %v", err)
	}
}

// Ctrl-C mid-way through a bulk update: the writes in flight finish, the
// summary says what was written, refused and left, the exit status is
// 130, and the last line is the command that sends only the items left
// (--keys of a file of their keys). Run, it writes exactly those: the
// version attribute (total, which every write increments) is one more
// than seeded on every item, so none was written twice, and every item
// is written.
func TestBulkCtrlCThenTheRest(t *testing.T) {
	const n = 120
	sdk, table := bulkTable(t, n, 0)
	settings := filepath.Join(t.TempDir(), "settings.yaml")
	if err := os.WriteFile(settings, []byte("versionAttribute: total\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(config.EnvSettings, settings)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	p.Inject(dynamotest.Rule{Op: "UpdateItem", Fault: dynamotest.Delay(50 * time.Millisecond)})
	out, stderr, status := signalAfter(t, p, "UpdateItem", 20, os.Interrupt, "update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#7",
		"--entity", "ORDER", "--set", "status=S:ARCHIVED", "--yes", "--allow-writes", "--max-wcu-per-second", "60", "--output", "json")
	first := sentOf(t, out)
	t.Logf("stderr of the stopped run:\n%s", stderr)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	lead := fmt.Sprintf("to send only the %d items left, run: ", first.Left.Count)
	if status != exitInterrupted || first.Left.Count == 0 || first.Written.Count+first.Left.Count != n || !strings.HasPrefix(last, lead) {
		t.Fatalf("exit %d, written %d, left %d; stderr:\n%s", status, first.Written.Count, first.Left.Count, stderr)
	}
	if !strings.Contains(stderr, fmt.Sprintf("stopped by Ctrl-C after the writes in flight: %d written, 0 refused, 0 in doubt, %d left (not sent)", first.Written.Count, first.Left.Count)) {
		t.Errorf("stderr:\n%s", stderr)
	}
	if p.Count("UpdateItem") != first.Written.Count {
		t.Errorf("%d UpdateItem requests, %d written: a write in flight was dropped", p.Count("UpdateItem"), first.Written.Count)
	}
	cmd := strings.TrimPrefix(last, lead)
	if !strings.HasPrefix(cmd, "dynascope update ") || !strings.Contains(cmd, " --keys ") || strings.Contains(cmd, "--entity") || strings.Contains(cmd, "--pk") {
		t.Fatalf("the command: %s", cmd)
	}
	run := exec.Command("bash", "-c", cmd)
	var rout, rerr bytes.Buffer
	run.Stdout, run.Stderr = &rout, &rerr
	if err := run.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, rerr.String())
	}
	rest := sentOf(t, rout.String())
	if rest.Selected != first.Left.Count || rest.Written.Count != first.Left.Count || rest.Unchanged.Count != 0 {
		t.Errorf("the rest: selected %d, written %d, unchanged %d; want the %d left", rest.Selected, rest.Written.Count, rest.Unchanged.Count, first.Left.Count)
	}
	if both := slices.Concat(sks(first.Written.Keys), sks(rest.Written.Keys)); len(both) != n || len(slices.Compact(slices.Sorted(slices.Values(both)))) != n {
		t.Errorf("%d written in the two runs, %d distinct; want each of the %d once", len(both), len(slices.Compact(slices.Sorted(slices.Values(both)))), n)
	}
	for _, line := range tableImage(t, sdk, table) {
		var it map[string]map[string]string
		if err := json.Unmarshal([]byte(line), &it); err != nil {
			t.Fatal(err)
		}
		if it["PK"]["S"] != "CUST#7" || !strings.HasPrefix(it["SK"]["S"], "ORDER#") {
			if it["status"]["S"] != "OPEN" {
				t.Errorf("outside the selection: %s", line)
			}
			continue
		}
		var i int
		fmt.Sscanf(it["SK"]["S"], "ORDER#%d", &i)
		if it["status"]["S"] != "ARCHIVED" || it["total"]["N"] != fmt.Sprint(11+i) {
			t.Errorf("%s: want ARCHIVED and total %d (written once)", line, 11+i)
		}
	}
}

// 6: the undo of a bulk change one of whose writes got no answer (in
// doubt) and never landed: that item is reported not landed, nothing to
// undo — not refused, not undone — the others are undone, the undo ends
// well, and the table is as before.
func TestBulkUndoOfAnItemThatNeverLanded(t *testing.T) {
	sdk, table := bulkTable(t, 12, 0)
	before := tableImage(t, sdk, table)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	p.Inject(dynamotest.Rule{Op: "UpdateItem", From: 4, Count: 1, Fault: dynamotest.Hang})
	out, _, err := cli(t, "update", "--endpoint-url", p.URL, "--timeout", "3s", "--table", table, "--pk", "CUST#7", "--entity", "ORDER",
		"--set", "status=S:ARCHIVED", "--yes", "--allow-writes", "--max-wcu-per-second", "1000", "--output", "json")
	s := sentOf(t, out)
	if err == nil || s.InDoubt.Count != 1 || s.Written.Count != 11 {
		t.Fatalf("the change: %v; %d in doubt, %d written; want 1 and 11", err, s.InDoubt.Count, s.Written.Count)
	}
	doubt := s.InDoubt.Keys[0]["SK"]
	p.ClearFaults()
	out, _, err = cli(t, "undo", "--endpoint-url", p.URL, "--allow-writes", "--output", "json")
	if err != nil {
		t.Fatalf("the undo: %v\n%s", err, out)
	}
	var u struct {
		Written, Refused, NotLanded struct {
			Count int
			Keys  []map[string]string
		}
	}
	decodeInto(t, out, &u)
	if u.Written.Count != 11 || u.Refused.Count != 0 || u.NotLanded.Count != 1 || u.NotLanded.Keys[0]["SK"] != doubt {
		t.Errorf("undo: %d undone, %d refused, not landed %v; want 11, 0 and %s", u.Written.Count, u.Refused.Count, u.NotLanded.Keys, doubt)
	}
	if !slices.Equal(before, tableImage(t, sdk, table)) {
		t.Error("after the undo the table differs from before")
	}
	jout, _, err := cli(t, "journal")
	if err != nil || !strings.Contains(jout, "undoes 1; 11 done, 1 not landed (nothing to undo)") {
		t.Errorf("journal: %v\n%s", err, jout)
	}
	out, _, _ = cli(t, "undo", "-h")
	if !strings.Contains(out, "take back a journalled write or bulk change") {
		t.Errorf("undo's help: %s", out)
	}
}

// --filter: sent as the selection's FilterExpression, the items it keeps
// changed and no other, the read's charge for every item read said; a
// word the filter reads as a name though it looks like a value is warned
// of; with a sort-key condition too.
func TestBulkFilter(t *testing.T) {
	sdk, table := bulkTable(t, 20, 5) // ORDER#0000..0004 ARCHIVED
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	args := []string{"update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#7", "--filter", `status = "ARCHIVED"`, "--set", "note=S:old", "--output", "json"}
	out, stderr, err := cli(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var pre struct {
		Selected, ToWrite, ReadItems int
		Filter                       string
	}
	decodeInto(t, out, &pre)
	if pre.Selected != 5 || pre.ToWrite != 5 || pre.ReadItems != 22 || pre.Filter != `status = "ARCHIVED"` {
		t.Errorf("preview %+v; want 5 of the 22 items of CUST#7 read", pre)
	}
	out, _, err = cli(t, "update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#7", "--filter", `status = "ARCHIVED"`, "--set", "note=S:old")
	if err != nil || !strings.Contains(out, "filter: kept 5 of 22 read; the ") {
		t.Errorf("text preview: %v\n%s", err, out)
	}
	out, _, err = cli(t, append(args[:len(args)-2], "--sk-begins-with", "ORDER#000", "--yes", "--allow-writes", "--output", "json")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if s := sentOf(t, out); s.Written.Count != 5 || s.Selected != 5 {
		t.Errorf("sent: %d written of %d", s.Written.Count, s.Selected)
	}
	img := strings.Join(tableImage(t, sdk, table), "\n")
	if strings.Count(img, `"note":{"S":"old"}`) != 5 {
		t.Errorf("%d items with the new note, want the 5 ARCHIVED", strings.Count(img, `"note":{"S":"old"}`))
	}
	_, stderr, _ = cli(t, "update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#7", "--filter", "status = OPEN", "--set", "note=S:x")
	if !strings.Contains(stderr, "warning: --filter: ") || !strings.Contains(stderr, "OPEN") {
		t.Errorf("no warning of OPEN read as a name: %s", stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--sk", "ORDER#0001"}, "--sk names one item and --filter selects many"},
	} {
		_, _, err := cli(t, append([]string{"update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#7", "--filter", "a = 1", "--set", "n=S:x"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}

// --filter with --entity: the read is the type's prefix as its key
// condition with the filter on top, so only that type's items are read
// and charged (21, not the partition's 24); a type sharing the prefix
// (ORDERLINE) is read but left out; the preview says what the filter
// kept of what was read and the RCU charged for all of it.
func TestBulkEntityFilter(t *testing.T) {
	sdk, table := bulkTable(t, 20, 5) // ORDER#0000..0004 ARCHIVED, PROFILE, NOTE#1
	for _, sk := range []string{"ORDERLINE#1", "NOTE#2"} {
		_, err := sdk.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: &table, Item: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "CUST#7"}, "SK": &types.AttributeValueMemberS{Value: sk}, "status": &types.AttributeValueMemberS{Value: "ARCHIVED"}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	base := []string{"update", "--endpoint-url", dynamotest.Endpoint(t), "--table", table, "--pk", "CUST#7", "--entity", "ORDER", "--filter", `status = "ARCHIVED"`, "--set", "note=S:old"}
	out, stderr, err := cli(t, append(base, "--output", "json")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var pre struct {
		Selected, ToWrite, ReadItems int
	}
	decodeInto(t, out, &pre)
	if pre.Selected != 5 || pre.ToWrite != 5 || pre.ReadItems != 21 {
		t.Errorf("preview %+v; want 5 selected of the 21 items read under ORDER", pre)
	}
	out, _, err = cli(t, base...)
	if err != nil || !strings.Contains(out, "filter: kept 6 of 21 read; the ") || !strings.Contains(out, "entity ORDER, filter status") {
		t.Errorf("text preview: %v\n%s", err, out)
	}
	out, stderr, err = cli(t, append(base, "--yes", "--allow-writes", "--output", "json")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if s := sentOf(t, out); s.Written.Count != 5 || !slices.Equal(sks(s.Written.Keys), []string{"ORDER#0000", "ORDER#0001", "ORDER#0002", "ORDER#0003", "ORDER#0004"}) {
		t.Errorf("written %v", sks(s.Written.Keys))
	}
	img := strings.Join(tableImage(t, sdk, table), "\n")
	if strings.Count(img, `"note":{"S":"old"}`) != 5 {
		t.Errorf("%d items with the new note, want the 5 ARCHIVED orders", strings.Count(img, `"note":{"S":"old"}`))
	}
}

// --index: the items an index's partition (and sort-key condition) holds,
// each written by its table key. A KEYS_ONLY index's items are read from
// the table for their images (one strongly consistent GetItem each, the
// cost said first); an ALL index's image is the read's own. Nothing
// outside the selection changes.
func TestBulkIndex(t *testing.T) {
	in := dynamotest.WithGSI(dynamotest.PKSK(), "ByStatus", "status", "S", "SK", "S", types.ProjectionTypeKeysOnly)
	in = dynamotest.WithGSI(in, "AllByStatus", "status", "S", "SK", "S", types.ProjectionTypeAll)
	sdk, table := bulkTableOf(t, in, 12, 4, 0) // ORDER#0000..0003 ARCHIVED
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	for _, c := range []struct {
		index string
		gets  int
		note  string
	}{
		{"ByStatus", 4, "index ByStatus is KEYS_ONLY: the write's condition needs each item's whole image, so it is read from the table, strongly consistent: 4 GetItem requests"},
		{"AllByStatus", 0, "index AllByStatus projects every attribute: each write is conditional on the index's image, eventually consistent"},
	} {
		gets := p.Count("GetItem")
		out, stderr, err := cli(t, "update", "--endpoint-url", p.URL, "--table", table, "--index", c.index, "--pk", "ARCHIVED", "--sk-begins-with", "ORDER#",
			"--set", "note=S:"+c.index, "--yes", "--allow-writes", "--output", "json")
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.index, err, stderr)
		}
		s := sentOf(t, out)
		if s.Selected != 4 || s.Written.Count != 4 || !slices.Equal(sks(s.Written.Keys), []string{"ORDER#0000", "ORDER#0001", "ORDER#0002", "ORDER#0003"}) {
			t.Errorf("%s: selected %d, written %v", c.index, s.Selected, sks(s.Written.Keys))
		}
		if n := p.Count("GetItem") - gets; n != c.gets || !strings.Contains(stderr, c.note) || !strings.Contains(stderr, "eventually consistent (a GSI offers no other)") {
			t.Errorf("%s: %d GetItem, want %d; stderr:\n%s", c.index, n, c.gets, stderr)
		}
		img := strings.Join(tableImage(t, sdk, table), "\n")
		if strings.Count(img, `"note":{"S":"`+c.index+`"}`) != 4 {
			t.Errorf("%s: %d items changed, want 4", c.index, strings.Count(img, `"note":{"S":"`+c.index+`"}`))
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--index", "Nope", "--pk", "X"}, "has no index named \"Nope\""},
		{[]string{"--index", "ByStatus", "--pk", "X", "--entity", "ORDER"}, "--index and --entity together are not taken"},
		{[]string{"--index", "ByStatus", "--keys", "-"}, "--filter and --index shape a query's read, and --keys reads item by item"},
	} {
		_, _, err := cli(t, append([]string{"update", "--endpoint-url", p.URL, "--table", table, "--set", "n=S:x"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}

// --rename and --set-default: the preview counts each change per
// attribute and lists the items whose new name is taken (skipped, not
// sent, unless --overwrite); sent, each item's condition holds the new
// name absent; the default goes only where the attribute is absent; the
// journal's one entry takes it all back, byte for byte.
func TestBulkRenameAndDefault(t *testing.T) {
	sdk, table := bulkTable(t, 10, 0)
	ep := dynamotest.Endpoint(t)
	for _, sk := range []string{"ORDER#0002", "ORDER#0005"} { // these have the new name already; 0005 the default's too
		set := "SET #n = :v"
		names := map[string]string{"#n": "remark"}
		if sk == "ORDER#0005" {
			set, names["#t"] = set+", #t = :t", "tier"
		}
		vals := map[string]types.AttributeValue{":v": &types.AttributeValueMemberS{Value: "theirs"}}
		if sk == "ORDER#0005" {
			vals[":t"] = &types.AttributeValueMemberS{Value: "gold"}
		}
		if _, err := sdk.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{TableName: aws.String(table),
			Key:              map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "CUST#7"}, "SK": &types.AttributeValueMemberS{Value: sk}},
			UpdateExpression: aws.String(set), ExpressionAttributeNames: names, ExpressionAttributeValues: vals}); err != nil {
			t.Fatal(err)
		}
	}
	before := tableImage(t, sdk, table)
	args := []string{"update", "--endpoint-url", ep, "--table", table, "--pk", "CUST#7", "--entity", "ORDER", "--rename", "note=remark", "--set-default", "tier=S:basic", "--output", "json"}
	out, _, err := cli(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	var pre struct {
		Selected, ToWrite int
		Command           string
		Changes           []edit.AttrChange
		Skipped           []struct {
			Key    map[string]string
			Reason string
		}
	}
	decodeInto(t, out, &pre)
	want := []edit.AttrChange{{Attribute: "note", Change: "-", Items: 8}, {Attribute: "remark", Change: "+", Items: 8}, {Attribute: "tier", Change: "+", Items: 8}}
	if pre.Selected != 10 || pre.ToWrite != 8 || !slices.Equal(pre.Changes, want) || len(pre.Skipped) != 2 || pre.Skipped[0].Key["SK"] != "ORDER#0002" ||
		!strings.Contains(pre.Skipped[0].Reason, "the item has remark already (--overwrite replaces it)") || strings.Count(pre.Command, "attribute_not_exists") != 2 {
		t.Fatalf("preview %+v", pre)
	}
	out, _, err = cli(t, append(args, "--yes", "--allow-writes")...)
	if err == nil || !strings.Contains(err.Error(), "8 written, 0 refused, 0 in doubt, 0 left, 2 skipped") {
		t.Fatalf("sent: %v\n%s", err, out)
	}
	if s := sentOf(t, out); s.Written.Count != 8 {
		t.Errorf("%d written", s.Written.Count)
	}
	// --overwrite then takes the two, and the default stays off 0005.
	out, _, err = cli(t, append(args, "--overwrite", "--yes", "--allow-writes")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if s := sentOf(t, out); s.Written.Count != 2 || s.Unchanged.Count != 8 {
		t.Errorf("with --overwrite: %d written, %d unchanged; want 2 and 8", s.Written.Count, s.Unchanged.Count)
	}
	img := strings.Join(tableImage(t, sdk, table), "\n")
	if strings.Count(img, `"note":`) != 0 || strings.Count(img, `"remark":{"S":"n"}`) != 10 || strings.Count(img, `"tier":{"S":"basic"}`) != 9 || strings.Count(img, `"tier":{"S":"gold"}`) != 1 {
		t.Errorf("after both: %s", img)
	}
	for range 2 {
		if _, _, err := cli(t, "undo", "--endpoint-url", ep, "--allow-writes"); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(before, tableImage(t, sdk, table)) {
		t.Error("after two undos the table differs from before")
	}
}
