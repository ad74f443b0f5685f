package overlay

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/indexes"
	"dynascope/itemcodec"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/theme"
	"dynascope/ui/widget"
)

// The detail overlay: one item in full — its attributes with their types,
// plain JSON or DynamoDB JSON — opened with enter on the items pane.

// Detail is the detail pane on the overlay stack.
type Detail struct{ d detailPane }

// NewDetail shows item it of table t, read through key schema ks, titled
// by its key (sanitised) in its entity type's colour, with its place in
// each index (in), laid out w cells wide.
func NewDetail(it dynamo.Item, t dynamo.Table, ks dynamo.KeySchema, title string, colour int, in []indexes.Membership, st theme.Styles, w int) Detail {
	d := newDetail(it, t, ks, title, colour)
	d.in = in
	return Detail{d: d.render(st, w)}
}

// DetailEntity is the item's declared entity as the detail shows it: its
// name and its keys decoded into their parameters ("customerId = 42"), and
// what it breaks of its index keys; Declared false when no declaration
// matches its keys.
type DetailEntity struct {
	Declared bool
	Name     string
	Params   []string
	Drift    []string
}

// WithEntity adds what the item's declared entity says of it (nil: no
// declarations), laid out w cells wide.
func (d Detail) WithEntity(e *DetailEntity, st theme.Styles, w int) Detail {
	d.d.entity = e
	d.d = d.d.render(st, w)
	return d
}

// entityLines are the detail's "Entity" lines: the declared entity and
// its parameters, one a line, or that none matches.
func entityLines(st theme.Styles, e *DetailEntity, w int) []string {
	if e == nil {
		return nil
	}
	if !e.Declared {
		return []string{"", " " + st.Bold.Render("Entity") + st.Muted.Render(" · undeclared: its keys match no declared entity")}
	}
	out := []string{"", " " + st.Bold.Render("Entity ") + st.Text.Render(widget.Trunc(textfmt.Sanitize(e.Name), max(8, w-30))) + st.Muted.Render(" · its keys decoded")}
	for _, p := range e.Params {
		out = append(out, "   "+st.Text.Render(widget.Trunc(textfmt.Sanitize(p), max(8, w-4))))
	}
	for _, dr := range e.Drift {
		for _, wl := range strings.Split(widget.Wrap("drift: "+textfmt.Sanitize(dr), max(8, w-4)), "\n") {
			out = append(out, "   "+st.Muted.Render(wl))
		}
	}
	return out
}

// NextView names what t switches the item shown to: JSON from the
// attributes (and from no item), and so on round.
func (o Detail) NextView() string { return ((o.d.view + 1) % 3).String() }

// ID names the overlay.
func (Detail) ID() ID { return DetailID }

// Mode is the keymap mode the overlay is in, by its phase.
func (Detail) Mode(Env) *keymap.Mode { return modeDetail }

// Hides says which lines of the screen the overlay takes over.
func (Detail) Hides() Hidden { return Hidden{Query: true, Log: true} }

// View draws the overlay w×h from what the root gives it.
func (o Detail) View(e Env, w, h int) string { return o.d.viewBox(e.St, w, h) }

// Relayout lays the item out again for the width and the styles in e.
func (o Detail) Relayout(e Env) Overlay {
	o.d = o.d.render(e.St, e.W-2)
	return o
}

// Update handles a key, pasted text or a wheel message and returns
// what the overlay asks of the root.
func (o Detail) Update(e Env, msg tea.Msg) (Overlay, Want) {
	h := max(1, e.BodyH-o.d.chrome(e.W))
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		if d := widget.WheelDelta(msg); d != 0 {
			o.d = o.d.scroll(d, h)
		}
	case tea.KeyPressMsg:
		km := e.Keys
		if d, ok := km.Step(msg, h); ok {
			o.d = o.d.scroll(d, h)
			return o, nil
		}
		it := o.d.item
		switch {
		case key.Matches(msg, km.View):
			o.d.view = (o.d.view + 1) % 3
			o.d.offset = 0
			o.d = o.d.render(e.St, e.W-2)
		case key.Matches(msg, km.CopyItem):
			return o, CopyItem{It: it}
		case key.Matches(msg, km.CopyCommand):
			return o, CopyGetItem{It: it}
		case key.Matches(msg, km.InIndex):
			return o, OpenJumpList{It: it}
		case key.Matches(msg, km.FollowKeys):
			return o, OpenLinkList{It: it}
		case key.Matches(msg, km.EditItem):
			return o, EditItem{It: it, Title: "Edit · " + o.d.title}
		case key.Matches(msg, km.DuplicateItem):
			return o, EditItem{It: it, AsNew: true, Title: "Duplicate under a new key · " + o.d.title}
		case key.Matches(msg, km.DeleteItem):
			return o, DeleteItem{It: it}
		case key.Matches(msg, km.Undo):
			return o, UndoLast{}
		case key.Matches(msg, km.Back, km.Cancel):
			return o, Close{}
		}
	}
	return o, nil
}

// detailView is how the detail pane shows an item.
type detailView int

const (
	viewAttributes detailView = iota // every attribute with its type
	viewJSON                         // plain JSON
	viewDynamoJSON                   // DynamoDB JSON, as the AWS CLI prints it
)

// String names the view, as help and the title say it.
func (v detailView) String() string {
	return [...]string{"attributes", "JSON", "DynamoDB JSON"}[v]
}

// detailPane shows one item in full.
type detailPane struct {
	item   dynamo.Item
	keys   []string // key attribute names, shown first: table keys, then the index's
	title  string   // the item's sort key (or partition key), sanitised
	colour int
	view   detailView
	size   int                  // bytes, by DynamoDB's rules, computed here
	in     []indexes.Membership // its place in each index (xray.go)
	entity *DetailEntity        // its declared entity; nil without declarations
	lines  []string
	w      int
	offset int
}

func newDetail(it dynamo.Item, table dynamo.Table, ks dynamo.KeySchema, title string, colour int) detailPane {
	d := detailPane{item: it, title: title, colour: colour, w: -1}
	for _, k := range []string{table.PK.Name, skName(table.SK), ks.PK.Name, skName(ks.SK)} {
		if k != "" && !contains(d.keys, k) {
			d.keys = append(d.keys, k)
		}
	}
	d.size = itemcodec.ItemSize(it)
	return d
}

func skName(k *dynamo.KeyAttr) string {
	if k == nil {
		return ""
	}
	return k.Name
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// render lays the item out for an inner width w; it is called from Update
// when the item, the view or the width changes, never from View.
func (d detailPane) render(st theme.Styles, w int) detailPane {
	d.w = w
	switch d.view {
	case viewJSON:
		d.lines = jsonLines(st, itemcodec.PlainJSON(d.item), w)
	case viewDynamoJSON:
		d.lines = jsonLines(st, itemcodec.DynamoJSON(d.item), w)
	default:
		d.lines = append(append(d.attributeLines(st, w), entityLines(st, d.entity, w)...), indexLines(st, d.in, w)...)
	}
	d.offset = widget.Clamp(d.offset, 0, max(0, len(d.lines)-1))
	return d
}

func jsonLines(st theme.Styles, raw []byte, w int) []string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		b.Reset()
		b.Write(raw)
	}
	var out []string
	for _, l := range strings.Split(b.String(), "\n") {
		for _, wl := range strings.Split(widget.Wrap(" "+textfmt.Sanitize(l), w), "\n") {
			out = append(out, st.Text.Render(wl))
		}
	}
	return out
}

// attributeLines lists every attribute: name, type, value; maps and lists
// indented under their parent, long values wrapped.
func (d detailPane) attributeLines(st theme.Styles, w int) []string {
	names := append([]string(nil), d.keys...)
	for _, n := range slices.Sorted(maps.Keys(d.item)) {
		if !contains(d.keys, n) {
			names = append(names, n)
		}
	}
	nameW := 4
	var measure func(name string, av types.AttributeValue, indent int)
	measure = func(name string, av types.AttributeValue, indent int) {
		nameW = max(nameW, indent+widget.Width(textfmt.Sanitize(name)))
		switch v := av.(type) {
		case *types.AttributeValueMemberM:
			for _, k := range slices.Sorted(maps.Keys(v.Value)) {
				measure(k, v.Value[k], indent+2)
			}
		case *types.AttributeValueMemberL:
			for i, e := range v.Value {
				measure(fmt.Sprintf("[%d]", i), e, indent+2)
			}
		}
	}
	for _, n := range names {
		if av, ok := d.item[n]; ok {
			measure(n, av, 0)
		}
	}
	nameW = min(nameW, max(8, w/3))
	const typeW = 4
	valW := max(8, w-1-nameW-2-typeW-2-1)
	var out []string
	var add func(name string, av types.AttributeValue, indent int, isKey bool)
	line := func(name, typ, val string, indent int, isKey bool) {
		ns := st.Text
		if isKey {
			ns = st.Bold
		}
		wrapped := strings.Split(widget.Wrap(val, valW), "\n")
		for i, wl := range wrapped {
			n, t := "", ""
			if i == 0 {
				n, t = strings.Repeat(" ", indent)+name, typ
			}
			out = append(out, " "+ns.Render(widget.Fit(n, nameW))+"  "+st.TypeName.Render(widget.Fit(t, typeW))+"  "+wl)
		}
	}
	add = func(name string, av types.AttributeValue, indent int, isKey bool) {
		typ := itemcodec.AttributeTypeName(av)
		name = textfmt.Sanitize(name)
		switch v := av.(type) {
		case *types.AttributeValueMemberM:
			line(name, typ, st.Muted.Render(textfmt.Plural(len(v.Value), "attribute", "attributes")), indent, isKey)
			for _, k := range slices.Sorted(maps.Keys(v.Value)) {
				add(k, v.Value[k], indent+2, false)
			}
		case *types.AttributeValueMemberL:
			line(name, typ, st.Muted.Render(textfmt.Plural(len(v.Value), "element", "elements")), indent, isKey)
			for i, e := range v.Value {
				add(fmt.Sprintf("[%d]", i), e, indent+2, false)
			}
		case *types.AttributeValueMemberSS:
			line(name, typ, setText(v.Value), indent, isKey)
		case *types.AttributeValueMemberNS:
			line(name, typ, setText(v.Value), indent, isKey)
		case *types.AttributeValueMemberBS:
			var s []string
			for _, b := range v.Value {
				s = append(s, base64.StdEncoding.EncodeToString(b))
			}
			line(name, typ, setText(s), indent, isKey)
		case *types.AttributeValueMemberB:
			line(name, typ, base64.StdEncoding.EncodeToString(v.Value)+st.Muted.Render(fmt.Sprintf("  (base64 of %d bytes)", len(v.Value))), indent, isKey)
		default:
			line(name, typ, textfmt.Sanitize(itemcodec.CellText(av)), indent, isKey)
		}
	}
	for _, n := range names {
		if av, ok := d.item[n]; ok {
			add(n, av, 0, contains(d.keys, n))
		}
	}
	return out
}

// setText shows a set's members, sanitised, one after the other.
func setText(members []string) string {
	s := make([]string, len(members))
	for i, m := range members {
		s[i] = textfmt.Sanitize(m)
	}
	return strings.Join(s, " · ")
}

func (d detailPane) scroll(delta, h int) detailPane {
	d.offset = widget.Clamp(d.offset+delta, 0, max(0, len(d.lines)-h))
	return d
}

// info is the item's size and read cost, computed here and labelled so,
// wrapped to the inner width.
func (d detailPane) info(w int) []string {
	rcuE := itemcodec.ReadUnits(d.size, false)
	rcuS := itemcodec.ReadUnits(d.size, true)
	s := fmt.Sprintf("%s · read by GetItem: %s RCU eventually, %s RCU strongly consistent · computed locally",
		textfmt.Plural(d.size, "byte", "bytes"), textfmt.Units(rcuE), textfmt.Units(rcuS))
	return widget.WrapLines(s, w-2)
}

// chrome is the lines of the detail box that are not item lines.
func (d detailPane) chrome(w int) int { return 4 + len(d.info(w-2)) }

func (d detailPane) viewBox(st theme.Styles, w, h int) string {
	inner := w - 2
	shown := max(1, h-d.chrome(w))
	lines := []string{" " + st.Entity(d.colour).Render("▌") + " " + st.Bold.Render(d.title)}
	for _, l := range d.info(inner) {
		lines = append(lines, " "+st.Muted.Render(l))
	}
	lines = append(lines, " "+st.Faint.Render(strings.Repeat("─", max(0, inner-2))))
	offset := widget.Clamp(d.offset, 0, max(0, len(d.lines)-shown))
	for i := offset; i < len(d.lines) && i < offset+shown; i++ {
		lines = append(lines, d.lines[i])
	}
	title := "Item · " + d.view.String()
	if len(d.lines) > shown {
		title += fmt.Sprintf(" · lines %d–%d of %d", offset+1, min(len(d.lines), offset+shown), len(d.lines))
	}
	return widget.Box(st, title, lines, w, h, true)
}

var modeDetail = &keymap.Mode{Name: "detail", Keys: []keymap.Binding{
	keymap.InBar("help"), keymap.InBar("back", "close"),
	keymap.InBar("view").WordedBy(func(st keymap.State) string {
		if st.NextView == "" {
			return ""
		}
		return "show " + st.NextView
	}),
	keymap.InBar("copyItem"), keymap.InBar("copyCommand"), keymap.InBar("inIndex", "in index"), keymap.Bind("followKeys"),
	keymap.InBar("editItem").OnlyIf(keymap.WritesOn), keymap.InBar("deleteItem").OnlyIf(keymap.WritesOn), keymap.Bind("duplicateItem").OnlyIf(keymap.WritesOn), keymap.Bind("undo").OnlyIf(keymap.WritesOn),
	keymap.Bind("up", "scroll up"), keymap.Bind("down", "scroll down"), keymap.Bind("pageUp"), keymap.Bind("pageDown"), keymap.Bind("top"), keymap.Bind("bottom"),
	keymap.Bind("cancel", "close"),
}}

// indexLines are the detail pane's "In indexes" lines.
func indexLines(st theme.Styles, ms []indexes.Membership, w int) []string {
	if len(ms) == 0 {
		return nil
	}
	out := []string{"", " " + st.Bold.Render("In indexes") + st.Muted.Render(" · computed from DescribeTable · I opens the item in one")}
	for _, m := range ms {
		kind := strings.ToLower(string(m.Index.Kind)) + " " + m.Index.Projection
		if !m.Member {
			line := "✗ " + textfmt.Sanitize(m.Index.Name) + " (" + kind + "): " + textfmt.Sanitize(m.Why)
			for _, wl := range strings.Split(widget.Wrap(line, max(8, w-4)), "\n") {
				out = append(out, "   "+st.Muted.Render(wl))
			}
			continue
		}
		var keys []string
		for _, k := range m.Keys {
			keys = append(keys, textfmt.Sanitize(k.Name)+" = "+textfmt.Sanitize(itemcodec.KeyString(k.Value)))
		}
		out = append(out, "   "+st.Text.Render(widget.Fit("✓ "+textfmt.Sanitize(m.Index.Name)+" ("+kind+"): "+strings.Join(keys, ", "), max(8, w-4))))
		if len(m.NotProjected) > 0 {
			np := "not projected: " + textfmt.Sanitize(strings.Join(m.NotProjected, ", "))
			for _, wl := range strings.Split(widget.Wrap(np, max(8, w-8)), "\n") {
				out = append(out, "       "+st.Muted.Render(wl))
			}
		}
	}
	return out
}
