package edit_test

import (
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
)

// The order of the issue: read without status, total 20.
func order() dynamo.Item {
	return dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-01-09#A11"), "total": n("20"), "note": s("gift")}
}

// Every attribute a write sets or removes is in its condition, at its value
// as read or as absent; the key must exist for every write but a put, which
// needs it free. Delete and key change say what they cannot see.
func TestConditionCoversEveryAttributeTheWriteTouches(t *testing.T) {
	keys := pksk
	keys.Name = "App"
	read := order()
	added := clone(read)
	added["status"] = s("SHIPPED")
	changed := clone(read)
	changed["total"] = n("25")
	removed := clone(read)
	delete(removed, "note")
	moved := clone(read)
	moved["SK"] = s("ORDER#2025-01-10#A11")
	versioned := clone(read)
	versioned["_v"] = n("3")
	versionedNew := clone(versioned)
	versionedNew["status"] = s("SHIPPED")
	for _, tc := range []struct {
		name      string
		old, new  dynamo.Item
		version   string
		op        edit.Op
		condition string
		limit     string // a part of Limit; "" for none
		update    string // a part of the update's SET/REMOVE, the attribute names put back
	}{
		{"the issue: status added", read, added, "", edit.OpUpdate,
			`(attribute_exists (PK)) AND (note = S "gift") AND (attribute_not_exists (status)) AND (total = N 20)`, "", "SET status"},
		{"total changed", read, changed, "", edit.OpUpdate,
			`(attribute_exists (PK)) AND (note = S "gift") AND (total = N 20)`, "", "SET total"},
		{"note removed", read, removed, "", edit.OpUpdate,
			`(attribute_exists (PK)) AND (note = S "gift") AND (total = N 20)`, "", "REMOVE note"},
		{"put of a new item", nil, added, "", edit.OpPut, `attribute_not_exists (PK)`, "", ""},
		{"delete", read, nil, "", edit.OpDelete,
			`(attribute_exists (PK)) AND (note = S "gift") AND (total = N 20)`, "an attribute someone added after the read is not seen", ""},
		{"key change", read, moved, "", edit.OpTransact,
			`new key: attribute_not_exists (PK); old key: (attribute_exists (PK)) AND (note = S "gift") AND (total = N 20)`, "is not seen", ""},
		{"a version attribute found: _v and what the write touches", versioned, versionedNew, "", edit.OpUpdate,
			`(attribute_exists (PK)) AND (_v = N 3) AND (attribute_not_exists (status))`, "", "SET"},
		{"a version attribute on a delete", versioned, nil, "", edit.OpDelete,
			`(attribute_exists (PK)) AND (_v = N 3) AND (note = S "gift") AND (total = N 20)`, "the version attribute _v = N 3", ""},
		{"the settings' version attribute, absent when read", read, added, "rev", edit.OpUpdate,
			`(attribute_exists (PK)) AND (note = S "gift") AND (attribute_not_exists (rev)) AND (attribute_not_exists (status)) AND (total = N 20)`, "", "SET"},
	} {
		p, err := edit.NewPlan(edit.Change{Table: "App", Keys: keys, Old: tc.old, New: tc.new, Version: tc.version})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if p.Op != tc.op || p.Condition != tc.condition {
			t.Errorf("%s: %s with\n  %s\nwant %s with\n  %s", tc.name, p.Op, p.Condition, tc.op, tc.condition)
		}
		if tc.limit == "" && p.Limit != "" || !strings.Contains(p.Limit, tc.limit) {
			t.Errorf("%s: limit %q, want %q", tc.name, p.Limit, tc.limit)
		}
		if tc.update != "" {
			got := describeUpdate(p)
			if !strings.Contains(got, tc.update) {
				t.Errorf("%s: update %q, want %q in it", tc.name, got, tc.update)
			}
			// Only what changed is sent: one SET or REMOVE clause a change.
			if c := strings.Count(got, "=") + strings.Count(got, "REMOVE"); c != len(p.Diff) {
				t.Errorf("%s: update %q for a diff of %d", tc.name, got, len(p.Diff))
			}
		}
	}
	// A version attribute found is raised by the write.
	p, _ := edit.NewPlan(edit.Change{Table: "App", Keys: keys, Old: versioned, New: versionedNew})
	if p.Version != "_v" || !edit.Equal(p.New["_v"], n("4")) {
		t.Errorf("version %q, new %s", p.Version, edit.ItemText(p.New))
	}
}

// describeUpdate is the update expression with its names put back.
func describeUpdate(p *edit.Plan) string {
	e := *p.Update.UpdateExpression
	for k, v := range p.Update.ExpressionAttributeNames {
		e = strings.ReplaceAll(e, k+" ", v+" ")
		e = strings.ReplaceAll(e, k+",", v+",")
		if strings.HasSuffix(e, k) {
			e = strings.TrimSuffix(e, k) + v
		}
	}
	return e
}

// An update's undo takes back what the update changed and nothing else:
// an attribute someone added before the update went through stays.
func TestUndoOfAnUpdateKeepsWhatOthersAdded(t *testing.T) {
	keys := pksk
	keys.Name = "App"
	found := order()
	found["flag"] = s("theirs") // added by the other writer after our read
	left := clone(found)
	left["status"] = s("SHIPPED")
	e := edit.Entry{Table: "App", Operation: edit.OpUpdate, PK: edit.KeyAttrJSON{Name: "PK", Type: "S"}, SK: &edit.KeyAttrJSON{Name: "SK", Type: "S"},
		Items: []edit.EntryItem{{Old: itemcodec.DynamoJSON(found), New: itemcodec.DynamoJSON(left)}}}
	p, err := edit.UndoPlan(e, keys)
	if err != nil {
		t.Fatal(err)
	}
	if lines := edit.DiffLines(keys, p.Diff); len(lines) != 1 || lines[0] != `- status: S "SHIPPED"` {
		t.Errorf("undo diff %v", lines)
	}
	if !strings.Contains(p.Condition, `flag = S "theirs"`) || !strings.Contains(p.Condition, `status = S "SHIPPED"`) {
		t.Errorf("undo condition %s", p.Condition)
	}
}

// Every command shown pastes into a shell: one option a line, no newline
// inside a quoted word (the builder's "REMOVE #1\nSET #2 = :2" was one).
func TestCommandHasNoNewlineInAWord(t *testing.T) {
	keys := pksk
	keys.Name = "App"
	read := order()
	both := clone(read)
	delete(both, "note")
	both["status"] = s("SHIPPED")
	p, err := edit.NewPlan(edit.Change{Table: "App", Keys: keys, Old: read, New: both})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(p.Command(edit.Target{Region: "us-east-1"}), "\n")
	for i, l := range lines[:len(lines)-1] {
		if !strings.HasSuffix(l, " \\") {
			t.Errorf("line %d does not continue the command: %q", i+1, l)
		}
	}
	if u := *p.Update.UpdateExpression; strings.ContainsAny(u, "\n\r") || !strings.Contains(u, "REMOVE") || !strings.Contains(u, "SET") {
		t.Errorf("update expression %q", u)
	}
}
