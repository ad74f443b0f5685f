package overlay

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/config"
	"dynascope/edit"
	"dynascope/textfmt"
	"dynascope/ui/widget"
)

// The bulk change overlay's preview and outcome (bulkedit.go holds its
// state and keys).

// adder adds a sentence, wrapped, in a style.
type adder func(style func(...string) string, s string)

// sayer is the adder of a box inner cells wide that appends to lines:
// each sentence sanitised, wrapped and indented by a cell.
func sayer(lines *[]string, inner int) adder {
	return func(style func(...string) string, s string) {
		for _, l := range widget.WrapLines(textfmt.Sanitize(s), max(1, inner-2)) {
			*lines = append(*lines, " "+style(l))
		}
	}
}

// previewDiffs is how many items' typed diffs the preview shows.
const previewDiffs = 3

// summary is the plan's counts: to write, unchanged, skipped.
func (o BulkEdit) summary(add adder) {
	b := o.plan
	s := fmt.Sprintf("%s to write", textfmt.Plural(len(b.Plans), "item", "items"))
	if len(b.Unchanged) > 0 {
		s += fmt.Sprintf(" · %d already as wanted", len(b.Unchanged))
	}
	if len(b.Skipped) > 0 {
		s += fmt.Sprintf(" · %d skipped (%s)", len(b.Skipped), b.Skipped[0].Reason())
	}
	add(plain, s)
}

// plain leaves a line as it is.
func plain(s ...string) string { return strings.Join(s, "") }

// preview is what the change will do, before anything is sent.
func (o BulkEdit) preview(e Env, add adder) {
	st := e.St
	b := o.plan
	o.summary(add)
	for _, c := range b.Changes() {
		add(st.Text.Render, fmt.Sprintf("  %s %s on %s", c.Change, c.Attribute, textfmt.Plural(c.Items, "item", "items")))
	}
	pred := b.Predicted()
	when := "time unknown (no rate set)"
	if d, ok := b.Time(o.rate); ok {
		when = fmt.Sprintf("%s at %s WCU/s (maxWCUPerSecond, default %s)", textfmt.AboutTime(d), textfmt.Units(o.rate), textfmt.Units(config.DefaultMaxWCUPerSecond))
	}
	add(st.Bold.Render, fmt.Sprintf("predicted: %s WCU · %s", textfmt.Units(pred.Total), when))
	add(st.Muted.Render, "each item's write is conditional on the item as read: one someone else changed since is refused and left")
	for i, p := range b.Plans {
		if i == previewDiffs {
			add(st.Muted.Render, fmt.Sprintf("… and %d more", len(b.Plans)-previewDiffs))
			break
		}
		add(st.Bold.Render, edit.KeyText(p.Keys, p.Old, p.New))
		for _, l := range edit.DiffLines(p.Keys, p.Diff) {
			add(diffStyle(e, l), "  "+l)
		}
	}
	if cmd := b.Command(e.Target); cmd != "" {
		add(st.Muted.Render, "one item's write:")
		for _, l := range strings.Split(cmd, "\n") {
			add(st.Text.Render, l)
		}
		add(st.Muted.Render, "the same write in boto3:")
		for _, l := range strings.Split(b.Boto3(e.Target), "\n") {
			add(st.Text.Render, l)
		}
	}
}

// diffStyle colours a diff line by its kind: + added, - removed, ~ changed.
func diffStyle(e Env, l string) func(...string) string {
	switch {
	case strings.HasPrefix(l, "+"):
		return e.St.OK.Render
	case strings.HasPrefix(l, "-"):
		return e.St.Err.Render
	}
	return e.St.Warn.Render
}

// sent is what the change did: the counts, the units, the journal entry,
// then the items refused (as read · now · yours), in doubt and left.
func (o BulkEdit) sent(e Env, add adder) {
	st := e.St
	r := o.res
	var written, left int
	var refused, doubt []edit.BulkOutcome
	for _, it := range r.Items {
		var ce *edit.ConflictError
		var dbt *edit.InDoubtError
		switch {
		case !it.Sent:
			left++
		case it.Err == nil && it.Result.State == edit.StateDone:
			written++
		case errors.As(it.Err, &ce):
			refused = append(refused, it)
		case errors.As(it.Err, &dbt) || it.Result.State == edit.StateInDoubt:
			doubt = append(doubt, it)
		}
	}
	if o.resErr != "" {
		add(st.Err.Render, o.resErr)
	}
	add(st.OK.Render, fmt.Sprintf("written %d of %d · refused %d · in doubt %d · left %d", written, len(r.Items), len(refused), len(doubt), left))
	units := textfmt.Units(r.WCU) + " WCU consumed"
	if r.Unknown > 0 {
		units = fmt.Sprintf("at least %s WCU consumed (%d answers reported none: their units are unknown)", textfmt.Units(r.WCU), r.Unknown)
	}
	if r.Throttled > 0 {
		units += fmt.Sprintf(" · %d attempts throttled and sent again", r.Throttled)
	}
	add(st.Text.Render, units)
	switch {
	case r.Entry != nil && o.undo != nil:
		add(st.Text.Render, fmt.Sprintf("one journal entry: %d, the undo of %d", r.Entry.Number, o.undo.Number))
	case r.Entry != nil:
		add(st.Text.Render, fmt.Sprintf("one journal entry: %d · u takes it all back (or dynascope undo --allow-writes --entry %d)", r.Entry.Number, r.Entry.Number))
	}
	if len(refused) > 0 {
		what := "refused: someone else changed these since they were read; left untouched (as read · now · yours)"
		if o.undo != nil {
			what = "refused: changed since the change left them; left untouched (as the change left it · now · the undo's)"
		}
		add(st.Err.Render, what)
		for _, it := range refused {
			var ce *edit.ConflictError
			errors.As(it.Err, &ce)
			add(st.Bold.Render, "  "+edit.KeyText(it.Plan.Keys, it.Plan.Old, it.Plan.New))
			for _, row := range ce.Rows() {
				if !row.ChangedMeanwhile {
					continue
				}
				add(st.Text.Render, fmt.Sprintf("    %s: %s · %s · %s", row.Name, valueOrNone(row.Read), valueOrNone(row.Now), valueOrNone(row.Yours)))
			}
			if ce.Current == nil {
				add(st.Err.Render, "    the item no longer exists")
			}
		}
	}
	if len(doubt) > 0 {
		add(st.Warn.Render, "in doubt: no answer came; each may still be applied, and is journalled as in doubt")
		for _, it := range doubt {
			add(st.Text.Render, "  "+edit.KeyText(it.Plan.Keys, it.Plan.Old, it.Plan.New))
		}
	}
	if left > 0 {
		add(st.Muted.Render, fmt.Sprintf("%d left, not sent: the change was stopped first", left))
	}
}

// valueOrNone is a value with its type, sanitised; — for none.
func valueOrNone(av types.AttributeValue) string {
	if av == nil {
		return "—"
	}
	return textfmt.Sanitize(edit.ValueText(av))
}
