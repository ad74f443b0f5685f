package edit

// What a refused write shows: the attributes that differ, each as read,
// as it is now and as the user wanted it.

import (
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ConflictRow is one attribute of a refused write: its value as read, now
// and in the user's version; nil where the item had or has none.
type ConflictRow struct {
	Name             string
	Read, Now, Yours types.AttributeValue
	ChangedMeanwhile bool // now differs from as read: someone else's change
	ChangedByYou     bool // yours differs from as read: the user's change
}

// Rows are the attributes of a refused write that someone else changed
// since the read or that the user changed, key attributes first. A refused
// delete shows only what someone else changed: the user's version of every
// attribute is "gone".
func (e *ConflictError) Rows() []ConflictRow {
	p := e.Plan
	now := e.Current
	names := map[string]bool{}
	for _, it := range []map[string]types.AttributeValue{p.Old, now, p.New} {
		for n := range it {
			names[n] = true
		}
	}
	sorted := slices.Sorted(maps.Keys(names))
	slices.SortStableFunc(sorted, KeysFirst(p.Keys))
	var out []ConflictRow
	for _, n := range sorted {
		r := ConflictRow{Name: n, Read: p.Old[n], Now: now[n], Yours: p.New[n]}
		r.ChangedMeanwhile = !Equal(r.Read, r.Now)
		r.ChangedByYou = p.New != nil && !Equal(r.Read, r.Yours)
		if r.ChangedMeanwhile || r.ChangedByYou {
			out = append(out, r)
		}
	}
	return out
}
