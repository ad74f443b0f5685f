package overlay

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"dynascope/dynamo"
	"dynascope/keys"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/theme"
	"dynascope/ui/widget"
)

// The overview overlay: o on a partition (ctrl+o at the partition prompt)
// shows the caps of a sample, the sample running, then the table's layout
// (overview.go sends the sample). The sample and its layout are the root's
// (m.overview: the replies change them) and stay after the overlay closes:
// opening it again shows them, the caps and cursor where they were left.

// Overview holds what the keys change: the caps form and the cursor
// over the layout.
type Overview struct {
	form   widget.Form
	cursor int
}

// NewOverview opens the overview with the caps form and the cursor where
// they were left.
func NewOverview(caps widget.Form, cursor int) Overview { return Overview{form: caps, cursor: cursor} }

// AtStart is the overview with its cursor on the first row, as a new
// sample's layout shows it.
func (o Overview) AtStart() Overview {
	o.cursor = 0
	return o
}

// Cursor is the row the cursor is on: a family, a largest partition, a
// finding (OverviewState.PartitionAt says which partition it opens).
func (o Overview) Cursor() int { return o.cursor }

// ID names the overlay.
func (Overview) ID() ID { return OverviewID }

// Hides says which lines of the screen the overlay takes over.
func (Overview) Hides() Hidden { return Hidden{Query: true} }

// Mode is the keymap mode the overlay is in, by its phase.
func (Overview) Mode(e Env) *keymap.Mode {
	switch e.Overview.Phase {
	case OvSetup:
		return modeCaps
	case OvRunning:
		return modeSampling
	}
	return modeOverview
}

// View draws the overlay w×h from what the root gives it.
func (o Overview) View(e Env, w, h int) string { return o.box(e, w, h) }

// box draws the overview in w×h: the caps, the progress, or the layout.
func (o Overview) box(e Env, w, h int) string {
	inner := w - 2
	var lines []string
	switch e.Overview.Phase {
	case OvSetup:
		lines = capsLines(e, o.form, inner)
	case OvRunning:
		lines = progressLines(e, inner)
	default:
		return layoutBox(e, o.cursor, w, h)
	}
	return widget.Box(e.St, e.Overview.Title(), lines, w, h, true)
}

// boundText says what a sample with these caps may read, and cost at price
// (costText).
func boundText(price float64, in dynamo.SampleInput) string {
	s := fmt.Sprintf("reads up to %s / %s RCU", textfmt.Plural(in.MaxItems, "item", "items"), textfmt.Units(in.MaxRCU))
	if c := costText(price, in.MaxRCU); c != "" {
		s += " (" + c + ")"
	}
	return s + fmt.Sprintf(" with %s, key attributes only", textfmt.Plural(in.Segments, "parallel Scan segment", "parallel Scan segments"))
}

func capsLines(e Env, caps widget.Form, inner int) []string {
	st := e.St
	para := func(s string, style func(...string) string) []string {
		var out []string
		for _, l := range widget.WrapLines(s, inner-2) {
			out = append(out, " "+style(l))
		}
		return out
	}
	lines := para("Reconstructs the table's single-table layout from a sample: partition-key families, their sort-key entity types, the largest partitions, and the key-layout lint.", st.Text.Render)
	lines = append(lines, "")
	lines = append(lines, caps.View(st, inner)...)
	lines = append(lines, "")
	if in, err := ParseCaps(caps); err != nil {
		lines = append(lines, para("✗ "+textfmt.Sanitize(err.Error()), st.Err.Render)...)
	} else {
		lines = append(lines, para(boundText(e.Price, in), st.Bold.Render)...)
	}
	what := "the table"
	size := e.Table.ItemCount
	if ix, ok := e.Table.IndexByName(e.Overview.Index); ok {
		what, size = "the index", ix.ItemCount
	}
	if size > 0 {
		lines = append(lines, para(fmt.Sprintf("%s holds about %s (DescribeTable's estimate).", capitalise(what), textfmt.Plural(int(size), "item", "items")), st.Muted.Render)...)
	}
	lines = append(lines, para("DynamoDB charges a Scan by the whole items it reads: the projection saves bandwidth, not capacity.", st.Muted.Render)...)
	if e.Overview.Err != "" {
		lines = append(lines, "")
		lines = append(lines, para("✗ "+e.Overview.Err, st.Err.Render)...)
	}
	lines = append(lines, "", " "+st.Accent.Render("enter")+st.Muted.Render(" samples · tab next cap · esc closes"))
	return lines
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// bar is a progress bar of w cells for a fraction from 0 to 1.
func bar(st theme.Styles, f float64, w int) string {
	w = max(1, w)
	n := int(f*float64(w) + 0.5)
	n = widget.Clamp(n, 0, w)
	return st.Accent.Render(strings.Repeat("█", n)) + st.Faint.Render(strings.Repeat("░", w-n))
}

func progressLines(e Env, inner int) []string {
	st := e.St
	p := e.Overview.Prog
	in := e.Overview.In
	lines := []string{" " + st.Text.Render(widget.Trunc(boundText(e.Price, in), inner-2)), ""}
	pct := fmt.Sprintf(" %3d%%", int(p.Fraction()*100))
	lines = append(lines, " "+bar(st, p.Fraction(), min(60, inner-2-len(pct)))+st.Bold.Render(pct))
	detail := fmt.Sprintf("%d of %s · %s of %s RCU · %s · %d of %d segments done",
		p.Items, textfmt.Plural(p.MaxItems, "item", "items"), textfmt.Units(p.RCU), textfmt.Units(p.MaxRCU),
		textfmt.Plural(p.Requests, "request", "requests"), p.SegmentsDone, p.Segments)
	lines = append(lines, " "+st.Muted.Render(widget.Trunc(detail, inner-2)), "")
	if e.Overview.Stopping {
		lines = append(lines, " "+st.Warn.Render("stopping: waiting for the pages in flight…"))
	} else {
		lines = append(lines, " "+st.Accent.Render("esc")+st.Muted.Render(" stops and keeps the layout of what was read"))
	}
	return lines
}

// stopText says why a sample ended, for people.
func stopText(r dynamo.StopReason) string {
	switch r {
	case dynamo.StopComplete:
		return "the whole table was read"
	case dynamo.StopMaxItems:
		return "stopped at the item cap"
	case dynamo.StopMaxRCU:
		return "stopped at the RCU cap"
	case dynamo.StopCancelled:
		return "stopped by you: partial"
	case dynamo.StopError:
		return "stopped by an error: partial"
	}
	return string(r)
}

// typeText names a sort-key entity type with its item count: the facet
// name of a NoSQL Workbench model when there is one, its prefix kept.
func typeText(names map[string]string, t keys.SortKeyType) string {
	name := textfmt.Sanitize(t.Label)
	if f := names[t.Prefix]; f != "" && t.Prefix != "" {
		name = textfmt.Sanitize(f) + " (" + textfmt.Sanitize(t.Prefix) + ")"
	}
	if t.Disagree {
		name += " ≠"
	}
	return name + " " + strconv.Itoa(t.Items)
}

// layoutBox is the layout a sample showed: a summary, the families with
// their entity types, the largest partitions, the findings. The cursor
// moves over the rows that open a partition; the lines scroll to keep it
// in sight.
func layoutBox(e Env, cursor, w, h int) string {
	st := e.St
	inner := w - 2
	o := e.Overview
	lay, smp := o.Lay, o.Smp
	var lines []string
	rowLine := map[int]int{} // row -> its first line
	row := 0
	add := func(s string, selectable bool) {
		if selectable {
			rowLine[row] = len(lines)
			if row == cursor {
				// A mark as well as the colour: it survives NO_COLOR and snapshots.
				s = st.Sel.Render("›" + ansi.Strip(widget.Fit(s, inner))[1:])
			}
			row++
		}
		lines = append(lines, s)
	}
	of := ""
	if smp.TableItems > 0 {
		of = fmt.Sprintf(" (of about %d)", smp.TableItems)
	}
	cost := textfmt.Units(smp.Capacity().Total) + " RCU"
	if c := costText(e.Price, smp.Capacity().Total); c != "" {
		cost += " " + c
	}
	summary := fmt.Sprintf("%s%s in %s · %s · %s, %s", textfmt.Plural(lay.Items, "item", "items"), of,
		textfmt.Plural(lay.Partitions, "partition", "partitions"), stopText(smp.Stop), textfmt.Plural(len(smp.Requests), "Scan", "Scans"), cost)
	if over := smp.OverCapText("RCU cap", textfmt.Units); over != "" {
		// Only an item larger than any its segment read before gets there.
		summary += " · " + over
	}
	for _, l := range widget.WrapWords(summary, inner-2) {
		lines = append(lines, " "+st.Bold.Render(l))
	}
	if o.Err != "" {
		lines = append(lines, " "+st.Err.Render(widget.Trunc("✗ "+o.Err, inner-2)))
	}
	lines = append(lines, "")

	famW := len("FAMILY")
	for _, f := range lay.Families {
		famW = max(famW, widget.Width(textfmt.Sanitize(f.Pattern)))
	}
	famW = min(famW, max(8, inner/4))
	const partW, itemsW = 10, 7
	typesX := 1 + famW + 2 + partW + 2 + itemsW + 2
	typesW := max(10, inner-typesX)
	lines = append(lines, st.ColHeader.Render(widget.Fit(" "+widget.Fit("FAMILY", famW)+"  "+widget.PadLeft("PARTITIONS", partW)+"  "+widget.PadLeft("ITEMS", itemsW)+"  SORT-KEY ENTITY TYPES (items)", inner)))
	for _, f := range lay.Families {
		var types []string
		for _, t := range f.Types {
			types = append(types, typeText(e.EntityNames, t))
		}
		if len(f.Types) == 0 {
			types = append(types, textfmt.Sanitize(f.Label))
		}
		wrapped := widget.WrapLines(strings.Join(types, " · "), typesW)
		add(" "+widget.Fit(textfmt.Sanitize(f.Pattern), famW)+"  "+widget.PadLeft(strconv.Itoa(f.Partitions), partW)+"  "+widget.PadLeft(strconv.Itoa(f.Items), itemsW)+"  "+wrapped[0], true)
		for _, l := range wrapped[1:] {
			lines = append(lines, strings.Repeat(" ", typesX)+l)
		}
	}

	lines = append(lines, "")
	pkW := len("LARGEST PARTITIONS SEEN")
	for _, p := range lay.Largest {
		pkW = max(pkW, widget.Width(textfmt.Sanitize(p.PK)))
	}
	pkW = min(pkW, max(12, inner/2))
	lines = append(lines, st.ColHeader.Render(widget.Fit(" "+widget.Fit("LARGEST PARTITIONS SEEN", pkW)+"  "+widget.Fit("FAMILY", famW)+"  "+widget.PadLeft("ITEMS", itemsW)+"  SHARE", inner)))
	for _, p := range lay.Largest {
		share := ""
		if lay.Items > 0 {
			share = fmt.Sprintf("%.1f%%", 100*float64(p.Items)/float64(lay.Items))
		}
		add(" "+widget.Fit(textfmt.Sanitize(p.PK), pkW)+"  "+widget.Fit(textfmt.Sanitize(p.Family), famW)+"  "+widget.PadLeft(strconv.Itoa(p.Items), itemsW)+"  "+share, true)
	}

	lines = append(lines, "")
	if len(lay.Findings) == 0 {
		lines = append(lines, " "+st.OK.Render("key-layout lint: no findings"))
	} else {
		lines = append(lines, st.ColHeader.Render(widget.Fit(" KEY-LAYOUT LINT · "+textfmt.Plural(len(lay.Findings), "finding", "findings"), inner)))
	}
	ruleW := 0
	for _, f := range lay.Findings {
		ruleW = max(ruleW, len(f.Rule))
	}
	for _, f := range lay.Findings {
		msgW := max(10, inner-2-ruleW-2)
		wrapped := widget.WrapWords(textfmt.Sanitize(f.Message), msgW)
		add(" "+st.Warn.Render(widget.Fit(f.Rule, ruleW))+"  "+wrapped[0], true)
		pad := strings.Repeat(" ", 1+ruleW+2)
		for _, l := range wrapped[1:] {
			lines = append(lines, pad+l)
		}
		lines = append(lines, pad+st.Muted.Render(widget.Trunc("e.g. "+exampleKey(smp.Keys, f.Example), msgW)))
	}

	// The top stays in sight (summary, headers) until the cursor's row, with
	// the lines that continue it, would fall below the box.
	shown := max(1, h-2)
	end := len(lines) - 1
	if next, ok := rowLine[cursor+1]; ok {
		end = next - 1
	}
	off := 0
	if end >= shown {
		off = min(end-shown+1, rowLine[cursor])
	}
	return widget.Box(st, o.Title(), lines[min(off, len(lines)):], w, h, true)
}

// exampleKey shows a finding's example key in DynamoDB's words.
func exampleKey(ks dynamo.KeySchema, r keys.KeyRef) string {
	s := textfmt.Sanitize(ks.PK.Name) + " = " + strconv.Quote(textfmt.Sanitize(r.PK))
	if r.HasSK && ks.SK != nil {
		s += " AND " + textfmt.Sanitize(ks.SK.Name) + " = " + strconv.Quote(textfmt.Sanitize(r.SK))
	}
	return s
}

// Update handles the three phases: the caps form, the sample in flight,
// the layout. Closed, the overlay leaves its caps and cursor with the root
// (keepOverview) for the next opening.
func (o Overview) Update(e Env, msg tea.Msg) (Overlay, Want) {
	if _, ok := msg.(tea.MouseWheelMsg); ok {
		return o, nil
	}
	km := e.Keys
	ov := e.Overview
	keep := KeepOverview{Cursor: o.cursor, Form: o.form}
	switch ov.Phase {
	case OvSetup:
		f, ev := o.form.Handle(msg, km.FormKeys())
		o.form = f
		switch ev {
		case widget.FormSubmit:
			in, err := ParseCaps(f)
			if err != nil {
				return o, OverviewErr{Text: textfmt.Sanitize(err.Error())}
			}
			return o, Then{KeepOverview{Cursor: o.cursor, Form: f}, StartSample{In: in}}
		case widget.FormCancel:
			if ov.Have {
				return o, ShowLayout{} // back to the layout sampled before
			}
			return o, Then{keep, Close{}}
		case widget.FormTyped:
			return o, OverviewErr{Text: ""}
		}
		return o, nil
	case OvRunning:
		if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, km.Cancel) && !ov.Stopping {
			return o, StopSample{} // it returns what it read so far
		}
		return o, nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return o, nil
	}
	h := max(1, e.BodyH-6) // about how many rows a page of the layout holds
	if d, ok := km.Step(k, h); ok {
		o.cursor = widget.Clamp(o.cursor+d, 0, ov.Rows()-1)
		return o, nil
	}
	switch {
	case key.Matches(k, km.Open):
		pk, ok := ov.PartitionAt(o.cursor)
		if !ok {
			return o, nil
		}
		return o, Then{keep, Close{}, OpenPartitionAt{Index: ov.Index, PK: pk}}
	case key.Matches(k, km.IndexMap):
		return o, OpenIndexMap{}
	case key.Matches(k, km.Resample):
		o.form = CapsForm(ov.In.MaxItems, ov.In.MaxRCU, ov.In.Segments)
		return o, ShowCaps{}
	case key.Matches(k, km.Back, km.Cancel):
		return o, Then{keep, Close{}}
	}
	return o, nil
}

var (
	modeCaps     = keymap.FormMode("overview caps", "sample within these caps", "close")
	modeSampling = &keymap.Mode{Name: "sampling", Keys: []keymap.Binding{keymap.InBar("cancel", "stop, keep what was read")}}
	modeOverview = &keymap.Mode{Name: "overview", Keys: keymap.KeysOf(
		[]keymap.Binding{keymap.InBar("open", "open the partition"), keymap.InBar("resample"), keymap.Bind("indexMap"), keymap.InBar("back", "close"), keymap.InBar("help")},
		keymap.MoveKeys,
		[]keymap.Binding{keymap.Bind("cancel", "close")},
	)}
)

// costText is what rcu read request units cost on demand at price, the
// settings' USD per million reads, "" when no price is set: DynamoDB
// charges on-demand reads in read request units, the same units
// ConsumedCapacity reports.
func costText(price, rcu float64) string {
	p := price
	if p <= 0 {
		return ""
	}
	return "≈ " + textfmt.Dollars(rcu*p/1e6) + " on-demand"
}
