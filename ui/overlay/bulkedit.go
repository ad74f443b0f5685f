package overlay

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

// The bulk change overlay: B with items marked and writes on. The change
// is typed as the command line takes it (set, remove, rename, default,
// delete), planned by edit.PlanBulk on the marked items as they were read,
// and previewed: how many items, the count per attribute change, a few
// typed diffs, the predicted WCU, the time at the settings' rate and one
// item's write as an aws command. y sends it (edit.Writer.ApplyBulk, each
// item conditional on its image read, at the rate), with progress; then
// what was written, refused because someone else changed the item (listed
// as read · now · yours), in doubt, or left.

type bulkEditPhase int

const (
	bulkChoose  bulkEditPhase = iota // the change typed
	bulkPreview                      // planned, shown, not sent
	bulkSending
	bulkSent // what it did
)

// BulkEdit is a bulk change of the marked items, from the change typed to
// what the writes did.
type BulkEdit struct {
	items   []dynamo.Item // the marked items in memory, as read
	missing int           // marked items not in memory (other partitions, released pages)
	table   dynamo.Table
	rate    float64 // predicted WCU per second (the settings')
	form    widget.Form
	phase   bulkEditPhase
	err     string
	plan    edit.BulkPlan
	prog    BulkProgress
	res     edit.BulkResult
	resErr  string
	offset  int
	// undo is the bulk entry this takes back, undoItems its items the
	// plans undo; nil for a change.
	undo      *edit.Entry
	undoItems []edit.EntryItem
}

// BulkProgress is how far a bulk change has got, as the root's command
// reports it while the writes go out.
type BulkProgress struct {
	Done, Total               int
	Written, Refused, InDoubt int
	Elapsed                   time.Duration
	Rate                      float64 // WCU per second the pace lets out now
	Left                      time.Duration
}

// NewBulkEdit asks for the change to make to items (the marked items in
// memory, as read; missing more are marked but not in memory) of table t,
// to be sent at rate predicted WCU per second.
func NewBulkEdit(items []dynamo.Item, missing int, t dynamo.Table, rate float64) BulkEdit {
	return BulkEdit{items: items, missing: missing, table: t, rate: rate, form: widget.NewForm([]string{"change"}, nil)}
}

// NewBulkUndo shows the undo of bulk entry e (edit.UndoPlans gave plans
// and items), to be sent at rate, for confirmation.
func NewBulkUndo(plans []*edit.Plan, items []edit.EntryItem, e edit.Entry, t dynamo.Table, rate float64) BulkEdit {
	o := BulkEdit{table: t, rate: rate, phase: bulkPreview, plan: edit.BulkPlan{Plans: plans}, undo: &e, undoItems: items}
	return o
}

// Undoing is the entry the overlay takes back; false for a change.
func (o BulkEdit) Undoing() (edit.Entry, bool) {
	if o.undo == nil {
		return edit.Entry{}, false
	}
	return *o.undo, true
}

// ID names the overlay.
func (BulkEdit) ID() ID { return BulkEditID }

// Hides says which lines of the screen the overlay takes over.
func (BulkEdit) Hides() Hidden { return Hidden{Query: true, Log: true} }

// Mode is the keymap mode the overlay is in, by its phase.
func (o BulkEdit) Mode(Env) *keymap.Mode {
	switch o.phase {
	case bulkChoose:
		return modeBulkChoose
	case bulkPreview:
		if o.undo != nil {
			return modeBulkUndo
		}
		return modeBulkPreview
	case bulkSending:
		return modeBulkSending
	}
	return modeWriteDone
}

// Progress shows how far the writes have got.
func (o BulkEdit) Progress(p BulkProgress) BulkEdit {
	o.prog = p
	return o
}

// Sent shows what the change did.
func (o BulkEdit) Sent(res edit.BulkResult, err error) BulkEdit {
	o.phase, o.res, o.offset = bulkSent, res, 0
	if err != nil {
		o.resErr = textfmt.Sanitize(err.Error())
	}
	return o
}

// ParseBulkChange reads a change as typed: "set NAME=TYPE:VALUE", "remove
// NAME[,NAME…]", "rename FROM=TO", "default NAME=TYPE:VALUE" (set where
// absent) or "delete".
func ParseBulkChange(s string) (edit.BulkChange, error) {
	verb, rest, _ := strings.Cut(strings.TrimSpace(s), " ")
	rest = strings.TrimSpace(rest)
	var c edit.BulkChange
	switch verb {
	case "set", "default":
		name, v, err := edit.ParseAssignment(rest)
		if err != nil {
			return c, err
		}
		if verb == "set" {
			c.Sets = []edit.Assignment{{Name: name, Value: v}}
		} else {
			c.Defaults = []edit.Assignment{{Name: name, Value: v}}
		}
	case "remove":
		for _, n := range strings.Split(rest, ",") {
			if n = strings.TrimSpace(n); n != "" {
				c.Removals = append(c.Removals, n)
			}
		}
		if len(c.Removals) == 0 {
			return c, errors.New("remove takes the attributes to remove: remove notes[,other]")
		}
	case "rename":
		from, to, ok := strings.Cut(rest, "=")
		from, to = strings.TrimSpace(from), strings.TrimSpace(to)
		if !ok || from == "" || to == "" || from == to {
			return c, errors.New("rename takes FROM=TO, two different names: rename state=status")
		}
		c.Renames = []edit.Rename{{From: from, To: to}}
	case "delete":
		if rest != "" {
			return c, errors.New("delete takes nothing more: it deletes every marked item")
		}
		c.Delete = true
	default:
		return c, fmt.Errorf("%q is not a change: type set, remove, rename, default or delete", textfmt.Sanitize(verb))
	}
	return c, c.Check()
}

// Update handles a key, pasted text or a wheel message and returns what
// the overlay asks of the root.
func (o BulkEdit) Update(e Env, msg tea.Msg) (Overlay, Want) {
	if o.phase == bulkChoose {
		return o.chooseUpdate(e, msg)
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return o, nil
	}
	km := e.Keys
	switch {
	case key.Matches(k, km.Up):
		o.offset = max(0, o.offset-1)
		return o, nil
	case key.Matches(k, km.Down):
		o.offset++
		return o, nil
	}
	switch o.phase {
	case bulkPreview:
		switch {
		case key.Matches(k, km.Confirm):
			if len(o.plan.Plans) == 0 {
				return o, Then{ShowInfo{Text: "nothing to send: no marked item would change"}, Close{}}
			}
			o.phase, o.prog = bulkSending, BulkProgress{Total: len(o.plan.Plans)}
			return o, SendBulkChange{Plans: o.plan.Plans, Rate: o.rate, Undo: o.undo, Items: o.undoItems}
		case key.Matches(k, km.CopyCommand):
			return o, CopyText{Text: o.plan.Command(e.Target), Info: "copied one item's write as an aws dynamodb command (OSC 52); nothing was sent"}
		case key.Matches(k, km.Cancel, km.Back) && o.undo != nil:
			return o, Then{Close{}, ShowInfo{Text: "not undone: nothing was sent"}}
		case key.Matches(k, km.Cancel, km.Back):
			o.phase, o.err, o.offset = bulkChoose, "", 0
		}
	case bulkSending:
		if key.Matches(k, km.Cancel) {
			return o, StopBulkChange{}
		}
	case bulkSent:
		if key.Matches(k, km.Cancel, km.Back, km.Open) {
			return o, Close{}
		}
	}
	return o, nil
}

func (o BulkEdit) chooseUpdate(e Env, msg tea.Msg) (Overlay, Want) {
	var ev widget.FormEvent
	o.form, ev = formKey(o.form, e, msg)
	switch ev {
	case widget.FormSubmit:
		c, err := ParseBulkChange(o.form.Value("change"))
		if err == nil {
			o.plan, err = edit.PlanBulk(edit.BulkInput{Table: o.table, Items: o.items, Change: c, Version: e.Version})
		}
		if err != nil {
			o.err = textfmt.Sanitize(err.Error())
			return o, nil
		}
		o.phase, o.err, o.offset = bulkPreview, "", 0
	case widget.FormCancel:
		return o, Then{Close{}, ShowInfo{Text: "no bulk change: nothing was sent"}}
	case widget.FormTyped:
		o.err = ""
	}
	return o, nil
}

// View draws the overlay w×h.
func (o BulkEdit) View(e Env, w, h int) string {
	st := e.St
	inner := w - 2
	var lines []string
	add := sayer(&lines, inner)
	text, muted := st.Text.Render, st.Muted.Render
	if o.undo != nil {
		add(st.Bold.Render, fmt.Sprintf("undo of bulk change %d on %s: each item only if it is still as the change left it", o.undo.Number, o.table.Name))
	} else {
		add(st.Bold.Render, fmt.Sprintf("%s on %s", textfmt.Plural(len(o.items), "marked item", "marked items"), o.table.Name))
	}
	if o.missing > 0 {
		add(st.Warn.Render, fmt.Sprintf("%d more marked, not in memory (another partition, or a released page): left out; open or scroll to them first", o.missing))
	}
	lines = append(lines, "")
	title := "Bulk change · marked items"
	switch o.phase {
	case bulkChoose:
		lines = append(lines, o.form.View(st, inner)...)
		lines = append(lines, "")
		for _, l := range []string{"set NAME=TYPE:VALUE     set on every item (status=S:SHIPPED, total=N:35.5)",
			"remove NAME[,NAME…]     remove where present", "rename FROM=TO          move the value to a new name",
			"default NAME=TYPE:VALUE set only where absent", "delete                  delete every marked item"} {
			add(muted, l)
		}
		if o.err != "" {
			lines = append(lines, "")
			add(st.Err.Render, o.err)
		}
	case bulkPreview:
		title = "Bulk change · shown before anything is sent"
		o.preview(e, add)
	case bulkSending:
		title = "Bulk change · sending"
		o.summary(add)
		p := o.prog
		add(st.Accent.Render, fmt.Sprintf("%d/%d  %s", p.Done, p.Total, progressBar(p.Done, p.Total, 30)))
		add(text, fmt.Sprintf("written %d · refused %d · in doubt %d · %.1f WCU/s · %s elapsed · about %s left",
			p.Written, p.Refused, p.InDoubt, p.Rate, p.Elapsed.Round(time.Second), p.Left.Round(time.Second)))
		add(muted, "esc stops after the writes in flight; the rest is left, not sent")
	case bulkSent:
		title = "Bulk change · done"
		o.sent(e, add)
	}
	shown := max(1, h-2)
	off := widget.Clamp(o.offset, 0, max(0, len(lines)-shown))
	return widget.Box(st, title, lines[off:min(len(lines), off+shown)], w, h, true)
}

// progressBar is done of total as a bar w cells wide.
func progressBar(done, total, w int) string {
	n := 0
	if total > 0 {
		n = w * done / total
	}
	return "[" + strings.Repeat("█", n) + strings.Repeat("·", w-n) + "]"
}

var modeBulkChoose = keymap.FormMode("bulk change", "preview", "cancel")

var modeBulkPreview = &keymap.Mode{Name: "bulk preview", Keys: []keymap.Binding{
	keymap.InBar("confirm", "send"), keymap.InBar("copyCommand", "copy one write"), keymap.InBar("cancel", "back to the change"), keymap.InBar("help"),
	keymap.Bind("back", "back to the change"), keymap.Bind("up", "scroll up"), keymap.Bind("down", "scroll down"),
}}

var modeBulkUndo = &keymap.Mode{Name: "bulk undo", Keys: []keymap.Binding{
	keymap.InBar("confirm", "send"), keymap.InBar("copyCommand", "copy one write"), keymap.InBar("cancel", "don't send"), keymap.InBar("help"),
	keymap.Bind("back", "don't send"), keymap.Bind("up", "scroll up"), keymap.Bind("down", "scroll down"),
}}

var modeBulkSending = &keymap.Mode{Name: "bulk sending", Keys: []keymap.Binding{
	keymap.InBar("cancel", "stop after the writes in flight"), keymap.InBar("help"), keymap.Bind("up", "scroll up"), keymap.Bind("down", "scroll down"),
}}
