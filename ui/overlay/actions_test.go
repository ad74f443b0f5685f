package overlay

import (
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
	"dynascope/patterns"
	"dynascope/ui/keymap"
	"dynascope/ui/request"
	"dynascope/ui/theme"
	"dynascope/ui/widget"
)

// An overlay's Update tested with no root model: the Env the root would
// give it, a key, and the action it returns.

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// appTable is the single-table example's table, with one GSI.
func appTable() dynamo.Table {
	return dynamo.Table{
		Name: "App", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"},
		Indexes: []dynamo.Index{{Name: "GSI1", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "GSI1PK", Type: "S"},
			SK: &dynamo.KeyAttr{Name: "GSI1SK", Type: "S"}, Projection: "ALL"}},
	}
}

// keyPress is the message of a key: enter, esc, or one printable rune.
func keyPress(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// rows is an export source of n rows, none read again.
type rows int

func (r rows) Rows() int     { return int(r) }
func (r rows) Released() int { return 0 }

// envFor is what the root would give an overlay: every key enabled, a
// 120×35 screen, the example table.
func envFor() Env {
	return Env{Keys: keymap.Default(), St: theme.New(true, true), W: 120, BodyH: 28, Table: appTable()}
}

func sameWant(t *testing.T, got, want Want) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("wants %#v,\nwant %#v", got, want)
	}
}

// The write overlay, with no root model: enter sends the planned write
// (the root gives it its id), esc says it was not sent, and closing it
// after the write closes the stale draft and item below.
func TestWriteOverlayWants(t *testing.T) {
	it := dynamo.Item{"PK": s("CUST#42"), "SK": s("PROFILE"), "name": s("Ada")}
	p, err := edit.NewPlan(edit.Change{Table: "App", Keys: appTable(), Old: it})
	if err != nil {
		t.Fatal(err)
	}
	o := NewWrite(p, nil)
	next, w := o.Update(envFor(), keyPress("enter"))
	sameWant(t, w, SendWrite{Plan: p})
	if next.(Write).phase != writeSending {
		t.Fatalf("phase %v after enter, want sending", next.(Write).phase)
	}
	if _, w := next.Update(envFor(), keyPress("esc")); w != nil {
		t.Fatalf("esc while sending wants %#v; the answer closes it", w)
	}
	_, w = o.Update(envFor(), keyPress("esc"))
	sameWant(t, w, Then{ShowInfo{Text: "not sent"}, Close{}})

	done := o
	done.phase = writeDone
	_, w = done.Update(envFor(), keyPress("esc"))
	sameWant(t, w, Then{Close{}, Remove{IDs: []ID{EditID, DetailID}}})
}

// The bulk overlay asks for the plan, runs only after it is confirmed, and
// esc while it reads asks the root to cancel.
func TestBulkOverlayWants(t *testing.T) {
	o := NewScan("App")
	next, w := o.Update(envFor(), keyPress("enter"))
	b := next.(Bulk)
	if b.phase != bulkPlanning {
		t.Fatalf("phase %v after enter on the form, want planning", b.phase)
	}
	sameWant(t, w, PlanBulk{In: request.Input{Table: dynamo.Table{}, Scan: &dynamo.ScanInput{Table: "App"}}})
	if _, w := b.Update(envFor(), keyPress("enter")); w != nil {
		t.Fatalf("enter while planning wants %#v: nothing runs before the plan is shown", w)
	}
	_, w = b.Update(envFor(), keyPress("esc"))
	sameWant(t, w, StopBulk{})

	b.phase = bulkConfirm
	next, w = b.Update(envFor(), keyPress("enter"))
	if r, ok := w.(RunBulk); !ok || r.Scan == nil || r.Scan.Table != "App" || r.PartiQL != nil || next.(Bulk).phase != bulkRunning {
		t.Fatalf("enter on the plan wants %#v, want the read run", w)
	}
}

// The export form checks itself and asks for the export; the root runs it.
func TestExportOverlayWants(t *testing.T) {
	src := rows(3)
	o := NewExport(src, "3 loaded items", "App", "CUST#42", "")
	o.form = widget.NewForm([]string{expFormat, expPath}, []string{"xml", "out.xml"})
	next, w := o.Update(envFor(), keyPress("enter"))
	if w != nil || !strings.Contains(next.(Export).Err(), "the format must be one of") {
		t.Fatalf("a bad format wants %#v, says %q", w, next.(Export).Err())
	}
	o.form = widget.NewForm([]string{expFormat, expPath}, []string{"csv", " out.csv "})
	_, w = o.Update(envFor(), keyPress("enter"))
	sameWant(t, w, StartExport{Src: src, Path: "out.csv", Format: itemcodec.ExportCSV})

	e := envFor()
	e.Exporting = true
	_, w = o.Update(e, keyPress("esc"))
	sameWant(t, w, StopExport{})

	// In the folder the process gives: the default file is there, and so
	// is a bare name; a whole path stays as typed.
	in := NewExport(src, "3 loaded items", "App", "CUST#42", "/exports")
	if got := in.form.Value(expPath); got != "/exports/App-CUST_42.jsonl" {
		t.Errorf("default file %q", got)
	}
	_, w = in.Update(envFor(), keyPress("enter"))
	sameWant(t, w, StartExport{Src: src, Path: "/exports/App-CUST_42.jsonl", Format: itemcodec.ExportJSONL})
	in.form = widget.NewForm([]string{expFormat, expPath}, []string{"csv", "out.csv"})
	_, w = in.Update(envFor(), keyPress("enter"))
	sameWant(t, w, StartExport{Src: src, Path: "/exports/out.csv", Format: itemcodec.ExportCSV})
	in.form = widget.NewForm([]string{expFormat, expPath}, []string{"csv", "/tmp/out.csv"})
	_, w = in.Update(envFor(), keyPress("enter"))
	sameWant(t, w, StartExport{Src: src, Path: "/tmp/out.csv", Format: itemcodec.ExportCSV})

	// A name the format does not match is refused, not written: JSON
	// Lines typed into mine.csv wrote JSON into a .csv.
	for _, c := range [][2]string{{"jsonl", "mine.csv"}, {"ddbjson", "mine.CSV"}, {"csv", "mine.jsonl"}, {"csv", "mine.json"}} {
		in.form = widget.NewForm([]string{expFormat, expPath}, []string{c[0], c[1]})
		next, w := in.Update(envFor(), keyPress("enter"))
		if w != nil || !strings.Contains(next.(Export).Err(), "but the format is "+c[0]+": change the format or the name.") {
			t.Errorf("%s into %s: %v, %q", c[0], c[1], w, next.(Export).Err())
		}
	}
	for _, c := range [][2]string{{"jsonl", "mine.json"}, {"ddbjson-batch", "mine.jsonl"}, {"csv", "mine.txt"}, {"jsonl", "mine"}} {
		in.form = widget.NewForm([]string{expFormat, expPath}, []string{c[0], c[1]})
		_, w := in.Update(envFor(), keyPress("enter"))
		sameWant(t, w, StartExport{Src: src, Path: "/exports/" + c[1], Format: itemcodec.ExportFormat(c[0])})
	}
}

// The indexes overlay asks the root to query the index chosen, or only
// closes when it is the one open.
func TestIndexesOverlayWants(t *testing.T) {
	o := NewIndexes(appTable(), "")
	next, w := o.Update(envFor(), keyPress("j"))
	if w != nil {
		t.Fatalf("j wants %#v", w)
	}
	_, w = next.Update(envFor(), keyPress("enter"))
	sameWant(t, w, Then{Close{}, ChooseIndex{Name: "GSI1"}})
	_, w = o.Update(envFor(), keyPress("enter"))
	sameWant(t, w, Close{})
}

// A pattern without parameters runs at once, and the list's place is kept.
func TestPatternsOverlayWants(t *testing.T) {
	set := &patterns.PatternSet{Patterns: []patterns.Pattern{{Name: "profile", PK: "CUST#42", SK: dynamo.SKCond{Op: dynamo.SKEq, Values: []string{"PROFILE"}}}}}
	e := envFor()
	e.Patterns = set
	_, w := Patterns{}.Update(e, keyPress("enter"))
	r, ok := w.(Then)
	if !ok || len(r) != 2 || r[0] != (KeepPatterns{}) {
		t.Fatalf("enter wants %#v", w)
	}
	if run, ok := r[1].(RunPattern); !ok || run.P.Name != "profile" {
		t.Fatalf("enter wants %#v, want the pattern run", r[1])
	}
}
