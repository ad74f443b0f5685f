package pane

import (
	"slices"
	"strings"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/keys"
	"dynascope/textfmt"
	"dynascope/ui/theme"
	"dynascope/ui/widget"
)

// Prompt asks for a partition key value, offering the partitions
// opened before on this table and index.
type Prompt struct {
	Schema  dynamo.KeySchema
	Input   widget.LineEdit
	History []config.HistoryEntry // every index of the table, most recent first
	Matches []string              // values for this index that fit what is typed: opened before, then sampled
	// fromSample is where the sampled values start in Matches; filter is
	// what they were chosen by (what was typed, not what was browsed to).
	fromSample int
	filter     string
	// list is the cursor over matches: on none (widget.List.AllowNone)
	// unless browsing with ↑/↓. It is moved with no height, which only the
	// drawing knows, so it keeps no window of its own: the one drawn ends
	// on the value browsed to.
	List  widget.List
	Err   string      // why the value was refused, sanitised
	cycle promptCycle // tab pressed again: the next match (prompt_cycle.go)
	// Sampled are the partitions of this index in a sample already read
	// (the overview's, or the one ctrl+l asks for), most items first;
	// SampleSaid says what that sample was, or that it runs, or why it
	// failed: "" when none was read.
	Sampled    []keys.Partition
	SampleSaid string
}

// The small sample ctrl+l reads from the prompt: one Scan segment, at most
// this many items and this many RCU. The prompt says both before the key
// is pressed; nothing is read until it is.
const (
	PromptSampleItems = 100
	PromptSampleRCU   = 1.0
)

// WithSample is the prompt offering the partitions of a sample, said in
// said.
func (p Prompt) WithSample(parts []keys.Partition, said string) Prompt {
	p.Sampled, p.SampleSaid = parts, said
	return p.Refilter()
}

// NewPrompt is the prompt for a partition of schema's table or index, with
// value typed and the partitions opened before on offer.
func NewPrompt(schema dynamo.KeySchema, value string, history []config.HistoryEntry) Prompt {
	p := Prompt{Schema: schema, Input: widget.NewLineEdit(value), History: history}
	return p.Refilter()
}

// SelectInput shows the value the prompt opened with selected, as a
// browser's address bar shows its address: typing replaces it, → or end
// keeps it to edit, enter opens it again.
func (p Prompt) SelectInput() Prompt {
	p.Input = p.Input.Select()
	return p.Refilter()
}

// typed is what the user typed: nothing while the value offered is
// selected.
func (p Prompt) typed() string {
	if p.Input.Selected() {
		return ""
	}
	return p.Input.String()
}

// Refilter lists remembered values of this index: those that start with the
// input first, then those that merely contain it.
func (p Prompt) Refilter() Prompt {
	in := p.typed()
	var pre, sub []string
	for _, h := range p.History {
		if h.Index != p.Schema.Index {
			continue
		}
		switch {
		case strings.HasPrefix(h.PK, in):
			pre = append(pre, h.PK)
		case strings.Contains(strings.ToLower(h.PK), strings.ToLower(in)):
			sub = append(sub, h.PK)
		}
	}
	p.Matches = append(pre, sub...)
	p.fromSample, p.filter = len(p.Matches), in
	for _, sp := range p.Sampled {
		if !slices.Contains(p.Matches[:p.fromSample], sp.PK) && strings.Contains(strings.ToLower(sp.PK), strings.ToLower(in)) {
			p.Matches = append(p.Matches, sp.PK)
		}
	}
	p.List = widget.NewList(len(p.Matches)).AllowNone()
	return p
}

// sampledItems is how many items of the sample partition pk has, 0 when
// none.
func (p Prompt) sampledItems(pk string) int {
	for _, sp := range p.Sampled {
		if sp.PK == pk {
			return sp.Items
		}
	}
	return 0
}

// Ghost is the rest of the first remembered value that starts with the input.
func (p Prompt) Ghost() string {
	in := p.typed()
	if _, browsing := p.List.Selected(); in == "" || browsing || !p.Input.AtEnd() {
		return ""
	}
	for _, m := range p.Matches {
		if strings.HasPrefix(m, in) && m != in {
			return m[len(in):]
		}
	}
	return ""
}

// Complete accepts the completion; pressed again it cycles (nextMatch).
func (p Prompt) Complete() Prompt {
	if q, ok := p.NextMatch(); ok {
		return q
	}
	if g := p.Ghost(); g != "" {
		stem := p.Input.String()
		p.Input.Set(stem + g)
		p = p.Refilter()
		p.cycle = promptCycle{stem: stem, at: p.Input.String()}
	}
	return p
}

// Browse steps through the remembered values, shell-history style.
func (p Prompt) Browse(delta int) Prompt {
	if len(p.Matches) == 0 {
		return p
	}
	p.List = p.List.Move(delta)
	if i, ok := p.List.Selected(); ok {
		p.Input.Set(p.Matches[i])
	}
	p.Err = ""
	return p
}

// View draws the prompt in a box of w×h: the input, its hint and the
// remembered values that fit it.
func (p Prompt) View(st theme.Styles, table string, w, h int) string {
	inner := w - 2
	where := "table " + textfmt.Sanitize(table)
	if p.Schema.Index != "" {
		where = "index " + textfmt.Sanitize(p.Schema.Index) + " of " + textfmt.Sanitize(table)
	}
	pk := textfmt.Sanitize(p.Schema.PK.Name)
	lines := []string{
		" " + st.Muted.Render("partition key ") + st.Bold.Render(pk) + st.Muted.Render(" ("+TypeWord(p.Schema.PK.Type)+") of "+where),
		"",
	}
	label := " " + st.Accent.Render(pk+" ›") + " "
	lines = append(lines, label+p.Input.View(st, max(1, inner-widget.Width(label)-1), p.Ghost()))
	switch {
	case p.Err != "":
		for _, l := range widget.WrapLines(p.Err, inner-3) {
			lines = append(lines, "   "+st.Err.Render(l))
		}
	case p.Input.Selected():
		lines = append(lines, "   "+st.Muted.Render(widget.Fit("typing replaces it · → or end edits it · enter opens it again", inner-3)))
	default:
		lines = append(lines, "")
	}
	if p.filter == "" && !p.Input.Selected() && p.Err == "" {
		// Nothing typed (a value browsed to is not typed): how to find a
		// partition, before anything is read.
		for _, l := range widget.WrapLines(p.findHint(), inner-3) {
			lines = append(lines, "   "+st.Muted.Render(l))
		}
	}
	lines = append(lines, "")
	if p.SampleSaid != "" {
		for _, l := range widget.WrapLines(p.SampleSaid, inner-2) {
			lines = append(lines, " "+st.Muted.Render(l))
		}
	}
	if len(p.Matches) > 0 {
		head := "opened before"
		switch {
		case p.fromSample == 0:
			head = "in the sample"
		case p.fromSample < len(p.Matches):
			head = "opened before, then in the sample"
		}
		lines = append(lines, " "+st.Muted.Render(head))
		room := h - 2 - len(lines)
		lines = append(lines, p.List.SetHeight(room).View(inner, widget.Delegate{Render: func(r widget.Row, inner int) []string {
			v := "   " + textfmt.Sanitize(p.Matches[r.Index])
			count := ""
			if r.Index >= p.fromSample {
				v = widget.Fit(v, max(1, inner-14))
				count = widget.PadLeft(textfmt.Plural(p.sampledItems(p.Matches[r.Index]), "item", "items"), 12)
			}
			if r.Cursor {
				return []string{st.Sel.Render(widget.Fit(v+count, inner))}
			}
			return []string{v + st.Muted.Render(count)}
		}})...)
	} else if len(p.History) == 0 && len(p.Sampled) == 0 {
		lines = append(lines, " "+st.Muted.Render("partitions you open are remembered here"))
	}
	return widget.Box(st, "Open a partition", lines, w, h, true)
}

// findHint says, on an empty prompt, where partition key values are found
// and what each way reads.
func (p Prompt) findHint() string {
	hint := "ctrl+l lists the partitions of a sample here (one Scan, at most " +
		textfmt.Plural(PromptSampleItems, "item", "items") + " and " + textfmt.Units(PromptSampleRCU) + " RCU) · ctrl+o the table overview (its caps first) · ? help"
	if len(p.History) > 0 {
		return "↑ the partitions opened before · " + hint
	}
	return "to find a partition: " + hint
}

// TypeWord names a key type for people.
func TypeWord(t string) string {
	switch t {
	case "S":
		return "string"
	case "N":
		return "number"
	case "B":
		return "binary, as base64"
	}
	return t
}
