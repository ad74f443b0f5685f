package edit_test

import (
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/edit"
)

// A refused write's own changes go onto the item as it is now: a change
// whose attribute nobody else touched applies as it was; one the other
// writer already made is neither sent nor a collision; one where the other
// writer changed the same attribute to something else collides and is left
// as they wrote it. The new plan conditions on the item now.
func TestReapplyPutsYourChangesOnTheItemNow(t *testing.T) {
	keys := pksk
	keys.Name = "App"
	read := order() // total 20, note gift
	yours := clone(read)
	yours["total"] = n("25")    // they changed it too: a collision
	delete(yours, "note")       // nobody else touched it: applies
	yours["status"] = s("OPEN") // they added the same: already made
	yours["carrier"] = s("DHL") // nobody else: applies
	p, err := edit.NewPlan(edit.Change{Table: "App", Keys: keys, Old: read, New: yours})
	if err != nil {
		t.Fatal(err)
	}
	now := clone(read)
	now["total"] = n("30")
	now["status"] = s("OPEN")
	now["flag"] = s("theirs") // their own addition stays
	r, err := edit.Reapply(p, now, nil)
	if err != nil || r.Plan == nil || r.Why != "" {
		t.Fatalf("reapplied: %+v, %v", r, err)
	}
	if got := strings.Join(edit.DiffLines(keys, r.Plan.Diff), "; "); got != `+ carrier: S "DHL"; - note: S "gift"` {
		t.Errorf("the new diff: %s", got)
	}
	if len(r.Collisions) != 1 || r.Collisions[0].Name != "total" || !edit.Equal(r.Collisions[0].Theirs, n("30")) || !edit.Equal(r.Collisions[0].Yours, n("25")) || !edit.Equal(r.Collisions[0].Read, n("20")) {
		t.Errorf("collisions: %+v", r.Collisions)
	}
	if len(r.Same) != 1 || r.Same[0] != "status" {
		t.Errorf("already made: %v", r.Same)
	}
	// The condition is the item now: their total, their flag.
	if c := r.Plan.Condition; !strings.Contains(c, "total = N 30") || !strings.Contains(c, `flag = S "theirs"`) || strings.Contains(c, "total = N 20") {
		t.Errorf("the new condition: %s", c)
	}
	if !edit.SameItem(r.Plan.Old, now) || !edit.Equal(r.Plan.New["total"], n("30")) {
		t.Errorf("built on %s, wanting %s", edit.ItemText(r.Plan.Old), edit.ItemText(r.Plan.New))
	}
}

// Nothing left but collisions and changes already made: no plan, not an
// error. A version attribute is raised from the version now, never taken
// as the user's change.
func TestReapplyOnlyCollisionsAndVersion(t *testing.T) {
	keys := pksk
	keys.Name = "App"
	read := order()
	read["version"] = n("3")
	yours := clone(read)
	yours["total"] = n("25")
	p, err := edit.NewPlan(edit.Change{Table: "App", Keys: keys, Old: read, New: yours})
	if err != nil || !edit.Equal(p.New["version"], n("4")) {
		t.Fatalf("plan: %v, %v", p, err)
	}
	now := clone(read)
	now["total"], now["version"] = n("30"), n("4")
	r, err := edit.Reapply(p, now, nil)
	if err != nil || r.Plan != nil || len(r.Collisions) != 1 {
		t.Fatalf("only a collision: %+v, %v", r, err)
	}
	now["note"] = s("theirs")
	yours["flag"] = s("x")
	p, _ = edit.NewPlan(edit.Change{Table: "App", Keys: keys, Old: read, New: yours})
	r, err = edit.Reapply(p, now, nil)
	if err != nil || r.Plan == nil || !edit.Equal(r.Plan.New["version"], n("5")) || !strings.Contains(r.Plan.Condition, "version = N 4") {
		t.Errorf("the version raised from now: %+v, %v", r.Plan, err)
	}
}

// What cannot be reapplied says why: the item deleted meanwhile, a key
// change whose new key is taken. A refused delete deletes the item as it
// is now, every attribute someone else changed named as a collision; a
// refused put whose key is taken becomes an update of the item there.
func TestReapplyEdges(t *testing.T) {
	keys := pksk
	keys.Name = "App"
	read := order()
	upd := clone(read)
	upd["status"] = s("SHIPPED")
	p, _ := edit.NewPlan(edit.Change{Table: "App", Keys: keys, Old: read, New: upd})
	if r, _ := edit.Reapply(p, nil, nil); r.Plan != nil || !strings.Contains(r.Why, "deleted by someone else") {
		t.Errorf("onto a deleted item: %+v", r)
	}
	moved := clone(read)
	moved["SK"] = s("ORDER#moved")
	p, _ = edit.NewPlan(edit.Change{Table: "App", Keys: keys, Old: read, New: moved})
	if r, _ := edit.Reapply(p, read, dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#moved")}); r.Plan != nil || !strings.Contains(r.Why, "new key is taken") {
		t.Errorf("a key change onto a taken key: %+v", r)
	}
	changed := clone(read)
	changed["total"] = n("30")
	if r, _ := edit.Reapply(p, changed, nil); r.Plan == nil || r.Plan.Op != edit.OpTransact || !edit.Equal(r.Plan.New["total"], n("30")) {
		t.Errorf("a key change reapplied: %+v", r.Plan)
	}
	del, _ := edit.NewPlan(edit.Change{Table: "App", Keys: keys, Old: read})
	r, _ := edit.Reapply(del, changed, nil)
	if r.Plan == nil || r.Plan.Op != edit.OpDelete || len(r.Collisions) != 1 || r.Collisions[0].Name != "total" || r.Collisions[0].Yours != nil {
		t.Errorf("a delete reapplied: %+v", r)
	}
	if r, _ := edit.Reapply(del, nil, nil); r.Plan != nil || !strings.Contains(r.Why, "gone already") {
		t.Errorf("a delete of an item gone: %+v", r)
	}
	put, _ := edit.NewPlan(edit.Change{Table: "App", Keys: keys, New: upd})
	r, _ = edit.Reapply(put, read, nil)
	if r.Plan == nil || r.Plan.Op != edit.OpUpdate || strings.Join(edit.DiffLines(keys, r.Plan.Diff), ";") != `+ status: S "SHIPPED"` || len(r.Same) != 2 {
		t.Errorf("a put onto the item there: %+v, same %v", r.Plan, r.Same)
	}
}
