package cli

// The changes only a bulk update makes: --rename OLD=NEW moves an
// attribute's value to a new name (an item that has NEW already is
// skipped and listed, unless --overwrite), and --set-default
// NAME=TYPE:VALUE sets an attribute only where it is absent. edit's
// BulkChange makes each the item's wanted image, so the plan's condition
// holds what was read
// (NEW and NAME absent: attribute_not_exists), the preview shows the
// diff, and the journal's images take it back.

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

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

// change is the renames and defaults as edit makes them.
func (c bulkChanges) change() (edit.BulkChange, error) {
	ch := edit.BulkChange{Overwrite: c.Overwrite}
	for _, r := range c.Renames {
		from, to, _ := strings.Cut(r, "=") // checked before connecting
		ch.Renames = append(ch.Renames, edit.Rename{From: from, To: to})
	}
	for _, d := range c.Defaults {
		name, av, err := edit.ParseAssignment(d)
		if err != nil {
			return ch, usageError{fmt.Sprintf("--set-default %s.", err)}
		}
		ch.Defaults = append(ch.Defaults, edit.Assignment{Name: name, Value: av})
	}
	return ch, nil
}

// skipReason is why edit left an item, in the flags' words.
func skipReason(s edit.BulkSkip) string {
	return fmt.Sprintf("--rename %s: the item has %s already (--overwrite replaces it)", s.Rename, s.Rename.To)
}
