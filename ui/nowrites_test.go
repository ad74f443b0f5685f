package ui

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"dynascope/config"
	"dynascope/demodata"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/patterns"
	"dynascope/ui/overlay"
)

// exploreOps are the only operations the UI may send: the least-privilege
// policy in the README allows exactly these. (The CLI half of this proof is
// nowrites_test.go at the root.)
var exploreOps = []string{"ListTables", "DescribeTable", "Query", "GetItem", "Scan", "ExecuteStatement"}

// demoTable seeds the demo data set into a table of its own, removed when
// the test ends.
func demoTable(t *testing.T) (table, endpoint string) {
	t.Helper()
	api := dynamotest.SDK(t)
	endpoint = dynamotest.Endpoint(t)
	table = dynamotest.UniqueName("ui-demo")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, _ = api.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	})
	if _, err := dynamo.EnsureTable(ctx, api, demodata.TableSpec(table)); err != nil {
		t.Fatalf("create the demo table: %v", err)
	}
	if _, err := dynamo.Seed(ctx, api, table, demodata.Items(), dynamo.SeedOptions{}); err != nil {
		t.Fatalf("seed the demo table: %v", err)
	}
	return table, endpoint
}

// files lists the files under dirs with their contents.
func files(t *testing.T, dirs ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			out[p] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// Every action of the UI, driven through Update with the real client and a
// recording proxy in front of DynamoDB Local: nothing but reads reaches
// DynamoDB. Saving a pattern writes the patterns file, and only that file
// (besides the partition history dynascope keeps in its own folder).
func TestUINeverWrites(t *testing.T) {
	table, ep := demoTable(t)
	p := dynamotest.StartProxy(t, ep)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a guard against a hang, not a measure: the whole walk-through runs under it
	defer cancel()
	shop := []dynamo.Item{ // a partition that names its entity types in EntityType (b)
		{"PK": s("SHOP#1"), "SK": s("c#1"), "EntityType": s("order")},
		{"PK": s("SHOP#1"), "SK": s("p#1"), "EntityType": s("orderItem")},
		{"PK": s("SHOP#1"), "SK": s("p#2"), "EntityType": s("orderItem")},
	}
	if _, err := dynamo.Seed(ctx, dynamotest.SDK(t), table, shop, dynamo.SeedOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	// With --debug's middleware in the client: it reads what passes, and
	// must send nothing of its own.
	client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: p.URL, Region: "us-east-1", Debug: dynamo.DebugBodies, DebugTo: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	set, patternsPath := demoPatterns(t)
	patternsDir, configDir := filepath.Dir(patternsPath), t.TempDir()
	before := files(t, patternsDir, configDir)

	again := []config.Choice{{Name: "again", Profile: true}}
	switchTo := func(context.Context, config.Choice) (Switched, error) {
		return Switched{Store: client, Region: "us-east-1", Endpoint: p.URL, Profile: "again"}, nil
	}
	hs := newHarnessOn(t, Options{Store: client, Region: "us-east-1", Endpoint: p.URL, ConfigDir: configDir,
		Patterns: set, PatternsPath: patternsPath, Connections: again, Switch: switchTo}, 120, 35)
	queries := func() int { return p.Count("Query") }

	// The table picker: listed, described, filtered, opened.
	hs.contains("Tables · ")
	hs.keys("ctrl+n", "end", "home", "ctrl+p")
	hs.typeText(table)
	hs.contains(table, "PK S / SK S", "GSI1 GSI")
	hs.keys("enter")
	hs.contains("Open a partition")
	// The overview from the prompt, and back.
	hs.keys("ctrl+o")
	hs.contains("Table overview")
	hs.keys("esc")
	hs.contains("Open a partition")
	// Tab completion of a partition key, then the whole key by hand.
	hs.typeText("CUST#4")
	hs.keys("tab", "ctrl+u")
	// The partition prompt: CUST#42 fits one page, so opening it is one Query.
	hs.typeText("CUST#42")
	q0 := queries()
	hs.keys("enter")
	if n := queries() - q0; n != 1 {
		t.Errorf("opening CUST#42 sent %d queries, want 1", n)
	}
	hs.contains("Entity types · 2", "Items · 3 loaded", "1 page holds it all:")
	// Writes are off: the editing keys do nothing in either pane, not
	// even open a form, and send nothing.
	calls := len(p.Calls())
	for _, k := range []string{"E", "d", "D", "N", "u", "tab", "E", "d", "D", "N", "u", "enter", "E", "d", "D", "u", "esc", "tab"} {
		hs.keys(k)
		if id := hs.m.topID(); id != overlay.None && id != overlay.DetailID {
			t.Fatalf("with writes off, %s opened overlay.Overlay %d", k, id)
		}
	}
	hs.lacks("WRITES ON")
	hs.contains("READ-ONLY")
	if n := len(p.Calls()) - calls; n != 0 {
		t.Errorf("the editing keys sent %d requests with writes off", n)
	}
	// The live pane without a stream reader says so and sends nothing
	// (TestLivePane tails a stream through a recording proxy).
	calls = len(p.Calls())
	hs.keys("T")
	hs.contains("needs DynamoDB Streams")
	if n := len(p.Calls()) - calls; n != 0 {
		t.Errorf("T without streams sent %d requests", n)
	}
	// History: back to the prompt, up for the last partition, open it again.
	hs.keys("p", "ctrl+u", "up")
	hs.contains("opened before", "CUST#42")
	hs.keys("enter")
	// An entity type, then the sort-key condition with each operator.
	hs.keys("j", "enter")
	hs.contains(`begins_with(SK, "ORDER#")`, "Items · 2 loaded")
	for _, cond := range []string{`= PROFILE`, `< ORDER$`, `<= ORDER$`, `> ORDER#`, `>= ORDER$`, `between "ORDER#" and "ORDER$"`, `begins_with ORDER#`} {
		hs.keys("e", "ctrl+u")
		hs.typeText(cond)
		hs.keys("enter")
		hs.lacks("✗")
	}
	// An empty result (the sort key typed with the wrong delimiter): why
	// it is empty, its Queries reads only; then the condition as it was.
	hs.keys("e", "ctrl+u")
	hs.typeText(`= ORDER|2025-03-01|A17`)
	hs.keys("enter", "w")
	hs.contains("Why empty", "what differs", "← delimiter")
	hs.keys("esc", "e", "ctrl+u")
	hs.typeText(`begins_with ORDER#`)
	hs.keys("enter")
	// Reverse, Limit, the next page, consistent reads on and off.
	hs.keys("r", "l", "1", "enter")
	hs.contains("ScanIndexForward=false  Limit=1", "Items · 1+ loaded", "ORDER#2025-03-01#A17")
	hs.keys("n")
	hs.contains("Items · 2", "page 2")
	hs.keys("c")
	hs.contains("ConsistentRead=true")
	hs.keys("c")
	// The item: detail, every view, copies (OSC 52 writes to the terminal only).
	// (A status message belongs to the screen it was made on: read it
	// before the detail closes.)
	hs.keys("tab", "enter", "t", "t", "t", "y", "Y")
	hs.contains("copied a get-item of this item")
	hs.keys("q")
	// The local filter.
	hs.keys("/")
	hs.typeText("A17")
	hs.keys("enter", "esc")
	// The request log and the code of a request in it, every language copied.
	hs.keys("L", "k", "C")
	hs.contains("Code · request")
	hs.keys("y", "tab", "y", "tab", "y", "shift+tab", "esc", "q")
	// Count a type, announced then confirmed.
	hs.keys("tab", "g", "j", "#", "y")
	hs.contains("ORDER 2 — counted in 1 request")
	// The index switch by hand: GSI1, then back to the table and CUST#42.
	hs.keys("i", "j", "enter")
	hs.typeText("WH#2")
	hs.keys("enter")
	hs.contains(`GSI1PK = "WH#2"`, "index GSI1")
	// An index entry opened in the base table (I), and esc back.
	hs.keys("tab", "enter", "I", "enter")
	hs.contains("base table ‹ from GSI1 WH#2", "opened the item in base table")
	hs.keys("esc")
	hs.contains(`GSI1PK = "WH#2"`, "back to GSI1 WH#2")
	// Follow the keys: the partitions the entry names, each confirmed by
	// a Limit 1 Query (reads only).
	q0 = queries()
	hs.keys("tab", "enter", "F")
	hs.contains("Follow the keys", "CUST#")
	if n := queries() - q0; n == 0 || n > maxLinks {
		t.Errorf("following the keys sent %d queries, want 1 to %d", n, maxLinks)
	}
	hs.keys("esc", "q", "tab")
	hs.keys("i", "g", "enter", "ctrl+u")
	hs.typeText("CUST#42")
	hs.keys("enter")
	hs.contains("base table", "Items · 3 loaded")
	// Patterns: the done-when, latest order of customer 42, one request of 0.5 RCU.
	hs.keys("a", "g", "j", "enter", "enter")
	if items := memItems(hs.m.items); len(items) != 1 || keyOf(items[0], "SK") != "ORDER#2025-03-01#A17" {
		t.Errorf("latest order gave %d items: %v", len(items), items)
	}
	last := hs.m.log.Reqs[len(hs.m.log.Reqs)-1]
	if last.Capacity.Total != 0.5 || last.Count != 1 || last.Limit != 1 || last.Forward {
		t.Errorf("latest order's request = %+v, want 1 item, newest first, Limit 1, 0.5 RCU", last)
	}
	hs.contains(`pattern "latest order": 1 item in 1 request, 0.5 RCU`)
	// A GetItem pattern, its code from the list, and a pattern through GSI1.
	choosePattern(hs, "customer profile")
	hs.keys("C", "tab", "y", "esc", "enter", "enter")
	hs.contains(`GetItem PK = "CUST#42" AND SK = "PROFILE"`, "Items · 1 loaded")
	choosePattern(hs, "open orders for a warehouse")
	hs.keys("enter", "enter")
	hs.contains("index GSI1", `GSI1PK = "WH#1"`)
	hs.lacks("✗")
	// The current request's code, then saving it as a pattern.
	hs.keys("C", "y", "esc", "S")
	hs.typeText("warehouse 1 queue")
	hs.keys("enter")
	hs.contains(`saved pattern "warehouse 1 queue"`)
	// A partition bigger than a page: the skip-scan, then the next page.
	hs.keys("i", "g", "enter", "ctrl+u")
	hs.typeText("CUST#7")
	hs.keys("enter")
	hs.contains("Items · ", "+ loaded", "skip-scan: ")
	hs.keys("n")
	hs.contains("page 2")
	// Paging through the loaded items, to the last, and the panes backwards.
	hs.keys("tab", "pgdown", "pgup", "end", "shift+tab")
	// Marks send nothing: a type's loaded items, one item, a range, every
	// loaded result, none.
	marking := len(p.Calls())
	hs.keys("j", "space", "k", "tab", "g", "space", "j", "V", "A")
	hs.contains(" marked ")
	if hs.m.ask.on { // A asks before it reads the pages not read yet: no
		hs.keys("esc")
	}
	// B, the bulk change of the marks, says writes are off and opens nothing.
	hs.keys("B")
	if !strings.HasPrefix(hs.m.status.Info, "writes are off") || len(hs.m.overlays) != 0 {
		t.Errorf("B with writes off: %q, %d overlays open", hs.m.status.Info, len(hs.m.overlays))
	}
	hs.keys("U", "shift+tab")
	if n := len(p.Calls()) - marking; n != 0 {
		t.Errorf("marking sent %d requests", n)
	}
	// The request's filter: Big Corp's open orders over 1,000, kept of read.
	hs.keys("f")
	hs.typeText(`status = "OPEN" AND total > 1000`)
	hs.keys("enter")
	hs.contains(`filter status = "OPEN" AND total > 1000`, "kept 37 of ", "RCU charged · on DynamoDB 3 requests, not 1")
	// The projection, from the columns shown, trimmed to two.
	hs.keys("v")
	hs.contains("ProjectionExpression › ", "status, total")
	hs.keys("ctrl+u")
	hs.typeText("total, status")
	hs.keys("enter")
	hs.contains("project total, status", "kept 37 of ", "projection saves bandwidth, not capacity")
	// PartiQL: its plan, then its items; a statement that is not a SELECT
	// is refused before any request.
	hs.keys("P", "enter")
	hs.contains("Plan: a Query of one partition")
	hs.keys("enter")
	hs.contains("predicted ≤ ")
	hs.keys("C")
	hs.contains("aws dynamodb execute-statement")
	hs.keys("esc", "esc")
	statements := p.Count("ExecuteStatement")
	hs.keys("P", "ctrl+u")
	hs.typeText(`UPDATE "` + table + `" SET total = 0 WHERE PK = 'CUST#7' AND SK = 'PROFILE'`)
	hs.keys("enter")
	hs.contains("only SELECT statements run here")
	hs.keys("esc")
	if p.Count("ExecuteStatement") != statements {
		t.Error("a refused statement reached the endpoint")
	}
	// The table overview: its caps, a bounded parallel keys-only Scan, and
	// the largest partition opened from the layout.
	scans := p.Count("Scan")
	hs.keys("o")
	hs.contains("Table overview", "reads up to")
	hs.keys("enter")
	hs.contains("LARGEST PARTITIONS SEEN", "CUST#*", "ORDER#*")
	if p.Count("Scan") == scans {
		t.Error("the overview sent no Scan")
	}
	// Sampling again, through the caps form's fields both ways.
	scans = p.Count("Scan")
	hs.keys("s", "tab", "shift+tab", "enter")
	hs.contains("LARGEST PARTITIONS SEEN")
	if p.Count("Scan") == scans {
		t.Error("sampling again sent no Scan")
	}
	// The index map: its caps first, then one bounded Scan of whole items.
	scans = p.Count("Scan")
	hs.keys("M")
	hs.contains("enter reads it")
	if p.Count("Scan") != scans {
		t.Error("the index map read before enter")
	}
	hs.keys("enter")
	hs.contains("GSI1 · gsi ALL", "sparse in")
	if p.Count("Scan") == scans {
		t.Error("the index map sent no Scan")
	}
	hs.keys("esc")
	hs.contains("LARGEST PARTITIONS SEEN")
	hs.keys("j", "j", "enter")
	hs.contains("Entity types", `PK = "CUST#7"`)
	// Export the loaded items: a local file in a folder of its own, nothing sent.
	exportDir := t.TempDir()
	sent := len(p.Calls())
	hs.keys("x", "tab", "ctrl+u")
	hs.typeText(filepath.Join(exportDir, "items.jsonl"))
	hs.keys("enter")
	if !strings.HasPrefix(hs.m.status.Info, "exported ") {
		t.Errorf("export: %q %q", hs.m.status.Info, hs.m.status.Err)
	}
	if n := len(p.Calls()) - sent; n != 0 {
		t.Errorf("exporting sent %d requests", n)
	}
	if got := files(t, exportDir); len(got) != 1 {
		t.Errorf("the export wrote %d files", len(got))
	}
	// The second grouping: a partition whose items carry EntityType; b
	// toggles to it and back, sending nothing.
	hs.keys("p", "ctrl+u")
	// The partitions of the prompt's small sample (one Scan segment, capped).
	hs.keys("ctrl+l")
	hs.contains("in the sample")
	hs.typeText("SHOP#1")
	hs.keys("enter")
	hs.contains("Items · 3 loaded")
	if hs.m.mode() != modeGroups {
		hs.keys("tab")
	}
	sent = len(p.Calls())
	hs.keys("b")
	hs.contains("By EntityType · 2")
	hs.keys("b")
	hs.lacks("By EntityType")
	if n := len(p.Calls()) - sent; n != 0 {
		t.Errorf("b sent %d requests", n)
	}
	// Help, and back to the tables.
	hs.keys("?")
	hs.contains("Keys for groups")
	hs.keys("esc", "q")
	hs.contains("Tables · ")
	// A Scan from the table picker: its bound first, then its items.
	hs.keys("ctrl+s")
	hs.typeText(`total > 10000`)
	hs.keys("enter")
	hs.contains("predicted ≤ ", "Enter runs it")
	hs.keys("enter")
	hs.contains("kept ", " read; the ")
	hs.keys("j", "pgdown", "pgup", "k", "C")
	hs.contains("aws dynamodb scan", "--filter-expression")
	hs.keys("esc", "esc")
	// Switching connection: the picker, then the table picker on the
	// connection switched to (the same proxied client under another name),
	// which lists and describes its tables, and nothing else.
	hs.keys("ctrl+k")
	hs.contains("Switch connection", "profile again")
	sent = len(p.Calls())
	hs.keys("enter")
	hs.contains("connected to profile again.", "Tables · ", "profile again")
	for _, c := range p.Calls()[sent:] {
		if c.Op != "ListTables" && c.Op != "DescribeTable" {
			t.Errorf("switching sent %s", c.Op)
		}
	}
	hs.keys("ctrl+c")

	// The prefetch path of a start with --table and --pk (Run sends the
	// first requests ahead): they go through the proxy too.
	pre := newHarnessOn(t, Options{Store: newPrefetchStore(ctx, client, table, "", "CUST#42", config.Settings{}, 35),
		Table: table, PK: "CUST#42", Region: "us-east-1", Endpoint: p.URL, ConfigDir: configDir}, 120, 35)
	pre.contains("Items · 3 loaded")

	// Every action of the keymap was taken, in a mode where it is enabled:
	// a new binding fails here until this walk takes it.
	for _, a := range keymapActions() {
		switch {
		case slices.Contains(editingActions, a):
			// Off without a writer: TestEditingFlow takes them.
			if hs.actions[a] {
				t.Errorf("the action %s was taken with writes off", a)
			}
		case !hs.actions[a]:
			t.Errorf("the walk never takes the action %s", a)
		}
	}

	// What reached DynamoDB: reads only.
	seen := map[string]int{}
	for _, c := range p.Calls() {
		seen[c.Op]++
		if !slices.Contains(exploreOps, c.Op) || c.Write {
			t.Errorf("the UI sent %s (call %d)", c.Op, c.Seq)
		}
	}
	if w := p.Writes(); len(w) > 0 {
		t.Errorf("writes: %+v", w)
	}
	for _, op := range exploreOps {
		if seen[op] == 0 {
			t.Errorf("no %s went through the proxy; saw %v", op, seen)
		}
	}
	// What changed on disk: the patterns file, by the one pattern appended,
	// and the partition history in dynascope's own folder.
	after := files(t, patternsDir, configDir)
	for path, text := range after {
		old, existed := before[path]
		switch {
		case path == patternsPath:
			if !strings.HasPrefix(text, old) || !strings.Contains(text[len(old):], "- name: warehouse 1 queue") {
				t.Errorf("the patterns file changed other than by the pattern saved:\n%s", text[min(len(old), len(text)):])
			}
		case strings.HasPrefix(path, filepath.Join(configDir, "history")+string(filepath.Separator)):
		case !existed || old != text:
			t.Errorf("the UI wrote %s", path)
		}
	}
	if saved, err := patterns.LoadPatterns(patternsPath); err != nil || len(saved.Patterns) != len(set.Patterns)+1 {
		t.Errorf("the saved file reads back as %v, %v", saved, err)
	}
	t.Logf("operations: %v; %s", seen, fmt.Sprintf("Σ %s RCU", fmtRCU(hs.m.log.Total.Total)))
}
