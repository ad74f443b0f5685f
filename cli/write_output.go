package cli

// What put, update, delete and undo print: the plan (diff, condition,
// predicted WCU, the aws command), and after sending, what was written and
// what it cost, or the conflict.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

type writeOutput struct {
	plan    *edit.Plan
	read    dynamo.Request // the GetItem the plan was made from; zero for undo
	target  edit.Target
	result  edit.Result
	err     error  // the write's error; nil when written or a dry run
	journal string // the journal file; "" for a dry run
}

var pastTense = map[edit.Op]string{edit.OpPut: "created", edit.OpUpdate: "updated", edit.OpDelete: "deleted", edit.OpTransact: "moved"}

func (o writeOutput) print(w io.Writer, format string) error {
	var b bytes.Buffer
	if format == "json" {
		if err := o.writeJSON(&b); err != nil {
			return err
		}
	} else {
		o.writeText(&b)
	}
	_, err := w.Write(b.Bytes())
	return err
}

func (o writeOutput) sent() bool { return o.journal != "" }

func (o writeOutput) writeText(b *bytes.Buffer) {
	p := o.plan
	line := func(format string, a ...any) {
		b.WriteString(textfmt.Sanitize(fmt.Sprintf(format, a...)) + "\n")
	}
	key := edit.KeyText(p.Keys, p.Old, p.New)
	var ce *edit.ConflictError
	switch {
	case !o.sent():
		line("dry run, nothing sent: %s on %s, %s", p.Op, p.Table, key)
	case o.err == nil:
		line("%s %s on %s: %s WCU (predicted %s)", pastTense[p.Op], key, p.Table, jsonFloat(o.result.WCU), jsonFloat(p.PredictedWCU))
	case errors.As(o.err, &ce):
		line("refused: %s on %s, %s", p.Op, p.Table, key)
		line("%s", ce.Error())
		for _, l := range conflictLines(ce, conflictWidth) {
			line("  %s", l)
		}
		if ce.WCU == 0 {
			line("nothing was written; a refused write is charged as a write, and the answer reported no figure")
		} else {
			line("nothing was written; the refused write consumed %s WCU", jsonFloat(ce.WCU))
		}
		return
	default:
		line("%s on %s, %s failed", p.Op, p.Table, key)
		return
	}
	for _, l := range edit.DiffLines(p.Keys, p.Diff) {
		line("  %s", l)
	}
	if o.sent() {
		if o.result.Note != "" {
			line("note: %s", o.result.Note)
		}
		if e := o.result.Entry; e != nil {
			line("journal: entry %d in %s; undo it with 'dynascope undo --entry %d --allow-writes'", e.Number, o.journal, e.Number)
		}
		return
	}
	line("condition: %s", p.Condition)
	if p.Limit != "" {
		line("note: %s", p.Limit)
	}
	line("predicted: %s WCU (%s)", jsonFloat(p.PredictedWCU), unitsText(p))
	if o.read.Operation != "" {
		line("read to plan it: GetItem (strongly consistent), %s RCU", jsonFloat(o.read.Capacity.Total))
	}
	line("the request:")
	for _, l := range strings.Split(p.Command(o.target), "\n") {
		line("%s", l)
	}
}

// unitsText says where the predicted units come from.
func unitsText(p *edit.Plan) string {
	s := "item size rounded up to 1 KB"
	if p.Op == edit.OpTransact {
		s += ", twice each in a transaction"
	}
	if len(p.IndexWCU) == 0 {
		return s
	}
	s = "table " + jsonFloat(p.TableWCU) + ": " + s
	for _, name := range slices.Sorted(maps.Keys(p.IndexWCU)) {
		s += "; " + name + " " + jsonFloat(p.IndexWCU[name])
	}
	return s
}

type diffObject struct {
	Attribute string          `json:"attribute"`
	Change    string          `json:"change"` // + added, - removed, ~ changed
	Old       json.RawMessage `json:"old"`    // DynamoDB JSON; null when added
	New       json.RawMessage `json:"new"`    // DynamoDB JSON; null when removed
}

type journalObject struct {
	File  string `json:"file"`
	Entry int    `json:"entry"`
}

type conflictObject struct {
	Current    json.RawMessage     `json:"current"`  // the item now; null when there is none
	AtNewKey   json.RawMessage     `json:"atNewKey"` // a key change: the item now at the new key
	Diff       []diffObject        `json:"diff"`     // the item now → your version
	WCU        float64             `json:"consumedWCU"`
	Attributes []conflictAttribute `json:"attributes"` // the attributes that differ: as read, now, yours
}

// conflictAttribute is one attribute of a refused write, each value in
// DynamoDB JSON, null where there was or is none.
type conflictAttribute struct {
	Attribute        string          `json:"attribute"`
	Read             json.RawMessage `json:"read"`
	Now              json.RawMessage `json:"now"`
	Yours            json.RawMessage `json:"yours"`
	ChangedMeanwhile bool            `json:"changedMeanwhile"`
}

func conflictAttributes(ce *edit.ConflictError) []conflictAttribute {
	out := []conflictAttribute{}
	val := func(av types.AttributeValue) json.RawMessage {
		if av == nil {
			return json.RawMessage("null")
		}
		return itemcodec.MarshalDynamoValue(av)
	}
	for _, r := range ce.Rows() {
		out = append(out, conflictAttribute{Attribute: r.Name, Read: val(r.Read), Now: val(r.Now), Yours: val(r.Yours), ChangedMeanwhile: r.ChangedMeanwhile})
	}
	return out
}

// conflictWidth is what a refused write's table fits in: a terminal of 120
// columns, less the indent.
const conflictWidth = 116

// conflictLines is a refused write's attributes that differ, one a line in
// three columns, as read · now · yours; a * marks what someone else changed.
func conflictLines(ce *edit.ConflictError, width int) []string {
	rows := ce.Rows()
	nameW := len("attribute")
	for _, r := range rows {
		nameW = max(nameW, ansi.StringWidth(r.Name))
	}
	nameW = min(nameW, width/4)
	colW := max(8, (width-nameW-2-3*2)/3)
	cell := func(s string, w int) string {
		s = ansi.Truncate(s, w, "…")
		return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
	}
	text := func(av types.AttributeValue) string {
		if av == nil {
			return "—"
		}
		return edit.ValueText(av)
	}
	yours := "yours"
	if ce.Plan.New == nil {
		yours = "yours (deleted)"
	}
	out := []string{strings.TrimRight("  "+cell("attribute", nameW)+"  "+cell("as read", colW)+"  "+cell("now", colW)+"  "+yours, " ")}
	for _, r := range rows {
		mark := "  "
		if r.ChangedMeanwhile {
			mark = "* "
		}
		y := text(r.Yours)
		if ce.Plan.New == nil {
			y = ""
		}
		out = append(out, strings.TrimRight(mark+cell(r.Name, nameW)+"  "+cell(text(r.Read), colW)+"  "+cell(text(r.Now), colW)+"  "+cell(y, colW), " "))
	}
	if ce.Current == nil && ce.Plan.Old != nil {
		out = append(out, "the item no longer exists")
	}
	if ce.AtNewKey != nil {
		out = append(out, ansi.Truncate("the new key is taken by: "+edit.ItemText(ce.AtNewKey), width, "…"))
	}
	return append(out, "* changed by someone else since the read")
}

type writeObject struct {
	Table        string          `json:"table"`
	Operation    edit.Op         `json:"operation"`
	Key          json.RawMessage `json:"key"`
	DryRun       bool            `json:"dryRun"`
	Written      bool            `json:"written"`
	Old          json.RawMessage `json:"old"`
	New          json.RawMessage `json:"new"`
	Diff         []diffObject    `json:"diff"`
	Condition    string          `json:"condition"`
	Command      string          `json:"command"`
	PredictedWCU float64         `json:"predictedWCU"`
	Predicted    capacityObject  `json:"predicted"` // by part: table and indexes
	ConsumedWCU  *float64        `json:"consumedWCU"`
	Journal      *journalObject  `json:"journal"`
	Note         string          `json:"note,omitempty"`
	Conflict     *conflictObject `json:"conflict"`
	Error        string          `json:"error,omitempty"`
}

func plainOrNull(it dynamo.Item) json.RawMessage {
	if it == nil {
		return json.RawMessage("null")
	}
	return itemcodec.PlainJSON(it)
}

func diffObjects(d []edit.AttrDiff) []diffObject {
	out := []diffObject{}
	for _, x := range d {
		o := diffObject{Attribute: x.Name, Change: x.Kind(), Old: json.RawMessage("null"), New: json.RawMessage("null")}
		if x.Old != nil {
			o.Old = itemcodec.MarshalDynamoValue(x.Old)
		}
		if x.New != nil {
			o.New = itemcodec.MarshalDynamoValue(x.New)
		}
		out = append(out, o)
	}
	return out
}

func (o writeOutput) writeJSON(b *bytes.Buffer) error {
	p := o.plan
	old, new := p.Old, p.New
	if o.sent() && o.err == nil {
		old, new = o.result.Old, o.result.New
	}
	key := edit.KeyOf(p.Keys, p.Old)
	if p.Old == nil {
		key = edit.KeyOf(p.Keys, p.New)
	}
	obj := writeObject{
		Table: p.Table, Operation: p.Op, Key: itemcodec.PlainJSON(key), DryRun: !o.sent(), Written: o.sent() && o.err == nil,
		Old: plainOrNull(old), New: plainOrNull(new), Diff: diffObjects(p.Diff),
		Condition: p.Condition, Command: p.Command(o.target), PredictedWCU: p.PredictedWCU, Note: o.result.Note,
		Predicted: newCapacityObject(dynamo.Capacity{Total: p.PredictedWCU, Table: p.TableWCU, Indexes: p.IndexWCU}),
	}
	if o.sent() {
		wcu := o.result.WCU
		obj.ConsumedWCU = &wcu
	}
	if e := o.result.Entry; e != nil {
		obj.Journal = &journalObject{File: o.journal, Entry: e.Number}
	}
	var ce *edit.ConflictError
	if errors.As(o.err, &ce) {
		obj.Conflict = &conflictObject{Current: plainOrNull(ce.Current), AtNewKey: plainOrNull(ce.AtNewKey), Diff: diffObjects(ce.Diff()), WCU: ce.WCU, Attributes: conflictAttributes(ce)}
		wcu := ce.WCU
		obj.ConsumedWCU = &wcu
	}
	if o.err != nil {
		obj.Error = o.err.Error()
	}
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(obj); err != nil {
		return err
	}
	// Item data may hold terminal controls; JSON may say them as \u escapes.
	escaped := itemcodec.EscapeTerminalJSON(b.Bytes())
	b.Reset()
	b.Write(escaped)
	return nil
}
