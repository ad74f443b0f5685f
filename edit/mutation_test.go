package edit_test

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
)

// With a version attribute, an item read without one may only be written
// while it still has none: the condition must say attribute_not_exists of
// it, or a second writer's first versioned write would be overwritten.
func TestPlanVersionConditionOnItemWithoutVersion(t *testing.T) {
	old := dynamo.Item{"PK": s("P"), "SK": s("S"), "status": s("OPEN")}
	new := dynamo.Item{"PK": s("P"), "SK": s("S"), "status": s("SHIPPED")}
	p, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: old, New: new, Version: "version"})
	if err != nil {
		t.Fatal(err)
	}
	want := `(attribute_exists (PK)) AND (status = S "OPEN") AND (attribute_not_exists (version))`
	if p.Condition != want {
		t.Errorf("condition %q, want %q", p.Condition, want)
	}
	if v := edit.ValueText(p.New["version"]); v != "N 1" {
		t.Errorf("the first version written is %s, want N 1", v)
	}
	// An item read with its version is guarded by it and by what the write
	// touches (issue 23: every attribute a write sets is in its condition).
	old["version"], new["version"] = n("7"), n("7")
	p, err = edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: old, New: new, Version: "version"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `(attribute_exists (PK)) AND (version = N 7) AND (status = S "OPEN")`; p.Condition != want {
		t.Errorf("condition %q, want %q", p.Condition, want)
	}
	if v := edit.ValueText(p.New["version"]); v != "N 8" {
		t.Errorf("the next version is %s, want N 8", v)
	}
}

// DynamoDB stores an item of exactly 400 KB (409,600 bytes) and refuses
// one byte more; the plan draws the line at the same byte.
func TestPlanItemSizeBoundary(t *testing.T) {
	sized := func(bytes int) dynamo.Item {
		it := dynamo.Item{"PK": s("P"), "SK": s("S")}
		it["pad"] = s(strings.Repeat("x", bytes-itemcodec.ItemSize(it)-len("pad")))
		if got := itemcodec.ItemSize(it); got != bytes {
			t.Fatalf("made an item of %d bytes, want %d", got, bytes)
		}
		return it
	}
	p, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, New: sized(409600)})
	if err != nil {
		t.Fatalf("an item of 409600 bytes: %v", err)
	}
	if p.PredictedWCU != 400 {
		t.Errorf("an item of 400 KB: %v WCU, want 400", p.PredictedWCU)
	}
	_, err = edit.NewPlan(edit.Change{Table: "T", Keys: pksk, New: sized(409601)})
	if err == nil || err.Error() != "the item would be 409601 bytes; DynamoDB stores at most 400 KB (409600 bytes) an item" {
		t.Errorf("an item of 409601 bytes: %v", err)
	}
}

// A command carries the names and values its expressions use, and no empty
// flag for what they do not: a new item's condition has names but no
// values, and the names are one JSON object in order.
func TestCommandFlagsOnlyWhatTheExpressionsUse(t *testing.T) {
	p, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, New: dynamo.Item{"PK": s("P"), "SK": s("S")}})
	if err != nil {
		t.Fatal(err)
	}
	cmd := p.Command(edit.Target{Endpoint: "http://127.0.0.1:8000", Region: "us-east-1"})
	if strings.Contains(cmd, "--expression-attribute-values") || !strings.Contains(cmd, `--expression-attribute-names '{"#0":"PK"}'`) {
		t.Errorf("put command:\n%s", cmd)
	}
	old := dynamo.Item{"PK": s("P"), "SK": s("S"), "a": n("1"), "b": n("2")}
	new := dynamo.Item{"PK": s("P"), "SK": s("S"), "a": n("3"), "b": n("2")}
	p, err = edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: old, New: new})
	if err != nil {
		t.Fatal(err)
	}
	cmd = p.Command(edit.Target{Endpoint: "http://127.0.0.1:8000", Region: "us-east-1"})
	if !strings.Contains(cmd, `--expression-attribute-names '{"#0":"PK","#1":"a","#2":"b"}'`) || !strings.Contains(cmd, "--expression-attribute-values '{") {
		t.Errorf("update command:\n%s", cmd)
	}
}

// A key change's command is one transact-write-items whose Put and Delete
// each carry their condition, names and values, exactly as the request.
func TestKeyChangeCommandCarriesBothConditions(t *testing.T) {
	old := dynamo.Item{"PK": s("P"), "SK": s("S"), "a": n("1")}
	new := dynamo.Item{"PK": s("P"), "SK": s("S2"), "a": n("1")}
	p, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: old, New: new})
	if err != nil {
		t.Fatal(err)
	}
	cmd := p.Command(edit.Target{Endpoint: "http://127.0.0.1:8000", Region: "us-east-1"})
	want := `--transact-items '[` +
		`{"Put":{"TableName":"T","Item":{"PK":{"S":"P"},"SK":{"S":"S2"},"a":{"N":"1"}},"ConditionExpression":"attribute_not_exists (#0)","ExpressionAttributeNames":{"#0":"PK"}}},` +
		`{"Delete":{"TableName":"T","Key":{"PK":{"S":"P"},"SK":{"S":"S"}},"ConditionExpression":"(attribute_exists (#0)) AND (#1 = :0)","ExpressionAttributeNames":{"#0":"PK","#1":"a"},"ExpressionAttributeValues":{":0":{"N":"1"}}}}]'`
	if !strings.Contains(cmd, "aws dynamodb transact-write-items") || !strings.Contains(cmd, want) {
		t.Errorf("key change command:\n%s\nwant it to hold\n%s", cmd, want)
	}
}

// A refused update shows what someone else changed and what the user
// changed; a refused delete only what someone else changed (the user's
// version of every attribute is "gone").
func TestConflictRowsOfUpdateAndDelete(t *testing.T) {
	read := dynamo.Item{"PK": s("P"), "SK": s("S"), "a": n("1"), "b": n("1"), "c": n("1")}
	now := dynamo.Item{"PK": s("P"), "SK": s("S"), "a": n("1"), "b": n("2"), "c": n("1")}
	mine := dynamo.Item{"PK": s("P"), "SK": s("S"), "a": n("9"), "b": n("1"), "c": n("1")}
	rows := func(new dynamo.Item) string {
		p, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: read, New: new})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range (&edit.ConflictError{Plan: p, Current: now}).Rows() {
			out = append(out, fmt.Sprintf("%s meanwhile=%v you=%v", r.Name, r.ChangedMeanwhile, r.ChangedByYou))
		}
		return strings.Join(out, "; ")
	}
	if got, want := rows(mine), "a meanwhile=false you=true; b meanwhile=true you=false"; got != want {
		t.Errorf("update rows: %s, want %s", got, want)
	}
	if got, want := rows(nil), "b meanwhile=true you=false"; got != want {
		t.Errorf("delete rows: %s, want %s", got, want)
	}
}

// ItemText says so when there is no item, and is the plain JSON otherwise.
func TestItemText(t *testing.T) {
	if got := edit.ItemText(nil); got != "(no item)" {
		t.Errorf("no item: %q", got)
	}
	if got := edit.ItemText(dynamo.Item{"PK": s("P")}); got != `{"PK":"P"}` {
		t.Errorf("an item: %q", got)
	}
}

// The journal lives in $XDG_STATE_HOME/dynascope when that is absolute,
// else in ~/.local/state/dynascope on Unix; without a home it is one
// sentence, also through OpenJournal("").
func TestJournalStateDir(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" || runtime.GOOS == "ios" || runtime.GOOS == "plan9" {
		t.Skip("the state directory is beside the settings on", runtime.GOOS)
	}
	t.Setenv("XDG_STATE_HOME", "/state")
	if d, err := edit.StateDir(); err != nil || d != "/state/dynascope" {
		t.Errorf("absolute XDG_STATE_HOME: %q %v", d, err)
	}
	t.Setenv("XDG_STATE_HOME", "relative")
	t.Setenv("HOME", "/home/u")
	t.Setenv("XDG_CONFIG_HOME", "/config")
	if d, err := edit.StateDir(); err != nil || d != "/home/u/.local/state/dynascope" {
		t.Errorf("relative XDG_STATE_HOME: %q %v", d, err)
	}
	j, err := edit.OpenJournal("")
	if err != nil || j.Path != "/home/u/.local/state/dynascope/"+edit.JournalFile {
		t.Errorf("OpenJournal(\"\"): %+v %v", j, err)
	}
	t.Setenv("HOME", "")
	if d, err := edit.DefaultJournalPath(); err == nil || !strings.HasPrefix(err.Error(), "cannot find the home directory for the journal") {
		t.Errorf("no home: %q %v", d, err)
	}
	if j, err := edit.OpenJournal(""); err == nil {
		t.Errorf("OpenJournal(\"\") without a home: %+v", j)
	}
	if j, err := edit.OpenJournal("/j.jsonl"); err != nil || j.Path != "/j.jsonl" {
		t.Errorf("OpenJournal with a path: %+v %v", j, err)
	}
}

// Key attributes come first, in key order; the others keep their order.
func TestKeysFirst(t *testing.T) {
	for in, want := range map[string]string{
		"b SK a PK c": "PK SK b a c",
		"PK b SK a":   "PK SK b a",
		"SK x PK":     "PK SK x",
		"PK SK":       "PK SK",
	} {
		names := strings.Fields(in)
		slices.SortStableFunc(names, edit.KeysFirst(pksk))
		if got := strings.Join(names, " "); got != want {
			t.Errorf("%s sorted: %s, want %s", in, got, want)
		}
	}
}

// A binary key attribute cannot be empty, as a string one cannot.
func TestPlanRefusesAnEmptyBinaryKey(t *testing.T) {
	keys := dynamo.Table{PK: dynamo.KeyAttr{Name: "PK", Type: "B"}}
	_, err := edit.NewPlan(edit.Change{Table: "T", Keys: keys, New: dynamo.Item{"PK": &types.AttributeValueMemberB{Value: nil}}})
	if err == nil || err.Error() != "the key attribute PK cannot be empty" {
		t.Errorf("an empty B key: %v", err)
	}
	if _, err := edit.NewPlan(edit.Change{Table: "T", Keys: keys, New: dynamo.Item{"PK": &types.AttributeValueMemberB{Value: []byte{1}}}}); err != nil {
		t.Errorf("a one-byte B key: %v", err)
	}
}

// Typed input that is not of its type names the attribute and the member.
func TestParseValueNamesTheBadMember(t *testing.T) {
	for _, tc := range []struct{ typ, text, want string }{
		{"B", "!!", `x: B takes base64, and "!!" is not`},
		{"BS", `["AA==","!!"]`, `x: BS member 2 is not base64: "!!"`},
		{"SS", `["a",5]`, "x: SS member 2 must be a string, not 5"},
		{"SS", `["a","b",true]`, "x: SS member 3 must be a string"},
	} {
		if _, err := edit.ParseValue("x", tc.typ, tc.text); err == nil || err.Error() != tc.want {
			t.Errorf("%s:%s: %v, want %q", tc.typ, tc.text, err, tc.want)
		}
	}
	if av, err := edit.ParseValue("x", "B", " AAE= "); err != nil || edit.ValueText(av) != `B "AAE="` {
		t.Errorf("B AAE=: %v %v", av, err)
	}
}

// A write's own requests are its note or an undo's; nothing else is.
func TestIsWriteNote(t *testing.T) {
	for note, want := range map[string]bool{
		edit.NoteWrite:            true,
		"undo of journal entry 3": true,
		"undo":                    false,
		"scan":                    false,
		"":                        false,
	} {
		if got := edit.IsWriteNote(note); got != want {
			t.Errorf("IsWriteNote(%q) = %v", note, got)
		}
	}
}

// A version the user set in an update stands; otherwise it is raised by
// one while the result still has at most 38 digits, and starts again at 1
// past that (DynamoDB would refuse a 39-digit number).
func TestPlanNextVersion(t *testing.T) {
	next := func(read, wanted string) string {
		old := dynamo.Item{"PK": s("P"), "SK": s("S"), "a": n("1"), "version": n(read)}
		new := dynamo.Item{"PK": s("P"), "SK": s("S"), "a": n("2"), "version": n(wanted)}
		p, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: old, New: new, Version: "version"})
		if err != nil {
			t.Fatal(err)
		}
		return edit.ValueText(p.New["version"])
	}
	for _, tc := range []struct{ read, wanted, want string }{
		{"7", "7", "N 8"},
		{"7", "10", "N 10"},
		{"1E37", "1E37", "N 10000000000000000000000000000000000001"},
		{"1E38", "1E38", "N 1"},
	} {
		if got := next(tc.read, tc.wanted); got != tc.want {
			t.Errorf("read %s, wanted %s: the version written is %s, want %s", tc.read, tc.wanted, got, tc.want)
		}
	}
}

// A delete of an item with too many attributes for one condition over all
// of them is conditioned on its version alone; without a version it is
// refused in one sentence.
func TestDeleteOfAWideItem(t *testing.T) {
	wide := dynamo.Item{"PK": s("P"), "SK": s("S")}
	for i := range 300 {
		wide[fmt.Sprintf("attr%03d", i)] = n("1")
	}
	_, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: wide})
	if err == nil || !strings.HasPrefix(err.Error(), "the item has too many attributes for a condition over all of them") {
		t.Errorf("without a version: %v", err)
	}
	wide["version"] = n("3")
	p, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: wide, Version: "version"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "(attribute_exists (PK)) AND (version = N 3)"; p.Condition != want {
		t.Errorf("with a version: %q, want %q", p.Condition, want)
	}
}

// Sets are equal member for member: a set that repeats a member of the
// other (NS 1 and 1.0 are one number) is not the same set.
func TestEqualSets(t *testing.T) {
	ns := func(v ...string) types.AttributeValue { return &types.AttributeValueMemberNS{Value: v} }
	ss := func(v ...string) types.AttributeValue { return &types.AttributeValueMemberSS{Value: v} }
	for _, tc := range []struct {
		a, b types.AttributeValue
		want bool
	}{
		{ns("1", "2"), ns("2.0", "1"), true},
		{ns("1", "2"), ns("1", "1.0"), false},
		{ns("1", "1.0"), ns("1", "2"), false},
		{ss("a", "b"), ss("b", "a"), true},
		{ss("a", "b"), ss("a", "a"), false},
		{ss("a", "b"), ss("a"), false},
		{ss("a"), ss("b"), false},
	} {
		if got := edit.Equal(tc.a, tc.b); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v", edit.ValueText(tc.a), edit.ValueText(tc.b), got)
		}
	}
}

// Every member of a list and a map is checked, not only the first.
func TestCheckValueLooksAtEveryMember(t *testing.T) {
	bad := n("1e200")
	list := &types.AttributeValueMemberL{Value: []types.AttributeValue{n("1"), n("2"), bad}}
	if err := edit.CheckValue("l", list); err == nil || !strings.HasPrefix(err.Error(), `l[2]: "1e200" is not a DynamoDB number`) {
		t.Errorf("a list: %v", err)
	}
	m := &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"a": n("1"), "b": n("2"), "c": bad}}
	if err := edit.CheckValue("m", m); err == nil || !strings.HasPrefix(err.Error(), `m.c: "1e200" is not a DynamoDB number`) {
		t.Errorf("a map: %v", err)
	}
}

// An attribute the user removed is a REMOVE, one set is a SET.
func TestUpdateRemovesAndSets(t *testing.T) {
	old := dynamo.Item{"PK": s("P"), "SK": s("S"), "gone": s("x"), "kept": s("y")}
	new := dynamo.Item{"PK": s("P"), "SK": s("S"), "kept": s("z")}
	p, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: old, New: new})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := describeUpdate(p), "REMOVE gone SET kept = :2"; got != want {
		t.Errorf("update %q, want %q", got, want)
	}
}

// With ten or more placeholders the condition shown puts back #10 and
// :10 whole, never #1 followed by a 0.
func TestConditionTextWithManyPlaceholders(t *testing.T) {
	old := dynamo.Item{"PK": s("P"), "SK": s("S")}
	new := dynamo.Item{"PK": s("P"), "SK": s("S")}
	want := "(attribute_exists (PK))"
	for i := range 14 {
		name := fmt.Sprintf("a%02d", i)
		old[name], new[name] = n(fmt.Sprint(i)), n(fmt.Sprint(i+100))
		want += fmt.Sprintf(" AND (%s = N %d)", name, i)
	}
	for range 10 { // the placeholders come from a map: another order each time
		p, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: old, New: new})
		if err != nil {
			t.Fatal(err)
		}
		if p.Condition != want {
			t.Fatalf("condition\n%s\nwant\n%s", p.Condition, want)
		}
	}
}

// An index that projects keys only holds its own keys and the table's:
// a large attribute outside them costs it nothing, its own sort key does,
// and so does one it includes; an index the write does not touch has no
// entry at all.
func TestPredictedIndexUnitsOfProjections(t *testing.T) {
	big := strings.Repeat("x", 3000)
	keys := pksk
	keys.Indexes = []dynamo.Index{
		{Name: "bySK", PK: dynamo.KeyAttr{Name: "g", Type: "S"}, SK: &dynamo.KeyAttr{Name: "h", Type: "S"}, Projection: "KEYS_ONLY"},
		{Name: "byG", PK: dynamo.KeyAttr{Name: "g", Type: "S"}, Projection: "KEYS_ONLY"},
		{Name: "sparse", PK: dynamo.KeyAttr{Name: "absent", Type: "S"}, Projection: "ALL"},
		{Name: "inc", PK: dynamo.KeyAttr{Name: "g", Type: "S"}, Projection: "INCLUDE", NonKeyAttr: []string{"pad"}},
	}
	p, err := edit.NewPlan(edit.Change{Table: "T", Keys: keys, New: dynamo.Item{"PK": s("P"), "SK": s("S"), "g": s("G"), "h": s(big), "pad": s(big)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(p.IndexWCU); got != "map[byG:1 bySK:3 inc:3]" {
		t.Errorf("index units %s, want map[byG:1 bySK:3 inc:3]", got)
	}
	old := dynamo.Item{"PK": s("P"), "SK": s("S"), "a": s("1")}
	new := dynamo.Item{"PK": s("P"), "SK": s("S"), "a": s("2")}
	p, err = edit.NewPlan(edit.Change{Table: "T", Keys: keys, Old: old, New: new})
	if err != nil {
		t.Fatal(err)
	}
	if p.IndexWCU != nil || p.PredictedWCU != 1 {
		t.Errorf("a write no index holds: %v, %v WCU", p.IndexWCU, p.PredictedWCU)
	}
}

// Undone names exactly the entries a later undo took back: one that was
// applied, not one refused or in doubt.
func TestUndoneNamesOnlyUndoneEntries(t *testing.T) {
	got := edit.Undone([]edit.Entry{{Number: 1, State: edit.StateDone}, {Number: 2, Undoes: 1, State: edit.StateDone}, {Number: 3, State: edit.StateDone},
		{Number: 4, Undoes: 3, State: edit.StateRefused}, {Number: 5, State: edit.StateDone}, {Number: 6, Undoes: 5, State: edit.StateInDoubt}})
	if fmt.Sprint(got) != "map[1:true]" {
		t.Errorf("Undone: %v", got)
	}
}

// NULL takes no value or true; the L and M errors show an example of the
// type asked for.
func TestParseValueNullAndExamples(t *testing.T) {
	for text, ok := range map[string]bool{"": true, "true": true, " true ": true, "yes": false, "false": false} {
		if _, err := edit.ParseValue("x", "NULL", text); (err == nil) != ok {
			t.Errorf("NULL:%s: %v, want accepted %v", text, err, ok)
		}
	}
	for typ, example := range map[string]string{"L": `L:[{"S":"a"},{"N":"1"}]`, "M": `M:{"city":{"S":"Oslo"}}`} {
		if _, err := edit.ParseValue("x", typ, "{"); err == nil || !strings.HasPrefix(err.Error(), "x: "+typ+" takes DynamoDB JSON ("+example+"): ") {
			t.Errorf("%s: %v", typ, err)
		}
	}
}

// A refused write says what it found, in one sentence for each case.
func TestConflictErrorSentences(t *testing.T) {
	item := dynamo.Item{"PK": s("P"), "SK": s("S"), "a": n("1")}
	moved := dynamo.Item{"PK": s("P"), "SK": s("S2"), "a": n("1")}
	plan := func(old, new dynamo.Item) *edit.Plan {
		p, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: old, New: new})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	changed := dynamo.Item{"PK": s("P"), "SK": s("S"), "a": n("2")}
	for _, tc := range []struct {
		err  *edit.ConflictError
		want string
	}{
		{&edit.ConflictError{Plan: plan(item, moved), Current: item, AtNewKey: moved}, "nothing was written: an item with the new key already exists"},
		{&edit.ConflictError{Plan: plan(item, moved), Current: changed}, "nothing was written: the item was changed by someone else since it was read; compare it with your version and try again"},
		{&edit.ConflictError{Plan: plan(nil, item), Current: item, AtNewKey: moved}, "nothing was written: the item exists already (someone else created it since it was read)"},
		{&edit.ConflictError{Plan: plan(item, changed)}, "nothing was written: the item was deleted by someone else since it was read"},
		{&edit.ConflictError{Plan: plan(item, changed), Current: changed}, "nothing was written: the item was changed by someone else since it was read; compare it with your version and try again"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.err.Plan.Op, got, tc.want)
		}
	}
}

// A change's key for people: the item's, or old → new for a key change.
func TestKeyText(t *testing.T) {
	old := dynamo.Item{"PK": s("P"), "SK": s("S"), "a": n("1")}
	moved := dynamo.Item{"PK": s("P"), "SK": s("S2"), "a": n("1")}
	for _, tc := range []struct {
		old, new dynamo.Item
		want     string
	}{
		{nil, old, "PK = P, SK = S"},
		{old, nil, "PK = P, SK = S"},
		{old, old, "PK = P, SK = S"},
		{old, moved, "PK = P, SK = S → PK = P, SK = S2"},
	} {
		if got := edit.KeyText(pksk, tc.old, tc.new); got != tc.want {
			t.Errorf("KeyText(%v, %v) = %q, want %q", tc.old, tc.new, got, tc.want)
		}
	}
}

// Versions only go up: the undo of a versioned update writes the image it
// found with the version after the one the update left; the undo of a put
// deletes the item.
func TestUndoPlanRaisesTheVersion(t *testing.T) {
	e := edit.Entry{Table: "T", Operation: edit.OpUpdate, PK: edit.KeyAttrJSON{Name: "PK", Type: "S"}, SK: &edit.KeyAttrJSON{Name: "SK", Type: "S"}, VersionAttr: "version",
		Items: []edit.EntryItem{{Key: []byte(`{"PK":{"S":"P"},"SK":{"S":"S"}}`),
			Old: []byte(`{"PK":{"S":"P"},"SK":{"S":"S"},"a":{"N":"1"},"version":{"N":"7"}}`),
			New: []byte(`{"PK":{"S":"P"},"SK":{"S":"S"},"a":{"N":"2"},"version":{"N":"8"}}`)}}}
	p, err := edit.UndoPlan(e, dynamo.Table{})
	if err != nil {
		t.Fatal(err)
	}
	if got := edit.ItemText(p.New); got != `{"PK":"P","SK":"S","a":1,"version":9}` {
		t.Errorf("the undo writes %s", got)
	}
	e.Operation, e.Items[0].Old = edit.OpPut, []byte("null")
	if p, err = edit.UndoPlan(e, dynamo.Table{}); err != nil || p.Op != edit.OpDelete {
		t.Errorf("the undo of a put: %v %v", p, err)
	}
}

// A transaction refused counts as a failed condition only when one of its
// items' condition failed, not for another reason.
func TestConditionFailedInATransaction(t *testing.T) {
	cancelled := func(codes ...string) error {
		var reasons []types.CancellationReason
		for _, c := range codes {
			reasons = append(reasons, types.CancellationReason{Code: aws.String(c)})
		}
		return fmt.Errorf("wrapped: %w", &types.TransactionCanceledException{CancellationReasons: reasons})
	}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{cancelled("None", "ConditionalCheckFailed"), true},
		{cancelled("ConditionalCheckFailed"), true},
		{cancelled("None", "TransactionConflict"), false},
		{&types.ConditionalCheckFailedException{}, true},
		{errors.New("other"), false},
	} {
		if got := edit.ConditionFailed(tc.err); got != tc.want {
			t.Errorf("ConditionFailed(%v) = %v", tc.err, got)
		}
	}
}

// An undo's plan takes the table as described now (its indexes count)
// when its key schema is the one the entry recorded, else the entry's.
func TestUndoPlanKeySchema(t *testing.T) {
	e := edit.Entry{Table: "T", Operation: edit.OpPut, PK: edit.KeyAttrJSON{Name: "PK", Type: "S"}, SK: &edit.KeyAttrJSON{Name: "SK", Type: "S"},
		Items: []edit.EntryItem{{Key: []byte(`{"PK":{"S":"P"},"SK":{"S":"S"}}`), Old: []byte("null"), New: []byte(`{"PK":{"S":"P"},"SK":{"S":"S"},"g":{"S":"G"}}`)}}}
	withIndex := pksk
	withIndex.Indexes = []dynamo.Index{{Name: "byG", PK: dynamo.KeyAttr{Name: "g", Type: "S"}, Projection: "ALL"}}
	otherSK := withIndex
	otherSK.SK = &dynamo.KeyAttr{Name: "SK", Type: "N"}
	noSK := withIndex
	noSK.SK = nil
	otherPK := withIndex
	otherPK.PK = dynamo.KeyAttr{Name: "id", Type: "S"}
	for _, tc := range []struct {
		name string
		t    dynamo.Table
		want string
	}{
		{"the same keys", withIndex, "map[byG:1]"},
		{"no table", dynamo.Table{}, "map[]"},
		{"another sort key type", otherSK, "map[]"},
		{"no sort key now", noSK, "map[]"},
		{"another partition key", otherPK, "map[]"},
	} {
		p, err := edit.UndoPlan(e, tc.t)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := fmt.Sprint(p.IndexWCU); got != tc.want || p.Keys.PK.Name != "PK" || p.Keys.SK == nil || p.Keys.SK.Type != "S" {
			t.Errorf("%s: index units %s (want %s), keys %+v", tc.name, got, tc.want, p.Keys)
		}
	}
	// An entry of a table without a sort key, undone with no table.
	e.SK, e.Items[0].Key, e.Items[0].New = nil, []byte(`{"PK":{"S":"P"}}`), []byte(`{"PK":{"S":"P"},"g":{"S":"G"}}`)
	if p, err := edit.UndoPlan(e, dynamo.Table{}); err != nil || p.Keys.PK.Name != "PK" || p.Keys.SK != nil {
		t.Errorf("no sort key, no table: %v %v", p, err)
	}
	if p, err := edit.UndoPlan(e, noSK); err != nil || fmt.Sprint(p.IndexWCU) != "map[byG:1]" {
		t.Errorf("no sort key: %v %v", p, err)
	}
}
