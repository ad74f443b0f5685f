package ui

import (
	"reflect"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
)

// The keymap is declared once, as data, in two parts:
//
//   - KeyMap's fields: every action with its keys, how help writes them,
//     its default help text and its column on the help screen (struct tags).
//     The action's name in the settings file is the field's name, first
//     letter lower case ("reverse", "editCondition").
//   - a modeDef per mode (registered in modes below, declared beside the
//     code that handles the mode's keys): the actions it turns on, the help
//     each takes there, and which of them the status bar shows, in order.
//
// forMode, the help screen (FullHelp), the status bar (barKeys), the
// settings overrides (named, keymap_settings.go) and the clash check
// (clashes) all read these two; nothing else lists bindings.

// mode is what the keyboard is talking to right now. Each mode enables its
// own bindings, so help shows exactly the keys that work.
type mode int

const (
	modeTables        mode = iota // the table picker: typing filters
	modePrompt                    // the partition-key prompt: typing edits
	modeGroups                    // the partition, entity types focused
	modeItems                     // the partition, items focused
	modeLog                       // the request log, expanded
	modeCondition                 // editing the sort-key condition
	modeLimit                     // editing the Limit
	modeFilter                    // typing a local filter
	modeIndexes                   // choosing the table or an index
	modeDetail                    // one item
	modeHelp                      // full help
	modeLoading                   // waiting for the table's description
	modeConfirm                   // a count's cost announced: yes or no
	modePatterns                  // the access patterns of the patterns file
	modeParams                    // a pattern's parameters: typing edits
	modeSave                      // a name and description to save the request as a pattern: typing edits
	modeCode                      // the code of a request
	modeCaps                      // the overview's caps before sampling: typing edits
	modeSampling                  // the overview's sample in flight
	modeOverview                  // the overview's layout
	modeExport                    // the export form: typing edits
	modeExporting                 // an export in flight
	modeRequestFilter             // editing the request's FilterExpression
	modeProjection                // editing the request's projection
	modeBulkAsk                   // a Scan's filter or a PartiQL statement: typing edits
	modeBulk                      // a Scan or PartiQL read: its cost, in flight, its items
	modeEdit                      // an item's attributes being edited
	modeEditValue                 // one attribute's value and type: typing edits
	modeWriteConfirm              // a write shown, not sent: send or not
	modeWriteDone                 // a write's outcome
	modeJump                      // where to open an item: an index or the base table
	modeLinks                     // the partitions an item's keys name
	modeIndexMap                  // the overview's index map
	modeLive                      // the live pane: the partition's writes from the stream
)

// modes is every mode's declaration.
var modes = map[mode]modeDef{
	modeTables: tablesMode, modePrompt: promptMode, modeGroups: groupsMode, modeItems: itemsMode,
	modeLog: logMode, modeCondition: conditionMode, modeLimit: limitMode, modeFilter: filterMode,
	modeIndexes: indexesMode, modeDetail: detailMode, modeHelp: helpMode, modeLoading: loadingMode,
	modeConfirm: confirmMode, modePatterns: patternsMode, modeParams: paramsMode, modeSave: saveMode,
	modeCode: codeMode, modeCaps: capsMode, modeSampling: samplingMode, modeOverview: overviewMode,
	modeExport: exportMode, modeExporting: exportingMode,
	modeRequestFilter: requestFilterMode, modeProjection: projectionMode, modeBulkAsk: bulkAskMode, modeBulk: bulkMode,
	modeEdit: editItemMode, modeEditValue: editItemValueMode, modeWriteConfirm: writeConfirmMode, modeWriteDone: writeDoneMode,
	modeJump: jumpMode, modeLinks: linksMode, modeIndexMap: indexMapMode, modeLive: liveMode,
}

// modeDef declares a mode: its name (help says "Keys for NAME"), whether
// printable keys are typed into a field, and the bindings it turns on.
type modeDef struct {
	name   string
	typing bool
	keys   []binding
}

// binding is one action a mode turns on.
type binding struct {
	action  string                // a KeyMap field, first letter lower case
	desc    string                // the help it takes in this mode; "" keeps the default
	bar     bool                  // the status bar shows it, in the order declared
	when    func(keyState) bool   // nil: always on in the mode
	descOf  func(keyState) string // help worded by the state; "" keeps desc
	keyHelp string                // how help writes its keys here; "" keeps the default
}

// inBar is a binding the status bar shows; desc, if given, is its help here.
func inBar(action string, desc ...string) binding {
	return binding{action: action, desc: strings.Join(desc, ""), bar: true}
}

// bind is a binding only the help screen shows.
func bind(action string, desc ...string) binding {
	return binding{action: action, desc: strings.Join(desc, "")}
}

// onlyIf turns the binding on only in the states where cond holds.
func (b binding) onlyIf(cond func(keyState) bool) binding { b.when = cond; return b }

// wordedBy words the binding's help by the state.
func (b binding) wordedBy(f func(keyState) string) binding { b.descOf = f; return b }

// keysShown sets how help writes the binding's keys in this mode.
func (b binding) keysShown(k string) binding { b.keyHelp = k; return b }

// moveKeys are the movement keys of a list or a scrolled view.
var moveKeys = []binding{bind("up"), bind("down"), bind("pageUp"), bind("pageDown"), bind("top"), bind("bottom")}

// keysOf joins lists of bindings into one, in order.
func keysOf(lists ...[]binding) []binding {
	var out []binding
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

func (md mode) String() string { return modes[md].name }

// textEntry tells whether printable keys are typed into a field in this mode.
func (md mode) textEntry() bool { return modes[md].typing }

// KeyMap is every key binding of the UI, with its help text. Bindings are
// data: a mode switches off what does not apply, and help follows. The tags
// are the declaration: keys, help (how help writes the keys; default the
// keys joined with "/"), desc, and col, the help screen's column.
type KeyMap struct {
	Up         key.Binding `keys:"up,k" help:"↑/k" desc:"up" col:"0"`
	Down       key.Binding `keys:"down,j" help:"↓/j" desc:"down" col:"0"`
	PageUp     key.Binding `keys:"pgup" desc:"page up" col:"0"`
	PageDown   key.Binding `keys:"pgdown" help:"pgdn" desc:"page down" col:"0"`
	Top        key.Binding `keys:"g,home" desc:"first" col:"0"`
	Bottom     key.Binding `keys:"G,end" desc:"last" col:"0"`
	ListUp     key.Binding `keys:"up,ctrl+p" help:"↑" desc:"up" col:"0"` // lists under a text field: no letters
	ListDown   key.Binding `keys:"down,ctrl+n" help:"↓" desc:"down" col:"0"`
	ListTop    key.Binding `keys:"home" desc:"first" col:"0"`
	ListBottom key.Binding `keys:"end" desc:"last" col:"0"`
	NextPane   key.Binding `keys:"tab" desc:"next pane" col:"0"`
	PrevPane   key.Binding `keys:"shift+tab" desc:"previous pane" col:"0"`

	Open          key.Binding `keys:"enter" desc:"open" col:"1"`
	Complete      key.Binding `keys:"tab" desc:"complete" col:"1"`
	EditCondition key.Binding `keys:"e" desc:"edit sort-key condition" col:"1"`
	Reverse       key.Binding `keys:"r" desc:"reverse order" col:"1"`
	Limit         key.Binding `keys:"l" desc:"set Limit" col:"1"`
	NextPage      key.Binding `keys:"n" desc:"next page" col:"1"`
	Count         key.Binding `keys:"#" desc:"count exactly" col:"1"`
	GroupBy       key.Binding `keys:"b" desc:"group by the entity attribute / by sort key (from the items loaded)" col:"1"`
	Consistent    key.Binding `keys:"c" desc:"consistent read on/off" col:"1"`
	Index         key.Binding `keys:"i" desc:"table / index" col:"1"`
	Partition     key.Binding `keys:"p" desc:"other partition" col:"1"`
	Confirm       key.Binding `keys:"y" desc:"yes" col:"1"`
	RequestFilter key.Binding `keys:"f" desc:"filter the request (FilterExpression)" col:"1"`
	Project       key.Binding `keys:"v" desc:"attributes returned (projection)" col:"1"`
	PartiQL       key.Binding `keys:"P" desc:"PartiQL SELECT, its plan first" col:"1"`
	Scan          key.Binding `keys:"ctrl+s" desc:"scan the whole table, its cost first" col:"1"`

	Filter      key.Binding `keys:"/" desc:"filter loaded items" col:"2"`
	Log         key.Binding `keys:"L" desc:"request log" col:"2"`
	View        key.Binding `keys:"t" desc:"attributes, JSON or DynamoDB JSON" col:"2"`
	CopyItem    key.Binding `keys:"y" desc:"copy item as JSON" col:"2"`
	CopyCommand key.Binding `keys:"Y" desc:"copy aws cli command" col:"2"`
	InIndex     key.Binding `keys:"I" desc:"open the item in an index (or the base table)" col:"2"`
	FollowKeys  key.Binding `keys:"F" desc:"follow the keys: partitions the item names" col:"2"`
	Patterns    key.Binding `keys:"a" desc:"access patterns" col:"2"`
	SavePattern key.Binding `keys:"S" desc:"save request as a pattern" col:"2"`
	Code        key.Binding `keys:"C" desc:"code for this request" col:"2"`
	CopyCode    key.Binding `keys:"y" desc:"copy code" col:"2"`
	NextTab     key.Binding `keys:"tab,right" help:"tab/→" desc:"next language" col:"2"` // the code view's languages
	PrevTab     key.Binding `keys:"shift+tab,left" help:"shift+tab/←" desc:"previous language" col:"2"`
	NextField   key.Binding `keys:"tab,down" help:"tab/↓" desc:"next field" col:"2"` // the fields of a form
	PrevField   key.Binding `keys:"shift+tab,up" help:"shift+tab/↑" desc:"previous field" col:"2"`

	Overview     key.Binding `keys:"o" desc:"table overview (sampled layout)" col:"3"`      // from a partition
	OverviewCtrl key.Binding `keys:"ctrl+o" desc:"table overview (sampled layout)" col:"3"` // from the partition prompt, where letters type
	Resample     key.Binding `keys:"s" desc:"sample again" col:"3"`
	IndexMap     key.Binding `keys:"M" desc:"index map: every index over a sample of whole items, its cost first" col:"3"`
	Export       key.Binding `keys:"x" desc:"export loaded items to a file" col:"3"`
	Live         key.Binding `keys:"T" desc:"live: the partition's writes as they arrive (stream; GetRecords billed as streams read request units)" col:"3"`

	// Editing: enabled only when writes are on (--allow-writes).
	EditItem        key.Binding `keys:"E" desc:"edit item" col:"3"`
	DuplicateItem   key.Binding `keys:"d" desc:"duplicate item under a new key" col:"3"`
	DeleteItem      key.Binding `keys:"D" desc:"delete item" col:"3"`
	NewItem         key.Binding `keys:"N" desc:"new item of this entity type" col:"3"`
	Undo            key.Binding `keys:"u" desc:"undo the last write" col:"3"`
	AddAttribute    key.Binding `keys:"a" desc:"add attribute" col:"3"`
	RemoveAttribute key.Binding `keys:"x" desc:"remove attribute (again: keep it)" col:"3"`
	WriteItem       key.Binding `keys:"w" desc:"show the write" col:"3"`

	Help   key.Binding `keys:"?" desc:"help" col:"4"`
	Back   key.Binding `keys:"q" desc:"back" col:"4"`
	Cancel key.Binding `keys:"esc" desc:"cancel" col:"4"`
	Quit   key.Binding `keys:"ctrl+c" desc:"quit" col:"4"`
}

// action is one KeyMap field as its tags declare it.
type action struct {
	name       string // in the settings file
	keys       []string
	help, desc string
	col        int
}

// actions are KeyMap's fields in order, and actionIndex finds one by name.
var actions, actionIndex = declaredActions()

func declaredActions() ([]action, map[string]int) {
	t := reflect.TypeFor[KeyMap]()
	out := make([]action, t.NumField())
	index := make(map[string]int, t.NumField())
	for i := range out {
		f := t.Field(i)
		a := action{name: strings.ToLower(f.Name[:1]) + f.Name[1:], keys: strings.Split(f.Tag.Get("keys"), ","), help: f.Tag.Get("help"), desc: f.Tag.Get("desc")}
		if a.help == "" {
			a.help = strings.Join(a.keys, "/")
		}
		a.col, _ = strconv.Atoi(f.Tag.Get("col"))
		out[i], index[a.name] = a, i
	}
	return out, index
}

// DefaultKeyMap returns the bindings with help text, all enabled.
func DefaultKeyMap() KeyMap {
	var k KeyMap
	for i, b := range k.all() {
		a := actions[i]
		*b = key.NewBinding(key.WithKeys(a.keys...), key.WithHelp(a.help, a.desc))
	}
	return k
}

// all lists every binding, in the order of KeyMap's fields.
func (k *KeyMap) all() []*key.Binding {
	v := reflect.ValueOf(k).Elem()
	out := make([]*key.Binding, v.NumField())
	for i := range out {
		out[i] = v.Field(i).Addr().Interface().(*key.Binding)
	}
	return out
}

// keyState is what besides the mode decides which keys apply.
type keyState struct {
	canGoBack bool   // q goes back rather than quitting
	busy      bool   // a request is in flight
	more      bool   // the results have another page
	hasItem   bool   // an item is under the cursor
	nextView  string // what t switches the item view to
	patterns  bool   // the patterns file has patterns to run
	writes    bool   // writes are on (an Editor): the editing keys apply
	noSortKey bool   // the key has no sort key: the sort-key keys are off
	entAttr   string // the generic entity attribute the loaded items offer as a second grouping; "" none
	byAttr    bool   // the entity types pane shows that grouping
}

// forMode returns a copy of the keymap with only the bindings of one mode
// enabled, and their help worded for it. ctrl+c quits in every mode.
func (k KeyMap) forMode(md mode, st keyState) KeyMap {
	all := k.all()
	for _, b := range all {
		b.SetEnabled(false)
	}
	k.Quit.SetEnabled(true)
	if st.canGoBack {
		k.Back.SetHelp(k.Back.Help().Key, "back")
	} else {
		k.Back.SetHelp(k.Back.Help().Key, "quit")
	}
	for _, u := range modes[md].keys {
		if u.when != nil && !u.when(st) {
			continue
		}
		b := all[actionIndex[u.action]]
		b.SetEnabled(true)
		h := b.Help()
		if u.keyHelp != "" {
			h.Key = u.keyHelp
		}
		if u.desc != "" {
			h.Desc = u.desc
		}
		if u.descOf != nil {
			if d := u.descOf(st); d != "" {
				h.Desc = d
			}
		}
		b.SetHelp(h.Key, h.Desc)
	}
	return k
}

// barKeys are the bindings the status bar shows in mode md, in order, from
// k as forMode left it for md.
func (k KeyMap) barKeys(md mode) []key.Binding {
	all := k.all()
	var out []key.Binding
	for _, u := range modes[md].keys {
		if u.bar && all[actionIndex[u.action]].Enabled() {
			out = append(out, *all[actionIndex[u.action]])
		}
	}
	return out
}

// FullHelp is the help screen: navigation, querying, views, the overview
// and export, the rest — the columns of the declaration.
func (k KeyMap) FullHelp() [][]key.Binding {
	var cols [][]key.Binding
	for i, b := range k.all() {
		c := actions[i].col
		for len(cols) <= c {
			cols = append(cols, nil)
		}
		cols[c] = append(cols[c], *b)
	}
	return cols
}
