package ui

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/ui/widget"
)

// The write overlay: a planned write shown before it is sent — the typed
// diff, the condition, the predicted WCU and the request as an aws
// dynamodb command — then what it did: the WCU consumed, or, when the item
// changed since it was read, the item now beside the user's version, with
// nothing written.

type writePhase int

const (
	writeConfirm writePhase = iota // shown, not sent
	writeSending
	writeDone     // written
	writeConflict // refused by its condition: nothing written
	writeFailed   // an error; what the item is now is in the sentence
)

type writeOverlay struct {
	plan     *edit.Plan
	undo     *edit.Entry // the entry this write undoes; nil for an edit
	phase    writePhase
	res      edit.Result
	conflict *edit.ConflictError
	err      string
	offset   int
}

func newWriteOverlay(p *edit.Plan, undo *edit.Entry) writeOverlay {
	return writeOverlay{plan: p, undo: undo}
}

func (writeOverlay) id() overlayID { return overlayWrite }
func (o writeOverlay) mode(Model) mode {
	if o.phase == writeConfirm {
		return modeWriteConfirm
	}
	return modeWriteDone
}
func (writeOverlay) hides() hidden { return hidden{query: true, log: true} }

// undoLast shows the undo of the session's last write for confirmation.
func (m Model) undoLast() (Model, tea.Cmd) {
	if m.opts.Editor == nil {
		return m, nil
	}
	if len(m.edits) == 0 {
		m.status.info = "nothing to undo: no write in this session yet (dynascope journal lists earlier ones)"
		return m, nil
	}
	e := m.edits[len(m.edits)-1]
	t := m.table
	if !m.haveTable || t.Name != e.Table {
		t = e.Keys()
	}
	p, err := edit.UndoPlan(e, t)
	if err != nil {
		m.status.err = sanitize(err.Error())
		return m, nil
	}
	return m.push(newWriteOverlay(p, &e)), nil
}

func (o writeOverlay) update(e overlayEnv, msg tea.Msg) (overlay, want) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return o, nil
	}
	km := e.keys
	switch o.phase {
	case writeConfirm:
		switch {
		case key.Matches(k, km.Confirm, km.Open):
			o.phase = writeSending
			return o, sendWrite{plan: o.plan, undo: o.undo}
		case key.Matches(k, km.CopyCommand):
			return o, copyText{text: o.plan.Command(e.target), info: "copied the write as an aws dynamodb command (OSC 52); nothing was sent"}
		case key.Matches(k, km.Up):
			o.offset = max(0, o.offset-1)
		case key.Matches(k, km.Down):
			o.offset++
		case key.Matches(k, km.Cancel, km.Back):
			return o, then{showInfo{"not sent"}, closeOverlay{}}
		}
		return o, nil
	case writeSending:
		return o, nil // the answer closes nothing; ctrl+c still quits
	}
	switch {
	case key.Matches(k, km.Up):
		o.offset = max(0, o.offset-1)
	case key.Matches(k, km.Down):
		o.offset++
	case key.Matches(k, km.Cancel, km.Back, km.Open):
		if o.phase == writeDone {
			// The draft and the item shown are from before the write.
			return o, then{closeOverlay{}, removeOverlays{[]overlayID{overlayEdit, overlayDetail}}}
		}
		return o, closeOverlay{}
	}
	return o, nil
}

// writeDone takes the answer of a write into its overlay, the request log
// and the session's undo list, and reads the partition again to show it.
func (m Model) writeDone(msg writeDoneMsg) (Model, tea.Cmd) {
	for _, r := range msg.res.Requests {
		m.log = m.log.addWrite(r)
	}
	o, ok := findOverlay[writeOverlay](m)
	if !ok || !m.flight.waits(flightWrite, msg.id) {
		return m, nil
	}
	o.res = msg.res
	var ce *edit.ConflictError
	var uce *edit.UndoConflictError
	switch {
	case msg.err == nil:
		o.phase = writeDone
		if msg.undo != nil {
			if n := len(m.edits); n > 0 && m.edits[n-1].Number == msg.undo.Number {
				m.edits = m.edits[:n-1]
			}
		} else if msg.res.Entry != nil {
			m.edits = append(m.edits, *msg.res.Entry)
		}
	case errors.As(msg.err, &uce):
		o.phase, o.conflict = writeConflict, uce.ConflictError
		o.err = sanitize(uce.Error())
	case errors.As(msg.err, &ce):
		o.phase, o.conflict = writeConflict, ce
		o.err = sanitize(ce.Error())
	default:
		o.phase, o.err = writeFailed, sanitize(msg.err.Error())
	}
	m = replaceOverlay(m, o)
	if o.phase == writeFailed || !m.haveTable || o.plan.Table != m.table.Name || m.query.PK == "" {
		return m, nil
	}
	// Show the item as it is now: the partition's first page again, one
	// request, said in the log, with the cursor back on the item.
	it := o.plan.New
	if it == nil {
		it = o.plan.Old
	}
	m.reselect = keyOf(it, m.items.keyName)
	return m.runQuery(m.query)
}

func (o writeOverlay) view(m Model, w, h int) string {
	st := m.st
	inner := w - 2
	p := o.plan
	var lines []string
	add := func(style func(...string) string, s string) {
		for _, l := range widget.WrapLines(sanitize(s), max(1, inner-2)) {
			lines = append(lines, " "+style(l))
		}
	}
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
		lines = append(lines, o.beside(m, inner)...)
	case writeFailed:
		add(st.Err.Render, o.err)
	default:
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
		add(text, "predicted: "+fmtRCU(p.PredictedWCU)+" WCU ("+unitsWhy(p)+")")
		if o.phase == writeDone {
			r := o.res
			s := fmt.Sprintf("written: %s WCU consumed (predicted %s)", fmtRCU(r.WCU), fmtRCU(p.PredictedWCU))
			if r.Entry != nil {
				s += fmt.Sprintf(" · journal entry %d", r.Entry.Number)
				if o.undo == nil {
					s += " · u undoes it"
				}
			}
			add(st.OK.Render, s)
			if r.Note != "" {
				add(muted, r.Note)
			}
		}
		if o.phase == writeSending {
			add(st.Accent.Render, "sending…")
		}
		lines = append(lines, "")
		add(muted, "the request:")
		for _, l := range strings.Split(p.Command(m.opts.Editor.Target()), "\n") {
			add(text, l)
		}
	}
	shown := max(1, h-2)
	off := clamp(o.offset, 0, max(0, len(lines)-shown))
	title := "Write · shown before it is sent"
	switch o.phase {
	case writeDone:
		title = "Write · done"
	case writeConflict:
		title = "Write · refused: nothing was written"
	case writeFailed:
		title = "Write · failed"
	}
	return widget.Box(st, title, lines[off:min(len(lines), off+shown)], w, h, true)
}

// beside is a refused write's attributes that differ, one a line in
// three columns — as read, now, yours — each value with its type; a *
// marks what someone else changed since the read. A refused delete shows
// only what changed: the user's version of every attribute is gone.
func (o writeOverlay) beside(m Model, inner int) []string {
	st := m.st
	c := o.conflict
	rows := c.Rows()
	nameW := widget.Width("attribute")
	for _, r := range rows {
		nameW = max(nameW, widget.Width(sanitize(r.Name)))
	}
	nameW = min(nameW, max(9, inner/5))
	colW := max(6, (inner-nameW-10)/3)
	deleting := c.Plan.New == nil
	yoursHead := "yours"
	if deleting {
		yoursHead = "yours: deleted"
	}
	text := func(av types.AttributeValue) string {
		if av == nil {
			return "—"
		}
		return sanitize(edit.ValueText(av))
	}
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
		out = append(out, " "+mark+widget.Fit(sanitize(r.Name), nameW)+"  "+st.Muted.Render(widget.Fit(text(r.Read), colW))+"  "+
			st.Err.Render(widget.Fit(text(r.Now), colW))+"  "+st.OK.Render(widget.Fit(yours, colW)))
	}
	if c.Current == nil && c.Plan.Old != nil {
		out = append(out, " "+st.Err.Render("the item no longer exists"))
	}
	if c.AtNewKey != nil {
		out = append(out, " "+st.Err.Render("an item with the new key exists: "+widget.Trunc(sanitize(edit.ItemText(c.AtNewKey)), max(8, inner-40))))
	}
	out = append(out, " "+st.Muted.Render("* changed by someone else since the read"))
	for _, l := range widget.WrapLines(refusedUnits(c.WCU)+"; esc closes, the partition shows the item as it is now", max(1, inner-2)) {
		out = append(out, " "+st.Muted.Render(l))
	}
	return out
}

// refusedUnits says what a refused write cost: DynamoDB charges it as a
// write, but its error answer may carry no figure (DynamoDB Local's never
// does).
func refusedUnits(wcu float64) string {
	if wcu == 0 {
		return "a refused write is charged as a write; the answer reported no figure"
	}
	return "the refused write consumed " + fmtRCU(wcu) + " WCU"
}

// unitsWhy says where the predicted units come from.
func unitsWhy(p *edit.Plan) string {
	s := "item size rounded up to 1 KB"
	if p.Op == edit.OpTransact {
		s += ", twice each in a transaction"
	}
	for name, u := range p.IndexWCU {
		s += fmt.Sprintf("; %s %s", name, fmtRCU(u))
	}
	return s
}

var writeConfirmMode = modeDef{name: "write", keys: []binding{
	inBar("confirm", "send"), inBar("copyCommand", "copy the aws command"), inBar("cancel", "don't send"), inBar("help"),
	bind("open", "send"), bind("up", "scroll up"), bind("down", "scroll down"), bind("back", "don't send"),
}}

var writeDoneMode = modeDef{name: "written", keys: []binding{
	inBar("cancel", "close"), inBar("help"), bind("open", "close"), bind("back", "close"), bind("up", "scroll up"), bind("down", "scroll down"),
}}

// writeLabel marks a write in the request log, an undo apart from an edit.
func writeLabel(r dynamo.Request) string {
	if strings.HasPrefix(r.Note, edit.NoteUndo) {
		return " UNDO  "
	}
	return " WRITE "
}

// writeFailure says why a write in the request log wrote nothing: refused
// by its condition (the item had changed), or failed.
func writeFailure(err error) string {
	if edit.ConditionFailed(err) {
		return "refused: the item had changed"
	}
	return "failed"
}
