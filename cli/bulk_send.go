package cli

// Sending a bulk change once it was previewed: the plans go through
// edit.Writer.ApplyBulk (each item on the single write's path, one journal
// entry for all), paced by --max-wcu-per-second; then what was written,
// refused (with the item now), in doubt and left, and what it consumed.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// defaultBulkWCU is the pace of a bulk change without --max-wcu-per-second.
const defaultBulkWCU = edit.DefaultBulkWCU

// errBulkIncomplete is a bulk change some of whose items were not written.
var errBulkIncomplete = errors.New("not every item was written")

func sendBulk(ctx context.Context, opts *writeOptions, pre bulkPreview) error {
	w, err := opts.ConnectWriter(ctx)
	if err != nil {
		return err
	}
	from := pre.rateFrom // the flag, the settings or the default
	if from == "" {
		from = "--max-wcu-per-second"
	}
	fmt.Fprintf(opts.Bulk.Err, "sending %s at most %s WCU per second (%s), up to %d at once; Ctrl-C stops after the writes in flight\n",
		textfmt.Plural(len(pre.plans), "write", "writes"), jsonFloat(opts.Bulk.MaxWCU), from, edit.BulkWorkers)
	pace := &edit.RatePace{PerSecond: opts.Bulk.MaxWCU}
	prog := newBulkProgress(opts.Bulk.Err, pre, pace)
	res, err := w.ContinueBulk(ctx, pre.plans, opts.Bulk.Continues, pace, prog.item)
	prog.done()
	n, err := printSent(ctx, opts.Out, opts.Output, bulkSent{pre: pre, res: res, journal: w.JournalPath(), pace: pace}, err)
	if err != nil {
		return err
	}
	if n.left > 0 && ctx.Err() != nil {
		return stoppedBulk(ctx, opts, res, w.JournalPath(), n)
	}
	if n.written+len(pre.unchanged) < pre.selected() {
		return fmt.Errorf("bulk %s: %w: %d written, %d refused, %d in doubt, %d left%s", opts.Command, errBulkIncomplete, n.written, n.refused, n.inDoubt, n.left, skippedText(len(pre.skipped)))
	}
	return nil
}

type bulkSent struct {
	pre     bulkPreview
	res     edit.BulkResult
	journal string
	pace    *edit.RatePace
	stopped string // what stopped it: "Ctrl-C", "SIGTERM"; "" when it ran to the end
}

type bulkCounts struct{ written, refused, inDoubt, failed, left, notLanded int }

// printSent prints what a bulk change sent, saying what stopped it when
// ctx did, and returns its counts and the change's own error (sendErr),
// else the printing's.
func printSent(ctx context.Context, w io.Writer, format string, out bulkSent, sendErr error) (bulkCounts, error) {
	if ctx.Err() != nil {
		out.stopped = stoppedBy(ctx)()
	}
	if err := out.print(w, format); err != nil {
		return bulkCounts{}, err
	}
	return out.count(), sendErr
}

func (s bulkSent) count() bulkCounts {
	var c bulkCounts
	for _, o := range s.res.Items {
		switch {
		case !o.Sent:
			c.left++
		case notLanded(o.Err):
			c.notLanded++
		case o.Result.State == edit.StateDone:
			c.written++
		case o.Result.State == edit.StateRefused:
			c.refused++
		case o.Result.State == edit.StateInDoubt:
			c.inDoubt++
		default:
			c.failed++
		}
	}
	return c
}

// keyedCount is a count and the keys of its items.
type keyedCount struct {
	Count int               `json:"count"`
	Keys  []json.RawMessage `json:"keys"`
}

type refusedObject struct {
	Key     json.RawMessage `json:"key"`
	Current json.RawMessage `json:"current"` // the item now; null when it is gone
	Diff    []diffObject    `json:"diff"`    // the item now against yours
	// Attributes are those that differ, as read · now · yours, as a
	// refused single write gives them.
	Attributes []conflictAttribute `json:"attributes"`
	Error      string              `json:"error"`
	conflict   *edit.ConflictError // for the text's three columns; nil when unknown
}

type bulkSentObject struct {
	Table            string            `json:"table"`
	Operation        string            `json:"operation"`
	Selection        string            `json:"selection"`
	DryRun           bool              `json:"dryRun"`
	Selected         int               `json:"selected"`
	Unchanged        keyedCount        `json:"unchanged"` // already as wanted: nothing sent
	Missing          []json.RawMessage `json:"missing"`   // --keys: keys no item has
	Skipped          []skippedObject   `json:"skipped"`   // left by the change, not sent: a rename's new name taken
	Written          keyedCount        `json:"written"`
	Refused          keyedCount        `json:"refused"`
	RefusedItems     []refusedObject   `json:"refusedItems"`
	InDoubt          keyedCount        `json:"inDoubt"`
	NotLanded        keyedCount        `json:"notLanded"` // undo: in doubt, and found as before: nothing to undo
	Failed           keyedCount        `json:"failed"`
	Left             keyedCount        `json:"left"` // not sent: the change was stopped first
	Stopped          string            `json:"stopped,omitempty"`
	PredictedWCU     capacityObject    `json:"predictedWCU"`
	ConsumedCapacity capacityObject    `json:"consumedCapacity"` // null total when no answer reported it
	Rate             *rateObject       `json:"rate"`             // null when nothing was sent
	Journal          *journalObject    `json:"journal"`
	// Entity is --entity of a declared entity, as the preview says it
	// (bulk_entity.go); left out otherwise.
	Entity *declaredEntityObject `json:"entity,omitempty"`
}

// rateObject is the pace a bulk change was sent at: the cap asked for,
// the lowest throttling brought it to, the attempts throttled (the SDK
// sent them again), and the units consumed per second over the change's
// own clock (first write out to last answer in); null when unknown.
type rateObject struct {
	MaxPerSecond      float64  `json:"maxPerSecond"`
	LowestPerSecond   float64  `json:"lowestPerSecond"`
	ThrottledAttempts int      `json:"throttledAttempts"`
	Seconds           *float64 `json:"seconds"`
	MeasuredPerSecond *float64 `json:"measuredPerSecond"`
}

func (s bulkSent) object() bulkSentObject {
	kc := func() keyedCount { return keyedCount{Keys: []json.RawMessage{}} }
	o := bulkSentObject{Table: s.pre.table, Operation: s.pre.command, Selection: s.pre.selector, Selected: s.pre.selected(),
		Unchanged: kc(), Written: kc(), Refused: kc(), RefusedItems: []refusedObject{}, InDoubt: kc(), Failed: kc(), Left: kc(), NotLanded: kc(),
		Stopped: s.stopped, PredictedWCU: newCapacityObject(s.pre.predicted()), Missing: keysJSON(s.pre.missing), Skipped: skippedObjects(s.pre.skipped),
		Entity: s.pre.declared.object()}
	add := func(k *keyedCount, key dynamo.Item) {
		k.Count++
		k.Keys = append(k.Keys, itemcodec.PlainJSON(key))
	}
	for _, k := range s.pre.unchanged {
		add(&o.Unchanged, k)
	}
	for _, it := range s.res.Items {
		key := planKey(it.Plan)
		switch {
		case !it.Sent:
			add(&o.Left, key)
		case notLanded(it.Err):
			add(&o.NotLanded, key)
		case it.Result.State == edit.StateDone:
			add(&o.Written, key)
		case it.Result.State == edit.StateRefused:
			add(&o.Refused, key)
			r := refusedObject{Key: itemcodec.PlainJSON(key), Current: json.RawMessage("null"), Diff: []diffObject{}, Attributes: []conflictAttribute{}, Error: errText(it.Err)}
			var ce *edit.ConflictError
			if errors.As(it.Err, &ce) {
				r.Current, r.Diff, r.Attributes, r.conflict = plainOrNull(ce.Current), diffObjects(ce.Diff()), conflictAttributes(ce), ce
			}
			o.RefusedItems = append(o.RefusedItems, r)
		case it.Result.State == edit.StateInDoubt:
			add(&o.InDoubt, key)
		default:
			add(&o.Failed, key)
		}
	}
	o.ConsumedCapacity = newCapacityObject(dynamo.Capacity{Total: s.res.WCU, Table: s.res.WCU})
	sent := len(s.res.Items) - o.Left.Count
	o.ConsumedCapacity.unknown = sent > 0 && s.res.Unknown == sent
	o.ConsumedCapacity.atLeast = s.res.Unknown > 0 && s.res.Unknown < sent
	if e := s.res.Entry; e != nil {
		o.Journal = &journalObject{File: s.journal, Entry: e.Number, State: e.State}
	}
	if s.pace != nil && sent > 0 {
		r := rateObject{MaxPerSecond: s.pace.PerSecond, LowestPerSecond: s.pace.Lowest(), ThrottledAttempts: s.res.Throttled}
		if d := s.res.Last.Sub(s.res.First).Seconds(); d > 0 {
			r.Seconds = &d
			if !o.ConsumedCapacity.unknown && !o.ConsumedCapacity.atLeast {
				m := o.ConsumedCapacity.Total / d
				r.MeasuredPerSecond = &m
			}
		}
		o.Rate = &r
	}
	return o
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func (s bulkSent) print(w io.Writer, format string) error {
	var b bytes.Buffer
	o := s.object()
	if format == "json" {
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		if err := enc.Encode(o); err != nil {
			return err
		}
	} else {
		s.writeText(&b, o)
	}
	_, err := w.Write(b.Bytes())
	return err
}

func (s bulkSent) writeText(b *bytes.Buffer, o bulkSentObject) {
	line := func(format string, a ...any) {
		b.WriteString(textfmt.Sanitize(fmt.Sprintf(format, a...)) + "\n")
	}
	consumed := "unknown WCU"
	switch c := o.ConsumedCapacity; {
	case c.atLeast:
		consumed = "at least " + jsonFloat(c.Total) + " WCU"
	case !c.unknown:
		consumed = jsonFloat(c.Total) + " WCU"
	}
	notLanded := ""
	if o.NotLanded.Count > 0 {
		notLanded = fmt.Sprintf(", %d not landed", o.NotLanded.Count)
	}
	line("sent: %d written, %d refused, %d in doubt%s, %d failed, %d left; %s consumed (predicted %s)",
		o.Written.Count, o.Refused.Count, o.InDoubt.Count, notLanded, o.Failed.Count, o.Left.Count, consumed, jsonFloat(o.PredictedWCU.Total))
	if r := o.Rate; r != nil && r.Seconds != nil {
		rate := "at most " + jsonFloat(r.MaxPerSecond) + " WCU/s"
		if r.MeasuredPerSecond != nil {
			rate = fmt.Sprintf("%.1f WCU/s (at most %s)", *r.MeasuredPerSecond, jsonFloat(r.MaxPerSecond))
		}
		line("sent in %.1f s at %s", *r.Seconds, rate)
	}
	if r := o.Rate; r != nil && r.ThrottledAttempts > 0 {
		line("throttled: %s refused for capacity and sent again; the rate went down to %s WCU/s at its lowest",
			textfmt.Plural(r.ThrottledAttempts, "attempt", "attempts"), jsonFloat(r.LowestPerSecond))
	}
	if o.Stopped != "" {
		line("stopped by %s after the writes in flight: the items left were not sent", o.Stopped)
	}
	for _, sk := range o.Skipped {
		line("skipped, not sent: %s: %s", string(sk.Key), sk.Reason)
	}
	for _, r := range o.RefusedItems {
		line("refused, changed by someone else since it was read: %s", string(r.Key))
		if r.conflict == nil {
			continue
		}
		for _, l := range conflictLines(r.conflict, conflictWidth) {
			line("  %s", l)
		}
	}
	for _, k := range o.InDoubt.Keys {
		line("in doubt, no answer: %s may still be written", string(k))
	}
	for _, k := range o.NotLanded.Keys {
		line("not landed, nothing to undo: %s is as it was before the change (its write was in doubt and never landed)", string(k))
	}
	if o.Journal != nil {
		line("journal entry %d (%s): 'dynascope undo --allow-writes' takes it back", o.Journal.Entry, o.Journal.File)
	}
}

// itemStates counts a bulk entry's items by state: "35 done, 5 refused".
func itemStates(e edit.Entry) string {
	n := map[edit.State]int{}
	const notLanded = edit.State("not landed (nothing to undo)")
	const left = edit.State("left (not sent: stopped first)")
	for _, it := range e.Items {
		switch {
		case it.NotLanded():
			n[notLanded]++
		case it.Left():
			n[left]++
		default:
			n[it.State]++
		}
	}
	var parts []string
	for _, st := range []edit.State{edit.StateDone, edit.StateRefused, edit.StateInDoubt, notLanded, edit.StateFailed, left} {
		if n[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[st], st))
		}
	}
	return strings.Join(parts, ", ")
}

// notLanded tells an undo's item that found the write it takes back, in
// doubt, never landed: nothing was written, and nothing needed to be.
func notLanded(err error) bool {
	var nl *edit.NotLandedError
	return errors.As(err, &nl)
}

func skippedText(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d skipped", n)
}
