package overlay

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/explain"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

// The why-empty overlay: w on a partition whose Query came back with no
// items explains the empty result as `dynascope explain` does (package
// explain): the key asked for as typed (and the declared entities its
// shape matches, with their parameters), the Queries to be sent with their
// bound, said before they go, then the nearest keys that exist on each
// side by sort order and what differs, one sentence each. The root sends
// the Queries (ui's explain.go) and logs them; Answered shows what they
// found.

// Explain is one opening of the why-empty overlay.
type Explain struct {
	req      int
	asked    string           // the key asked for as typed: "PK = CUST|42, SK begins_with ORDER|"
	where    string           // "table App", "index GSI1 of table App"
	declared explain.Declared // what the declared entities make of the key
	entities bool             // the patterns file declares entities
	plan     string           // the Queries and their bound, said first
	notes    []string         // what the reads leave out of the query (its filter)
	ex       explain.Explanation
	done     bool
	cost     string // what the reads cost, once answered
	err      string // sanitised
	offset   int
}

// NewExplain opens the overlay on the key asked (as typed, on where), its
// reads (request req, worded by plan) on their way; declared is what the
// patterns file's entities make of the key (hasEntities: whether it
// declares any), notes what the reads leave out of the query.
func NewExplain(req int, asked, where string, declared explain.Declared, hasEntities bool, plan string, notes []string) Explain {
	return Explain{req: req, asked: asked, where: where, declared: declared, entities: hasEntities, plan: plan, notes: notes}
}

// Req is the id of the reads the overlay waits for.
func (o Explain) Req() int { return o.req }

// Answered shows what the reads found (ex) and cost, or why they failed
// (err, sanitised; ex then holds what was read before it).
func (o Explain) Answered(ex explain.Explanation, cost, err string) Explain {
	o.ex, o.cost, o.err, o.done = ex, cost, err, true
	return o
}

// ID names the overlay.
func (Explain) ID() ID { return ExplainID }

// Mode is the keymap mode the overlay is in.
func (Explain) Mode(Env) *keymap.Mode { return modeExplain }

// Hides says which lines of the screen the overlay takes over.
func (Explain) Hides() Hidden { return Hidden{} }

// Update scrolls the explanation; esc or q closes it, stopping the reads
// if they are still on their way.
func (o Explain) Update(e Env, msg tea.Msg) (Overlay, Want) {
	h := max(1, e.BodyH-2)
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		o.offset = o.scrolled(e, widget.WheelDelta(msg), h)
	case tea.KeyPressMsg:
		km := e.Keys
		if d, ok := km.Step(msg, h); ok {
			o.offset = o.scrolled(e, d, h)
			return o, nil
		}
		if key.Matches(msg, km.Back, km.Cancel, km.WhyEmpty) {
			if !o.done {
				return o, Then{StopExplain{}, Close{}}
			}
			return o, Close{}
		}
	}
	return o, nil
}

// scrolled is the offset moved by d, within the body's lines shown h at a
// time on the screen's width.
func (o Explain) scrolled(e Env, d, h int) int {
	return widget.Clamp(o.offset+d, 0, max(0, len(o.body(e, e.W-2))-h))
}

// View draws the overlay w×h.
func (o Explain) View(e Env, w, h int) string {
	lines := o.body(e, w-2)
	off := widget.Clamp(o.offset, 0, max(0, len(lines)-(h-2)))
	title := "Why empty"
	if len(lines) > h-2 {
		title += fmt.Sprintf(" · lines %d–%d of %d", off+1, min(len(lines), off+h-2), len(lines))
	}
	return widget.Box(e.St, title, lines[off:], w, h, true)
}

// body is every line of the overlay, inner cells wide.
func (o Explain) body(e Env, inner int) []string {
	var lines []string
	add := func(style func(...string) string, text string) { lines = wrapped(lines, style, text, inner) }
	plain := func(s ...string) string { return strings.Join(s, " ") }
	add(e.St.Bold.Render, "asked   "+textfmt.Sanitize(o.asked)+"   on "+textfmt.Sanitize(o.where))
	add(plain, "entity  "+o.declaredText())
	lines = append(lines, "")
	add(e.St.Muted.Render, "reads: "+o.plan)
	for _, n := range o.notes {
		add(e.St.Muted.Render, n)
	}
	lines = append(lines, "")
	switch {
	case !o.done:
		add(e.St.Accent.Render, "reading…")
	default:
		lines = append(lines, o.found(e, inner)...)
	}
	return lines
}

// found is what the reads found: whether the key exists, the nearest keys
// in sort order (the built key's place among them), what differs, and
// what it cost.
func (o Explain) found(e Env, inner int) []string {
	var lines []string
	add := func(style func(...string) string, text string) { lines = wrapped(lines, style, text, inner) }
	if o.err != "" {
		add(e.St.Err.Render, "✗ "+o.err)
	}
	ex := o.ex
	switch {
	case ex.Found:
		add(e.St.OK.Render, "the key exists: its items are there now; what else the query asked (a filter, the sort-key condition's operator) left them out")
	case o.err == "":
		add(e.St.Bold.Render, "the key does not exist")
	}
	if rows := ex.InOrder(); len(rows) > 0 {
		lines = append(lines, "", " nearest keys that exist:")
		for _, n := range rows {
			if n.Side == explain.SideBuilt {
				lines = append(lines, " "+e.St.Accent.Render(widget.Trunc(fmt.Sprintf("  %-12s %s   (asked for: it would be here)", "→", textfmt.Sanitize(ex.Built.Text())), inner-2)))
				continue
			}
			note := n.ShapeNote()
			lines = append(lines, " "+widget.Trunc(fmt.Sprintf("  %-12s %s", n.SideIn(ex.Index), textfmt.Sanitize(n.Key.Text())), inner-2-widget.Width(note))+e.St.Warn.Render(note))
		}
	}
	if len(ex.Differences) > 0 {
		lines = append(lines, "", " what differs:")
		for _, d := range ex.Differences {
			add(e.St.Warn.Render, "• "+textfmt.Sanitize(d.Message))
		}
	}
	lines = append(lines, "")
	add(e.St.Muted.Render, o.cost)
	return lines
}

// wrapped is lines and text wrapped to inner cells after a space, each
// line drawn in style.
func wrapped(lines []string, style func(...string) string, text string, inner int) []string {
	for _, l := range widget.WrapLines(text, inner-2) {
		lines = append(lines, " "+style(l))
	}
	return lines
}

// declaredText says what the declared entities make of the key asked.
func (o Explain) declaredText() string {
	switch {
	case !o.entities:
		return "the patterns file declares no entities"
	case len(o.declared.Entities) == 0:
		return "no declared entity's template matches its shape"
	}
	ps := make([]string, len(o.declared.Params))
	for i, p := range o.declared.Params {
		ps[i] = p.Name + " = " + p.Value
	}
	s := strings.Join(o.declared.Entities, ", ")
	if len(ps) > 0 {
		s += ": " + strings.Join(ps, ", ")
	}
	if o.declared.PKOnly {
		s = "its partition key is " + s + "; its sort key matches no declared template"
	}
	return textfmt.Sanitize(s)
}

var modeExplain = &keymap.Mode{Name: "why empty", Keys: keymap.KeysOf(
	[]keymap.Binding{keymap.InBar("help"), keymap.InBar("back", "close")},
	keymap.MoveKeys,
	[]keymap.Binding{keymap.Bind("cancel", "close (stops the reads still on their way)"), keymap.Bind("whyEmpty", "close")},
)}
