package patterns

// A pattern's ceilings: what `dynascope check` holds each run to, from the
// pattern's maxRCU: and maxItemBytes:. A ceiling is the team's word on
// what the access pattern may cost, so that a change of keys or data
// that makes it dearer fails CI before it ships.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"dynascope/yamlfile"
)

// MaxItemBytesLimit is DynamoDB's item size limit, 400 KB: a ceiling above
// it could never fail.
const MaxItemBytesLimit = 400 * 1024

// Ceilings are a pattern's ceilings; a nil field asks nothing.
type Ceilings struct {
	RCU       *float64 // maxRCU: the most one run of the pattern (its example) may consume
	ItemBytes *int     // maxItemBytes: the largest item the run may return, in bytes
}

// parseMaxRCU reads `maxRCU: 0.5`: a positive number of read capacity
// units.
func parseMaxRCU(v *yaml.Node) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(v.Value), 64)
	if v.Kind != yaml.ScalarNode || (v.Tag != "!!int" && v.Tag != "!!float") || err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f <= 0 {
		return 0, fmt.Errorf("maxRCU must be a positive number of read capacity units, such as 0.5, not %s", yamlfile.Kind(v))
	}
	return f, nil
}

// parseMaxItemBytes reads `maxItemBytes: 4096`, or with a unit, as sizes
// are written: `4 KB`, `1.5 KB` (1 KB is 1,024 bytes, as DynamoDB counts
// item sizes). It must be at least 1 byte and at most DynamoDB's 400 KB.
func parseMaxItemBytes(v *yaml.Node) (int, error) {
	n, ok := unitNumber(v, unit{"KiB", 1024}, unit{"KB", 1024}, unit{"B", 1})
	if !ok || n < 1 || n > MaxItemBytesLimit || n != math.Trunc(n) {
		return 0, fmt.Errorf("maxItemBytes must be a size in bytes such as 4096 or 4 KB, at most DynamoDB's 400 KB, not %s", yamlfile.Kind(v))
	}
	return int(n), nil
}

// CeilingLine is the line of the patterns file that holds the pattern's
// ceiling field ("maxRCU" or "maxItemBytes"), else the pattern's own line:
// where a CI annotation of a failed ceiling points.
func (p Pattern) CeilingLine(field string) int {
	if l := p.lines[field]; l > 0 {
		return l
	}
	return p.Line
}

// File is the patterns file the pattern came from, "" when none.
func (p Pattern) File() string { return p.file }
