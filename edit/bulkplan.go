package edit

// A bulk change planned, without a connection: one change (set, remove,
// rename, set a default where absent, or delete) made to every item read,
// each item's plan built by NewPlan as a single write's is, and the
// preview's sums over them. The command line (update and delete with a
// selector) and the UI's marks both plan through PlanBulk, so they show
// and send the same thing; ApplyBulk sends the plans.

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
)

// Assignment is an attribute and its typed value, as ParseAssignment
// reads NAME=TYPE:VALUE.
type Assignment struct {
	Name  string
	Value types.AttributeValue
}

// Rename moves an attribute's value to a new name.
type Rename struct{ From, To string }

// String is the rename as the command line takes it: FROM=TO.
func (r Rename) String() string { return r.From + "=" + r.To }

// BulkChange is the change a bulk change makes to every item: a delete,
// or the rest, made on each item in this order: the renames (from the
// item as read), the defaults, the sets, the removals.
type BulkChange struct {
	Delete bool // delete every item; the other fields are then ignored
	// Renames move an attribute's value to a new name on the items that
	// have it; an item that has the new name already is skipped (a
	// BulkSkip), unless Overwrite.
	Renames   []Rename
	Overwrite bool
	Defaults  []Assignment // set only where the item lacks the attribute
	Sets      []Assignment // set on every item
	Removals  []string     // removed where the item has them
}

// The parts of a bulk change, as KeyChangeError names them.
const (
	PartSet     = "set"
	PartRemove  = "remove"
	PartRename  = "rename"
	PartDefault = "set-default"
)

// KeyChangeError refuses a bulk change that touches a key attribute: a key
// move is a put and a delete per item, made one item at a time.
type KeyChangeError struct {
	Part  string // PartSet, PartRemove, PartRename or PartDefault
	Index int    // which of the change's Sets, Removals, Renames or Defaults
	Name  string // the key attribute
	What  string // that part in words: "status", "state=status"
}

// Error says which part of the change touches which key attribute.
func (e *KeyChangeError) Error() string {
	switch e.Part {
	case PartRemove:
		return fmt.Sprintf("remove %s: a key attribute cannot be removed", e.Name)
	case PartDefault:
		return fmt.Sprintf("set-default %s: %s is a key attribute, which every item has", e.What, e.Name)
	}
	return fmt.Sprintf("%s %s: %s is a key attribute, which a bulk change cannot touch", e.Part, e.What, e.Name)
}

// KeysUntouched is nil when c touches no key attribute of t, else the
// first *KeyChangeError, in the order sets, removals, renames (the old
// name, then the new), defaults.
func (c BulkChange) KeysUntouched(t dynamo.Table) error {
	if c.Delete {
		return nil
	}
	key := keyNames(t)
	for i, s := range c.Sets {
		if slices.Contains(key, s.Name) {
			return &KeyChangeError{Part: PartSet, Index: i, Name: s.Name, What: s.Name}
		}
	}
	for i, name := range c.Removals {
		if slices.Contains(key, name) {
			return &KeyChangeError{Part: PartRemove, Index: i, Name: name, What: name}
		}
	}
	for i, r := range c.Renames {
		for _, n := range []string{r.From, r.To} {
			if slices.Contains(key, n) {
				return &KeyChangeError{Part: PartRename, Index: i, Name: n, What: r.String()}
			}
		}
	}
	for i, d := range c.Defaults {
		if slices.Contains(key, d.Name) {
			return &KeyChangeError{Part: PartDefault, Index: i, Name: d.Name, What: d.Name}
		}
	}
	return nil
}

// Check refuses a malformed change, as the command line's flags are
// refused before anything connects: a rename needs two names, not the same
// twice, and every attribute set, defaulted or removed a name (and a
// value).
func (c BulkChange) Check() error {
	if c.Delete {
		return nil
	}
	for _, r := range c.Renames {
		switch {
		case r.From == "" || r.To == "":
			return fmt.Errorf("rename %s: a rename takes an old name and a new one", r)
		case r.From == r.To:
			return fmt.Errorf("rename %s: the new name is the old one", r)
		}
	}
	for _, as := range [][]Assignment{c.Defaults, c.Sets} {
		for _, a := range as {
			if a.Name == "" || a.Value == nil {
				return fmt.Errorf("set %q: an attribute set takes a name and a typed value", a.Name)
			}
		}
	}
	if slices.Contains(c.Removals, "") {
		return errors.New("remove: an attribute removed takes a name")
	}
	return nil
}

// Wanted is the image the item read (old) should have after the change:
// nil for a delete. An attribute to remove that the item lacks leaves it
// as it is. A rename whose new name the item has already (without
// Overwrite) skips the item: the rename, and ok false.
func (c BulkChange) Wanted(old dynamo.Item) (new dynamo.Item, skip *Rename, ok bool) {
	if c.Delete {
		return nil, nil, true
	}
	new = maps.Clone(old)
	for _, r := range c.Renames {
		v, has := old[r.From]
		if !has {
			continue // nothing to rename on this item
		}
		if _, taken := old[r.To]; taken && !c.Overwrite {
			return nil, &r, false
		}
		delete(new, r.From)
		new[r.To] = v
	}
	for _, d := range c.Defaults {
		if _, has := new[d.Name]; !has {
			new[d.Name] = d.Value
		}
	}
	for _, s := range c.Sets {
		new[s.Name] = s.Value
	}
	for _, name := range c.Removals {
		delete(new, name)
	}
	return new, nil, true
}

// BulkInput is what a bulk change is planned from.
type BulkInput struct {
	Table   dynamo.Table  // its name and key schema (indexes for the units)
	Items   []dynamo.Item // the items as read, in the order they are sent
	Change  BulkChange
	Version string // the version attribute, as Change.Version
}

// BulkSkip is an item the change leaves: a rename's new name is taken.
type BulkSkip struct {
	Key    dynamo.Item
	Rename Rename // the rename whose new name the item has
}

// Reason is why the item is left, in words.
func (s BulkSkip) Reason() string {
	return fmt.Sprintf("rename %s: the item has %s already", s.Rename, s.Rename.To)
}

// BulkPlan is a bulk change planned: every item read is in one of Plans
// (to write, in the items' order), Unchanged (already as wanted: their
// keys) or Skipped.
type BulkPlan struct {
	Plans     []*Plan
	Unchanged []dynamo.Item
	Skipped   []BulkSkip
}

// PlanBulk plans in.Change on every item read. A malformed change
// (Check) and one that touches a key attribute (a *KeyChangeError) are
// refused before any item is planned; an item whose plan fails (too large, a bad value) fails the
// whole change, its key in the error.
func PlanBulk(in BulkInput) (BulkPlan, error) {
	var b BulkPlan
	if err := in.Change.Check(); err != nil {
		return b, err
	}
	if err := in.Change.KeysUntouched(in.Table); err != nil {
		return b, err
	}
	t := in.Table
	for _, old := range in.Items {
		new, skip, ok := in.Change.Wanted(old)
		if !ok {
			b.Skipped = append(b.Skipped, BulkSkip{Key: KeyOf(t, old), Rename: *skip})
			continue
		}
		plan, err := NewPlan(Change{Table: t.Name, Keys: t, Old: old, New: new, Version: in.Version})
		if errors.Is(err, ErrNoChange) {
			b.Unchanged = append(b.Unchanged, KeyOf(t, old))
			continue
		}
		if err != nil {
			return b, fmt.Errorf("%s: %w", KeyText(t, old, nil), err)
		}
		b.Plans = append(b.Plans, plan)
	}
	return b, nil
}

// Selected is how many items were planned: written, unchanged or skipped.
func (b BulkPlan) Selected() int { return len(b.Plans) + len(b.Unchanged) + len(b.Skipped) }

// AttrChange is one attribute change and how many items it touches.
type AttrChange struct {
	Attribute string `json:"attribute"`
	Change    string `json:"change"` // + added, - removed, ~ changed (AttrDiff.Kind)
	Items     int    `json:"items"`
}

// Changes counts the plans' diffs per attribute and kind, in name order,
// then kind; nil when there are none.
func (b BulkPlan) Changes() []AttrChange {
	n := map[[2]string]int{}
	for _, pl := range b.Plans {
		for _, d := range pl.Diff {
			n[[2]string{d.Name, d.Kind()}]++
		}
	}
	var out []AttrChange
	for _, k := range slices.SortedFunc(maps.Keys(n), func(a, b [2]string) int {
		if a[0] != b[0] {
			return strings.Compare(a[0], b[0])
		}
		return strings.Compare(a[1], b[1])
	}) {
		out = append(out, AttrChange{Attribute: k[0], Change: k[1], Items: n[k]})
	}
	return out
}

// Predicted is the plans' predicted WCU summed, table and indexes: each
// item's from its size before and after (Plan.PredictedWCU).
func (b BulkPlan) Predicted() dynamo.Capacity {
	var c dynamo.Capacity
	for _, pl := range b.Plans {
		c = c.Add(dynamo.Capacity{Total: pl.PredictedWCU, Table: pl.TableWCU, Indexes: pl.IndexWCU})
	}
	return c
}

// Time is how long the plans take to send at perSecond predicted WCU per
// second (as RatePace holds them); false when perSecond is not a
// positive number.
func (b BulkPlan) Time(perSecond float64) (time.Duration, bool) {
	if !(perSecond > 0) || math.IsInf(perSecond, 1) {
		return 0, false
	}
	return WriteTime(b.Predicted().Total, perSecond), true
}

// WriteTime is how long wcu predicted write units take at perSecond
// (above 0) WCU per second.
func WriteTime(wcu, perSecond float64) time.Duration {
	return time.Duration(wcu / perSecond * float64(time.Second))
}

// Command is the first plan's write as the aws CLI sends it
// (Plan.Command); "" when there is nothing to write.
func (b BulkPlan) Command(to Target) string {
	if len(b.Plans) == 0 {
		return ""
	}
	return b.Plans[0].Command(to)
}

// Boto3 is the first plan's write as a boto3 program (Plan.Boto3); ""
// when there is nothing to write.
func (b BulkPlan) Boto3(to Target) string {
	if len(b.Plans) == 0 {
		return ""
	}
	return b.Plans[0].Boto3(to)
}
