package overlay

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/patterns"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

// The save overlay: S on a partition asks for a name and a description and
// appends the current request to the patterns file as a new pattern.

// Save asks how to name the current request as a pattern.
type Save struct {
	saveForm
	// The request it saves, as it was when S was pressed: a GetItem (get)
	// or a Query (query).
	get   *dynamo.GetInput
	query dynamo.QueryInput
}

// ID names the overlay.
func (Save) ID() ID { return SaveID }

// Mode is the keymap mode the overlay is in, by its phase.
func (Save) Mode(Env) *keymap.Mode { return modeSave }

// Hides says which lines of the screen the overlay takes over.
func (Save) Hides() Hidden { return Hidden{} }

// saveForm asks for the name and description of a new pattern.
type saveForm struct {
	form widget.Form
	err  string // why it was not saved, sanitised
}

// NewSave asks how to name the request it saves, a GetItem (get) or a
// Query (q, StartKey left out).
func NewSave(get *dynamo.GetInput, q dynamo.QueryInput) Save {
	q.StartKey = nil
	return Save{saveForm: saveForm{form: widget.NewForm([]string{"name", "description"}, nil)}, get: get, query: q}
}

// Failed shows why the pattern was not saved (sanitised) under the form.
func (o Save) Failed(why string) Save {
	o.err = why
	return o
}

// pending is the request as the pattern the form would save.
func (o Save) pending() patterns.Pattern {
	name := strings.TrimSpace(o.form.Value("name"))
	desc := strings.TrimSpace(o.form.Value("description"))
	if o.get != nil {
		return patterns.PatternFromGet(name, desc, *o.get)
	}
	return patterns.PatternFromQuery(name, desc, o.query)
}

// Update handles a key, pasted text or a wheel message and returns
// what the overlay asks of the root.
func (o Save) Update(e Env, msg tea.Msg) (Overlay, Want) {
	var ev widget.FormEvent
	o.form, ev = formKey(o.form, e, msg)
	switch ev {
	case widget.FormSubmit:
		p := o.pending()
		if p.Name == "" {
			o.err = "give the pattern a name; it is how the patterns list and `dynascope patterns run` refer to it."
			return o, nil
		}
		return o, SavePattern{P: p}
	case widget.FormCancel:
		return o, Then{Close{}, ShowInfo{Text: "not saved"}}
	case widget.FormTyped:
		o.err = ""
	}
	return o, nil
}

// View is the save form with what it will write and where.
func (o Save) View(e Env, w, h int) string {
	st := e.St
	inner := w - 2
	var lines []string
	for _, l := range widget.WrapLines(fmt.Sprintf("Adds the current request to %s as a new access pattern, after the others; the file's comments and order stay as they are.", textfmt.Sanitize(e.PatternsPath)), inner-2) {
		lines = append(lines, " "+st.Muted.Render(l))
	}
	lines = append(lines, "")
	lines = append(lines, o.form.View(st, inner)...)
	lines = append(lines, "")
	p := o.pending()
	op := "Query"
	if o.get != nil {
		op = "GetItem"
	}
	for _, l := range widget.WrapLines(op+": "+textfmt.Sanitize(p.Summary()), inner-2) {
		lines = append(lines, " "+st.QueryKey.Render(l))
	}
	if o.err != "" {
		lines = append(lines, "")
		for _, l := range widget.WrapLines(o.err, inner-2) {
			lines = append(lines, " "+st.Err.Render(l))
		}
	}
	return widget.Box(st, "Save as an access pattern", lines, w, h, true)
}

// formKey gives a form's keys and pasted text to it; a wheel message is
// none of its business.
func formKey(f widget.Form, e Env, msg tea.Msg) (widget.Form, widget.FormEvent) {
	if _, ok := msg.(tea.MouseWheelMsg); ok {
		return f, widget.FormIgnored
	}
	return f.Handle(msg, e.Keys.FormKeys())
}

var modeSave = keymap.FormMode("save pattern", "save to the patterns file", "don't save")
