package ui

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
// filterSyncBudget items (about what a screen of 100 loaded items costs), and
// the rest of the scan runs in chunks of filterChunk items, one per
// filterScanMsg, between which keys and frames go through; the title says
// "filtering… N of M" meanwhile. A budget of matches instead (a screen's
// worth) let a rare needle scan thousands of items in the keystroke. Each change of the filter starts a new generation; chunks of an
// older one are dropped. A filter that extends the previous one (a typed
// character) looks only at the previous matches.
const (
	filterSyncRows   = 128   // matches found before a keystroke's frame: more than a screen
	filterSyncBudget = 128   // items a keystroke or a move looks at, at most
	filterChunk      = 8_000 // items one filterScanMsg looks at
)

// filterScanMsg asks for the next chunk of the filter's scan.
type filterScanMsg struct{ gen int }

func filterScanCmd(gen int) tea.Cmd {
	return func() tea.Msg { return filterScanMsg{gen: gen} }
}

// filterScan is where the scan of the current filter stands: first the
// candidate rows (the matches of a filter this one extends), then every row
// from next on. Matches go to itemsPane.idx, in row order.
type filterScan struct {
	cands  []int
	cpos   int
	next   int
	queued bool // a filterScanMsg of this generation is on its way
}

// scanning tells whether the filter's matches are still being looked for.
func (p itemsPane) scanning() bool {
	return p.filter != "" && (p.scan.cpos < len(p.scan.cands) || p.scan.next < p.store.total)
}

func (p itemsPane) setFilter(f string) itemsPane {
	prev, prevIdx, prevScan := p.needle, p.idx, p.scan
	p.filter = f
	p.list = p.list.Home()
	p.fgen++
	p.idx, p.scan, p.needle = nil, filterScan{}, nil
	if f == "" {
		return p
	}
	low := strings.ToLower(f)
	p.needle = []rune(low)
	if len(prev) > 0 && strings.Contains(low, string(prev)) {
		// Whatever matches f matched the previous filter: look only at its
		// matches and at what it had not looked at yet.
		cands := prevIdx
		if prevScan.cpos < len(prevScan.cands) {
			cands = append(slices.Clip(prevIdx), prevScan.cands[prevScan.cpos:]...)
		}
		p.scan = filterScan{cands: cands, next: prevScan.next}
	}
	return p.advance(filterSyncRows, filterSyncBudget)
}

// rescan starts the current filter's scan over, keeping the cursor where it
// can: after rows moved or pages were released or read again.
func (p itemsPane) rescan() itemsPane {
	if p.filter == "" {
		return p
	}
	l := p.list
	cur := p.cursor()
	p.needle = nil // no narrowing: every row again
	p = p.setFilter(p.filter)
	p = p.advance(cur+filterSyncRows, filterSyncBudget)
	p.list = l.SetLen(p.rows()) // the cursor where it was, or on the last match found so far
	return p
}

// advance looks at up to budget more items, stopping early once want
// matches are found.
func (p itemsPane) advance(want, budget int) itemsPane {
	if !p.scanning() {
		return p
	}
	if len(p.idx) < want {
		p.idx = slices.Clip(p.idx) // appends never write into another copy's array
	}
	s := &p.scan
	for ; budget > 0 && len(p.idx) < want && s.cpos < len(s.cands); budget-- {
		if r := s.cands[s.cpos]; p.matchRow(r) {
			p.idx = append(p.idx, r)
		}
		s.cpos++
	}
	for ; budget > 0 && len(p.idx) < want && s.next < p.store.total; budget-- {
		if p.matchRow(s.next) {
			p.idx = append(p.idx, s.next)
		}
		s.next++
	}
	return p
}

// scanStep runs one chunk of the scan of generation gen, if still current.
func (p itemsPane) scanStep(gen int) itemsPane {
	if gen != p.fgen {
		return p
	}
	p.scan.queued = false
	return p.advance(math.MaxInt, filterChunk)
}

// scanCmd asks for the next chunk while the scan is unfinished and none is
// on its way.
func (p itemsPane) scanCmd() (itemsPane, tea.Cmd) {
	if !p.scanning() || p.scan.queued {
		return p, nil
	}
	p.scan.queued = true
	return p, filterScanCmd(p.fgen)
}

// matchesText says how many loaded items match and whether that is all;
// "in memory" when some pages are released, since the filter searches
// memory and sends no request.
func (p itemsPane) matchesText() string {
	t := "matches "
	if p.scanning() {
		t += "≥ "
	}
	t += strconv.Itoa(len(p.idx))
	if p.store.total > p.store.inMemory {
		t += " in memory"
	}
	if p.scanning() {
		// Settled rows: all but the candidates and rows still to look at.
		s, total := p.scan, p.store.total
		left := len(s.cands) - s.cpos + total - s.next
		t += fmt.Sprintf(" · filtering… %d of %d", total-left, total)
	}
	return t
}

// matchRow tells whether the filter is in a string or number value of row
// r's item, keys included, ignoring case. It reads the encoded item in place
// and allocates nothing. A released page's rows do not match: the filter
// searches the items in memory.
func (p itemsPane) matchRow(r int) bool {
	b := p.store.raw(r)
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
