package overlay

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/edit"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/theme"
	"dynascope/ui/widget"
)

// The write overlay: a planned write shown before it is sent — the typed
// diff, the condition, the predicted WCU and the request as an aws
// dynamodb command — then what it did: the WCU consumed; when no answer
// came, that it may still be applied (in doubt, journalled, undone once it
// has landed); or, when the item changed since it was read, the item now
// beside the user's version, with nothing written, and r to put the
// user's changes on the item as it is now (write_reapply.go).

type writePhase int

const (
	writeConfirm writePhase = iota // shown, not sent
	writeSending
	writeDone     // written
	writeConflict // refused by its condition: nothing written
	writeInDoubt  // no answer: it may still be applied
	writeFailed   // an error: not applied
	writeNothing  // reapplied, nothing left to send (write_reapply.go)
)

// Write is a planned write, shown before it is sent, then what it did.
type Write struct {
	plan     *edit.Plan
	undo     *edit.Entry // the entry this write undoes; nil for an edit
	phase    writePhase
	res      edit.Result
	conflict *edit.ConflictError
	re       *edit.Reapplied // the user's changes put on the item now; nil for a first write
	err      string
	offset   int
}

// NewWrite shows plan p for confirmation: an edit, or the undo of the
// journal's entry undo.
func NewWrite(p *edit.Plan, undo *edit.Entry) Write {
	return Write{plan: p, undo: undo}
}

// Plan is the write it shows.
func (o Write) Plan() *edit.Plan { return o.plan }

// Answered shows what the write did: written, with res's units; refused
// by its condition, the item now beside the user's version; no answer, in
// doubt; or failed.
func (o Write) Answered(res edit.Result, err error) Write {
	o.res = res
	var ce *edit.ConflictError
	var uce *edit.UndoConflictError
	var doubt *edit.InDoubtError
	switch {
	case err == nil:
		o.phase = writeDone
	case errors.As(err, &uce):
		o.phase, o.conflict = writeConflict, uce.ConflictError
		o.err = textfmt.Sanitize(uce.Error())
	case errors.As(err, &ce):
		o.phase, o.conflict = writeConflict, ce
		o.err = textfmt.Sanitize(ce.Error())
	case errors.As(err, &doubt):
		o.phase, o.err = writeInDoubt, textfmt.Sanitize(doubt.Cause+"; it may still be applied")
	default:
		o.phase, o.err = writeFailed, textfmt.Sanitize(err.Error())
	}
	return o
}

// Failed tells whether the write failed: not applied, and nothing to
// show of the item (refused, the item is read again; in doubt, it may
// still change).
func (o Write) Failed() bool { return o.phase == writeFailed }

// Journalled is the session's entry of a write that was applied or may
// have been (in doubt), for u; false for one refused or failed.
func (o Write) Journalled() (edit.Entry, bool) {
	if e := o.res.Entry; e != nil && (o.phase == writeDone || o.phase == writeInDoubt) {
		return *e, true
	}
	return edit.Entry{}, false
}

// ID names the overlay.
func (Write) ID() ID { return WriteID }

// Mode is the keymap mode the overlay is in, by its phase.
func (o Write) Mode(Env) *keymap.Mode {
	switch {
	case o.phase == writeConfirm && o.re != nil:
		return modeWriteReapplied
	case o.phase == writeConfirm:
		return modeWriteConfirm
	case o.phase == writeConflict && o.undo == nil:
		return modeWriteRefused
	case o.phase == writeNothing && o.re != nil && o.re.Wanted != nil:
		return modeWriteNothing
	}
	return modeWriteDone
}

// Hides says which lines of the screen the overlay takes over.
func (Write) Hides() Hidden { return Hidden{Query: true, Log: true} }

// Update handles a key, pasted text or a wheel message and returns
// what the overlay asks of the root.
func (o Write) Update(e Env, msg tea.Msg) (Overlay, Want) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return o, nil
	}
	km := e.Keys
	switch o.phase {
	case writeConfirm:
		if w, ok := o.reapplyKey(k, km); ok {
			return o, w
		}
		switch {
		case key.Matches(k, km.Confirm, km.Open):
			o.phase = writeSending
			return o, SendWrite{Plan: o.plan, Undo: o.undo}
		case key.Matches(k, km.CopyCommand):
			return o, CopyText{Text: o.plan.Command(e.Target), Info: "copied the write as an aws dynamodb command (OSC 52); nothing was sent"}
		case key.Matches(k, km.Up):
			o.offset = max(0, o.offset-1)
		case key.Matches(k, km.Down):
			o.offset++
		case key.Matches(k, km.Cancel, km.Back):
			return o, Then{ShowInfo{Text: "not sent"}, Close{}}
		}
		return o, nil
	case writeSending:
		return o, nil // the answer closes nothing; ctrl+c still quits
	case writeConflict, writeNothing:
		if w, ok := o.reapplyKey(k, km); ok {
			return o, w
		}
	}
	switch {
	case key.Matches(k, km.Up):
		o.offset = max(0, o.offset-1)
	case key.Matches(k, km.Down):
		o.offset++
	case key.Matches(k, km.Cancel, km.Back, km.Open):
		if o.phase == writeDone || o.phase == writeInDoubt {
			// The Draft and the item shown are from before the write
			// (in doubt: one that may still land).
			return o, Then{Close{}, Remove{IDs: []ID{EditID, DetailID}}}
		}
		return o, Close{}
	}
	return o, nil
}

// View draws the overlay w×h from what the root gives it.
func (o Write) View(e Env, w, h int) string {
	st := e.St
	inner := w - 2
	p := o.plan
	var lines []string
	add := sayer(&lines, inner)
	text, muted := st.Text.Render, st.Muted.Render
	what := string(p.Op) + " on " + p.Table + " · " + edit.KeyText(p.Keys, p.Old, p.New)
	if o.undo != nil {
		what = fmt.Sprintf("undo of write %d · ", o.undo.Number) + what
	}
	add(st.Bold.Render, what)
	lines = append(lines, "")
	switch o.phase {
	case writeConflict:
		add(st.Err.Render, o.err)
		lines = append(lines, "")
		lines = append(lines, o.beside(st, inner)...)
	case writeFailed:
		add(st.Err.Render, o.err)
	case writeNothing:
		lines = append(lines, o.nothingLines(st, inner)...)
	default:
		if o.re != nil {
			lines = append(lines, o.reappliedLines(st, inner)...)
		}
		add(muted, "change (typed):")
		for _, l := range edit.DiffLines(p.Keys, p.Diff) {
			style := st.Warn.Render
			switch l[0] {
			case '+':
				style = st.OK.Render
			case '-':
				style = st.Err.Render
			}
			add(style, "  "+l)
		}
		add(muted, "condition: "+p.Condition)
		if p.Limit != "" {
			add(st.Warn.Render, "note: "+p.Limit)
		}
		add(text, "predicted: "+textfmt.Units(p.PredictedWCU)+" WCU ("+unitsWhy(p)+")")
		if o.phase == writeDone {
			r := o.res
			s := fmt.Sprintf("written: %s consumed (predicted %s)", wcuText(r.WCU, r.NoWCU), textfmt.Units(p.PredictedWCU))
			if r.Entry != nil {
				s += fmt.Sprintf(" · journal entry %d", r.Entry.Number)
				if o.undo == nil {
					s += " · u undoes it"
				}
			}
			add(st.OK.Render, s)
			if r.NoWCU {
				add(muted, "the answer reported no consumed capacity: the units are unknown, not 0")
			}
			if r.Note != "" {
				add(muted, r.Note)
			}
		}
		if o.phase == writeInDoubt {
			add(st.Err.Render, o.err)
			s := "units unknown: no answer came; if it lands, AWS charges the " + textfmt.Units(p.PredictedWCU) + " WCU predicted"
			if e := o.res.Entry; e != nil {
				s = fmt.Sprintf("journal entry %d, in doubt · ", e.Number) + s
				if o.undo == nil {
					s += " · u takes it back once it has landed"
				}
			}
			add(st.Warn.Render, s)
		}
		if o.phase == writeSending {
			add(st.Accent.Render, "sending…")
		}
		lines = append(lines, "")
		add(muted, "the request:")
		for _, l := range strings.Split(p.Command(e.Target), "\n") {
			add(text, l)
		}
	}
	shown := max(1, h-2)
	off := widget.Clamp(o.offset, 0, max(0, len(lines)-shown))
	title := "Write · shown before it is sent"
	if o.re != nil {
		title = "Write · yours on the item as it is now, shown before it is sent"
	}
	switch o.phase {
	case writeDone:
		title = "Write · done"
	case writeConflict:
		title = "Write · refused: nothing was written"
	case writeInDoubt:
		title = "Write · no answer: in doubt"
	case writeFailed:
		title = "Write · failed: not applied"
	case writeNothing:
		title = "Write · yours on the item as it is now: nothing to send"
	}
	return widget.Box(st, title, lines[off:min(len(lines), off+shown)], w, h, true)
}

// beside is a refused write's attributes that differ, one a line in
// three columns — as read, now, yours — each value with its type; a *
// marks what someone else changed since the read. A refused delete shows
// only what changed: the user's version of every attribute is gone.
func (o Write) beside(st theme.Styles, inner int) []string {
	c := o.conflict
	rows := c.Rows()
	nameW := widget.Width("attribute")
	for _, r := range rows {
		nameW = max(nameW, widget.Width(textfmt.Sanitize(r.Name)))
	}
	nameW = min(nameW, max(9, inner/5))
	colW := max(6, (inner-nameW-10)/3)
	deleting := c.Plan.New == nil
	yoursHead := "yours"
	if deleting {
		yoursHead = "yours: deleted"
	}
	text := valueOrNone
	out := []string{"   " + st.Muted.Render(widget.Fit("attribute", nameW)+"  "+widget.Fit("as read", colW)+"  "+widget.Fit("now", colW)+"  "+widget.Fit(yoursHead, colW))}
	for _, r := range rows {
		mark := "  "
		if r.ChangedMeanwhile {
			mark = st.Err.Render("* ")
		}
		yours := text(r.Yours)
		if deleting {
			yours = ""
		}
		out = append(out, " "+mark+widget.Fit(textfmt.Sanitize(r.Name), nameW)+"  "+st.Muted.Render(widget.Fit(text(r.Read), colW))+"  "+
			st.Err.Render(widget.Fit(text(r.Now), colW))+"  "+st.OK.Render(widget.Fit(yours, colW)))
	}
	if c.Current == nil && c.Plan.Old != nil {
		out = append(out, " "+st.Err.Render("the item no longer exists"))
	}
	if c.AtNewKey != nil {
		out = append(out, " "+st.Err.Render("an item with the new key exists: "+widget.Trunc(textfmt.Sanitize(edit.ItemText(c.AtNewKey)), max(8, inner-40))))
	}
	out = append(out, " "+st.Muted.Render("* changed by someone else since the read"))
	next := "esc closes, the partition shows the item as it is now"
	if o.undo == nil {
		next = "r re-reads the item and puts your changes on it as it is now; " + next
	}
	for _, l := range widget.WrapLines(refusedUnits(c)+" · "+next, max(1, inner-2)) {
		out = append(out, " "+st.Muted.Render(l))
	}
	return out
}

// refusedUnits says what a refused write cost: the figure its answer
// reported, else unknown, and what AWS charges for it by its rule
// (DynamoDB Local's refusals never carry a figure).
func refusedUnits(c *edit.ConflictError) string {
	if !c.NoWCU {
		return "the refused write consumed " + textfmt.Units(c.WCU) + " WCU"
	}
	if u := c.ChargedWCU(); u > 0 {
		return "units unknown: the refusal reported none; AWS charges a refused write as a write, " + textfmt.Units(u) + " WCU here"
	}
	return "units unknown: the refusal reported none; AWS charges a refused transaction too"
}

// wcuText is a write's consumed units: "unknown WCU" when the answer
// reported none.
func wcuText(wcu float64, unknown bool) string {
	if unknown {
		return "unknown WCU"
	}
	return textfmt.Units(wcu) + " WCU"
}

// unitsWhy says where the predicted units come from.
func unitsWhy(p *edit.Plan) string {
	s := "item size rounded up to 1 KB"
	if p.Op == edit.OpTransact {
		s += ", twice each in a transaction"
	}
	for name, u := range p.IndexWCU {
		s += fmt.Sprintf("; %s %s", name, textfmt.Units(u))
	}
	return s
}

var modeWriteConfirm = &keymap.Mode{Name: "write", Keys: []keymap.Binding{
	keymap.InBar("confirm", "send"), keymap.InBar("copyCommand", "copy the aws command"), keymap.InBar("cancel", "don't send"), keymap.InBar("help"),
	keymap.Bind("open", "send"), keymap.Bind("up", "scroll up"), keymap.Bind("down", "scroll down"), keymap.Bind("back", "don't send"),
}}

var modeWriteDone = &keymap.Mode{Name: "written", Keys: []keymap.Binding{
	keymap.InBar("cancel", "close"), keymap.InBar("help"), keymap.Bind("open", "close"), keymap.Bind("back", "close"), keymap.Bind("up", "scroll up"), keymap.Bind("down", "scroll down"),
}}

var modeWriteRefused = &keymap.Mode{Name: "write refused", Keys: []keymap.Binding{
	keymap.InBar("reapply", "yours on the item now"), keymap.InBar("cancel", "close"), keymap.InBar("help"),
	keymap.Bind("open", "close"), keymap.Bind("back", "close"), keymap.Bind("up", "scroll up"), keymap.Bind("down", "scroll down"),
}}

var modeWriteNothing = &keymap.Mode{Name: "nothing to send", Keys: []keymap.Binding{
	keymap.InBar("editItem", "edit it"), keymap.InBar("cancel", "close"), keymap.InBar("help"),
	keymap.Bind("open", "close"), keymap.Bind("back", "close"), keymap.Bind("up", "scroll up"), keymap.Bind("down", "scroll down"),
}}
