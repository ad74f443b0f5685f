package cli

// The progress line of a bulk change on a terminal: items done of the
// total, the units the answers reported per second so far, the time left
// at the pace's rate now, and the throttling met.

import (
	"fmt"
	"io"
	"time"

	"dynascope/edit"
	"dynascope/textfmt"
)

type bulkProgress struct {
	bar       *progressBar // nil: not a terminal, no line
	pace      *edit.RatePace
	predicted float64 // every plan's predicted WCU
	reserved  float64 // the predicted WCU of the items ended
	ended     int
	wcu       float64 // consumed, as the answers reported it
	unknown   bool    // an answer reported no units
	throttled int
	start     time.Time
}

func newBulkProgress(w io.Writer, pre bulkPreview, pace *edit.RatePace) *bulkProgress {
	p := &bulkProgress{bar: newProgressBar(w, "bulk "+pre.command+" on "+pre.table, len(pre.plans)), pace: pace, predicted: pre.predicted().Total, start: time.Now()}
	return p
}

// item is ApplyBulk's each: called for one item at a time.
func (p *bulkProgress) item(o edit.BulkOutcome) {
	if p.bar == nil {
		return
	}
	p.ended++
	p.reserved += o.Plan.PredictedWCU
	if o.Sent {
		p.wcu += o.Result.WCU
		p.unknown = p.unknown || o.Result.NoWCU
		p.throttled += o.Result.Throttled
	}
	p.bar.show(p.ended, p.note(time.Since(p.start)))
}

// note is what the line says after the count.
func (p *bulkProgress) note(elapsed time.Duration) string {
	rate := "? WCU/s"
	if s := elapsed.Seconds(); s > 0 && !p.unknown {
		rate = fmt.Sprintf("%.0f WCU/s", p.wcu/s)
	}
	now := p.pace.Rate()
	left := edit.WriteTime(p.predicted-p.reserved, now).Round(time.Second)
	note := fmt.Sprintf("%s (at most %s), %s left", rate, jsonFloat(now), left)
	if p.throttled > 0 {
		note += ", throttled: " + textfmt.Plural(p.throttled, "attempt", "attempts") + " sent again"
	}
	return note
}

func (p *bulkProgress) done() {
	if p.bar != nil {
		p.bar.done()
	}
}
