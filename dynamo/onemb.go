package dynamo

// DynamoDB's 1 MB page rule, read from an answer's own figures. DynamoDB
// stops a Query or Scan page once it has read 1 MB (1,048,576 bytes; the
// item that reaches it is included), before the filter is applied. DynamoDB
// Local does not stop a filtered page so: a filtered Query of the demo's
// CUST#7 comes back as one page of 4,001 items read, 294 RCU, which
// DynamoDB answers in three. So a page that shows more than a page's worth
// read is named, with the requests DynamoDB would take for it, and a
// read's count of requests can be the one DynamoDB would answer with.

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// OverPage is one answered page that read more than DynamoDB's 1 MB page
// rule lets one page read.
type OverPage struct {
	Page    int   // its place among the read's pages, from 1
	Scanned int   // the items it read (ScannedCount)
	Bytes   int64 // the bytes it read, at least (its capacity, or its items' sizes)
	RCU     float64
	// Stops is how many times DynamoDB would have ended a page within it,
	// before its last item.
	Stops int
	// Exact: the items' own sizes in order decided it (every item read
	// was returned whole); else items of the page's average size.
	Exact bool
}

// OneMB follows DynamoDB's 1 MB page rule over a read's answered pages,
// in order: DynamoDB reads items until what it read reaches 1 MB, that
// item included (or until the page's Limit), then ends the page, whatever
// a filter keeps. The items' sizes come from the pages: every item read,
// when each was returned whole (no filter dropped any, no projection);
// else items of the page's average size, its bytes the least its
// capacity allows: C RCU are U = C/unit units of 4 KB, so it read at least
// (U-1)·4096+1 bytes. That never names a page DynamoDB would not have cut
// for items of even size: at 0.5 RCU a unit, 128.5 RCU (257 units, just
// over 1 MB) fits one page, while 129 RCU of items of a few hundred bytes
// is two. A OneMB follows one stream of pages (a Query, or one segment of
// a Scan: mergeOneMB joins the segments'); the stream's last page ends the
// DynamoDB page under way. The zero OneMB is ready to use.
type OneMB struct {
	// Over are the pages that read more than one DynamoDB page may;
	// empty when every page kept to the rule.
	Over []OverPage
	// Requests is how many requests DynamoDB would take for the read.
	Requests int

	pages   int     // the answered pages followed
	open    bool    // a DynamoDB page is under way
	acc     float64 // the bytes it has read
	inPage  int32   // the items it has read
	unknown bool    // a page said nothing of its bytes: no figure
}

// add follows one answered page, the n-th of the read. unit is the RCU of
// 4 KB (0.5, or 1 strongly consistent); whole says the page's items are
// every item it read, unprojected.
func (m *OneMB) add(p Page, n int, unit float64, whole bool) {
	scanned := int(p.ScannedCount)
	o := OverPage{Page: n, Scanned: scanned, RCU: p.Request.Capacity.Total}
	var known int64
	for _, it := range p.Items {
		known += int64(itemcodec.ItemSize(it))
	}
	size := func(int) float64 { return 0 }
	switch {
	case whole && len(p.Items) == scanned:
		o.Bytes, o.Exact = known, true
		size = func(i int) float64 { return float64(itemcodec.ItemSize(p.Items[i])) }
	case scanned > 0 && !p.Request.NoCapacity && o.RCU > 0 && unit > 0:
		units := int64(math.Round(o.RCU / unit))
		o.Bytes = max((units-1)*itemcodec.ReadUnitBytes+1, known)
		avg := float64(o.Bytes) / float64(scanned)
		size = func(int) float64 { return avg }
	case scanned > 0:
		m.unknown = true // no figure to read the bytes from
	}
	limit := p.Request.Limit
	for i := range scanned {
		if !m.open {
			m.Requests++
			m.open, m.acc, m.inPage = true, 0, 0
		}
		m.acc += size(i)
		m.inPage++
		if m.acc >= pageBytes || limit > 0 && m.inPage >= limit {
			m.open = false
			if i < scanned-1 {
				o.Stops++
			}
		}
	}
	if p.LastEvaluatedKey == nil {
		m.open = false // the stream's end ends a page on DynamoDB too
	}
	m.pages++
	if m.Requests == 0 {
		m.Requests = 1 // an empty read is one request all the same
	}
	if o.Stops > 0 && !m.unknown {
		m.Over = append(m.Over, o)
	}
}

// mergeOneMB joins the streams of a read in parallel segments: their
// requests add up, their pages over the rule in the order of the read.
func mergeOneMB(parts []OneMB) OneMB {
	var m OneMB
	for _, p := range parts {
		if p.pages == 0 {
			continue // a segment not read
		}
		m.Requests += p.Requests
		m.pages += p.pages
		m.Over = append(m.Over, p.Over...)
	}
	slices.SortFunc(m.Over, func(a, b OverPage) int { return a.Page - b.Page })
	return m
}

// Text is the sentence a read prints when a page read more than DynamoDB
// lets one page read, "" otherwise; requests is how many the engine
// answered with.
func (m OneMB) Text(requests int) string {
	if len(m.Over) == 0 {
		return ""
	}
	var pages []string
	even := false
	for _, o := range m.Over {
		pages = append(pages, fmt.Sprintf("page %d read %s items, %s (%s RCU)", o.Page, textfmt.Count(o.Scanned), textfmt.HumanBytes(o.Bytes), jsonNumber(o.RCU)))
		even = even || !o.Exact
	}
	how := ""
	if even {
		how = "; counted with items of each page's average size"
	}
	return fmt.Sprintf("DynamoDB would have paged this read: it ends a page once it has read 1 MB, before the filter, and %s, so on DynamoDB the read takes %s, not %d (DynamoDB Local does not stop a filtered page at 1 MB%s)",
		strings.Join(pages, "; "), textfmt.Plural(m.Requests, "request", "requests"), requests, how)
}
