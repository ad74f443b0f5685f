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
	undo    bool   // the write is an undo
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
	var doubt *edit.InDoubtError
	var notLanded *edit.NotLandedError
	switch {
	case !o.sent():
		line("dry run, nothing sent: %s on %s, %s", p.Op, p.Table, key)
	case o.err == nil:
		line("%s %s on %s: %s (predicted %s)", pastTense[p.Op], key, p.Table, wcuText(o.result.WCU, o.result.NoWCU), jsonFloat(p.PredictedWCU))
	case errors.As(o.err, &notLanded):
		line("not undone: %s on %s, %s", p.Op, p.Table, key)
		line("%s", notLanded.Error())
		return
	case errors.As(o.err, &ce):
		o.writeRefused(line, ce)
		return
	case errors.As(o.err, &doubt):
		line("no answer: %s on %s, %s may still be applied", p.Op, p.Table, key)
	default:
		line("%s on %s, %s failed: not applied", p.Op, p.Table, key)
		return
	}
	for _, l := range edit.DiffLines(p.Keys, p.Diff) {
		line("  %s", l)
	}
	if doubt != nil {
		line("condition: %s", p.Condition)
		line("units: unknown, no answer came; if it lands, AWS charges the %s WCU predicted", jsonFloat(p.PredictedWCU))
		if e := o.result.Entry; e != nil {
			line("journal: entry %d in %s, in doubt; 'dynascope journal' shows it, 'dynascope undo --entry %d --allow-writes' takes it back once it has landed", e.Number, o.journal, e.Number)
		}
		return
	}
	if o.sent() {
		if o.result.NoWCU {
			line("note: %s", noWCUNote)
		}
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

// noWCUNote is why a write's units are unknown though it was made.
const noWCUNote = "the answer reported no consumed capacity: the units are unknown, not 0"

// wcuText is a write's consumed units, "unknown WCU" when the answer
// reported none.
func wcuText(wcu float64, unknown bool) string {
	if unknown {
		return "unknown WCU"
	}
	return jsonFloat(wcu) + " WCU"
}

// refusedUnits says what a refused write cost: the figure its answer
// reported, else unknown, with what AWS charges for it by its rule.
func refusedUnits(ce *edit.ConflictError) string {
	if !ce.NoWCU {
		return "units: the refused write consumed " + jsonFloat(ce.WCU) + " WCU"
	}
	if u := ce.ChargedWCU(); u > 0 {
		return "units: unknown, the refusal reported none; AWS charges a refused write as a write: " + jsonFloat(u) + " WCU"
	}
	return "units: unknown, the refusal reported none; AWS charges a refused transaction too"
}

// writeRefused is a refused write: why, the attributes that differ as read
// · now · yours, what it cost, and the way forward: the user's changes on
// the item as it is now.
func (o writeOutput) writeRefused(line func(string, ...any), ce *edit.ConflictError) {
	p := o.plan
	line("refused: %s on %s, %s", p.Op, p.Table, edit.KeyText(p.Keys, p.Old, p.New))
	line("%s", ce.Error())
	for _, l := range conflictLines(ce, conflictWidth) {
		line("  %s", l)
	}
	line("%s", refusedUnits(ce))
	if o.undo {
		return // undo has no changes of the user's own to put on the item now
	}
	r, err := edit.Reapply(p, ce.Current, ce.AtNewKey)
	switch {
	case err != nil:
		return
	case p.Old == nil && ce.Current != nil:
		line("the key is taken: 'dynascope update' with the same --set puts yours onto the item there")
		return
	case r.Why != "":
		line("%s", r.Why)
		return
	}
	for _, l := range reappliedLines(p, r) {
		line("%s", l)
	}
}

// reappliedLines is what the same command sends now: it reads the item
// afresh and puts the same changes on it, its --set and --remove winning
// over the other writer's on the attributes marked !.
func reappliedLines(p *edit.Plan, r edit.Reapplied) []string {
	out := []string{"the same command reads the item afresh and would now send:"}
	if p.New == nil {
		out[0] = "the same command reads the item afresh and would now delete it as it is:"
	}
	if r.Plan != nil {
		for _, l := range edit.DiffLines(p.Keys, r.Plan.Diff) {
			out = append(out, "  "+l)
		}
	}
	for _, c := range r.Collisions {
		if p.New == nil {
			out = append(out, "  ! "+c.Name+": changed by someone else to "+valueOrNone(c.Theirs)+"; the delete takes it too")
			continue
		}
		out = append(out, "  ! "+c.Name+": theirs "+valueOrNone(c.Theirs)+", yours "+valueOrNone(c.Yours))
	}
	if len(r.Collisions) > 0 && p.New != nil {
		out = append(out, "  ! changed by you and by someone else: the same command writes yours; leave it out to keep theirs")
	}
	if len(r.Same) > 0 {
		out = append(out, "  already as yours: "+strings.Join(r.Same, ", "))
	}
	if r.Plan != nil {
		out = append(out, "  condition: "+r.Plan.Condition)
	} else if len(r.Collisions) == 0 {
		out = append(out, "  nothing: the item is already as you wanted it")
	}
	return out
}

func valueOrNone(av types.AttributeValue) string {
	if av == nil {
		return "(none)"
	}
	return edit.ValueText(av)
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
	File  string     `json:"file"`
	Entry int        `json:"entry"`
	State edit.State `json:"state"` // done, refused, failed, in doubt
}

type conflictObject struct {
	Current  json.RawMessage `json:"current"`  // the item now; null when there is none
	AtNewKey json.RawMessage `json:"atNewKey"` // a key change: the item now at the new key
	Diff     []diffObject    `json:"diff"`     // the item now → your version
	WCU      *float64        `json:"consumedWCU"`
	// AWSChargesWCU is what AWS charges for the refusal by its rule (the
	// item found, rounded up to 1 KB, at least 1); null where the rule
	// gives none (a transaction) or the answer reported the figure.
	AWSChargesWCU *float64            `json:"awsChargesWCU"`
	Attributes    []conflictAttribute `json:"attributes"` // the attributes that differ: as read, now, yours
	// Reapplied is the way forward: your changes on the item as it is
	// now; null for an undo or when there is nothing to put them onto.
	Reapplied *reappliedObject `json:"reapplied"`
}

// reappliedObject is a refused write's changes put onto the item now:
// the diff and condition of that write, and the collisions (attributes
// another writer changed too, left as they are now).
type reappliedObject struct {
	Diff       []diffObject      `json:"diff"`
	Condition  *string           `json:"condition"` // null when nothing is left to write
	Collisions []collisionObject `json:"collisions"`
	Same       []string          `json:"alreadyAsYours"`
	Why        string            `json:"why,omitempty"` // why there is nothing to put them onto
}

type collisionObject struct {
	Attribute string          `json:"attribute"`
	Read      json.RawMessage `json:"read"`
	Theirs    json.RawMessage `json:"theirs"`
	Yours     json.RawMessage `json:"yours"`
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
	val := dynamoOrNull
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
	Table     string          `json:"table"`
	Operation edit.Op         `json:"operation"`
	Key       json.RawMessage `json:"key"`
	DryRun    bool            `json:"dryRun"`
	State     string          `json:"state"`   // dry run, done, refused, failed, in doubt; not landed (undo)
	Written   *bool           `json:"written"` // null in doubt: it may have been, or may still be

	Old          json.RawMessage `json:"old"`
	New          json.RawMessage `json:"new"`
	Diff         []diffObject    `json:"diff"`
	Condition    string          `json:"condition"`
	Command      string          `json:"command"`
	PredictedWCU float64         `json:"predictedWCU"`
	Predicted    capacityObject  `json:"predicted"`   // by part: table and indexes
	ConsumedWCU  *float64        `json:"consumedWCU"` // null: unknown (notes say why), or a dry run
	Journal      *journalObject  `json:"journal"`
	Note         string          `json:"note,omitempty"`
	Notes        []string        `json:"notes,omitempty"`
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

func (o writeOutput) conflictObject(ce *edit.ConflictError) *conflictObject {
	c := &conflictObject{Current: plainOrNull(ce.Current), AtNewKey: plainOrNull(ce.AtNewKey), Diff: diffObjects(ce.Diff()), Attributes: conflictAttributes(ce)}
	if !ce.NoWCU {
		wcu := ce.WCU
		c.WCU = &wcu
	} else if u := ce.ChargedWCU(); u > 0 {
		c.AWSChargesWCU = &u
	}
	if o.undo {
		return c
	}
	r, err := edit.Reapply(o.plan, ce.Current, ce.AtNewKey)
	if err != nil {
		return c
	}
	ro := &reappliedObject{Diff: []diffObject{}, Collisions: []collisionObject{}, Same: r.Same, Why: r.Why}
	if ro.Same == nil {
		ro.Same = []string{}
	}
	if r.Plan != nil {
		ro.Diff, ro.Condition = diffObjects(r.Plan.Diff), &r.Plan.Condition
	}
	for _, x := range r.Collisions {
		ro.Collisions = append(ro.Collisions, collisionObject{Attribute: x.Name, Read: dynamoOrNull(x.Read), Theirs: dynamoOrNull(x.Theirs), Yours: dynamoOrNull(x.Yours)})
	}
	c.Reapplied = ro
	return c
}

func dynamoOrNull(av types.AttributeValue) json.RawMessage {
	if av == nil {
		return json.RawMessage("null")
	}
	return itemcodec.MarshalDynamoValue(av)
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
		Table: p.Table, Operation: p.Op, Key: itemcodec.PlainJSON(key), DryRun: !o.sent(), State: "dry run",
		Old: plainOrNull(old), New: plainOrNull(new), Diff: diffObjects(p.Diff),
		Condition: p.Condition, Command: p.Command(o.target), PredictedWCU: p.PredictedWCU, Note: o.result.Note,
		Predicted: newCapacityObject(dynamo.Capacity{Total: p.PredictedWCU, Table: p.TableWCU, Indexes: p.IndexWCU}),
	}
	written := false
	obj.Written = &written
	if o.sent() {
		obj.State = string(o.result.State)
		if notLanded(o.err) {
			obj.State = "not landed" // not refused: the item is as the undo wants it
		}
		written = o.result.State == edit.StateDone
		if o.result.State == edit.StateInDoubt {
			obj.Written = nil
			obj.Notes = append(obj.Notes, fmt.Sprintf("no answer came: the write may still be applied, and its units are unknown; if it lands, AWS charges the %s WCU predicted", jsonFloat(p.PredictedWCU)))
		}
		if !o.result.NoWCU {
			wcu := o.result.WCU
			obj.ConsumedWCU = &wcu
		} else if o.result.State == edit.StateDone {
			obj.Notes = append(obj.Notes, noWCUNote)
		}
	}
	if e := o.result.Entry; e != nil {
		obj.Journal = &journalObject{File: o.journal, Entry: e.Number, State: e.State}
	}
	var ce *edit.ConflictError
	if errors.As(o.err, &ce) {
		obj.Conflict = o.conflictObject(ce)
		if ce.NoWCU {
			obj.Notes = append(obj.Notes, refusedUnits(ce))
		}
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
