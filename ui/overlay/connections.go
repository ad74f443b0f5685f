package overlay

import (
	tea "charm.land/bubbletea/v2"

	"dynascope/config"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

// The connections overlay: ctrl+k lists the settings' named connections
// and the profiles of the AWS config, and enter asks the root to connect
// there, which re-opens the table picker on the new connection (the root's
// switch.go). The list is given when it opens: the root has it from its
// Options, read by the command line, since nothing in the UI reads files.

// Connections chooses the connection to switch to.
type Connections struct {
	choices []config.Choice
	current string // the Label of the connection in use
	list    widget.List
}

// NewConnections lists choices, the cursor on the one in use (current, a
// config.Choice's Label) when it is listed.
func NewConnections(choices []config.Choice, current string) Connections {
	o := Connections{choices: choices, current: current, list: widget.NewList(len(choices))}
	for i, c := range choices {
		if c.Label() == current {
			o.list = o.list.MoveTo(i)
			break
		}
	}
	return o
}

// ID names the overlay.
func (Connections) ID() ID { return ConnectionsID }

// Mode is the keymap mode the overlay is in.
func (Connections) Mode(Env) *keymap.Mode { return modeConnections }

// Hides says which lines of the screen the overlay takes over.
func (Connections) Hides() Hidden { return Hidden{} }

// connectionsListH is how many rows the box shows in h lines: the box's
// borders, the sentence and its blank line.
func connectionsListH(h int) int { return max(1, h-4) }

// Update handles a key and returns what the overlay asks of the root.
func (o Connections) Update(e Env, msg tea.Msg) (Overlay, Want) {
	var act string
	o.list = o.list.SetHeight(connectionsListH(e.BodyH))
	o.list, act = listKey(e.Keys, msg, o.list)
	switch act {
	case "open":
		i, ok := o.list.Selected()
		if !ok {
			return o, Close{}
		}
		if o.choices[i].Label() == o.current {
			return o, Then{Close{}, ShowInfo{Text: "already on " + textfmt.Sanitize(o.current) + "."}}
		}
		return o, Then{Close{}, SwitchConnection{To: o.choices[i]}}
	case "close":
		return o, Close{}
	}
	return o, nil
}

// View draws the overlay w×h.
func (o Connections) View(e Env, w, h int) string {
	inner := w - 2
	lines := []string{" " + e.St.Muted.Render("Connect elsewhere: the table picker opens on the new connection."), ""}
	if len(o.choices) == 0 {
		lines = append(lines, " "+e.St.Muted.Render("no connections in the settings file and no profiles in the AWS config"))
	}
	nameW := 10
	for _, c := range o.choices {
		nameW = max(nameW, widget.Width(textfmt.Sanitize(c.Label())))
	}
	nameW = min(nameW, max(12, inner/2))
	l := o.list.SetHeight(connectionsListH(h))
	lines = append(lines, l.View(inner, widget.Delegate{Render: func(r widget.Row, inner int) []string {
		c := o.choices[r.Index]
		mark := "  "
		if c.Label() == o.current {
			mark = "› "
		}
		line := widget.Fit(" "+mark+widget.Fit(textfmt.Sanitize(c.Label()), nameW)+"  "+textfmt.Sanitize(c.Where), inner)
		if r.Cursor {
			line = e.St.Sel.Render(line)
		}
		return []string{line}
	}})...)
	return widget.Box(e.St, "Switch connection", lines, w, h, true)
}

var modeConnections = &keymap.Mode{Name: "connections", Keys: []keymap.Binding{
	keymap.InBar("open", "connect"), keymap.InBar("back", "close"),
	keymap.Bind("up"), keymap.Bind("down"), keymap.Bind("pageUp"), keymap.Bind("pageDown"), keymap.Bind("top"), keymap.Bind("bottom"),
	keymap.Bind("cancel", "close"), keymap.Bind("help"),
}}
