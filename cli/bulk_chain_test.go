package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"dynascope/dynamo/dynamotest"
)

// stoppedAndContinued is 40's "Done when" up to the undo: a bulk update of
// the n ORDER items of CUST#7 stopped by SIGINT part-way, then the
// printed command run, which names the entry it continues (--continues
// 1). Every item is written exactly once over both runs: the proxy saw n
// UpdateItem, the two runs wrote n distinct keys, and the journal holds
// one sent write of each key. It returns the proxy (the undo goes where
// the change went), the table as it was before and the count of items the
// rest sent.
func stoppedAndContinued(t *testing.T, n int) (sdk *dynamodb.Client, table string, p *dynamotest.Proxy, before []string, rest int) {
	t.Helper()
	sdk, table = bulkTable(t, n, 0)
	before = tableImage(t, sdk, table)
	p = dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	p.Inject(dynamotest.Rule{Op: "UpdateItem", Fault: dynamotest.Delay(20 * time.Millisecond)})
	out, stderr, status := signalAfter(t, p, "UpdateItem", n/4, os.Interrupt, "update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#7",
		"--entity", "ORDER", "--set", "status=S:ARCHIVED", "--yes", "--allow-writes", "--max-wcu-per-second", "200", "--output", "json")
	first := sentOf(t, out)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	lead := fmt.Sprintf("to send only the %d items left, run: ", first.Left.Count)
	cmd := strings.TrimPrefix(lines[len(lines)-1], lead)
	if status != exitInterrupted || first.Left.Count == 0 || first.Written.Count+first.Left.Count != n || !strings.HasPrefix(lines[len(lines)-1], lead) ||
		!strings.HasSuffix(cmd, " --continues 1") || !strings.Contains(cmd, " --keys ") {
		t.Fatalf("exit %d, written %d, left %d; stderr:\n%s", status, first.Written.Count, first.Left.Count, stderr)
	}
	p.ClearFaults()
	second := runBash(t, cmd)
	if second.Written.Count != first.Left.Count || second.Refused.Count != 0 || second.Journal == nil || second.Journal.Entry != 2 {
		t.Fatalf("the rest: written %d, refused %d, journal %+v; want the %d left, entry 2", second.Written.Count, second.Refused.Count, second.Journal, first.Left.Count)
	}
	both := slices.Concat(sks(first.Written.Keys), sks(second.Written.Keys))
	if got, distinct := p.Count("UpdateItem"), len(slices.Compact(slices.Sorted(slices.Values(both)))); got != n || distinct != n {
		t.Errorf("%d UpdateItem over both runs, %d distinct keys written; want one per item: %d", got, distinct, n)
	}
	if got := strings.Count(strings.Join(tableImage(t, sdk, table), "\n"), `"ARCHIVED"`); got != n {
		t.Errorf("%d items ARCHIVED, want %d", got, n)
	}
	var j struct {
		Entries []struct {
			Number int
			Items  []struct {
				Key   map[string]map[string]string
				State string
			}
		}
	}
	jout, _, err := cli(t, "journal", "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	decodeInto(t, jout, &j)
	sent := map[string]int{}
	for _, e := range j.Entries {
		for _, it := range e.Items {
			if it.State != "failed" { // failed: left, not sent
				sent[it.Key["SK"]["S"]]++
			}
		}
	}
	for sk, c := range sent {
		if c != 1 {
			t.Errorf("the journal holds %d sent writes of %s, want 1", c, sk)
		}
	}
	if len(j.Entries) != 2 || len(sent) != n {
		t.Errorf("%d entries, %d keys sent; want 2 entries and %d keys", len(j.Entries), len(sent), n)
	}
	// Run again, the printed command is refused before any read: its
	// items were sent by entry 2.
	calls := len(p.Calls())
	if _, _, err := cli(t, strings.Fields(strings.TrimPrefix(cmd, "dynascope "))...); err == nil || !strings.Contains(err.Error(), "was sent already by entry 2, which continues entry 1: nothing is sent twice") {
		t.Errorf("the rest again: %v", err)
	}
	if got := slices.DeleteFunc(p.Ops()[calls:], func(op string) bool { return op == "DescribeTable" }); len(got) != 0 {
		t.Errorf("the refused rest sent %v", got)
	}
	return sdk, table, p, before, first.Left.Count
}

// 40 "Done when", undo it all in one step: after a bulk update stopped
// by Ctrl-C and its rest sent, `journal` shows the link (continues 1);
// undo --entry 2 says it is part of a chain and what undo would take
// back; the preview of `undo` counts the items of both entries; then ONE
// `undo --allow-writes` takes back both, one UpdateItem per item, as one
// journal entry, and leaves the table byte-identical to before (a full
// read compared). A second undo finds nothing left.
func TestBulkChainCtrlCThenOneUndo(t *testing.T) {
	const n = 300
	sdk, table, p, before, rest := stoppedAndContinued(t, n)
	jout, _, err := cli(t, "journal")
	if err != nil || !strings.Contains(jout, "continues 1") {
		t.Fatalf("journal: %v\n%s", err, jout)
	}
	// A key entry 1 wrote (its first write goes out alone) is no rest of it.
	keys := filepath.Join(t.TempDir(), "keys.jsonl")
	if err := os.WriteFile(keys, []byte(`{"PK":"CUST#7","SK":"ORDER#0000"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := cli(t, "update", "--endpoint-url", p.URL, "--table", table, "--keys", keys, "--continues", "1", "--set", "status=S:X", "--yes", "--allow-writes"); err == nil ||
		!strings.Contains(err.Error(), `--continues 1: {"PK":"CUST#7","SK":"ORDER#0000"} of --keys `+keys+" is not an item entry 1 left unsent") {
		t.Errorf("--continues 1 of a key it wrote: %v", err)
	}
	dry, dstderr, err := cli(t, "undo", "--endpoint-url", p.URL, "--entry", "2", "--dry-run", "--output", "json")
	want := fmt.Sprintf("journal entry 2 continues entry 1: it is part of a chain, a bulk change stopped and its rest sent; this takes back only entry 2. 'dynascope undo --entry 2 --chain' takes back entries 2 and 1, %d items in all", n)
	if err != nil || previewOf(t, dry).ToWrite != rest || !strings.Contains(dstderr, want) {
		t.Errorf("undo --entry 2 --dry-run: %v, %d to write (want %d); stderr %q, want %q", err, previewOf(t, dry).ToWrite, rest, dstderr, want)
	}
	_, dstderr, _ = cli(t, "undo", "--endpoint-url", p.URL, "--entry", "1", "--dry-run")
	if !strings.Contains(dstderr, "journal entry 1 is continued by entry 2: it is part of a chain") {
		t.Errorf("undo --entry 1 --dry-run: stderr %q", dstderr)
	}
	dry, _, err = cli(t, "undo", "--endpoint-url", p.URL, "--dry-run", "--output", "json")
	if pre := previewOf(t, dry); err != nil || pre.ToWrite != n || pre.Selection != "journal entries 2 and 1 (a bulk change stopped and continued)" {
		t.Errorf("undo --dry-run: %v, %d to write of %q; want all %d of entries 2 and 1", err, pre.ToWrite, pre.Selection, n)
	}
	writes := p.Count("UpdateItem")
	out, stderr, err := cli(t, "undo", "--endpoint-url", p.URL, "--allow-writes", "--max-wcu-per-second", "100000", "--output", "json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if s := sentOf(t, out); s.Written.Count != n || s.Refused.Count != 0 || s.Journal == nil || s.Journal.Entry != 3 {
		t.Errorf("the undo: undone %d, refused %d, journal %+v; want %d undone as entry 3", s.Written.Count, s.Refused.Count, s.Journal, n)
	}
	if got := p.Count("UpdateItem") - writes; got != n {
		t.Errorf("the undo sent %d UpdateItem, want one per item: %d", got, n)
	}
	if after := tableImage(t, sdk, table); !slices.Equal(before, after) {
		t.Error("after one undo of the chain the table differs from before the change")
	}
	jout, _, err = cli(t, "journal")
	for _, want := range []string{"undone by 3, continues 1", "undoes 2 and 1"} {
		if err != nil || !strings.Contains(jout, want) {
			t.Errorf("journal lacks %q: %v\n%s", want, err, jout)
		}
	}
	var j struct {
		Entries []struct {
			Number, Undoes, Continues, UndoneBy int
			UndoesAlso                          []int
		}
	}
	jout, _, err = cli(t, "journal", "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	decodeInto(t, jout, &j)
	if got := fmt.Sprintf("%+v", j.Entries); got != "[{Number:1 Undoes:0 Continues:0 UndoneBy:3 UndoesAlso:[]} {Number:2 Undoes:0 Continues:1 UndoneBy:3 UndoesAlso:[]} {Number:3 Undoes:2 Continues:0 UndoneBy:0 UndoesAlso:[1]}]" {
		t.Errorf("journal --output json: %s", got)
	}
	if _, _, err := cli(t, "undo", "--endpoint-url", p.URL, "--allow-writes"); err == nil || !strings.Contains(err.Error(), "no write left to undo") {
		t.Errorf("a second undo: %v, want nothing left", err)
	}
}

// 40.4 for the chain: Ctrl-C during the one undo of a change stopped and
// continued works as for one entry: the writes in flight finish, what was
// undone and left is said, and the printed command (--entry 2 --chain
// --keys FILE) undoes only the items left, of whichever entry; every item
// is undone once over both runs and the table is byte-identical to
// before.
func TestBulkChainUndoCtrlCThenTheRest(t *testing.T) {
	const n = 300
	sdk, table, p, before, _ := stoppedAndContinued(t, n)
	writes := p.Count("UpdateItem")
	undos := func() int { return p.Count("UpdateItem") - writes }
	p.Inject(dynamotest.Rule{Op: "UpdateItem", Fault: dynamotest.Delay(20 * time.Millisecond)})
	out, stderr, status := signalAfter(t, p, "UpdateItem", writes+n/4, os.Interrupt, "undo", "--endpoint-url", p.URL, "--allow-writes", "--max-wcu-per-second", "200", "--output", "json")
	first := sentOf(t, out)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	lead := fmt.Sprintf("to undo only the %d items left, run: ", first.Left.Count)
	cmd := strings.TrimPrefix(lines[len(lines)-1], lead)
	if status != exitInterrupted || first.Left.Count == 0 || first.Written.Count+first.Left.Count != n || !strings.HasPrefix(lines[len(lines)-1], lead) ||
		!strings.Contains(cmd, " --entry 2 --chain --keys ") {
		t.Fatalf("exit %d, undone %d, left %d; stderr:\n%s", status, first.Written.Count, first.Left.Count, stderr)
	}
	if want := fmt.Sprintf("undo entries 2 and 1: stopped by Ctrl-C after the writes in flight: %d undone, 0 refused (changed since), 0 in doubt, 0 not landed (nothing to undo), %d left (not undone)",
		first.Written.Count, first.Left.Count); !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	p.ClearFaults()
	second := runBash(t, cmd)
	if second.Written.Count != first.Left.Count || second.Refused.Count != 0 {
		t.Errorf("the rest of the undo: undone %d, refused %d; want the %d left", second.Written.Count, second.Refused.Count, first.Left.Count)
	}
	both := slices.Concat(sks(first.Written.Keys), sks(second.Written.Keys))
	if distinct := len(slices.Compact(slices.Sorted(slices.Values(both)))); len(both) != n || distinct != n || undos() != n {
		t.Errorf("%d undone in the two runs, %d distinct, %d writes sent; want each of the %d once", len(both), distinct, undos(), n)
	}
	if after := tableImage(t, sdk, table); !slices.Equal(before, after) {
		t.Error("after the stopped undo of the chain and its rest the table differs from before the change")
	}
	if _, _, err := cli(t, "undo", "--endpoint-url", p.URL, "--allow-writes"); err == nil || !strings.Contains(err.Error(), "no write left to undo") {
		t.Errorf("undo after: %v, want nothing left", err)
	}
}

// --continues is refused in one sentence, nothing written: without
// --keys (before anything connects), of an entry the journal lacks, of an
// entry that left nothing (it ran to the end), and with a key that entry
// did not leave.
func TestBulkContinuesRefused(t *testing.T) {
	sdk, table := bulkTable(t, 4, 0)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	keys := filepath.Join(t.TempDir(), "keys.jsonl")
	if err := os.WriteFile(keys, []byte(`{"PK":"CUST#7","SK":"ORDER#0001"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := []string{"update", "--endpoint-url", p.URL, "--table", table, "--set", "status=S:ARCHIVED", "--yes", "--allow-writes"}
	if _, _, err := cli(t, append(base, "--pk", "CUST#7", "--entity", "ORDER", "--continues", "1")...); err == nil || !strings.Contains(err.Error(), "give it with --keys") || len(p.Calls()) != 0 {
		t.Errorf("--continues without --keys: %v after %d requests", err, len(p.Calls()))
	}
	if _, _, err := cli(t, append(base, "--keys", keys, "--continues", "9")...); err == nil || !strings.Contains(err.Error(), "--continues 9: the journal has no entry 9") {
		t.Errorf("--continues of no entry: %v", err)
	}
	if _, _, err := cli(t, append(base, "--pk", "CUST#7", "--sk-begins-with", "ORDER#000", "--max-wcu-per-second", "10000")...); err != nil {
		t.Fatal(err)
	}
	img := tableImage(t, sdk, table)
	if _, _, err := cli(t, append(base, "--keys", keys, "--continues", "1")...); err == nil || !strings.Contains(err.Error(), "journal entry 1 is no bulk change stopped with items left") {
		t.Errorf("--continues of a change that ran to the end: %v", err)
	}
	if !slices.Equal(img, tableImage(t, sdk, table)) {
		t.Error("a refused --continues changed the table")
	}
}
