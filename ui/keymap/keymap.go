package keymap

import (
	"fmt"
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
//   - a Mode per mode, declared beside the code that handles the mode's
//     keys (a pane's file in ui, an overlay's in ui/overlay): the actions it
//     turns on, the help each takes there, and which of them the status bar
//     shows, in order. A mode is its declaration: modes are compared as
//     *Mode.
//
// ForMode, the help screen (FullHelp), the status bar (BarKeys), the
// settings overrides (WithOverrides, settings.go) and the clash check
// (Clashes) all read these two; nothing else lists bindings.

// Mode declares what the keyboard talks to: its name (help says "Keys
// for NAME"), whether printable keys are typed into a field, the bindings
// it turns on, and what help says under them. Each mode turns on its own
// bindings, so help shows exactly the keys that work.
type Mode struct {
	Name   string
	Typing bool
	// HelpTyped: ? opens help here though printable keys type (what is
	// typed, a table name, holds no ?).
	HelpTyped bool
	Keys      []Binding
	// Note is a sentence help adds under the keys of this mode; "" none.
	Note string
}

// String is the mode's name.
func (md *Mode) String() string { return md.Name }

// Binding is one action a mode turns on.
type Binding struct {
	action  string             // a KeyMap field, first letter lower case
	desc    string             // the help it takes in this mode; "" keeps the default
	bar     bool               // the status bar shows it, in the order declared
	when    func(State) bool   // nil: always on in the mode
	descOf  func(State) string // help worded by the state; "" keeps desc
	keyHelp string             // how help writes its keys here; "" keeps the default
}

// InBar is a binding the status bar shows; desc, if given, is its help here.
func InBar(action string, desc ...string) Binding {
	return Binding{action: action, desc: strings.Join(desc, ""), bar: true}
}

// Bind is a binding only the help screen shows.
func Bind(action string, desc ...string) Binding {
	return Binding{action: action, desc: strings.Join(desc, "")}
}

// OnlyIf turns the binding on only in the states where cond holds.
func (b Binding) OnlyIf(cond func(State) bool) Binding { b.when = cond; return b }

// WordedBy words the binding's help by the state.
func (b Binding) WordedBy(f func(State) string) Binding { b.descOf = f; return b }

// KeysShown sets how help writes the binding's keys in this mode.
func (b Binding) KeysShown(k string) Binding { b.keyHelp = k; return b }

// MoveKeys are the movement keys of a list or a scrolled view.
var MoveKeys = []Binding{Bind("up"), Bind("down"), Bind("pageUp"), Bind("pageDown"), Bind("top"), Bind("bottom")}

// KeysOf joins lists of bindings into one, in order.
func KeysOf(lists ...[]Binding) []Binding {
	var out []Binding
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

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
	WhyEmpty      key.Binding `keys:"w" desc:"why empty: the nearest keys that exist and what differs (its Queries and their bound said first)" col:"1"`

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

	Overview         key.Binding `keys:"o" desc:"table overview (sampled layout)" col:"3"`                                           // from a partition
	OverviewCtrl     key.Binding `keys:"ctrl+o" desc:"table overview (sampled layout)" col:"3"`                                      // from the partition prompt, where letters type
	SamplePartitions key.Binding `keys:"ctrl+l" desc:"list the partitions of a small sample (one Scan, its caps on screen)" col:"3"` // from the partition prompt
	Resample         key.Binding `keys:"s" desc:"sample again" col:"3"`
	IndexMap         key.Binding `keys:"M" desc:"index map: every index over a sample of whole items, its cost first" col:"3"`
	Export           key.Binding `keys:"x" desc:"export loaded items to a file" col:"3"`
	Live             key.Binding `keys:"T" desc:"live: the partition's writes as they arrive (stream; GetRecords billed as streams read request units)" col:"3"`

	// Marks: items chosen for a bulk change, kept by their table key.
	Mark       key.Binding `keys:"space" desc:"mark / unmark the item, then down" col:"3"`
	MarkRange  key.Binding `keys:"V" desc:"mark from the last marked item to here" col:"3"`
	MarkAll    key.Binding `keys:"A" desc:"mark every loaded result (the filter's matches while filtering)" col:"3"`
	ClearMarks key.Binding `keys:"U" desc:"clear every mark" col:"3"`
	BulkChange key.Binding `keys:"B" desc:"bulk change of the marked items: preview, then send (--allow-writes)" col:"3"`

	// Editing: enabled only when writes are on (--allow-writes).
	EditItem        key.Binding `keys:"E" desc:"edit item" col:"3"`
	DuplicateItem   key.Binding `keys:"d" desc:"duplicate item under a new key" col:"3"`
	DeleteItem      key.Binding `keys:"D" desc:"delete item" col:"3"`
	NewItem         key.Binding `keys:"N" desc:"new item of this entity type" col:"3"`
	Undo            key.Binding `keys:"u" desc:"undo the last write" col:"3"`
	AddAttribute    key.Binding `keys:"a" desc:"add attribute" col:"3"`
	RemoveAttribute key.Binding `keys:"x" desc:"remove attribute (again: keep it)" col:"3"`
	WriteItem       key.Binding `keys:"w" desc:"show the write" col:"3"`
	Reapply         key.Binding `keys:"r" desc:"after a refused write: re-read the item and put your changes on it" col:"3"`

	Connections key.Binding `keys:"ctrl+k" desc:"switch connection (the settings' connections, the AWS profiles)" col:"4"`
	Help        key.Binding `keys:"?" desc:"help" col:"4"`
	Back        key.Binding `keys:"q" desc:"back" col:"4"`
	Cancel      key.Binding `keys:"esc" desc:"cancel" col:"4"`
	Quit        key.Binding `keys:"ctrl+c" desc:"quit" col:"4"`
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

// Default returns the bindings with help text, all enabled.
func Default() KeyMap {
	var k KeyMap
	for i, b := range k.All() {
		a := actions[i]
		*b = key.NewBinding(key.WithKeys(a.keys...), key.WithHelp(a.help, a.desc))
	}
	return k
}

// All lists every binding, in the order of KeyMap's fields.
func (k *KeyMap) All() []*key.Binding {
	v := reflect.ValueOf(k).Elem()
	out := make([]*key.Binding, v.NumField())
	for i := range out {
		out[i] = v.Field(i).Addr().Interface().(*key.Binding)
	}
	return out
}

// State is what besides the mode decides which keys apply.
type State struct {
	CanGoBack bool   // q goes back rather than quitting
	Busy      bool   // a request is in flight
	More      bool   // the results have another page
	HasItem   bool   // an item is under the cursor
	NextView  string // what t switches the item view to
	Patterns  bool   // the patterns file has patterns to run
	Writes    bool   // writes are on (an Editor): the editing keys apply
	NoSortKey bool   // the key has no sort key: the sort-key keys are off
	Marks     int    // how many items are marked
	EntAttr   string // the generic entity attribute the loaded items offer as a second grouping; "" none
	Empty     bool   // the partition's Query came back with no items: why it is empty can be asked
	ByAttr    bool   // the entity types pane shows that grouping
	// EmptyField: the text field of a typing mode holds nothing, so a
	// printable key there can be a command (? on an empty prompt).
	EmptyField bool
}

// FieldEmpty turns a key on only while the mode's field holds nothing.
func FieldEmpty(st State) bool { return st.EmptyField }

// WritesOn turns a key on only with a writer (editing keys).
func WritesOn(st State) bool { return st.Writes }

// WritesOnItem turns a key on only with a writer and an item under the
// cursor.
func WritesOnItem(st State) bool { return st.Writes && st.HasItem }

// ForMode returns a copy of the keymap with only the bindings of mode md
// enabled, and their help worded for it. ctrl+c quits in every mode.
func (k KeyMap) ForMode(md *Mode, st State) KeyMap {
	all := k.All()
	for _, b := range all {
		b.SetEnabled(false)
	}
	k.Quit.SetEnabled(true)
	if st.CanGoBack {
		k.Back.SetHelp(k.Back.Help().Key, "back")
	} else {
		k.Back.SetHelp(k.Back.Help().Key, "quit")
	}
	for _, u := range md.Keys {
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

// Undeclared lists, for the modes, every binding that turns on an action
// KeyMap does not declare (a misspelt name would turn on Up).
func Undeclared(modes []*Mode) []string {
	var out []string
	for _, md := range modes {
		for _, b := range md.Keys {
			if _, ok := actionIndex[b.action]; !ok {
				out = append(out, fmt.Sprintf("%s turns on %q, which KeyMap does not declare", md, b.action))
			}
		}
	}
	return out
}

// BarKeys are the bindings the status bar shows in mode md, in order, from
// k as ForMode left it for md.
func (k KeyMap) BarKeys(md *Mode) []key.Binding {
	all := k.All()
	var out []key.Binding
	for _, u := range md.Keys {
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
	for i, b := range k.All() {
		c := actions[i].col
		for len(cols) <= c {
			cols = append(cols, nil)
		}
		cols[c] = append(cols[c], *b)
	}
	return cols
}
