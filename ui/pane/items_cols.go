package pane

import (
	"encoding/binary"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
	"dynascope/textfmt"
	"dynascope/ui/widget"
)

// attrStat is what the loaded items tell about one attribute, for choosing
// the columns: how many items have it, how wide its values are drawn (each
// capped at statWidthCap), whether any is a document or set, and when it was
// first seen.
type attrStat struct {
	count, widest, total, order int
	doc                         bool
}

// statWidthCap bounds the width one value adds to the stats: no column is
// wider than a terminal.
const statWidthCap = 512

// colStats is folded in page by page as the results arrive, O(page) each,
// so an attribute first seen on the hundredth page gets its column too.
// Attributes are known by their ids in the store's name table.
type colStats struct {
	attrs []attrStat // by name id; count 0 for one not seen
	order []uint32   // ids in order of first sight
	keyW  int        // widest value of the leading key attribute
}

// statFolder folds the attributes of one page as the store encodes it.
type statFolder struct {
	c      colStats
	names  *itemcodec.Names
	keyID  uint32
	item   int
	unseen []uint32 // ids first seen in the current item
}

// folder starts folding a page into a copy of c: copies of the pane never
// share what they write.
func (c colStats) folder(names *itemcodec.Names, keyName string) *statFolder {
	c.attrs = slices.Clone(c.attrs)
	c.order = slices.Clip(c.order)
	return &statFolder{c: c, names: names, keyID: names.ID(keyName)}
}

// done is the stats with the page folded in.
func (f *statFolder) done() colStats {
	f.flush()
	return f.c
}

func (f *statFolder) visit(item int, id uint32, av types.AttributeValue) {
	if item != f.item {
		f.flush()
		f.item = item
	}
	if id == f.keyID {
		f.c.keyW = max(f.c.keyW, textWidth(itemcodec.KeyString(av)))
	}
	if int(id) >= len(f.c.attrs) {
		f.c.attrs = append(f.c.attrs, make([]attrStat, int(id)+1-len(f.c.attrs))...)
	}
	st := &f.c.attrs[id]
	if st.count == 0 {
		f.unseen = append(f.unseen, id)
	}
	cw := min(cellWidth(av), statWidthCap)
	st.count++
	st.total += cw
	st.widest = max(st.widest, cw)
	switch av.(type) {
	case *types.AttributeValueMemberS, *types.AttributeValueMemberN, *types.AttributeValueMemberBOOL:
	default:
		st.doc = true
	}
}

// flush orders the attributes the current item showed first, by name.
func (f *statFolder) flush() {
	if len(f.unseen) == 0 {
		return
	}
	names := f.names.List()
	slices.SortFunc(f.unseen, func(a, b uint32) int { return strings.Compare(names[a], names[b]) })
	for _, id := range f.unseen {
		f.c.attrs[id].order = len(f.c.order)
		f.c.order = append(f.c.order, id)
	}
	f.unseen = f.unseen[:0]
}

// textWidth is widget.Width(textfmt.Sanitize(s)), without either for printable ASCII,
// which it checks eight bytes at a time: every value of every page passes
// here.
func textWidth(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		const ones, highs = 0x0101010101010101, 0x8080808080808080
		// A byte >= 0x80, < 0x20, or 0x7f (DEL: x^0x7f... has a zero byte).
		if x&highs != 0 || (x-0x20*ones)&^x&highs != 0 || ((x^0x7f*ones)-ones)&^(x^0x7f*ones)&highs != 0 {
			return widget.Width(textfmt.Sanitize(s))
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == 0x7f {
			return widget.Width(textfmt.Sanitize(s))
		}
	}
	return len(s)
}

// cellWidth is widget.Width(CellText(av)).
func cellWidth(av types.AttributeValue) int {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return textWidth(v.Value)
	case *types.AttributeValueMemberN:
		return textWidth(v.Value)
	}
	return widget.Width(CellText(av))
}

// preferredNames are attribute names that usually say the most about an
// item; among attributes equally common they come first.
var preferredNames = []string{"name", "title", "status", "state", "type", "total", "amount", "price", "qty", "quantity", "count", "email", "createdAt", "updatedAt", "date"}

// Relayout chooses the columns for an inner width w: the attributes most
// items have, short scalars (a status, a total) before free text and
// documents, each as wide as its values up to a cap, as many as fit. It reads
// the stats only: O(attributes), whatever is loaded.
func (p Items) Relayout(w int) Items {
	avail := w - 2 // the entity marker
	stats := make(map[string]attrStat, len(p.stats.order))
	p.firstW = max(widget.Width(textfmt.Sanitize(p.KeyName)), p.stats.keyW)
	order := make([]string, 0, len(p.stats.order))
	for _, id := range p.stats.order {
		name := p.Store.nameList[id]
		if !p.hide[name] {
			order = append(order, name)
			stats[name] = p.stats.attrs[id]
		}
	}
	class := func(name string) int {
		st := stats[name]
		switch {
		case st.doc:
			return 2
		case st.total/st.count > 30:
			return 1 // free text
		}
		return 0
	}
	pref := func(name string) int {
		for i, p := range preferredNames {
			if strings.EqualFold(p, name) {
				return i
			}
		}
		return len(preferredNames)
	}
	slices.SortStableFunc(order, func(a, b string) int {
		sa, sb := stats[a], stats[b]
		if sa.count != sb.count {
			return sb.count - sa.count
		}
		if ca, cb := class(a), class(b); ca != cb {
			return ca - cb
		}
		return pref(a) - pref(b)
	})
	p.firstW = min(p.firstW, max(12, avail*2/3))
	used := p.firstW
	p.Cols = nil
	for _, name := range order {
		cw := widget.Clamp(max(stats[name].widest, widget.Width(textfmt.Sanitize(name))), 3, 28)
		room := avail - used - 2
		if room < min(cw, 8) {
			break
		}
		if cw > room {
			cw = room
		}
		p.Cols = append(p.Cols, column{Name: name, W: cw})
		used += 2 + cw
	}
	// Give what is left to the last column, whose values were cut to the cap.
	if n := len(p.Cols); n > 0 && used < avail {
		last := &p.Cols[n-1]
		if stats[last.Name].widest > last.W {
			last.W += min(avail-used, stats[last.Name].widest-last.W)
		}
	}
	return p
}
