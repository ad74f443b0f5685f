package edit

// After a refused write, the way forward: the user's own changes (their
// + / ~ / - lines) put onto the item as it is now, as a new plan with its
// own diff and condition. Where another writer changed an attribute the
// user changed too, to something else, neither value is chosen: the
// attribute is left as it is now and named, for the user to decide.

import (
	"errors"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
)

// Collision is an attribute both the user and another writer changed
// since the read, to different values: as read, theirs (now) and yours;
// nil where there was or is none.
type Collision struct {
	Name                string
	Read, Theirs, Yours types.AttributeValue
}

// Reapplied is a refused write's changes put onto the item as it is now.
type Reapplied struct {
	// Plan is the write of the user's changes onto the item now, the
	// collisions left as they are now; nil when nothing is left to write
	// (Why says so, or every change was made by the other writer already
	// or collides).
	Plan *Plan
	// Now is the item it was built on; Wanted the item the user's changes
	// make of it, the collisions left as they are now.
	Now, Wanted dynamo.Item
	Collisions  []Collision
	// Same are the user's changes the other writer already made.
	Same []string
	// Why, when there is nothing to put the changes onto: the item is
	// gone, or the new key of a key change is taken.
	Why string
}

// Reapply puts the changes of the refused plan p onto the item as it is
// now (atNewKey: the item now at a key change's new key). A delete
// deletes the item as it is now: every attribute someone else changed
// goes with it, and is a collision. The version attribute is never one of
// the user's changes: the new plan raises it from the version now.
func Reapply(p *Plan, now, atNewKey dynamo.Item) (Reapplied, error) {
	r := Reapplied{Now: now}
	switch {
	case p.Op == OpTransact && atNewKey != nil:
		r.Why = "the new key is taken by another item: there is no key to move it to"
		return r, nil
	case now == nil && p.Old != nil && p.New == nil:
		r.Why = "the item is gone already: someone else deleted it"
		return r, nil
	case now == nil && p.Old != nil:
		r.Why = "the item was deleted by someone else: there is nothing to apply your changes to"
		return r, nil
	case now == nil:
		// A put refused while the key was taken, then freed: the item as
		// the user wanted it can be put again.
		r.Wanted = maps.Clone(p.New)
		return r.plan(p)
	case p.New == nil:
		for _, n := range sortedNames(p.Old, now) {
			if !Equal(p.Old[n], now[n]) {
				r.Collisions = append(r.Collisions, Collision{Name: n, Read: p.Old[n], Theirs: now[n]})
			}
		}
		return r.plan(p)
	}
	r.Wanted = maps.Clone(now)
	for _, d := range p.Diff {
		if d.Name == p.Version && p.Version != "" {
			continue
		}
		theirs := now[d.Name]
		switch {
		case Equal(theirs, d.Old):
			if d.New == nil {
				delete(r.Wanted, d.Name)
			} else {
				r.Wanted[d.Name] = d.New
			}
		case Equal(theirs, d.New):
			if !slices.Contains(keyNames(p.Keys), d.Name) {
				r.Same = append(r.Same, d.Name)
			}
		default:
			r.Collisions = append(r.Collisions, Collision{Name: d.Name, Read: d.Old, Theirs: theirs, Yours: d.New})
		}
	}
	return r.plan(p)
}

// plan builds the write of Wanted over Now; nothing left to write is no
// plan, not an error.
func (r Reapplied) plan(p *Plan) (Reapplied, error) {
	if r.Now != nil && r.Wanted != nil && SameItem(r.Now, r.Wanted) {
		return r, nil // a version attribute would make a write of nothing
	}
	version := p.Version
	if r.Now == nil || r.Now[version] == nil {
		version = ""
	}
	np, err := NewPlan(Change{Table: p.Table, Keys: p.Keys, Old: r.Now, New: r.Wanted, Version: version})
	if errors.Is(err, ErrNoChange) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	r.Plan = np
	return r, nil
}

// sortedNames are the attribute names of the items, sorted.
func sortedNames(items ...dynamo.Item) []string {
	names := map[string]bool{}
	for _, it := range items {
		for n := range it {
			names[n] = true
		}
	}
	return slices.Sorted(maps.Keys(names))
}
