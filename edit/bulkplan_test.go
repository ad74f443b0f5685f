package edit_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/edit"
)

// bulkItems are three orders as read: one with status and note, one with
// status only, one with state already (a rename's new name taken).
func bulkItems() []dynamo.Item {
	return []dynamo.Item{
		{"PK": s("CUST#7"), "SK": s("ORDER#1"), "status": s("OPEN"), "note": s("call first")},
		{"PK": s("CUST#7"), "SK": s("ORDER#2"), "status": s("SHIPPED")},
		{"PK": s("CUST#7"), "SK": s("ORDER#3"), "status": s("OPEN"), "state": s("legacy"), "tier": s("gold")},
	}
}

func assign(t *testing.T, spec string) edit.Assignment {
	t.Helper()
	name, av, err := edit.ParseAssignment(spec)
	if err != nil {
		t.Fatal(err)
	}
	return edit.Assignment{Name: name, Value: av}
}

// Each kind of change planned on the same three items: which are written
// (with the image wanted), which are already as wanted and which are
// skipped, and the count per attribute change the preview shows.
func TestPlanBulk(t *testing.T) {
	table := pksk
	table.Name = "App"
	for _, tc := range []struct {
		name      string
		change    edit.BulkChange
		written   []string // each plan's SK and its diff, "SK: diff; diff"
		unchanged []string // SKs
		skipped   []string // SKs
		changes   string   // Changes, "kind name n" comma separated
	}{
		{
			name:    "set",
			change:  edit.BulkChange{Sets: []edit.Assignment{assign(t, "status=S:ARCHIVED")}},
			written: []string{`ORDER#1: ~ status: S "OPEN" → S "ARCHIVED"`, `ORDER#2: ~ status: S "SHIPPED" → S "ARCHIVED"`, `ORDER#3: ~ status: S "OPEN" → S "ARCHIVED"`},
			changes: "~ status 3",
		},
		{
			name:      "set to what one item has already",
			change:    edit.BulkChange{Sets: []edit.Assignment{assign(t, "status=S:SHIPPED")}},
			written:   []string{`ORDER#1: ~ status: S "OPEN" → S "SHIPPED"`, `ORDER#3: ~ status: S "OPEN" → S "SHIPPED"`},
			unchanged: []string{"ORDER#2"},
			changes:   "~ status 2",
		},
		{
			name:      "remove, where the item has it",
			change:    edit.BulkChange{Removals: []string{"note"}},
			written:   []string{`ORDER#1: - note: S "call first"`},
			unchanged: []string{"ORDER#2", "ORDER#3"},
			changes:   "- note 1",
		},
		{
			name:    "rename, an item with the new name skipped",
			change:  edit.BulkChange{Renames: []edit.Rename{{From: "status", To: "state"}}},
			written: []string{`ORDER#1: + state: S "OPEN"; - status: S "OPEN"`, `ORDER#2: + state: S "SHIPPED"; - status: S "SHIPPED"`},
			skipped: []string{"ORDER#3"},
			changes: "+ state 2, - status 2",
		},
		{
			name:    "rename with overwrite",
			change:  edit.BulkChange{Renames: []edit.Rename{{From: "status", To: "state"}}, Overwrite: true},
			written: []string{`ORDER#1: + state: S "OPEN"; - status: S "OPEN"`, `ORDER#2: + state: S "SHIPPED"; - status: S "SHIPPED"`, `ORDER#3: ~ state: S "legacy" → S "OPEN"; - status: S "OPEN"`},
			changes: "+ state 2, ~ state 1, - status 3",
		},
		{
			name:      "rename of an attribute no item has",
			change:    edit.BulkChange{Renames: []edit.Rename{{From: "colour", To: "color"}}},
			unchanged: []string{"ORDER#1", "ORDER#2", "ORDER#3"},
		},
		{
			name:    "default where absent only",
			change:  edit.BulkChange{Defaults: []edit.Assignment{assign(t, "tier=S:basic")}},
			written: []string{`ORDER#1: + tier: S "basic"`, `ORDER#2: + tier: S "basic"`},
			// ORDER#3 has a tier: kept.
			unchanged: []string{"ORDER#3"},
			changes:   "+ tier 2",
		},
		{
			name: "a set after a default of the same name wins",
			change: edit.BulkChange{Defaults: []edit.Assignment{assign(t, "tier=S:basic")},
				Sets: []edit.Assignment{assign(t, "tier=S:silver")}},
			written: []string{`ORDER#1: + tier: S "silver"`, `ORDER#2: + tier: S "silver"`, `ORDER#3: ~ tier: S "gold" → S "silver"`},
			changes: "+ tier 2, ~ tier 1",
		},
		{
			name: "a default after a rename sees the renamed item",
			change: edit.BulkChange{Renames: []edit.Rename{{From: "note", To: "remark"}},
				Defaults: []edit.Assignment{assign(t, "remark=S:none")}},
			written: []string{`ORDER#1: - note: S "call first"; + remark: S "call first"`, `ORDER#2: + remark: S "none"`, `ORDER#3: + remark: S "none"`},
			changes: "- note 1, + remark 3",
		},
		{
			name:    "delete",
			change:  edit.BulkChange{Delete: true, Sets: []edit.Assignment{assign(t, "SK=S:ignored")}},
			written: []string{"ORDER#1: delete", "ORDER#2: delete", "ORDER#3: delete"},
			changes: "- PK 3, - SK 3, - note 1, - state 1, - status 3, - tier 1",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items := bulkItems()
			b, err := edit.PlanBulk(edit.BulkInput{Table: table, Items: items, Change: tc.change})
			if err != nil {
				t.Fatal(err)
			}
			var written, unchanged, skipped, changes []string
			for _, p := range b.Plans {
				_, sk := edit.ValueInput(p.Old["SK"])
				if p.Op == edit.OpDelete {
					written = append(written, sk+": delete")
					continue
				}
				if p.Op != edit.OpUpdate || p.Table != "App" {
					t.Errorf("%s: %s on %q, want an UpdateItem on App", sk, p.Op, p.Table)
				}
				written = append(written, sk+": "+strings.Join(edit.DiffLines(table, p.Diff), "; "))
			}
			for _, k := range b.Unchanged {
				if len(k) != 2 {
					t.Errorf("unchanged %s: not a key", edit.ItemText(k))
				}
				_, sk := edit.ValueInput(k["SK"])
				unchanged = append(unchanged, sk)
			}
			for _, sk := range b.Skipped {
				_, v := edit.ValueInput(sk.Key["SK"])
				skipped = append(skipped, v)
				if sk.Rename != tc.change.Renames[0] || sk.Reason() != "rename status=state: the item has state already" {
					t.Errorf("skipped %s: %v, %q", v, sk.Rename, sk.Reason())
				}
			}
			for _, c := range b.Changes() {
				changes = append(changes, c.Change+" "+c.Attribute+" "+strconv.Itoa(c.Items))
			}
			check := func(what string, got, want []string) {
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%s:\n%s\nwant:\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
			check("written", written, tc.written)
			check("unchanged", unchanged, tc.unchanged)
			check("skipped", skipped, tc.skipped)
			if strings.Join(changes, ", ") != tc.changes {
				t.Errorf("changes %q, want %q", strings.Join(changes, ", "), tc.changes)
			}
			if b.Selected() != len(items) {
				t.Errorf("selected %d of %d items", b.Selected(), len(items))
			}
			// The items read are left as they were read: each plan's
			// condition is on them.
			for i, it := range bulkItems() {
				if !edit.SameItem(it, items[i]) {
					t.Errorf("item %d read as %s, left as %s", i, edit.ItemText(it), edit.ItemText(items[i]))
				}
			}
		})
	}
}

// A change that touches a key attribute is refused before any item is
// planned, naming the part of the change and the attribute.
func TestPlanBulkRefusesAKeyChange(t *testing.T) {
	for _, tc := range []struct {
		change edit.BulkChange
		part   string
		index  int
		name   string
		text   string
	}{
		{edit.BulkChange{Sets: []edit.Assignment{assign(t, "a=S:1"), assign(t, "SK=S:x")}}, edit.PartSet, 1, "SK",
			"set SK: SK is a key attribute, which a bulk change cannot touch"},
		{edit.BulkChange{Removals: []string{"PK"}}, edit.PartRemove, 0, "PK", "remove PK: a key attribute cannot be removed"},
		{edit.BulkChange{Renames: []edit.Rename{{From: "a", To: "b"}, {From: "SK", To: "sk2"}}}, edit.PartRename, 1, "SK",
			"rename SK=sk2: SK is a key attribute, which a bulk change cannot touch"},
		{edit.BulkChange{Renames: []edit.Rename{{From: "pk", To: "PK"}}}, edit.PartRename, 0, "PK",
			"rename pk=PK: PK is a key attribute, which a bulk change cannot touch"},
		{edit.BulkChange{Defaults: []edit.Assignment{assign(t, "PK=S:x")}}, edit.PartDefault, 0, "PK",
			"set-default PK: PK is a key attribute, which every item has"},
		// Sets are looked at first, then removals, renames, defaults.
		{edit.BulkChange{Defaults: []edit.Assignment{assign(t, "PK=S:x")}, Removals: []string{"SK"}}, edit.PartRemove, 0, "SK",
			"remove SK: a key attribute cannot be removed"},
	} {
		b, err := edit.PlanBulk(edit.BulkInput{Table: pksk, Items: bulkItems(), Change: tc.change})
		var kc *edit.KeyChangeError
		if !errors.As(err, &kc) || kc.Part != tc.part || kc.Index != tc.index || kc.Name != tc.name || err.Error() != tc.text {
			t.Errorf("%+v: %v (%+v), want %s %d %s: %q", tc.change, err, kc, tc.part, tc.index, tc.name, tc.text)
		}
		if b.Selected() != 0 {
			t.Errorf("%+v: %d items planned after the refusal", tc.change, b.Selected())
		}
		if err := tc.change.KeysUntouched(pksk); err == nil || err.Error() != tc.text {
			t.Errorf("KeysUntouched: %v", err)
		}
	}
	// A delete goes by key, and touches no attribute but them.
	if err := (edit.BulkChange{Delete: true}).KeysUntouched(pksk); err != nil {
		t.Errorf("a delete: %v", err)
	}
	// On a table without a sort key, SK is an attribute like any other.
	pkOnly := dynamo.Table{Name: "T", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}}
	if err := (edit.BulkChange{Sets: []edit.Assignment{assign(t, "SK=S:x")}}).KeysUntouched(pkOnly); err != nil {
		t.Errorf("SK on a table keyed by PK alone: %v", err)
	}
}

// An item whose plan fails fails the whole change, its key in the error.
func TestPlanBulkNamesTheItemThatCannotBeWritten(t *testing.T) {
	big := assign(t, "pad=S:"+strings.Repeat("x", 400*1024))
	_, err := edit.PlanBulk(edit.BulkInput{Table: pksk, Items: bulkItems(), Change: edit.BulkChange{Sets: []edit.Assignment{big}}})
	if err == nil || !strings.HasPrefix(err.Error(), "PK = CUST#7, SK = ORDER#1: the item would be") {
		t.Errorf("an item over 400 KB: %v", err)
	}
}

// The preview's sums: the predicted WCU is each plan's (from the item's
// size before and after, its indexes included) added up; the time is it
// over the rate; the command is the first plan's.
func TestBulkPlanPredictedTimeAndCommand(t *testing.T) {
	table := pksk
	table.Name = "App"
	table.Indexes = []dynamo.Index{{Name: "ByStatus", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "status", Type: "S"}, Projection: "KEYS_ONLY"}}
	items := bulkItems()
	items[1]["pad"] = s(strings.Repeat("x", 1500)) // 2 WCU
	b, err := edit.PlanBulk(edit.BulkInput{Table: table, Items: items, Change: edit.BulkChange{Sets: []edit.Assignment{assign(t, "status=S:ARCHIVED")}}})
	if err != nil {
		t.Fatal(err)
	}
	var want dynamo.Capacity
	for _, p := range b.Plans {
		want.Total += p.PredictedWCU
		want.Table += p.TableWCU
	}
	got := b.Predicted()
	// Each status moves in ByStatus: a delete and a put of its entry, 2
	// units per item; the table 1 + 2 + 1.
	if got.Total != want.Total || got.Table != want.Table || got.Table != 4 || got.Indexes["ByStatus"] != 6 || got.Total != 10 {
		t.Errorf("predicted %+v, want the plans' sum %+v (table 4, ByStatus 6)", got, want)
	}
	if d, ok := b.Time(4); !ok || d != 2500*time.Millisecond {
		t.Errorf("10 WCU at 4 WCU/s: %v %v, want 2.5 s", d, ok)
	}
	for _, rate := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if d, ok := b.Time(rate); ok {
			t.Errorf("at %v WCU/s: %v, want no time", rate, d)
		}
	}
	to := edit.Target{Endpoint: "http://127.0.0.1:8000", Region: "us-east-1"}
	if cmd := b.Command(to); cmd != b.Plans[0].Command(to) || !strings.Contains(cmd, `"SK":{"S":"ORDER#1"}`) {
		t.Errorf("the command is not the first plan's:\n%s", cmd)
	}
	if cmd := (edit.BulkPlan{}).Command(to); cmd != "" {
		t.Errorf("nothing to write, yet a command:\n%s", cmd)
	}
	none := edit.BulkPlan{}
	if c := none.Predicted(); c.Total != 0 || none.Changes() != nil {
		t.Errorf("nothing planned: %+v, %v", c, none.Changes())
	}
}

// The version attribute is planned as for one item: incremented, and the
// condition on it.
func TestPlanBulkWithAVersion(t *testing.T) {
	items := []dynamo.Item{{"PK": s("P"), "SK": s("A"), "rev": &types.AttributeValueMemberN{Value: "4"}, "x": s("1")}}
	b, err := edit.PlanBulk(edit.BulkInput{Table: pksk, Items: items, Version: "rev", Change: edit.BulkChange{Sets: []edit.Assignment{assign(t, "x=S:2")}}})
	if err != nil || len(b.Plans) != 1 {
		t.Fatal(b, err)
	}
	if v := edit.ValueText(b.Plans[0].New["rev"]); v != "N 5" || !strings.Contains(b.Plans[0].Condition, "rev = N 4") {
		t.Errorf("rev %s, condition %s", v, b.Plans[0].Condition)
	}
}

// The boto3 form is the first plan's, a client call with typed values.
func TestBulkPlanBoto3(t *testing.T) {
	b, err := edit.PlanBulk(edit.BulkInput{Table: pksk, Items: bulkItems(), Change: edit.BulkChange{Sets: []edit.Assignment{assign(t, "total=N:35.50")}}})
	if err != nil {
		t.Fatal(err)
	}
	to := edit.Target{Region: "eu-west-1", Profile: "prod"}
	code := b.Boto3(to)
	for _, want := range []string{
		`client = boto3.Session(profile_name="prod").client("dynamodb", region_name="eu-west-1")`,
		"resp = client.update_item(\n",
		`    Key={"PK": {"S": "CUST#7"}, "SK": {"S": "ORDER#1"}},`,
		`":2": {"N": "35.50"}`,
		`    ReturnConsumedCapacity="TOTAL",`,
	} {
		if !strings.Contains(code, want) {
			t.Errorf("the boto3 code lacks %s:\n%s", want, code)
		}
	}
	if code != b.Plans[0].Boto3(to) || (edit.BulkPlan{}).Boto3(to) != "" {
		t.Errorf("not the first plan's code:\n%s", code)
	}
}

// A malformed change is refused before any item is planned.
func TestPlanBulkRefusesAMalformedChange(t *testing.T) {
	for _, tc := range []struct {
		change edit.BulkChange
		want   string
	}{
		{edit.BulkChange{Renames: []edit.Rename{{From: "a", To: ""}}}, "rename a=: a rename takes an old name and a new one"},
		{edit.BulkChange{Renames: []edit.Rename{{From: "", To: "b"}}}, "rename =b: a rename takes an old name and a new one"},
		{edit.BulkChange{Renames: []edit.Rename{{From: "a", To: "a"}}}, "rename a=a: the new name is the old one"},
		{edit.BulkChange{Sets: []edit.Assignment{{Name: "a"}}}, `set "a": an attribute set takes a name and a typed value`},
		{edit.BulkChange{Defaults: []edit.Assignment{{Value: s("x")}}}, `set "": an attribute set takes a name and a typed value`},
		{edit.BulkChange{Removals: []string{"a", ""}}, "remove: an attribute removed takes a name"},
	} {
		b, err := edit.PlanBulk(edit.BulkInput{Table: pksk, Items: bulkItems(), Change: tc.change})
		if err == nil || err.Error() != tc.want || b.Selected() != 0 {
			t.Errorf("%+v: %v, %d planned; want %q", tc.change, err, b.Selected(), tc.want)
		}
	}
	if err := (edit.BulkChange{Delete: true, Removals: []string{""}}).Check(); err != nil {
		t.Errorf("a delete: %v", err)
	}
}
