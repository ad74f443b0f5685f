package overlay

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/edit"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/theme"
	"dynascope/ui/widget"
)

// After a refused write, the way forward: r has the root read the item
// again (ReapplyWrite); its answer puts the user's own changes on the item
// as it is now (edit.Reapply), shown as a new write before it is sent: the
// new diff, the new condition, and the attributes where the other writer
// changed what the user changed, left as the other writer wrote them. E
// edits that draft, to take the user's value where they decide to.

// Reapplied is the write of the refused plan's changes put on the item
// as it is now: confirmed like any write, or, with nothing left to send,
// the collisions and why.
func Reapplied(refused *edit.Plan, r edit.Reapplied) Write {
	if r.Plan == nil {
		return Write{plan: refused, re: &r, phase: writeNothing}
	}
	return Write{plan: r.Plan, re: &r}
}

// reapplyKey is r on a refusal, and E on a reapplied write (to decide a
// collision) or on one with nothing left to send.
func (o Write) reapplyKey(k tea.KeyPressMsg, km keymap.KeyMap) (Want, bool) {
	switch {
	case o.phase == writeConflict && o.undo == nil && key.Matches(k, km.Reapply):
		return ReapplyWrite{Plan: o.plan}, true
	case o.re != nil && o.re.Wanted != nil && key.Matches(k, km.EditItem):
		d := ReappliedDraft(o.plan.Keys, o.re.Now, o.re.Wanted)
		title := "Edit · yours on the item as it is now"
		if names := o.collisionNames(); names != "" {
			title += " · decide " + names
		}
		return Open{O: NewEdit(d, title)}, true
	}
	return nil, false
}

func (o Write) collisionNames() string {
	var names []string
	for _, c := range o.re.Collisions {
		names = append(names, textfmt.Sanitize(c.Name))
	}
	return strings.Join(names, ", ")
}

// reappliedLines head a reapplied write: what it is built on, and each
// collision as read · theirs · yours.
func (o Write) reappliedLines(st theme.Styles, inner int) []string {
	var out []string
	add := func(style func(...string) string, s string) {
		for _, l := range widget.WrapLines(textfmt.Sanitize(s), max(1, inner-2)) {
			out = append(out, " "+style(l))
		}
	}
	add(st.Muted.Render, "the item read again, as it is now, with your changes put on it: the diff and the condition are against it")
	out = append(out, o.collisionLines(st, inner)...)
	if len(o.re.Same) > 0 {
		add(st.Muted.Render, "already as yours (the other writer made the same change): "+strings.Join(o.re.Same, ", "))
	}
	return append(out, "")
}

// collisionLines are the attributes both writers changed, left as the
// other writer wrote them.
func (o Write) collisionLines(st theme.Styles, inner int) []string {
	if len(o.re.Collisions) == 0 {
		return nil
	}
	text := func(av types.AttributeValue) string {
		if av == nil {
			return "—"
		}
		return textfmt.Sanitize(edit.ValueText(av))
	}
	deleting := o.re.Wanted == nil
	head := "changed by you and by someone else since your read: left as they wrote it; E edits yours in"
	if deleting {
		head = "changed by someone else since your read: the delete takes their change too"
	}
	out := []string{" " + st.Warn.Render(widget.Trunc(head, max(1, inner-2)))}
	// " ! " name, then three columns two apart, within the box's margin.
	nameW := 9
	for _, c := range o.re.Collisions {
		nameW = max(nameW, min(20, len(textfmt.Sanitize(c.Name))))
	}
	colW := max(6, (inner-10-nameW)/3)
	out = append(out, "   "+st.Muted.Render(widget.Fit("attribute", nameW)+"  "+widget.Fit("as read", colW)+"  "+widget.Fit("theirs (kept)", colW)+"  "+widget.Fit("yours", colW)))
	for _, c := range o.re.Collisions {
		yours := text(c.Yours)
		if deleting {
			yours = "(deleted)"
		}
		out = append(out, " "+st.Warn.Render("! ")+widget.Fit(textfmt.Sanitize(c.Name), nameW)+"  "+st.Muted.Render(widget.Fit(text(c.Read), colW))+"  "+
			st.Err.Render(widget.Fit(text(c.Theirs), colW))+"  "+st.OK.Render(widget.Fit(yours, colW)))
	}
	return out
}

// nothingLines say why a reapplied write has nothing to send.
func (o Write) nothingLines(st theme.Styles, inner int) []string {
	var out []string
	add := func(style func(...string) string, s string) {
		for _, l := range widget.WrapLines(textfmt.Sanitize(s), max(1, inner-2)) {
			out = append(out, " "+style(l))
		}
	}
	switch {
	case o.re.Why != "":
		add(st.Err.Render, o.re.Why)
	case len(o.re.Collisions) > 0:
		what := "an attribute"
		if n := len(o.re.Collisions); n > 1 {
			what = fmt.Sprintf("%d attributes", n)
		}
		add(st.Warn.Render, "the item read again: every change of yours is to "+what+" that someone else changed too, or was made already")
		out = append(out, o.collisionLines(st, inner)...)
		add(st.Muted.Render, "E edits the item as it is now to put yours in; esc leaves it as they wrote it")
	default:
		add(st.OK.Render, "the item read again is already as you wanted it: someone made the same change")
	}
	if len(o.re.Same) > 0 {
		add(st.Muted.Render, "already as yours: "+strings.Join(o.re.Same, ", "))
	}
	return out
}

var modeWriteReapplied = &keymap.Mode{Name: "write yours on the item now", Keys: []keymap.Binding{
	keymap.InBar("confirm", "send"), keymap.InBar("editItem", "edit it"), keymap.InBar("copyCommand", "copy the aws command"), keymap.InBar("cancel", "don't send"), keymap.InBar("help"),
	keymap.Bind("open", "send"), keymap.Bind("up", "scroll up"), keymap.Bind("down", "scroll down"), keymap.Bind("back", "don't send"),
}}
