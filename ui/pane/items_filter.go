package pane

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"dynascope/itemcodec"
)

// The local filter costs the same per keystroke whatever is loaded and
// however rare the matches: a keystroke looks at no more than
// FilterSyncBudget items (about what a screen of 100 loaded items costs), and
// the rest of the scan runs in chunks of FilterChunk items, one per
// FilterScanMsg, between which keys and frames go through; the title says
// "filtering… N of M" meanwhile. A budget of matches instead (a screen's
// worth) let a rare needle scan thousands of items in the keystroke. Each change of the filter starts a new generation; chunks of an
// older one are dropped. A filter that extends the previous one (a typed
// character) looks only at the previous matches.
const (
	filterSyncRows   = 128   // matches found before a keystroke's frame: more than a screen
	FilterSyncBudget = 128   // items a keystroke or a move looks at, at most
	FilterChunk      = 8_000 // items one FilterScanMsg looks at
)

// FilterScanMsg asks for the next chunk of the filter's scan.
type FilterScanMsg struct{ Gen int }

func filterScanCmd(gen int) tea.Cmd {
	return func() tea.Msg { return FilterScanMsg{Gen: gen} }
}

// filterScan is where the scan of the current filter stands: first the
// candidate rows (the matches of a filter this one extends), then every row
// from next on. Matches go to Items.idx, in row order.
type filterScan struct {
	Cands  []int
	Cpos   int
	Next   int
	queued bool // a FilterScanMsg of this generation is on its way
}

// Scanning tells whether the filter's matches are still being looked for.
func (p Items) Scanning() bool {
	return p.Filter != "" && (p.Scan.Cpos < len(p.Scan.Cands) || p.Scan.Next < p.Store.Total)
}

// SetFilter starts filtering the loaded items by f (case-folded), from
// the previous matches when f extends the previous filter.
func (p Items) SetFilter(f string) Items {
	prev, prevIdx, prevScan := p.needle, p.Idx, p.Scan
	p.Filter = f
	p.List = p.List.Home()
	p.Fgen++
	p.Idx, p.Scan, p.needle = nil, filterScan{}, nil
	if f == "" {
		return p
	}
	low := strings.ToLower(f)
	p.needle = []rune(low)
	if len(prev) > 0 && strings.Contains(low, string(prev)) {
		// Whatever matches f matched the previous filter: look only at its
		// matches and at what it had not looked at yet.
		cands := prevIdx
		if prevScan.Cpos < len(prevScan.Cands) {
			cands = append(slices.Clip(prevIdx), prevScan.Cands[prevScan.Cpos:]...)
		}
		p.Scan = filterScan{Cands: cands, Next: prevScan.Next}
	}
	return p.advance(filterSyncRows, FilterSyncBudget)
}

// rescan starts the current filter's scan over, keeping the cursor where it
// can: after rows moved or pages were released or read again.
func (p Items) rescan() Items {
	if p.Filter == "" {
		return p
	}
	l := p.List
	cur := p.Cursor()
	p.needle = nil // no narrowing: every row again
	p = p.SetFilter(p.Filter)
	p = p.advance(cur+filterSyncRows, FilterSyncBudget)
	p.List = l.SetLen(p.Rows()) // the cursor where it was, or on the last match found so far
	return p
}

// advance looks at up to budget more items, stopping early once want
// matches are found.
func (p Items) advance(want, budget int) Items {
	if !p.Scanning() {
		return p
	}
	if len(p.Idx) < want {
		p.Idx = slices.Clip(p.Idx) // appends never write into another copy's array
	}
	s := &p.Scan
	for ; budget > 0 && len(p.Idx) < want && s.Cpos < len(s.Cands); budget-- {
		if r := s.Cands[s.Cpos]; p.matchRow(r) {
			p.Idx = append(p.Idx, r)
		}
		s.Cpos++
	}
	for ; budget > 0 && len(p.Idx) < want && s.Next < p.Store.Total; budget-- {
		if p.matchRow(s.Next) {
			p.Idx = append(p.Idx, s.Next)
		}
		s.Next++
	}
	return p
}

// ScanStep runs one chunk of the scan of generation gen, if still current.
func (p Items) ScanStep(gen int) Items {
	if gen != p.Fgen {
		return p
	}
	p.Scan.queued = false
	return p.advance(math.MaxInt, FilterChunk)
}

// ScanCmd asks for the next chunk while the scan is unfinished and none is
// on its way.
func (p Items) ScanCmd() (Items, tea.Cmd) {
	if !p.Scanning() || p.Scan.queued {
		return p, nil
	}
	p.Scan.queued = true
	return p, filterScanCmd(p.Fgen)
}

// MatchesText says how many loaded items match and whether that is all;
// "in memory" when some pages are released, since the filter searches
// memory and sends no request.
func (p Items) MatchesText() string {
	t := "matches "
	if p.Scanning() {
		t += "≥ "
	}
	t += strconv.Itoa(len(p.Idx))
	if p.Store.Total > p.Store.InMemory {
		t += " in memory"
	}
	if p.Scanning() {
		// Settled rows: all but the candidates and rows still to look at.
		s, total := p.Scan, p.Store.Total
		left := len(s.Cands) - s.Cpos + total - s.Next
		t += fmt.Sprintf(" · filtering… %d of %d", total-left, total)
	}
	return t
}

// matchRow tells whether the filter is in a string or number value of row
// r's item, keys included, ignoring case. It reads the encoded item in place
// and allocates nothing. A released page's rows do not match: the filter
// searches the items in memory.
func (p Items) matchRow(r int) bool {
	b := p.Store.raw(r)
	if b == nil {
		return false
	}
	d := itemcodec.NewDecoder(b)
	for range d.Uvarint() {
		_, tag := d.Attr()
		if tag == itemcodec.TagS || tag == itemcodec.TagN {
			if containsFold(d.Bytes(), p.needle) {
				return true
			}
			continue
		}
		d.Skip(tag)
	}
	return false
}

// containsFold reports whether needle (lower-cased runes) occurs in hay
// lower-cased, as strings.Contains(strings.ToLower(hay), needle) would,
// without allocating.
func containsFold(hay []byte, needle []rune) bool {
	if len(needle) == 0 {
		return true
	}
	first := needle[0]
	// Only 'k' (KELVIN SIGN) and 'i' (LATIN CAPITAL I WITH DOT) are the
	// lower case of a non-ASCII rune; any other ASCII first rune can only
	// start at its two ASCII spellings, which IndexByte finds fast.
	if first < utf8.RuneSelf && first != 'k' && first != 'i' {
		lo, up := byte(first), byte(unicode.ToUpper(first))
		for i := 0; i < len(hay); {
			j := indexEither(hay[i:], lo, up)
			if j < 0 {
				return false
			}
			i += j + 1
			if matchFold(hay[i:], needle[1:]) {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(hay); {
		r, w := foldAt(hay, i)
		i += w
		if r == first && matchFold(hay[i:], needle[1:]) {
			return true
		}
	}
	return false
}

func indexEither(b []byte, x, y byte) int {
	i := bytes.IndexByte(b, x)
	if x == y {
		return i
	}
	if i >= 0 {
		b = b[:i]
	}
	if j := bytes.IndexByte(b, y); j >= 0 {
		return j
	}
	return i
}

// matchFold tells whether hay starts with needle, ignoring case.
func matchFold(hay []byte, needle []rune) bool {
	i := 0
	for _, want := range needle {
		if i >= len(hay) {
			return false
		}
		r, w := foldAt(hay, i)
		if r != want {
			return false
		}
		i += w
	}
	return true
}

// foldAt is the lower case of the rune at b[i], and its length; invalid
// UTF-8 reads as U+FFFD, as strings.ToLower writes it.
func foldAt(b []byte, i int) (rune, int) {
	if c := b[i]; c < utf8.RuneSelf {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		return rune(c), 1
	}
	r, w := utf8.DecodeRune(b[i:])
	return unicode.ToLower(r), w
}
