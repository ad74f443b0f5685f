package overlay

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"dynascope/dynamo"
	"dynascope/keys"
	"dynascope/textfmt"
	"dynascope/ui/widget"
)

// OverviewPhase is where the overview stands: its caps, its sample, the
// layout.
type OverviewPhase int

// The overview's phases.
const (
	OvSetup   OverviewPhase = iota // the caps, editable; nothing read yet
	OvRunning                      // the sample is in flight
	OvDone                         // the layout of what was read
)

// The labels of the caps form, also the names of its fields.
const (
	capItems    = "items"
	capRCU      = "RCU"
	capSegments = "segments"
)

// OverviewState is the overview's state, which the root keeps between
// openings and its sample's replies change: the caps, the sample in flight
// and the layout it gave.
type OverviewState struct {
	Phase    OverviewPhase
	Form     widget.Form // the caps as the overlay left them
	Cursor   int         // where the overlay's cursor was left, over families, largest partitions, findings
	Err      string      // why the caps were refused, or why the sample failed; sanitised
	Table    string      // what the sample reads
	Index    string
	In       dynamo.SampleInput // the caps the sample runs with
	Prog     dynamo.SampleProgress
	Stopping bool // esc was pressed: waiting for the partial sample
	Have     bool // Smp and Lay hold a sample
	Smp      dynamo.Sample
	Lay      keys.Layout
}

// CapsForm is the form of a sample's caps, filled in with these.
func CapsForm(items int, rcu float64, segments int) widget.Form {
	return widget.NewForm([]string{capItems, capRCU, capSegments},
		[]string{strconv.Itoa(items), textfmt.Units(rcu), strconv.Itoa(segments)})
}

// ParseCaps reads the caps form; the error is a sentence for the user.
func ParseCaps(f widget.Form) (dynamo.SampleInput, error) {
	var in dynamo.SampleInput
	items, err := strconv.Atoi(strings.TrimSpace(f.Value(capItems)))
	if err != nil || items < 1 {
		return in, fmt.Errorf("items must be a whole number of 1 or more, not %q", f.Value(capItems))
	}
	rcu, err := strconv.ParseFloat(strings.TrimSpace(f.Value(capRCU)), 64)
	if err != nil || !(rcu >= 0.5) || math.IsInf(rcu, 0) {
		return in, fmt.Errorf("RCU must be a number of at least 0.5 (the cost of one page), not %q", f.Value(capRCU))
	}
	segs, err := strconv.Atoi(strings.TrimSpace(f.Value(capSegments)))
	if err != nil || segs < 1 || segs > dynamo.MaxSampleSegments {
		return in, fmt.Errorf("segments must be a whole number from 1 to %d, not %q", dynamo.MaxSampleSegments, f.Value(capSegments))
	}
	return dynamo.SampleInput{MaxItems: items, MaxRCU: rcu, Segments: segs}, nil
}

// Rows is how many rows the cursor moves over: families, largest
// partitions, findings.
func (o OverviewState) Rows() int {
	return len(o.Lay.Families) + len(o.Lay.Largest) + len(o.Lay.Findings)
}

// PartitionAt is the partition a row opens: a family's largest, a largest
// partition, a finding's example.
func (o OverviewState) PartitionAt(row int) (string, bool) {
	nf, nl := len(o.Lay.Families), len(o.Lay.Largest)
	switch {
	case row < 0:
	case row < nf:
		return o.Lay.Families[row].Largest.PK, true
	case row < nf+nl:
		return o.Lay.Largest[row-nf].PK, true
	case row < o.Rows():
		return o.Lay.Findings[row-nf-nl].Example.PK, true
	}
	return "", false
}

// Title names what the overview samples.
func (o OverviewState) Title() string {
	t := "Table overview · " + textfmt.Sanitize(o.Table)
	if o.Index != "" {
		t += " · index " + textfmt.Sanitize(o.Index)
	}
	return t
}
