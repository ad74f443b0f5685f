package ui

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/ui/overlay"
	"dynascope/ui/pane"
)

func TestTablePickerListsFiltersAndOpens(t *testing.T) {
	hs := newHarness(t, Options{}, 120, 35)
	hs.store.names = []string{"App", "Orders"}
	hs.send(tablesListedMsg{names: hs.store.names})
	hs.run(describeTablesCmd(hs.m.ctx, hs.store, hs.m.gen, hs.store.names))
	hs.contains("Tables · 2", "PK S / SK S", "GSI1 GSI", "21067", "3.2 MiB", "id N", "2.0 KiB", "no table chosen")
	hs.typeText("ord")
	hs.contains("Tables · 1 of 2", "Orders")
	hs.lacks("GSI1 GSI")
	hs.keys("backspace", "backspace", "backspace", "up", "enter")
	if !hs.m.haveTable || hs.m.table.Name != "App" || hs.m.screen != screenPrompt {
		t.Fatalf("enter on App: screen %v, table %q", hs.m.screen, hs.m.table.Name)
	}
	hs.contains("Open a partition", "partition key PK (string) of table App")
	// q types into the field here; esc goes back to the tables.
	hs.keys("esc")
	if hs.m.screen != screenTables {
		t.Fatal("esc on the prompt did not go back to the tables")
	}
}

func TestPromptRefusesAValueThatDoesNotFitBeforeAnyRequest(t *testing.T) {
	hs := newHarness(t, Options{Table: "Orders", PK: "abc"}, 120, 35)
	if len(hs.store.queries()) != 0 {
		t.Fatal("a request was sent for a value that does not fit the key")
	}
	hs.contains("id ›", `the partition key id is a number (N); "abc" is not a number.`)
	hs.keys("ctrl+u")
	hs.typeText("17")
	hs.contains("id › 17")
	hs.lacks("is not a number")
}

func TestPromptHistoryPersistsAndCompletes(t *testing.T) {
	dir := t.TempDir()
	newHarness(t, Options{Table: "App", PK: "CUST#42", ConfigDir: dir}, 120, 35, canned{items: example(), cap: halfRCU()})
	got, err := config.LoadHistory(dir, "App")
	if err != nil || len(got) != 1 || got[0].PK != "CUST#42" {
		t.Fatalf("history on disk = %+v, %v", got, err)
	}
	// A later session on the same table offers it.
	hs2 := newHarness(t, Options{Table: "App", ConfigDir: dir}, 120, 35, canned{items: example(), cap: halfRCU()})
	hs2.contains("opened before", "CUST#42")
	hs2.typeText("CU")
	hs2.keys("tab")
	if v := hs2.m.prompt.Input.String(); v != "CUST#42" {
		t.Fatalf("tab completed to %q", v)
	}
	hs2.keys("enter")
	if q := hs2.store.queries(); len(q) != 1 || q[0].PK != "CUST#42" {
		t.Fatalf("queries = %+v", q)
	}
	// History is kept per index: none for GSI1 yet.
	p := pane.NewPrompt(dynamo.KeySchema{Index: "GSI1", PK: dynamo.KeyAttr{Name: "GSI1PK", Type: "S"}}, "", hs2.m.history)
	if len(p.Matches) != 0 {
		t.Errorf("GSI1 prompt offers %v", p.Matches)
	}
	// Up walks the history, most recent first.
	hs2.keys("p", "ctrl+u", "up")
	if v := hs2.m.prompt.Input.String(); v != "CUST#42" {
		t.Errorf("up gave %q", v)
	}
}

func TestHistoryPathEscapesNames(t *testing.T) {
	for _, name := range []string{"../../etc/passwd", "a/b", ".hidden", "ok_name-1.x"} {
		p := config.HistoryPath("/cfg", name)
		if filepath.Dir(p) != "/cfg/history" || strings.HasPrefix(filepath.Base(p), ".") {
			t.Errorf("historyPath(%q) = %q escapes the history folder", name, p)
		}
	}
}

func TestDetailShowsTypesSizeAndJSON(t *testing.T) {
	item := dynamo.Item{
		"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17"), "total": n("35.00"),
		"address": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"city":  s("Oslo"),
			"lines": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("Storgata 1"), n("2")}},
		}},
		"tags":  &types.AttributeValueMemberSS{Value: []string{"gift", "rush"}},
		"note":  s(strings.Repeat("long text ", 30)),
		"paid":  &types.AttributeValueMemberBOOL{Value: true},
		"extra": &types.AttributeValueMemberNULL{Value: true},
	}
	hs := newHarness(t, Options{Table: "App", PK: "CUST#42"}, 120, 35, canned{items: []dynamo.Item{item}, cap: halfRCU()})
	hs.keys("tab", "enter")
	size := itemcodec.ItemSize(item)
	hs.contains("Item · attributes", "ORDER#2025-03-01#A17", "computed locally",
		plural(size, "byte", "bytes"), "0.5 RCU eventually, 1 RCU strongly consistent",
		"address", "  city", "Oslo", "  lines", "    [0]", "Storgata 1", "tags", "gift · rush", "BOOL", "NULL", "35.00")
	if l := hs.line("address"); !strings.Contains(l, " M ") {
		t.Errorf("address line = %q, want type M", l)
	}
	// Long strings wrap inside the value column.
	if strings.Count(hs.screen(), "long text") < 30 {
		t.Error("a long string was cut instead of wrapped")
	}
	hs.keys("t")
	hs.contains("Item · JSON", `"total": 35.00`, `"city": "Oslo"`)
	hs.keys("t")
	hs.contains("Item · DynamoDB JSON", `"N": "2"`, `"NULL": true`)
	hs.keys("y")
	if len(hs.clipped) != 1 || hs.clipped[0] != string(itemcodec.PlainJSON(item)) {
		t.Fatalf("copied %q", hs.clipped)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(hs.clipped[0]), &v); err != nil {
		t.Fatalf("the copy is not JSON: %v", err)
	}
	hs.contains("copied the item as JSON")
	hs.keys("q")
	hs.contains("Entity types")
}

func TestDetailScrolls(t *testing.T) {
	item := dynamo.Item{"PK": s("P"), "SK": s("S")}
	for i := range 60 {
		item[string(rune('a'+i%26))+strings.Repeat("x", i/26)] = n("1")
	}
	hs := newHarness(t, Options{Table: "App", PK: "P"}, 80, 24, canned{items: []dynamo.Item{item}, cap: halfRCU()})
	hs.keys("tab", "enter")
	hs.contains("lines 1–")
	hs.keys("G")
	hs.contains("of 65") // 62 attribute lines, then "In indexes" (a blank, its title, the one index)
	atTop := func() bool {
		if _, ok := findOverlay[overlay.Detail](hs.m); !ok {
			t.Fatal("the item is not shown")
		}
		return strings.Contains(hs.screen(), "lines 1–")
	}
	if atTop() {
		t.Fatal("G did not scroll")
	}
	hs.keys("g")
	if !atTop() {
		t.Fatal("g did not go back to the top")
	}
}

func TestMouseSelectsAndScrolls(t *testing.T) {
	p := pageOf("CUST#7", 0, 100)
	hs := newHarness(t, Options{Table: "App", PK: "CUST#7"}, 120, 35, canned{items: p, cap: halfRCU()})
	lay := hs.m.layout()
	// Click the third item row: frame and header come first.
	hs.send(tea.MouseClickMsg{X: lay.itemsX + 10, Y: lay.bodyY + 2 + 2, Button: tea.MouseLeft})
	if hs.m.focus != paneItems || hs.m.items.Cursor() != 2 {
		t.Fatalf("click: focus %v cursor %d", hs.m.focus, hs.m.items.Cursor())
	}
	hs.send(tea.MouseWheelMsg{X: lay.itemsX + 10, Y: lay.bodyY + 5, Button: tea.MouseWheelDown})
	if hs.m.items.Cursor() != 5 {
		t.Fatalf("wheel: cursor %d, want 5", hs.m.items.Cursor())
	}
	// A click on the ORDER group (row 1, two lines a row, after the frame).
	hs.send(tea.MouseClickMsg{X: 3, Y: lay.bodyY + 1 + 2, Button: tea.MouseLeft})
	if hs.m.focus != paneGroups || hs.m.groups.cursor() != 1 {
		t.Fatalf("click on group: focus %v cursor %d", hs.m.focus, hs.m.groups.cursor())
	}
}

// Every size, however small, gives exactly h lines of exactly w cells.
func TestResizeNeverGarbles(t *testing.T) {
	hs := openExample(t, 120, 35)
	for _, sz := range [][2]int{{120, 35}, {80, 24}, {79, 24}, {60, 20}, {100, 12}, {200, 60}, {40, 10}} {
		hs.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		for _, view := range []func(){func() {}, func() { hs.keys("tab") }, func() { hs.keys("L") }, func() { hs.keys("q", "?") }, func() { hs.keys("esc") }} {
			view()
			lines := strings.Split(hs.screen(), "\n")
			if len(lines) != sz[1] {
				t.Fatalf("%dx%d: %d lines:\n%s", sz[0], sz[1], len(lines), hs.screen())
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != sz[0] {
					t.Fatalf("%dx%d: line %d is %d cells: %q", sz[0], sz[1], i, w, l)
				}
			}
		}
	}
}

func TestCompactLayoutShowsOnePane(t *testing.T) {
	hs := openExample(t, 60, 20)
	// A label type is named as in the wide pane: ORDER, not its prefix.
	hs.contains("Entity types", "▌ ORDER ", "PROFILE", "Σ 0.5 RCU")
	hs.lacks("Items ·", "ORDER#")
	hs.keys("tab")
	hs.contains("Items · 3 loaded · tab: types", "ORDER#2025-03-01#A17")
	hs.lacks("Entity types")
}

// NO_COLOR: no colour codes at all, and the cursor still shows (reverse video).
func TestNoColor(t *testing.T) {
	hs := openExample(t, 120, 35)
	hs.m.noColor = true
	hs.m.setStyles(newStyles(true, true))
	raw := hs.m.View().Content
	for _, sgr := range []string{"38;2;", "48;2;", "38;5;", "48;5;"} {
		if strings.Contains(raw, sgr) {
			t.Fatalf("NO_COLOR view has colour code %q", sgr)
		}
	}
	if !strings.Contains(raw, "\x1b[7m") && !strings.Contains(raw, ";7m") && !strings.Contains(raw, "[7;") {
		t.Error("NO_COLOR view has no reverse video for the cursor")
	}
	// A light terminal gets its own palette.
	light, dark := newStyles(false, false), newStyles(true, false)
	if light.Sel.GetBackground() == dark.Sel.GetBackground() {
		t.Error("light and dark terminals share the selection colour")
	}
}

// A table without a sort key: each partition is one item, and there are no
// entity types to group by.
func TestTableWithoutSortKey(t *testing.T) {
	hs := newHarness(t, Options{Table: "Orders", PK: "17"}, 120, 35,
		canned{items: []dynamo.Item{{"id": n("17"), "status": s("OPEN")}}, cap: halfRCU()})
	hs.contains("Items · 1 loaded", "▌ 17", "OPEN", `Query id = 17`)
	wantCount(t, hs, "partition", "1")
	if len(hs.store.discoveries()) != 0 {
		t.Error("a skip-scan on a key without sort key")
	}
	// e and r are off, and say why instead of opening an editor.
	hs.keys("e")
	hs.contains("table Orders has no sort key: e and r are off.")
	hs.keys("r")
	if len(hs.store.queries()) != 1 {
		t.Fatal("a sort-key condition was sent to a table without sort key")
	}
}
