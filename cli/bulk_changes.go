package cli

// The changes only a bulk update makes: --rename OLD=NEW moves an
// attribute's value to a new name (an item that has NEW already is
// skipped and listed, unless --overwrite), and --set-default
// NAME=TYPE:VALUE sets an attribute only where it is absent. Each becomes
// the item's wanted image, so the plan's condition holds what was read
// (NEW and NAME absent: attribute_not_exists), the preview shows the
// diff, and the journal's images take it back.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"dynascope/dynamo"
	"dynascope/edit"
)

// bulkChanges are the changes of registerChanges.
type bulkChanges struct {
	Renames   []string // --rename OLD=NEW
	Overwrite bool     // --overwrite: a rename replaces NEW where an item has it
	Defaults  []string // --set-default NAME=TYPE:VALUE
}

func (c *bulkChanges) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringArrayVar(&c.Renames, "rename", nil, "rename an attribute on every item selected: `OLD=NEW` (an item that has NEW is skipped and listed, unless --overwrite; repeatable; a bulk change)")
	fs.BoolVar(&c.Overwrite, "overwrite", false, "let --rename replace NEW where an item has it")
	fs.StringArrayVar(&c.Defaults, "set-default", nil, "set an attribute only on the items that lack it: `NAME=TYPE:VALUE` (repeatable; a bulk change)")
}

// given tells whether any of them was given.
func (c bulkChanges) given() bool { return len(c.Renames)+len(c.Defaults) > 0 }

// check refuses a malformed change before anything connects.
func (c bulkChanges) check() error {
	for _, r := range c.Renames {
		old, new, ok := strings.Cut(r, "=")
		switch {
		case !ok || old == "" || new == "":
			return usageError{fmt.Sprintf("--rename takes OLD=NEW, such as state=status, not %q.", r)}
		case old == new:
			return usageError{fmt.Sprintf("--rename %s: the new name is the old one.", r)}
		}
	}
	for _, d := range c.Defaults {
		if _, _, err := edit.ParseAssignment(d); err != nil {
			return usageError{fmt.Sprintf("--set-default %s.", err)}
		}
	}
	if c.Overwrite && len(c.Renames) == 0 {
		return usageError{"--overwrite goes with --rename: leave it out."}
	}
	return nil
}

// keysUntouched refuses a rename or default of a key attribute.
func (c bulkChanges) keysUntouched(key []string) error {
	for _, r := range c.Renames {
		old, new, _ := strings.Cut(r, "=")
		for _, n := range []string{old, new} {
			if slices.Contains(key, n) {
				return usageError{fmt.Sprintf("--rename %s: %s is a key attribute, which a bulk change cannot touch.", r, n)}
			}
		}
	}
	for _, d := range c.Defaults {
		name, _, _ := edit.ParseAssignment(d)
		if slices.Contains(key, name) {
			return usageError{fmt.Sprintf("--set-default %s: %s is a key attribute, which every item has.", d, name)}
		}
	}
	return nil
}

// apply makes the renames and defaults on new (a copy of the item read,
// old): the reason the item is skipped, or "".
func (c bulkChanges) apply(old, new dynamo.Item) string {
	for _, r := range c.Renames {
		from, to, _ := strings.Cut(r, "=")
		v, ok := old[from]
		if !ok {
			continue // nothing to rename on this item
		}
		if _, taken := old[to]; taken && !c.Overwrite {
			return fmt.Sprintf("--rename %s: the item has %s already (--overwrite replaces it)", r, to)
		}
		delete(new, from)
		new[to] = v
	}
	for _, d := range c.Defaults {
		name, av, _ := edit.ParseAssignment(d)
		if _, ok := new[name]; !ok {
			new[name] = av
		}
	}
	return ""
}

// skippedItem is an item the change leaves, and why.
type skippedItem struct {
	key    dynamo.Item
	reason string
}
