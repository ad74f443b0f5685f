package ui

import "charm.land/bubbles/v2/key"

// mode is what the keyboard is talking to right now. Each mode enables its
// own bindings, so help shows exactly the keys that work.
type mode int

const (
	modeTables    mode = iota // the table picker: typing filters
	modePrompt                // the partition-key prompt: typing edits
	modeGroups                // the partition, entity types focused
	modeItems                 // the partition, items focused
	modeLog                   // the request log, expanded
	modeCondition             // editing the sort-key condition
	modeLimit                 // editing the Limit
	modeFilter                // typing a local filter
	modeIndexes               // choosing the table or an index
	modeDetail                // one item
	modeHelp                  // full help
	modeLoading               // waiting for the table's description
	modeConfirm               // a count's cost announced: yes or no
	modePatterns              // the access patterns of the patterns file
	modeParams                // a pattern's parameters: typing edits
	modeSave                  // a name and description to save the request as a pattern: typing edits
	modeCode                  // the code of a request
	modeCaps                  // the overview's caps before sampling: typing edits
	modeSampling              // the overview's sample in flight
	modeOverview              // the overview's layout
	modeExport                // the export form: typing edits
	modeExporting             // an export in flight
)

var modeNames = map[mode]string{
	modeTables: "tables", modePrompt: "prompt", modeGroups: "groups", modeItems: "items",
	modeLog: "log", modeCondition: "condition", modeLimit: "limit", modeFilter: "filter",
	modeIndexes: "indexes", modeDetail: "detail", modeHelp: "help", modeLoading: "loading",
	modeConfirm: "confirm", modePatterns: "patterns", modeParams: "parameters", modeSave: "save pattern",
	modeCode: "code", modeCaps: "overview caps", modeSampling: "sampling", modeOverview: "overview",
	modeExport: "export", modeExporting: "exporting",
}

func (md mode) String() string { return modeNames[md] }

// textEntry tells whether printable keys are typed into a field in this mode.
func (md mode) textEntry() bool {
	switch md {
	case modeTables, modePrompt, modeCondition, modeLimit, modeFilter, modeParams, modeSave, modeCaps, modeExport:
		return true
	}
	return false
}

// KeyMap is every key binding of the UI, with its help text. Bindings are
// data: a mode switches off what does not apply, and help follows.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	ListUp, ListDown, ListTop, ListBottom   key.Binding // lists under a text field: no letters
	NextPane, PrevPane                      key.Binding
	Open                                    key.Binding
	Complete                                key.Binding
	EditCondition                           key.Binding
	Reverse                                 key.Binding
	Limit                                   key.Binding
	NextPage                                key.Binding
	Count                                   key.Binding
	Confirm                                 key.Binding
	Consistent                              key.Binding
	Index                                   key.Binding
	Partition                               key.Binding
	Log                                     key.Binding
	Filter                                  key.Binding
	CopyItem                                key.Binding
	CopyCommand                             key.Binding
	View                                    key.Binding
	Patterns                                key.Binding
	SavePattern                             key.Binding
	Code                                    key.Binding
	CopyCode                                key.Binding
	NextTab, PrevTab                        key.Binding // the code view's languages
	NextField, PrevField                    key.Binding // the fields of a form
	Overview                                key.Binding // the table overview, from a partition
	OverviewCtrl                            key.Binding // the same from the partition prompt, where letters type
	Resample                                key.Binding
	Export                                  key.Binding
	Help                                    key.Binding
	Back                                    key.Binding
	Cancel                                  key.Binding
	Quit                                    key.Binding
}

// DefaultKeyMap returns the bindings with help text, all enabled.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Up:            b("↑/k", "up", "up", "k"),
		Down:          b("↓/j", "down", "down", "j"),
		PageUp:        b("pgup", "page up", "pgup"),
		PageDown:      b("pgdn", "page down", "pgdown"),
		Top:           b("g/home", "first", "g", "home"),
		Bottom:        b("G/end", "last", "G", "end"),
		ListUp:        b("↑", "up", "up", "ctrl+p"),
		ListDown:      b("↓", "down", "down", "ctrl+n"),
		ListTop:       b("home", "first", "home"),
		ListBottom:    b("end", "last", "end"),
		NextPane:      b("tab", "next pane", "tab"),
		PrevPane:      b("shift+tab", "previous pane", "shift+tab"),
		Open:          b("enter", "open", "enter"),
		Complete:      b("tab", "complete", "tab"),
		EditCondition: b("e", "edit sort-key condition", "e"),
		Reverse:       b("r", "reverse order", "r"),
		Limit:         b("l", "set Limit", "l"),
		NextPage:      b("n", "next page", "n"),
		Count:         b("#", "count exactly", "#"),
		Confirm:       b("y", "yes", "y"),
		Consistent:    b("c", "consistent read on/off", "c"),
		Index:         b("i", "table / index", "i"),
		Partition:     b("p", "other partition", "p"),
		Log:           b("L", "request log", "L"),
		Filter:        b("/", "filter loaded items", "/"),
		CopyItem:      b("y", "copy item as JSON", "y"),
		CopyCommand:   b("Y", "copy aws cli command", "Y"),
		View:          b("t", "attributes, JSON or DynamoDB JSON", "t"),
		Patterns:      b("a", "access patterns", "a"),
		SavePattern:   b("S", "save request as a pattern", "S"),
		Code:          b("C", "code for this request", "C"),
		CopyCode:      b("y", "copy code", "y"),
		NextTab:       b("tab/→", "next language", "tab", "right"),
		PrevTab:       b("shift+tab/←", "previous language", "shift+tab", "left"),
		NextField:     b("tab/↓", "next field", "tab", "down"),
		PrevField:     b("shift+tab/↑", "previous field", "shift+tab", "up"),
		Overview:      b("o", "table overview (sampled layout)", "o"),
		OverviewCtrl:  b("ctrl+o", "table overview (sampled layout)", "ctrl+o"),
		Resample:      b("s", "sample again", "s"),
		Export:        b("x", "export loaded items to a file", "x"),
		Help:          b("?", "help", "?"),
		Back:          b("q", "back", "q"),
		Cancel:        b("esc", "cancel", "esc"),
		Quit:          b("ctrl+c", "quit", "ctrl+c"),
	}
}

// all lists every binding, for switching them and for the keymap test.
func (k *KeyMap) all() []*key.Binding {
	return []*key.Binding{
		&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Top, &k.Bottom,
		&k.ListUp, &k.ListDown, &k.ListTop, &k.ListBottom,
		&k.NextPane, &k.PrevPane, &k.Open, &k.Complete,
		&k.EditCondition, &k.Reverse, &k.Limit, &k.NextPage, &k.Count, &k.Confirm, &k.Consistent, &k.Index, &k.Partition,
		&k.Log, &k.Filter, &k.CopyItem, &k.CopyCommand, &k.View,
		&k.Patterns, &k.SavePattern, &k.Code, &k.CopyCode, &k.NextTab, &k.PrevTab, &k.NextField, &k.PrevField,
		&k.Overview, &k.OverviewCtrl, &k.Resample, &k.Export,
		&k.Help, &k.Back, &k.Cancel, &k.Quit,
	}
}

// keyState is what besides the mode decides which keys apply.
type keyState struct {
	canGoBack bool   // q goes back rather than quitting
	busy      bool   // a request is in flight
	more      bool   // the results have another page
	hasItem   bool   // an item is under the cursor
	nextView  string // what t switches the item view to
	patterns  bool   // the patterns file has patterns to run
}

// forMode returns a copy of the keymap with only the bindings of one mode
// enabled, and their help worded for it.
func (k KeyMap) forMode(md mode, st keyState) KeyMap {
	for _, b := range k.all() {
		b.SetEnabled(false)
	}
	on := func(bs ...*key.Binding) {
		for _, b := range bs {
			b.SetEnabled(true)
		}
	}
	desc := func(b *key.Binding, d string) { b.SetHelp(b.Help().Key, d) }
	on(&k.Quit)
	if st.canGoBack {
		desc(&k.Back, "back")
	} else {
		desc(&k.Back, "quit")
	}
	switch md {
	case modeTables:
		on(&k.ListUp, &k.ListDown, &k.PageUp, &k.PageDown, &k.ListTop, &k.ListBottom, &k.Open, &k.Cancel, &k.Help)
		desc(&k.Open, "open table")
		desc(&k.Cancel, "clear filter / quit")
	case modePrompt:
		on(&k.ListUp, &k.ListDown, &k.Complete, &k.Open, &k.Cancel, &k.OverviewCtrl)
		desc(&k.Open, "open partition")
		desc(&k.ListUp, "older")
		desc(&k.ListDown, "newer")
		desc(&k.Complete, "complete from history")
		desc(&k.Cancel, "back")
	case modeGroups, modeItems:
		on(&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Top, &k.Bottom, &k.NextPane, &k.PrevPane,
			&k.Open, &k.EditCondition, &k.Reverse, &k.Limit, &k.Consistent, &k.Index, &k.Partition,
			&k.Log, &k.Filter, &k.CopyCommand, &k.Patterns, &k.SavePattern, &k.Code, &k.Help, &k.Back, &k.Cancel,
			&k.Overview, &k.Export)
		if st.more {
			on(&k.NextPage)
		}
		if md == modeGroups {
			desc(&k.Open, "query this entity type")
			on(&k.Count)
		} else {
			desc(&k.Open, "open item")
			if st.hasItem {
				on(&k.CopyItem)
			}
		}
		if st.busy {
			desc(&k.Cancel, "cancel request")
		} else {
			desc(&k.Cancel, "clear filter")
		}
	case modeLog:
		on(&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Top, &k.Bottom, &k.Log, &k.Help, &k.Back, &k.Cancel, &k.CopyCommand, &k.Code)
		desc(&k.Log, "close request log")
		desc(&k.Code, "code for the selected request")
		desc(&k.Back, "close")
		desc(&k.Cancel, "close")
	case modeCondition, modeLimit, modeFilter:
		on(&k.Open, &k.Cancel)
		switch md {
		case modeCondition:
			desc(&k.Open, "run query")
		case modeLimit:
			desc(&k.Open, "apply Limit")
		default:
			desc(&k.Open, "keep filter")
		}
		desc(&k.Cancel, "cancel")
	case modeIndexes:
		on(&k.Up, &k.Down, &k.Top, &k.Bottom, &k.Open, &k.Back, &k.Cancel, &k.Help)
		desc(&k.Open, "use it")
		desc(&k.Back, "close")
		desc(&k.Cancel, "close")
	case modeDetail:
		on(&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Top, &k.Bottom, &k.View, &k.CopyItem, &k.CopyCommand, &k.Help, &k.Back, &k.Cancel)
		desc(&k.Back, "close")
		desc(&k.Cancel, "close")
		desc(&k.Up, "scroll up")
		desc(&k.Down, "scroll down")
		if st.nextView != "" {
			desc(&k.View, "show "+st.nextView)
		}
	case modeHelp:
		on(&k.Help, &k.Back, &k.Cancel)
		desc(&k.Help, "close help")
		desc(&k.Back, "close")
		desc(&k.Cancel, "close")
	case modeLoading:
		on(&k.Cancel)
		desc(&k.Cancel, "quit")
	case modeConfirm:
		on(&k.Confirm, &k.Open, &k.Cancel)
		k.Confirm.SetHelp("y/enter", "count")
		desc(&k.Open, "count")
		desc(&k.Cancel, "don't count")
	case modePatterns:
		on(&k.Help, &k.Back, &k.Cancel)
		if st.patterns {
			on(&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Top, &k.Bottom, &k.Open, &k.Code)
		}
		desc(&k.Open, "run it (asks for its parameters)")
		desc(&k.Code, "its code, with the example values")
		desc(&k.Back, "close")
		desc(&k.Cancel, "close")
	case modeParams:
		on(&k.Open, &k.Cancel, &k.NextField, &k.PrevField)
		desc(&k.Open, "run the pattern")
		desc(&k.Cancel, "back to the patterns")
	case modeSave:
		on(&k.Open, &k.Cancel, &k.NextField, &k.PrevField)
		desc(&k.Open, "save to the patterns file")
		desc(&k.Cancel, "don't save")
	case modeCode:
		on(&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Top, &k.Bottom, &k.NextTab, &k.PrevTab, &k.CopyCode, &k.Help, &k.Back, &k.Cancel)
		desc(&k.Back, "close")
		desc(&k.Cancel, "close")
		desc(&k.Up, "scroll up")
		desc(&k.Down, "scroll down")
	case modeCaps:
		on(&k.Open, &k.Cancel, &k.NextField, &k.PrevField)
		desc(&k.Open, "sample within these caps")
		desc(&k.Cancel, "close")
	case modeSampling:
		on(&k.Cancel)
		desc(&k.Cancel, "stop, keep what was read")
	case modeOverview:
		on(&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Top, &k.Bottom, &k.Open, &k.Resample, &k.Help, &k.Back, &k.Cancel)
		desc(&k.Open, "open the partition")
		desc(&k.Back, "close")
		desc(&k.Cancel, "close")
	case modeExport:
		on(&k.Open, &k.Cancel, &k.NextField, &k.PrevField)
		desc(&k.Open, "export")
		desc(&k.Cancel, "don't export")
	case modeExporting:
		on(&k.Cancel)
		desc(&k.Cancel, "stop, remove the partial file")
	}
	return k
}

// ShortHelp is the one line of keys the status bar shows.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.EditCondition, k.Reverse, k.Limit, k.NextPage, k.View, k.Help, k.Back}
}

// FullHelp is the help screen: navigation, querying, views, the rest.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.ListUp, k.ListDown, k.ListTop, k.ListBottom, k.NextPane, k.PrevPane},
		{k.Open, k.Complete, k.EditCondition, k.Reverse, k.Limit, k.NextPage, k.Count, k.Consistent, k.Index, k.Partition, k.Confirm},
		{k.Filter, k.Log, k.View, k.CopyItem, k.CopyCommand, k.Patterns, k.SavePattern, k.Code, k.CopyCode, k.NextTab, k.PrevTab, k.NextField, k.PrevField},
		{k.Overview, k.OverviewCtrl, k.Resample, k.Export},
		{k.Help, k.Back, k.Cancel, k.Quit},
	}
}
