package patterns

// What a pattern's filter throws away. A filter is applied after the read:
// every item read is paid for, kept or not, so a pattern that keeps a
// small share of what it reads is paying for a key it does not have. The
// patterns file's check: {minKept: 50%} (or a pattern's own minKept:) is
// the share below which check says so, in a verdict of its own.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"dynascope/textfmt"
	"dynascope/yamlfile"
)

// DefaultMinKept is the share of what a filtered pattern reads that it must
// keep when the file says nothing: below it, most of what is read is
// thrown away.
const DefaultMinKept = 0.5

// MinKept is the share of what pattern p reads that it must keep: its own
// minKept:, else the file's check: minKept:, else DefaultMinKept.
func (s *PatternSet) MinKept(p Pattern) float64 {
	switch {
	case p.MinKept != nil:
		return *p.MinKept
	case s != nil && s.Check.MinKept != nil:
		return *s.Check.MinKept
	}
	return DefaultMinKept
}

// CheckSettings are the file's check: settings.
type CheckSettings struct {
	// MinKept is the share of what a filtered pattern reads that it must
	// keep (0 to 1); nil for DefaultMinKept.
	MinKept *float64
}

// parseCheck reads `check: {minKept: 50%}`.
func parseCheck(file string, v *yaml.Node) (CheckSettings, error) {
	var c CheckSettings
	if v.Kind != yaml.MappingNode {
		return c, &PatternError{File: file, Line: v.Line, Msg: "check: must be a mapping such as {minKept: 50%}"}
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], yamlfile.Deref(v.Content[i+1])
		switch k.Value {
		case "minKept":
			share, err := parseShare(val)
			if err != nil {
				return c, &PatternError{File: file, Line: val.Line, Msg: "check: minKept " + err.Error()}
			}
			c.MinKept = &share
		default:
			return c, &PatternError{File: file, Line: k.Line, Msg: fmt.Sprintf("check: has no field %q%s; it has minKept", k.Value, textfmt.Suggest(k.Value, []string{"minKept"}))}
		}
	}
	return c, nil
}

// parseShare reads a share as a percentage ("50%") or a fraction (0.5).
func parseShare(v *yaml.Node) (float64, error) {
	bad := fmt.Errorf("must be a share of what is read, such as 50%% or 0.5, not %s", yamlfile.Kind(v))
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return 0, bad
	}
	text, scale := strings.TrimSpace(v.Value), 1.0
	if t, ok := strings.CutSuffix(text, "%"); ok {
		text, scale = strings.TrimSpace(t), 100
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(f) || f < 0 || f/scale > 1 {
		return 0, bad
	}
	return f / scale, nil
}

// Discard is what a filtered pattern's run kept of what it read.
type Discard struct {
	Kept, Read int     // items returned, items read (ScannedCount)
	RCU        float64 // what the run cost
	Requests   int     // the requests it took
	Unit       float64 // DynamoDB's least charge of a request: 0.5, or 1 strongly consistent
	MinKept    float64 // the share it must keep (PatternSet.MinKept)
}

// Share is the share of what was read that was kept, 1 when nothing was
// read.
func (d Discard) Share() float64 {
	if d.Read <= 0 {
		return 1
	}
	return float64(d.Kept) / float64(d.Read)
}

// PerItem is the RCU paid per item returned; false when none was.
func (d Discard) PerItem() (float64, bool) {
	if d.Kept <= 0 {
		return 0, false
	}
	return d.RCU / float64(d.Kept), true
}

// Warn tells whether the run kept less than its share of what it read
// and paid for what it threw away: it cost more than its requests'
// least charge (a one-unit read costs the same whatever the filter keeps).
func (d Discard) Warn() bool {
	return d.Read > 0 && d.Share() < d.MinKept && d.RCU > float64(max(d.Requests, 1))*d.Unit
}

// Note is the share kept and the price of an item returned: "kept 72 of
// 4,000 read (1.8%), 4.083 RCU per item returned".
func (d Discard) Note() string {
	per := "no item returned"
	if rcu, ok := d.PerItem(); ok {
		per = strconv.FormatFloat(rcu, 'f', -1, 64)
		if rcu >= 0.001 {
			per = strconv.FormatFloat(math.Round(rcu*1000)/1000, 'f', -1, 64)
		}
		per += " RCU per item returned"
	}
	return fmt.Sprintf("kept %s of %s read (%s), %s", textfmt.Count(d.Kept), textfmt.Count(d.Read), percent(d.Share()), per)
}

// Verdict is the warning of a run that threw most of its read away, ""
// when it did not (Warn).
func (d Discard) Verdict() string {
	if !d.Warn() {
		return ""
	}
	return fmt.Sprintf("discards %s of what it reads, below the %s it must keep (minKept): the access pattern wants a key, not a filter", percent(1-d.Share()), percent(d.MinKept))
}

// percent writes a share as a percentage to one decimal where it needs it:
// 98%, 1.8%, 50%.
func percent(f float64) string {
	p := f * 100
	switch {
	case p == math.Trunc(p) || p >= 10 && p < 99.5:
		p = math.Round(p)
	default:
		// One decimal, never rounded to none or to all of it.
		p = min(max(math.Round(p*10)/10, 0.1), 99.9)
	}
	return strconv.FormatFloat(p, 'f', -1, 64) + "%"
}
