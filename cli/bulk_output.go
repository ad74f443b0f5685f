package cli

// What a bulk update or delete previews: the items selected, the count per
// attribute change, the predicted WCU summed over the items' plans (each
// from its item's size before and after), the time they take at the pace
// chosen, the typed diff of the first few and the first one's write as an
// aws command and as a boto3 program; the sums and forms are edit's
// (edit.BulkPlan), the words and the JSON document the command line's.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// bulkShown is how many items' diffs the preview shows.
const bulkShown = 3

type bulkPreview struct {
	command, table, selector string
	read                     dynamo.QueryResult
	byKey                    bool          // read by GetItem per key (--keys), not by query pages
	scan                     bool          // read by Scan pages (--scan)
	filter                   string        // --filter: sent with the read
	missing                  []dynamo.Item // --keys: keys no item has, nothing to change there
	declared                 *declaredPick // --entity of a declared entity: read and matched
	target                   edit.Target
	plans                    []*edit.Plan    // the items to write, in key order
	unchanged                []dynamo.Item   // keys of items already as wanted
	skipped                  []edit.BulkSkip // items the change leaves (a rename's NEW taken)
	sending                  bool            // --yes --allow-writes: the plans are sent next
	// rate is the pace the plans go out at, in predicted WCU per second
	// (--max-wcu-per-second); 0 when the preview has none to say, as
	// undo's, which paces at the default.
	rate     float64
	rateFrom string // where the rate comes from, in words (writeOptions.bulkRate); "" unsaid
}

// bulk is the preview's plans as edit sums them.
func (p bulkPreview) bulk() edit.BulkPlan {
	return edit.BulkPlan{Plans: p.plans, Unchanged: p.unchanged, Skipped: p.skipped}
}

func (p bulkPreview) selected() int { return p.bulk().Selected() }

func (p bulkPreview) predicted() dynamo.Capacity { return p.bulk().Predicted() }

func (p bulkPreview) print(w io.Writer, format string) error {
	var b bytes.Buffer
	if format == "json" {
		if err := p.writeJSON(&b); err != nil {
			return err
		}
	} else {
		p.writeText(&b)
	}
	_, err := w.Write(b.Bytes())
	return err
}

func (p bulkPreview) writeText(b *bytes.Buffer) {
	line := func(format string, a ...any) {
		b.WriteString(textfmt.Sanitize(fmt.Sprintf(format, a...)) + "\n")
	}
	if p.sending {
		line("bulk %s on %s, %s", p.command, p.table, p.selector)
	} else {
		line("preview, nothing sent: bulk %s on %s, %s", p.command, p.table, p.selector)
	}
	reads := textfmt.Plural(p.read.Pages, "query page", "query pages")
	if p.byKey {
		reads = textfmt.Plural(len(p.read.Requests), "GetItem request", "GetItem requests")
	} else if p.scan {
		reads = textfmt.Plural(p.read.Pages, "scan page", "scan pages")
	}
	line("selected %s (%s, %s); %s to write, %s already as wanted",
		textfmt.Plural(p.selected(), "item", "items"), reads, rcuText(p.read.Requests),
		textfmt.Plural(len(p.plans), "item", "items"), jsonFloat(float64(len(p.unchanged))))
	if p.declared != nil {
		line("%s", p.declared.line())
	}
	if len(p.missing) > 0 {
		line("%s no item has, so nothing to change there: %s", textfmt.Plural(len(p.missing), "key", "keys"), keyList(p.missing))
	}
	for _, sk := range p.skipped {
		line("skipped: %s: %s", itemcodec.PlainJSON(sk.Key), skipReason(sk))
	}
	for _, n := range readNotes(p.read.Count, p.read.Scanned, capacityOfRequests(p.read.Requests).Total, p.filter, "") {
		line("filter: %s", n)
	}
	if len(p.plans) == 0 {
		line("nothing to write")
		return
	}
	if p.command == "delete" {
		line("changes: %s deleted", textfmt.Plural(len(p.plans), "item", "items"))
	} else {
		line("changes:")
		for _, c := range p.bulk().Changes() {
			line("  %s %s: %s", c.Change, c.Attribute, textfmt.Plural(c.Items, "item", "items"))
		}
	}
	c := p.predicted()
	pred := "predicted " + jsonFloat(c.Total) + " WCU (each item's larger image rounded up to 1 KB"
	for _, name := range slices.Sorted(maps.Keys(c.Indexes)) {
		pred += "; " + name + " " + jsonFloat(c.Indexes[name])
	}
	line("%s), each write conditional on the item as read", pred)
	if d, ok := p.bulk().Time(p.rate); ok {
		from := ""
		if p.rateFrom != "" {
			from = " (" + p.rateFrom + ")"
		}
		line("time at %s WCU per second%s: %s, longer if DynamoDB throttles", jsonFloat(p.rate), from, textfmt.AboutTime(d))
	}
	if l := p.plans[0].Limit; l != "" {
		line("note: %s", l)
	}
	for i, pl := range p.plans[:min(bulkShown, len(p.plans))] {
		line("item %d: %s", i+1, edit.KeyText(pl.Keys, pl.Old, pl.New))
		for _, l := range edit.DiffLines(pl.Keys, pl.Diff) {
			line("  %s", l)
		}
	}
	if more := len(p.plans) - bulkShown; more > 0 {
		line("… and %s more", textfmt.Plural(more, "item", "items"))
	}
	line("the first item's write as the aws CLI sends it:")
	for _, l := range strings.Split(p.bulk().Command(p.target), "\n") {
		line("%s", l)
	}
	line("the same write as a boto3 program (python3):")
	for _, l := range strings.Split(strings.TrimSuffix(p.bulk().Boto3(p.target), "\n"), "\n") {
		line("%s", l)
	}
	switch {
	case p.sending:
	case p.command == "undo": // undo previews with --dry-run and sends without it
		line("to send it: the same command without --dry-run, with --allow-writes")
	default:
		line("to send it: the same command with --allow-writes --yes")
	}
}

type bulkItemObject struct {
	Key  json.RawMessage `json:"key"`
	Diff []diffObject    `json:"diff"`
}

type bulkPreviewObject struct {
	Table        string            `json:"table"`
	Operation    string            `json:"operation"`
	Selection    string            `json:"selection"`
	DryRun       bool              `json:"dryRun"`
	Selected     int               `json:"selected"`
	ToWrite      int               `json:"toWrite"`
	Unchanged    []json.RawMessage `json:"unchanged"`
	Missing      []json.RawMessage `json:"missing"` // --keys: keys no item has
	Skipped      []skippedObject   `json:"skipped"` // left by the change: a rename's new name taken
	Changes      []edit.AttrChange `json:"changes"`
	PredictedWCU capacityObject    `json:"predictedWCU"`
	Items        []bulkItemObject  `json:"items"` // the first few
	Command      string            `json:"command"`
	Boto3        string            `json:"boto3"` // the first item's write as a boto3 program
	Time         *timeObject       `json:"time"`  // null when the preview has no rate (undo's)
	Read         capacityObject    `json:"readCapacity"`
	Requests     int               `json:"readRequests"`
	Filter       string            `json:"filter,omitempty"`
	ReadItems    int               `json:"readItems"` // items read and charged: with --filter, more than selected
	// Entity is --entity of a declared entity: the items read under its
	// key condition, those of it, and the keys of those not.
	Entity *declaredEntityObject `json:"entity,omitempty"`
}

func (p bulkPreview) writeJSON(b *bytes.Buffer) error {
	o := bulkPreviewObject{Table: p.table, Operation: p.command, Selection: p.selector, DryRun: true, Selected: p.selected(), ToWrite: len(p.plans),
		Unchanged: []json.RawMessage{}, Missing: keysJSON(p.missing), Skipped: skippedObjects(p.skipped), Changes: p.bulk().Changes(), PredictedWCU: newCapacityObject(p.predicted()), Items: []bulkItemObject{},
		Read: capacityOfRequests(p.read.Requests), Requests: len(p.read.Requests), Filter: p.filter, ReadItems: p.read.Scanned,
		Entity: p.declared.object()}
	if o.Changes == nil || p.command == "delete" {
		o.Changes = []edit.AttrChange{}
	}
	for _, k := range p.unchanged {
		o.Unchanged = append(o.Unchanged, itemcodec.PlainJSON(k))
	}
	for _, pl := range p.plans[:min(bulkShown, len(p.plans))] {
		o.Items = append(o.Items, bulkItemObject{Key: itemcodec.PlainJSON(edit.KeyOf(pl.Keys, pl.Old)), Diff: diffObjects(pl.Diff)})
	}
	o.Command = p.bulk().Command(p.target)
	o.Boto3 = p.bulk().Boto3(p.target)
	if d, ok := p.bulk().Time(p.rate); ok {
		o.Time = &timeObject{PerSecond: p.rate, Seconds: d.Round(time.Millisecond).Seconds()}
	}
	enc := json.NewEncoder(b)
	enc.SetIndent("", "  ")
	return enc.Encode(o)
}

// timeObject is how long the writes take at the pace chosen: the
// predicted WCU over the rate, as edit.RatePace holds them.
type timeObject struct {
	PerSecond float64 `json:"wcuPerSecond"`
	Seconds   float64 `json:"seconds"`
}

// keysJSON is keys as plain JSON, [] for none.
func keysJSON(keys []dynamo.Item) []json.RawMessage {
	out := []json.RawMessage{}
	for _, k := range keys {
		out = append(out, itemcodec.PlainJSON(k))
	}
	return out
}

// keyList is the first few keys in plain JSON, and how many more.
func keyList(keys []dynamo.Item) string {
	var parts []string
	for _, k := range keys[:min(bulkShown, len(keys))] {
		parts = append(parts, string(itemcodec.PlainJSON(k)))
	}
	if more := len(keys) - bulkShown; more > 0 {
		parts = append(parts, "… and "+textfmt.Plural(more, "more", "more"))
	}
	return strings.Join(parts, ", ")
}

type skippedObject struct {
	Key    json.RawMessage `json:"key"`
	Reason string          `json:"reason"`
}

func skippedObjects(items []edit.BulkSkip) []skippedObject {
	out := []skippedObject{}
	for _, it := range items {
		out = append(out, skippedObject{Key: itemcodec.PlainJSON(it.Key), Reason: skipReason(it)})
	}
	return out
}
