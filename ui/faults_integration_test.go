package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
	"dynascope/ui/overlay"
)

// faultRun is one fault of the corpus against the UI: a proxy in front of
// the shared demo table, and a client, a stream reader and a writer
// through it with the CLI test's bounds (two attempts, 500 ms a call).
type faultRun struct {
	t     *testing.T
	f     dynamotest.Fault
	p     *dynamotest.Proxy
	o     Options
	table string
	sdk   *dynamodb.Client
	truth map[string]map[string]dynamo.Item // partition → items by sort key, read past the proxy
	// only: the operations the step's fault applies to; nil for all.
	only []string
	// bad counts the problems found, for the summary.
	bad  int
	most int // the most requests one step sent
}

// maxStepCalls bounds the requests of one step, whatever the fault: a
// page loop that never ends goes past it (counted, not timed).
const maxStepCalls = 2048

func newFaultRun(t *testing.T, ep, table string, f dynamotest.Fault, truth map[string]map[string]dynamo.Item) *faultRun {
	t.Helper()
	p := dynamotest.StartProxy(t, ep)
	ctx := context.Background()
	o := dynamo.Options{Endpoint: p.URL, Region: "us-east-1", MaxAttempts: 2, Timeout: 500 * time.Millisecond, NoSchemaCache: true}
	client, err := dynamo.Connect(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := dynamo.ConnectStreams(ctx, o, client)
	if err != nil {
		t.Fatal(err)
	}
	j, err := edit.OpenJournal(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	wr, err := edit.Open(ctx, o, true, j)
	if err != nil {
		t.Fatal(err)
	}
	return &faultRun{t: t, f: f, p: p, table: table, sdk: dynamotest.SDK(t), truth: truth,
		o: Options{Store: client, Streams: sc, Editor: wr, Region: "us-east-1", Endpoint: p.URL, ConfigDir: t.TempDir()}}
}

// step runs one of the UI's reads: setup brings a UI to where the read
// starts with no fault; the fault is then on for every request of act;
// check looks at what act left. A panic is a failure of this fault and
// step, not the end of the test.
func (r *faultRun) step(name string, setup func() *harness, act func(hs *harness) *harness, check func(hs *harness, say func(string, ...any))) {
	r.t.Helper()
	say := func(format string, args ...any) {
		r.bad++
		r.t.Errorf("%s, %s: %s", r.f, name, fmt.Sprintf(format, args...))
	}
	defer func() {
		r.p.ClearFaults()
		if v := recover(); v != nil {
			say("panic: %v\n%s", v, debug.Stack())
		}
	}()
	r.p.ClearFaults()
	hs := setup()
	sent := len(r.p.Calls())
	if len(r.only) == 0 {
		r.p.Inject(dynamotest.Rule{Fault: r.f})
	}
	for _, op := range r.only {
		r.p.Inject(dynamotest.Rule{Op: op, Fault: r.f})
	}
	hs = act(hs)
	n := len(r.p.Calls()) - sent
	r.most = max(r.most, n)
	if n > maxStepCalls {
		say("%d requests", n)
	}
	for _, msg := range shownErrors(hs.m) {
		if why := dynamotest.SentenceProblem(msg); why != "" {
			say("%s: %.400q", why, msg)
		}
	}
	if c := controlOnScreen(hs); c != "" {
		say("the screen holds %s", c)
	}
	if check != nil {
		check(hs, say)
	}
	said := loadedTitle.FindString(hs.screen())
	if errs := shownErrors(hs.m); len(errs) > 0 {
		said = errs[0]
	}
	r.t.Logf("%s: %d requests; %.160s", name, n, said)
}

// harness is a UI on the run's connection, colour off so that any escape
// sequence in what it draws came from an answer.
func (r *faultRun) harness(o Options) *harness {
	hs := newHarnessOn(r.t, o, 120, 35)
	hs.m.noColor = true
	hs.m.setStyles(newStyles(true, true))
	return hs
}

// opts is the run's options on the table, with a partition to open.
func (r *faultRun) opts(pk string) Options {
	o := r.o
	o.Table, o.PK = r.table, pk
	return o
}

// shownErrors is every error sentence the UI holds for the screen: the
// status line's, the table picker's, the overlays', the overview's and
// the live pane's.
func shownErrors(m Model) []string {
	out := []string{m.status.Err, m.picker.ListErr, m.overview.Err, m.live.err}
	for _, row := range m.picker.Rows {
		if row.Err != nil {
			out = append(out, row.Err.Error())
		}
	}
	for _, o := range m.overlays {
		switch o := o.(type) {
		case overlay.Bulk:
			out = append(out, o.Read().Err)
		case overlay.Write:
			out = append(out, o.Err())
		}
	}
	var kept []string
	for _, s := range out {
		if s != "" {
			kept = append(kept, s)
		}
	}
	return kept
}

// controlOnScreen names the first control character or escape sequence in
// the view other than the styles' own (SGR: bold, reverse, colour), ""
// when there is none: an answer's text must not reach the terminal as
// control.
func controlOnScreen(hs *harness) string {
	v := sgr.ReplaceAllString(hs.m.View().Content, "")
	for i, r := range v {
		if r == '\n' {
			continue
		}
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return fmt.Sprintf("%U at byte %d: %q", r, i, v[max(0, i-20):min(len(v), i+40)])
		}
	}
	return ""
}

// sgr is a Select Graphic Rendition sequence, which the styles draw with.
var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// loadedTitle reads the items pane's title: the count shown, and whether
// it says there is more.
var loadedTitle = regexp.MustCompile(`Items · (\d+)(\+?) loaded`)

// checkItems holds the items pane to the partition as DynamoDB Local has
// it: the count shown is the items held, each an item of the partition as
// it is, none twice; and a read that holds fewer than the partition says
// there is more or why it stopped.
func (r *faultRun) checkItems(hs *harness, pk string, say func(string, ...any)) {
	truth := r.truth[pk]
	m := hs.m
	sc := hs.screen()
	got := memItems(m.items)
	seen := map[string]bool{}
	for _, it := range got {
		sk := keyOf(it, "SK")
		want, ok := truth[sk]
		switch {
		case keyOf(it, "PK") != pk || !ok:
			say("an item the read could not return: %s", edit.ItemText(it))
		case seen[sk]:
			say("%s shown twice", sk)
		case !edit.SameItem(it, want):
			say("%s is not the item DynamoDB holds: %s", sk, edit.ItemText(it))
		}
		seen[sk] = true
	}
	title := loadedTitle.FindStringSubmatch(sc)
	if title == nil {
		if len(got) > 0 {
			say("%d items held and no count shown", len(got))
		}
		return
	}
	shown, _ := strconv.Atoi(title[1])
	if shown != len(got) {
		say("%d items shown as loaded, %d held", shown, len(got))
	}
	if len(got) < len(truth) && title[2] == "" && m.status.Err == "" {
		say("silently short: %d of the partition's %d items, no more to read and no word why", len(got), len(truth))
	}
}

// The UI's reads through every fault of the corpus the CLI is held to
// (TestEveryFaultIsOneShortSentence): the table picker and the table's
// open, a partition's first Query with its skip-scan, the next page, the
// overview's sample, a PartiQL SELECT, the live pane and a guarded
// write. For each: no panic, every error sentence one sentence, nothing
// silently short, a bounded number of requests, no escape sequence on
// screen, and a write without an answer said in doubt, never unwritten.
// Before its fixes: a failed next page put its way on after the error's
// full stop (every error fault, and 307 to 322 characters for the key
// checks'), a write in doubt's line had no full stop, a cut-off PartiQL
// answer showed the SDK's raw text, a replayed answer made a write that
// never reached the table "done", endless empty pages were followed 1,025
// times, and a Scan's page answered to a statement ended it as complete
// and empty.
func TestUIEveryFault(t *testing.T) {
	table, ep := demoTable(t)
	sdk := dynamotest.SDK(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // a guard against a hang, not a measure
	defer cancel()
	if _, err := sdk.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(table),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}}); err != nil {
		t.Fatal(err)
	}
	order := dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17")}
	setStatus := func(v string) {
		t.Helper()
		_, err := sdk.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: order,
			UpdateExpression: aws.String("SET #s = :v"), ExpressionAttributeNames: map[string]string{"#s": "status"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":v": s(v)}})
		if err != nil {
			t.Fatal(err)
		}
	}
	setStatus("PENDING")
	truth := map[string]map[string]dynamo.Item{}
	for _, pk := range []string{"CUST#7", "CUST#42"} {
		truth[pk] = partitionOf(t, sdk, table, pk)
	}
	statement := `SELECT * FROM "` + table + `" WHERE PK = 'CUST#42'`

	for _, f := range dynamotest.Corpus("CUST#7", "ORDER#", "CUST#8") {
		t.Run(f.String(), func(t *testing.T) { runFault(t, ep, table, f, truth, statement, order, setStatus) })
	}
}

// runFault takes the UI's reads through one fault.
func runFault(t *testing.T, ep, table string, f dynamotest.Fault, truth map[string]map[string]dynamo.Item, statement string, order dynamo.Item, setStatus func(string)) {
	r := newFaultRun(t, ep, table, f, truth)
	// The table picker: ListTables and a DescribeTable per table,
	// then the table opened.
	r.step("open", func() *harness { return nil }, func(*harness) *harness {
		hs := r.harness(r.o)
		hs.typeText(table)
		hs.keys("enter")
		return hs
	}, nil)
	r.step("first Query", func() *harness { return r.harness(r.opts("")) }, func(hs *harness) *harness {
		hs.typeText("CUST#7")
		hs.keys("enter")
		return hs
	}, func(hs *harness, say func(string, ...any)) { r.checkItems(hs, "CUST#7", say) })
	r.step("next page", func() *harness { return r.harness(r.opts("CUST#7")) }, func(hs *harness) *harness {
		hs.keys("n")
		return hs
	}, func(hs *harness, say func(string, ...any)) { r.checkItems(hs, "CUST#7", say) })
	r.step("overview", func() *harness {
		hs := r.harness(r.opts(""))
		hs.keys("ctrl+o")
		return hs
	}, func(hs *harness) *harness {
		hs.keys("enter")
		return hs
	}, nil)
	r.step("PartiQL", func() *harness {
		hs := r.harness(r.opts("CUST#42"))
		hs.keys("P", "ctrl+u")
		hs.typeText(statement)
		return hs
	}, func(hs *harness) *harness {
		hs.keys("enter", "enter")
		return hs
	}, func(hs *harness, say func(string, ...any)) {
		o, ok := findOverlay[overlay.Bulk](hs.m)
		if !ok {
			return
		}
		rd := o.Read()
		for _, it := range rd.Items {
			if want, ok := truth["CUST#42"][keyOf(it, "SK")]; !ok || keyOf(it, "PK") != "CUST#42" || !edit.SameItem(it, want) {
				say("an item the statement could not return: %s", edit.ItemText(it))
			}
		}
		if rd.Count != len(rd.Items) {
			say("%d items counted, %d held", rd.Count, len(rd.Items))
		}
		if rd.Count < len(truth["CUST#42"]) && rd.Err == "" && (rd.Stop == "" || rd.Stop == dynamo.StopComplete) {
			say("silently short: %d of the partition's %d items", rd.Count, len(truth["CUST#42"]))
		}
	})
	// The live pane: the fault on the stream's own requests, the table
	// described as it is.
	var ended bool
	r.only = []string{"DescribeStream", "GetShardIterator", "GetRecords"}
	r.step("live", func() *harness { return r.harness(r.opts("CUST#42")) }, func(hs *harness) *harness {
		ended = r.tail(hs)
		return hs
	}, func(hs *harness, say func(string, ...any)) {
		if ended && hs.m.live.err == "" {
			say("the tail ended without a word")
		}
		if hs.m.live.cancel != nil {
			hs.m.live.cancel() // the tail's goroutine ends with its context
		}
	})
	r.only = nil
	r.step("write", func() *harness {
		setStatus("PENDING")
		hs := r.harness(r.opts("CUST#42"))
		hs.keys("tab", "j", "E", "j", "j", "enter", "ctrl+u")
		hs.typeText("SHIPPED")
		hs.keys("enter", "w")
		return hs
	}, func(hs *harness) *harness {
		hs.keys("y")
		return hs
	}, func(hs *harness, say func(string, ...any)) {
		r.checkWrite(hs, order, say)
		setStatus("PENDING") // the truth the next fault's PartiQL is held to
	})
	t.Logf("%d problems; the most requests of one step %d", r.bad, r.most)
}

// tail opens the live pane and delivers what its tail sends, up to a
// bound of messages or a few seconds: a tail that works waits for records
// no one writes, one that cannot read the stream should end and say so.
// It reports whether the tail ended (sent nothing more to wait for).
func (r *faultRun) tail(hs *harness) bool {
	queue := []tea.Cmd{hs.step(keyPress("T"))}
	deadline := time.After(4 * time.Second)
	for n := 0; len(queue) > 0 && n < 40; n++ {
		cmd := queue[0]
		queue = queue[1:]
		if cmd == nil {
			continue
		}
		got := make(chan tea.Msg, 1)
		go func() { got <- cmd() }()
		select {
		case msg := <-got:
			if b, ok := msg.(tea.BatchMsg); ok {
				queue = append(queue, b...)
				continue
			}
			if msg != nil {
				queue = append(queue, hs.step(msg))
			}
		case <-deadline:
			return false
		}
	}
	return len(queue) == 0
}

// checkWrite holds the write's overlay to what happened to the item: a
// write that landed is never said unwritten, one said written landed, and
// one without a whole answer of DynamoDB's refusal is said in doubt.
func (r *faultRun) checkWrite(hs *harness, key dynamo.Item, say func(string, ...any)) {
	if _, ok := findOverlay[overlay.Write](hs.m); !ok {
		say("no write overlay: %s", hs.m.status.Err)
		return
	}
	out, err := r.sdk.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(r.table), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		r.t.Fatal(err)
	}
	landed := attrS(out.Item, "status") == "SHIPPED"
	sc := hs.screen()
	unwritten := strings.Contains(sc, "nothing was written") || strings.Contains(sc, "not applied") || strings.Contains(sc, "not written")
	written, doubt := strings.Contains(sc, "Write · done"), strings.Contains(sc, "in doubt")
	refused := true // every attempt answered by DynamoDB with a refusal
	for _, c := range r.p.Calls() {
		if c.Op == "UpdateItem" && c.Fault != "" && (c.Status < 400 || c.Status >= 500) {
			refused = false
		}
	}
	switch {
	case landed && unwritten:
		say("the write landed and the screen says it was not written")
	case written && !landed:
		say("the screen says written and the item's status is %q", attrS(out.Item, "status"))
	case unwritten && !refused:
		say("no answer of DynamoDB's refusal, and the screen says not written")
	case !written && !unwritten && !doubt:
		say("the write's outcome is not said:\n%s", sc)
	}
	if strings.Contains(sc, " 0 WCU") { // 35.7: units not reported are unknown
		say("the screen shows 0 WCU:\n%s", sc)
	}
}

// partitionOf reads a partition whole, past any proxy: items by sort key.
func partitionOf(t *testing.T, sdk *dynamodb.Client, table, pk string) map[string]dynamo.Item {
	t.Helper()
	out := map[string]dynamo.Item{}
	p := dynamodb.NewQueryPaginator(sdk, &dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s(pk)}, ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			out[keyOf(it, "SK")] = it
		}
	}
	return out
}
