package ui

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"dynascope/dynamo"
	"dynascope/keys"
	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
	"dynascope/ui/pane"
)

// fakeStore returns canned pages in the order they are queued, canned
// skip-scans by partition, and records what it was asked. It knows nothing
// of query semantics: tests decide what each request returns.
type fakeStore struct {
	mu        sync.Mutex
	tables    map[string]dynamo.Table
	names     []string
	pages     []canned
	calls     []dynamo.QueryInput
	gets      []dynamo.GetInput
	disc      map[string]cannedDiscovery // by partition key value
	discCalls []dynamo.DiscoverInput
	sample    cannedSample // what Sample answers; see overview_test.go
	samples   []dynamo.SampleInput
}

type canned struct {
	items []dynamo.Item
	count int32 // Select=COUNT pages: the count, with no items
	// scanned is the page's ScannedCount when a filter dropped items (0:
	// every item read was returned).
	scanned int32
	last    dynamo.Item
	cap     dynamo.Capacity
	err     error
}

type cannedDiscovery struct {
	d   dynamo.Discovery
	err error
}

func (f *fakeStore) ListTables(ctx context.Context) ([]string, error) { return f.names, nil }

func (f *fakeStore) DescribeTable(ctx context.Context, name string) (dynamo.Table, error) {
	t, ok := f.tables[name]
	if !ok {
		return dynamo.Table{}, &dynamo.UserError{Msg: "describe table " + name + ": the table or index does not exist at AWS; check --table, --index and --region.",
			Err: &types.ResourceNotFoundException{Message: aws.String("Requested resource not found")}}
	}
	return t, nil
}

// TableKeys answers as DescribeTable does: the fake has no cache to differ.
func (f *fakeStore) TableKeys(ctx context.Context, name string) (dynamo.Table, error) {
	return f.DescribeTable(ctx, name)
}

// Query answers with the next canned page, its request record filled from
// the input the UI sent (as the real client does) with a fixed duration.
func (f *fakeStore) Query(ctx context.Context, q dynamo.QueryInput) (dynamo.Page, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, q)
	t := f.tables[q.Table]
	ks, err := t.Schema(q.Index)
	if err != nil {
		return dynamo.Page{}, err
	}
	b, err := dynamo.BuildQuery(ks, q)
	if err != nil {
		return dynamo.Page{}, err
	}
	req := dynamo.Request{
		Seq: int64(len(f.calls)), Operation: "Query", Table: q.Table, Index: q.Index,
		KeyCondition: b.KeyCondition, Forward: !q.Reverse, Limit: q.Limit, Consistent: q.Consistent,
		CountOnly: q.CountOnly, Duration: 4200 * time.Microsecond,
	}
	if len(f.pages) == 0 {
		req.Err = &dynamo.UserError{Msg: "fake store: no page queued"}
		return dynamo.Page{Request: req}, req.Err
	}
	c := f.pages[0]
	f.pages = f.pages[1:]
	if err := ctx.Err(); err != nil {
		c.err = &dynamo.UserError{Msg: "query " + q.PK + " on " + q.Table + ": cancelled.", Err: err}
	}
	if c.err != nil {
		req.Err = c.err
		return dynamo.Page{Request: req}, c.err
	}
	req.Count = int32(len(c.items))
	if c.count > 0 {
		req.Count = c.count
	}
	req.ScannedCount = max(req.Count, c.scanned)
	req.Capacity, req.More = c.cap, c.last != nil
	return dynamo.Page{Items: c.items, Count: req.Count, ScannedCount: req.ScannedCount, LastEvaluatedKey: c.last, Request: req}, nil
}

// Discover answers with the skip-scan canned for the partition, or with
// nothing found and no request when none is.
func (f *fakeStore) Discover(ctx context.Context, in dynamo.DiscoverInput) (dynamo.Discovery, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.discCalls = append(f.discCalls, in)
	if err := ctx.Err(); err != nil {
		return dynamo.Discovery{}, &dynamo.UserError{Msg: "skip-scan of " + in.PK + " on " + in.Table + ": cancelled.", Err: err}
	}
	c := f.disc[in.PK]
	return c.d, c.err
}

func (f *fakeStore) discoveries() []dynamo.DiscoverInput {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]dynamo.DiscoverInput(nil), f.discCalls...)
}

// GetItem answers with the next canned page (its first item, if any), its
// request record filled from the input as the real client fills it.
func (f *fakeStore) GetItem(ctx context.Context, g dynamo.GetInput) (dynamo.Page, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gets = append(f.gets, g)
	b, err := dynamo.BuildGetItem(f.tables[g.Table], g)
	if err != nil {
		return dynamo.Page{}, err
	}
	req := dynamo.Request{Seq: int64(len(f.calls) + len(f.gets)), Operation: "GetItem", Table: g.Table,
		KeyCondition: b.KeyCondition, Forward: true, Consistent: g.Consistent, Duration: 2100 * time.Microsecond}
	if len(f.pages) == 0 {
		req.Err = &dynamo.UserError{Msg: "fake store: no page queued"}
		return dynamo.Page{Request: req}, req.Err
	}
	c := f.pages[0]
	f.pages = f.pages[1:]
	if err := ctx.Err(); err != nil {
		c.err = &dynamo.UserError{Msg: "get " + b.KeyCondition + " on " + g.Table + ": cancelled.", Err: err}
	}
	if c.err != nil {
		req.Err = c.err
		return dynamo.Page{Request: req}, c.err
	}
	p := dynamo.Page{Request: req}
	if len(c.items) > 0 {
		p.Items, p.Count, p.ScannedCount = c.items[:1], 1, 1
	}
	p.Request.Count, p.Request.ScannedCount, p.Request.Capacity = p.Count, p.Count, c.cap
	return p, nil
}

func (f *fakeStore) getItems() []dynamo.GetInput {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]dynamo.GetInput(nil), f.gets...)
}

func (f *fakeStore) queue(c ...canned) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pages = append(f.pages, c...)
}

func (f *fakeStore) queries() []dynamo.QueryInput {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]dynamo.QueryInput(nil), f.calls...)
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// appTable is the single-table example's table, with one GSI.
func appTable() dynamo.Table {
	return dynamo.Table{
		Name: "App", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"},
		ItemCount: 21067, SizeBytes: 3_400_000, Status: "ACTIVE", BillingMode: "PAY_PER_REQUEST",
		Indexes: []dynamo.Index{{Name: "GSI1", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "GSI1PK", Type: "S"},
			SK: &dynamo.KeyAttr{Name: "GSI1SK", Type: "S"}, Projection: "ALL"}},
	}
}

// ordersTable has a number partition key and no sort key.
func ordersTable() dynamo.Table {
	return dynamo.Table{Name: "Orders", PK: dynamo.KeyAttr{Name: "id", Type: "N"}, ItemCount: 12, SizeBytes: 2048}
}

// example is CUST#42 as the single-table design article writes it, in
// DynamoDB's order.
func example() []dynamo.Item {
	return []dynamo.Item{
		{"PK": s("CUST#42"), "SK": s("ORDER#2025-01-09#A11"), "total": n("20"), "status": s("DELIVERED")},
		{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17"), "total": n("35"), "status": s("OPEN")},
		{"PK": s("CUST#42"), "SK": s("PROFILE"), "name": s("Ann"), "email": s("ann@example.com")},
	}
}

func halfRCU() dynamo.Capacity { return dynamo.Capacity{Total: 0.5, Table: 0.5} }

// skipReq is the record of one request of a canned skip-scan.
func skipReq(cond string, forward bool, count int32, rcu float64) dynamo.Request {
	return dynamo.Request{Operation: "Query", Table: "App", KeyCondition: cond, Forward: forward, Limit: 1,
		Count: count, ScannedCount: count, Capacity: dynamo.Capacity{Total: rcu, Table: rcu}, Duration: 1900 * time.Microsecond}
}

// exampleDiscovery is the skip-scan of CUST#42: two types in four requests.
func exampleDiscovery() dynamo.Discovery {
	return dynamo.Discovery{KeyType: "S", Delimiter: "#",
		Groups: []keys.Group{
			{Entity: "ORDER", Prefix: "ORDER#", Kind: keys.KindLabel, Count: -1, First: "ORDER#2025-01-09#A11", Last: "ORDER#2025-03-01#A17"},
			{Entity: "PROFILE", Prefix: "PROFILE", Kind: keys.KindLabel, Exact: true, Count: -1, First: "PROFILE", Last: "PROFILE"},
		},
		Requests: []dynamo.Request{
			skipReq(`PK = "CUST#42"`, true, 1, 0.5),
			skipReq(`PK = "CUST#42" AND begins_with(SK, "ORDER#")`, false, 1, 0.5),
			skipReq(`PK = "CUST#42" AND SK >= "ORDER$"`, true, 1, 0.5),
			skipReq(`PK = "CUST#42" AND SK > "PROFILE"`, true, 0, 0.5),
		}}
}

// harness drives a Model the way the program does, running commands
// synchronously and feeding their messages back.
type harness struct {
	t       *testing.T
	m       Model
	store   *fakeStore
	clipped []string
	actions map[string]bool // the KeyMap fields whose binding a key press matched, enabled
}

func newHarness(t *testing.T, o Options, w, h int, pages ...canned) *harness {
	t.Helper()
	return newHarnessDisc(t, o, w, h, map[string]cannedDiscovery{"CUST#42": {d: exampleDiscovery()}}, pages...)
}

// newHarnessDisc is newHarness with the skip-scans the store answers.
func newHarnessDisc(t *testing.T, o Options, w, h int, disc map[string]cannedDiscovery, pages ...canned) *harness {
	t.Helper()
	fs := &fakeStore{tables: map[string]dynamo.Table{"App": appTable(), "Orders": ordersTable()}, names: []string{"App"}, disc: disc}
	fs.queue(pages...)
	o.Store = fs
	hs := newHarnessOn(t, o, w, h)
	hs.store = fs
	return hs
}

// newHarnessOn drives a Model on o.Store, which may be the real client.
func newHarnessOn(t *testing.T, o Options, w, h int) *harness {
	t.Helper()
	if o.ConfigDir == "" {
		o.ConfigDir = t.TempDir()
	}
	hs := &harness{t: t}
	m := New(o)
	m.noColor = false
	m.setStyles(newStyles(true, false))
	m.after = func(int) tea.Cmd { return nil }
	// A user past the first steps: every snapshot would otherwise carry
	// their line; firststeps_test.go shows it.
	m.firstStepsDone = true
	m.clip = func(s string) tea.Cmd {
		hs.clipped = append(hs.clipped, s)
		return nil
	}
	hs.m = m
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	hs.run(hs.m.Init())
	return hs
}

// send delivers a message and runs the commands it returns, to completion.
func (hs *harness) send(msgs ...tea.Msg) {
	hs.t.Helper()
	for _, msg := range msgs {
		m, cmd := hs.m.Update(msg)
		hs.m = m.(Model)
		hs.run(cmd)
	}
}

// step delivers a message without running what it returns.
func (hs *harness) step(msg tea.Msg) tea.Cmd {
	m, cmd := hs.m.Update(msg)
	hs.m = m.(Model)
	return cmd
}

func (hs *harness) run(cmd tea.Cmd) {
	hs.t.Helper()
	runCmd(cmd, func(msg tea.Msg) { hs.send(msg) })
}

// runCmd runs cmd and every command it batches, handing each message they
// return to send (which may run further commands): the harness's and the
// benchmarks' drivers deliver replies this way.
func runCmd(cmd tea.Cmd, send func(tea.Msg)) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			runCmd(c, send)
		}
	default:
		send(msg)
	}
}

// msgsOf runs a command and the commands of a batch, without delivering
// what they return: the test decides when each reply arrives.
func msgsOf(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, msgsOf(c)...)
		}
		return out
	default:
		return []tea.Msg{msg}
	}
}

// pageOfCmd runs a command and returns the one query reply it gives,
// delivering anything else at once.
func (hs *harness) pageOfCmd(cmd tea.Cmd) queryDoneMsg {
	hs.t.Helper()
	var page *queryDoneMsg
	for _, msg := range msgsOf(cmd) {
		if q, ok := msg.(queryDoneMsg); ok && page == nil {
			page = &q
			continue
		}
		hs.send(msg)
	}
	if page == nil {
		hs.t.Fatal("no query was sent")
	}
	return *page
}

// keys types each key: names like "enter" and "esc", or single characters.
func (hs *harness) keys(ks ...string) {
	hs.t.Helper()
	for _, k := range ks {
		hs.noteAction(keyPress(k))
		hs.send(keyPress(k))
	}
}

// noteAction records which actions of the keymap msg triggers in the
// current mode: the bindings enabled there that it matches.
func (hs *harness) noteAction(msg tea.KeyPressMsg) {
	if hs.actions == nil {
		hs.actions = map[string]bool{}
	}
	km := hs.m.keyMap()
	v := reflect.ValueOf(&km).Elem()
	for i := range v.NumField() {
		if b, ok := v.Field(i).Interface().(key.Binding); ok && b.Enabled() && key.Matches(msg, b) {
			hs.actions[v.Type().Field(i).Name] = true
		}
	}
}

// keymapActions names every binding of the keymap, from KeyMap itself.
func keymapActions() []string {
	var names []string
	t := reflect.TypeOf(keymap.KeyMap{})
	for i := range t.NumField() {
		if t.Field(i).Type == reflect.TypeOf(key.Binding{}) {
			names = append(names, t.Field(i).Name)
		}
	}
	return names
}

// filterLoaded focuses the items pane and filters the loaded items by text.
func (hs *harness) filterLoaded(text string) {
	hs.t.Helper()
	hs.keys("tab", "/")
	hs.typeText(text)
	hs.keys("enter")
}

func (hs *harness) typeText(text string) {
	hs.t.Helper()
	for _, r := range text {
		hs.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func keyPress(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+u":
		return tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	case "ctrl+k":
		return tea.KeyPressMsg{Code: 'k', Mod: tea.ModCtrl}
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// screen is the view as text, escape sequences removed.
func (hs *harness) screen() string { return ansi.Strip(hs.m.View().Content) }

func (hs *harness) contains(want ...string) {
	hs.t.Helper()
	sc := hs.screen()
	for _, w := range want {
		if !strings.Contains(sc, w) {
			hs.t.Fatalf("screen lacks %q:\n%s", w, sc)
		}
	}
}

// containsFlowing is contains for a sentence a box may wrap at any word:
// the screen's lines are read as one text, box borders and runs of spaces
// taken as one space, so a long temporary path cannot move the test.
func (hs *harness) containsFlowing(want ...string) {
	hs.t.Helper()
	var words []string
	for _, l := range strings.Split(hs.screen(), "\n") {
		words = append(words, strings.Fields(strings.Trim(l, " │"))...)
	}
	flow := strings.Join(words, " ")
	for _, w := range want {
		if !strings.Contains(flow, strings.Join(strings.Fields(w), " ")) {
			hs.t.Fatalf("screen lacks %q, even read across lines:\n%s", w, hs.screen())
		}
	}
}

func (hs *harness) lacks(bad ...string) {
	hs.t.Helper()
	sc := hs.screen()
	for _, b := range bad {
		if strings.Contains(sc, b) {
			hs.t.Fatalf("screen has %q:\n%s", b, sc)
		}
	}
}

// line returns the first screen line containing sub.
func (hs *harness) line(sub string) string {
	for _, l := range strings.Split(hs.screen(), "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	hs.t.Fatalf("no line with %q:\n%s", sub, hs.screen())
	return ""
}

// exportErr is the sentence the export form shows under it: why it was
// refused or why the export failed.
func exportErr(m Model) string {
	o, _ := findOverlay[overlay.Export](m)
	return o.Err()
}

// memItems decodes every item in memory, in row order: for assertions.
func memItems(p pane.Items) []dynamo.Item {
	var out []dynamo.Item
	for r := range p.Store.Total {
		if it, ok := p.Store.Item(r); ok {
			out = append(out, it)
		}
	}
	return out
}
