package dynamo

// One estimate for every read announced before it runs (scan, partiql,
// query --all-pages, counts, export, the UI's Scan and count): one table
// has one figure. It comes from DescribeTable's ItemCount and size, which
// DynamoDB refreshes about every six hours: right after a load they say 0,
// and they may be far below what the table holds. So a zero, negative or
// missing figure is unknown, never 0, and a read that spends clearly more
// than announced stops as an estimate overrun (EstimateError), keeping what
// it read: it is never called the endpoint's fault.

import (
	"fmt"
	"math"
	"strconv"

	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// UnknownSizeRCU is the budget announced for a whole read when DescribeTable
// gives no size (none yet, or a figure that cannot be right): the read
// stops there unless the user gives --max-rcu.
const UnknownSizeRCU = 100

// Estimate is the announced upper bound of reading a whole table or index.
type Estimate struct {
	Items int64 // DescribeTable's item count; 0 when unknown
	Bytes int64 // DescribeTable's size in bytes; 0 when unknown
	// RCU is the bound of the read: TableRCU, and what its own pages add
	// (more segments than the table has 1 MB pages, or a Limit's pages);
	// UnknownSizeRCU when the size is unknown.
	RCU float64
	// TableRCU is the table's (or index's) one figure, whatever reads it:
	// its size in 4 KB units and the rounding of the pages of a read in
	// as many segments as it has 1 MB pages, or fewer (tableRCU).
	TableRCU float64
	Known    bool    // the size is DescribeTable's (positive); false: RCU is a budget
	Unit     float64 // RCU per 4 KB: 0.5, or 1 strongly consistent
	// more says what the read's own pages add to TableRCU, "" for nothing;
	// of is "table" or "index", whose figure TableRCU is.
	more, of string
}

// EstimateRead is the estimate of reading the whole table ("" index) or
// index, in segments parallel segments, limit items a page (0: 1 MB pages).
//
// DynamoDB rounds each page up to 4 KB on its own, so P pages of B bytes in
// all cost at most ceil(B / 4 KB) + P - 1 units (a sum of P roundings is
// less than one unit each, and the pages' units are whole). A read in S
// segments takes at most floor(B / 1 MB) + S pages (each segment's last is
// partial), one with a Limit of L items at most ceil(items / L) + S - 1.
// So that one table has one figure, the table's counts the pages of up to
// as many segments as it has 1 MB pages (TableRCU); a read in more
// segments, or with a Limit that makes more pages, says what they add.
func EstimateRead(t Table, index string, consistent bool, segments int, limit int32) Estimate {
	items, bytes := t.ItemCount, t.SizeBytes
	if ix, ok := t.IndexByName(index); ok {
		items, bytes = ix.ItemCount, ix.SizeBytes
	}
	e := Estimate{Unit: 0.5, of: "table"}
	if index != "" {
		e.of = "index"
	}
	if consistent {
		e.Unit = 1
	}
	if items > 0 {
		e.Items = items
	}
	if bytes <= 0 {
		e.RCU, e.TableRCU = UnknownSizeRCU, UnknownSizeRCU
		return e
	}
	e.Bytes, e.Known = bytes, true
	units := (bytes + itemcodec.ReadUnitBytes - 1) / itemcodec.ReadUnitBytes
	full := bytes / pageBytes // full 1 MB pages
	segs := int64(max(segments, 1))
	tablePages := 2*full + 1 // the pages of a read in up to full+1 segments
	pages := max(tablePages, full+segs)
	if segs > full+1 {
		e.more = fmt.Sprintf("%s, each ending on a page of its own", textfmt.Plural(int(segs), "segment", "segments"))
	}
	if limit > 0 && e.Items > 0 {
		if lp := (e.Items+int64(limit)-1)/int64(limit) + segs - 1; lp > pages {
			pages = lp
			e.more = fmt.Sprintf("pages of Limit %d, each charged on its own", limit)
		}
	}
	e.TableRCU = float64(units+tablePages-1) * e.Unit
	e.RCU = float64(units+pages-1) * e.Unit
	return e
}

// Text is the estimate in words, for an announcement: "2,000 items /
// 1.2 MiB → predicted ≤ 160 RCU" or, unknown, why and the budget. A read
// whose own pages add to the table's figure says so: "→ predicted ≤ 161
// RCU (the table's 160, and 1 for 8 segments, each ending on a page of its
// own)".
func (e Estimate) Text() string {
	if !e.Known {
		return fmt.Sprintf("size unknown (DescribeTable gives none: its figures are refreshed about every six hours and may be out of date) → reads at most %s RCU unless --max-rcu says more", jsonNumber(e.RCU))
	}
	items := "item count unknown"
	if e.Items > 0 {
		items = textfmt.Plural(int(e.Items), "item", "items")
	}
	s := fmt.Sprintf("%s / %s → predicted ≤ %s RCU", items, textfmt.HumanBytes(e.Bytes), jsonNumber(e.RCU))
	if e.RCU > e.TableRCU && e.more != "" {
		s += fmt.Sprintf(" (the %s's %s, and %s for %s)", e.of, jsonNumber(e.TableRCU), jsonNumber(e.RCU-e.TableRCU), e.more)
	}
	return s
}

// QueryBound is the bound of a Query of one partition (a PartiQL Query
// plan) and why it is that: DynamoDB tells no partition's size before it is
// read, so a partition is bounded by the whole table or index (e); a Query
// that fixes the table's whole primary key (oneItem) reads one item at
// most, no more than the largest item costs. The sentence reads "at most
// …: 3 items / 1.2 KiB → predicted ≤ 1 RCU".
func (e Estimate) QueryBound(oneItem bool) (float64, string) {
	if item := float64(maxItemBytes/itemcodec.ReadUnitBytes) * e.Unit; oneItem && item < e.RCU {
		return item, fmt.Sprintf("at most one item, as WHERE fixes the whole primary key → predicted ≤ %s RCU, what DynamoDB's largest item (400 KB) costs", jsonNumber(item))
	}
	return e.RCU, "at most the whole " + e.of + ", as a Query reads one partition and DynamoDB tells no partition's size before it is read: " + e.Text()
}

// Limit is what a read may spend before it stops as an overrun: twice the
// bound and one unit more when the size is known (a stale size is not
// exact), the budget itself when it is not.
func (e Estimate) Limit() float64 {
	if !e.Known {
		return e.RCU
	}
	return 2*e.RCU + 1
}

// Guard watches a read against its estimate. Each page counts at least
// DynamoDB's minimum charge, whatever the answer says, so pages that cost
// nothing or 0.5 RCU cannot go on for ever.
type Guard struct {
	Est     Estimate
	Charged float64 // what the read spent, each page at least Est.Unit
	Pages   int
	Scanned int
}

// Page adds one page and tells whether the read has overrun its estimate:
// spent more than Limit, or (the item count known) read far more items
// than the table holds.
func (g *Guard) Page(reported float64, scanned int) bool {
	g.Pages++
	g.Scanned += max(scanned, 0)
	g.Charged += math.Max(reported, g.Est.Unit)
	return g.Over()
}

// Over tells whether the read so far has overrun; a zero estimate never does.
func (g *Guard) Over() bool {
	if g.Est.RCU <= 0 {
		return false
	}
	if g.Charged > g.Est.Limit() {
		return true
	}
	return g.Est.Items > 0 && int64(g.Scanned) > 2*g.Est.Items+1000
}

// Stop is the EstimateError of a read g stopped, what naming it: the
// figures it stopped on, so its sentence can name the real cause.
func (g *Guard) Stop(what string) *EstimateError {
	return &EstimateError{What: what, Spent: g.Charged, Announced: g.Est.RCU, Known: g.Est.Known,
		Pages: g.Pages, Scanned: g.Scanned, TableItems: g.Est.Items, ByItems: g.Charged <= g.Est.Limit(),
		AtMinimum: g.Charged <= float64(g.Pages)*g.Est.Unit}
}

// EstimateError is a read stopped because it spent clearly more than its
// announced estimate. What it read is kept and printed; the sentence says
// why (the size figures may be out of date, or the endpoint sent pages
// that hold next to nothing) and how to go on.
type EstimateError struct {
	What      string  // "scan of table App"
	Spent     float64 // RCU spent (each page at least DynamoDB's minimum)
	Announced float64 // the announced bound or budget
	Known     bool    // the bound came from DescribeTable's size
	// Pages and Scanned are the pages and items the read took (0: not
	// counted); TableItems DescribeTable's item count (0: unknown). A
	// read stopped for reading far more items than the table holds has
	// ByItems set, whatever it spent.
	// AtMinimum is a read whose every page cost DynamoDB's minimum charge
	// (or said less).
	Pages, Scanned int
	TableItems     int64
	ByItems        bool
	AtMinimum      bool
	Resume         string // the key or token it would go on from, as text; "" unknown
	// Next says how to go on; "" for "run it again with --max-rcu N".
	Next string
	// Kept says what became of what was read; "" for "what was read is
	// printed".
	Kept string
}

func (e *EstimateError) Error() string {
	const stale = "DescribeTable's size figures may be out of date (DynamoDB refreshes them about every six hours)"
	next := e.Next
	if next == "" {
		next = "run it again with --max-rcu N"
	}
	kept := e.Kept
	if kept == "" {
		kept = "what was read is printed"
	}
	var s string
	switch {
	case e.ByItems && e.TableItems > 0:
		// What it spent is no excess: the items are.
		s = fmt.Sprintf("%s stopped after reading %s, far more than the %s DescribeTable counts: %s",
			e.What, textfmt.Plural(e.Scanned, "item", "items"), textfmt.Plural(int(e.TableItems), "item", "items"), stale)
	case e.Pages > 1 && e.Scanned <= e.Pages && e.AtMinimum:
		// Pages holding next to nothing, each charged DynamoDB's minimum:
		// no size figure explains them, the endpoint does.
		s = fmt.Sprintf("%s stopped after %s RCU, clearly more than the %s RCU announced: the endpoint sent %s holding only %s between them, each charged DynamoDB's minimum",
			e.What, jsonNumber(e.Spent), jsonNumber(e.Announced), textfmt.Plural(e.Pages, "page", "pages"), textfmt.Plural(e.Scanned, "item", "items"))
	case !e.Known:
		s = fmt.Sprintf("%s stopped after %s RCU, clearly more than the %s RCU announced: DescribeTable gives no size for it (DynamoDB refreshes its figures about every six hours)",
			e.What, jsonNumber(e.Spent), jsonNumber(e.Announced))
	default:
		s = fmt.Sprintf("%s stopped after %s RCU, clearly more than the %s RCU announced: %s", e.What, jsonNumber(e.Spent), jsonNumber(e.Announced), stale)
	}
	s += "; " + kept + "; to read further, " + next
	if e.Resume != "" {
		s += " (it would go on from " + e.Resume + ")"
	}
	return s + "."
}

// Unwrap makes an EstimateError a UserError to errors.As, so callers that
// print user errors print it too.
func (e *EstimateError) Unwrap() error { return &UserError{Msg: e.Error()} }

// CapError is a whole read (a count) that its --max-rcu cap stopped before
// its end: what it read is kept and printed, marked incomplete.
type CapError struct {
	What  string  // "count CUST#7 on App"
	Cap   float64 // the cap, RCU
	Spent float64 // what it spent as the cap counts it
	Items int     // items read
}

func (e *CapError) Error() string {
	return fmt.Sprintf("%s stopped at the --max-rcu cap of %s RCU after reading %s (%s RCU); what was read is printed; raise --max-rcu to read further.",
		e.What, jsonNumber(e.Cap), textfmt.Plural(e.Items, "item", "items"), jsonNumber(e.Spent))
}

// Unwrap makes a CapError a UserError to errors.As, as EstimateError.
func (e *CapError) Unwrap() error { return &UserError{Msg: e.Error()} }

// CapStop is a read its cap stopped before its end, the cap the bound it
// announced or the user's --max-rcu: what it read is kept. Its sentence
// says what was read, what it cost (estimated for the answers without
// ConsumedCapacity, each counted at the most it could cost) and how to
// go on.
type CapStop struct {
	What string  // "partiql Scan of App"
	Cap  float64 // RCU
	// Announced is the bound announced before the read when the cap is
	// its overrun limit (PartiQLLimit), not --max-rcu; 0 for --max-rcu.
	Announced       float64
	Requests, Items int
	Spent           float64 // as the cap counts it
	Estimated       int     // answers without ConsumedCapacity
	// Next says how to go on; "" for "run the line that follows".
	Next string
}

func (e *CapStop) Error() string {
	at := "the --max-rcu cap of " + textfmt.Units(e.Cap) + " RCU"
	switch {
	case e.Announced > 0 && e.Cap > e.Announced:
		at = "its limit of " + textfmt.Units(e.Cap) + " RCU (2 × the " + textfmt.Units(e.Announced) + " RCU announced + 1)"
	case e.Announced > 0: // the table's size unknown: the bound is the cap
		at = "the " + textfmt.Units(e.Cap) + " RCU announced"
	}
	cost := textfmt.Units(e.Spent) + " RCU"
	switch {
	case e.Estimated > 0 && e.Estimated == e.Requests:
		cost = "an estimated " + cost + " (no ConsumedCapacity came, so each page counts the most it could cost; AWS would report the real figure)"
	case e.Estimated > 0:
		cost = fmt.Sprintf("about %s (%d of the answers had no ConsumedCapacity, so each counts the most it could cost; AWS would report the real figure)", cost, e.Estimated)
	}
	next := e.Next
	if next == "" {
		next = "run the line that follows"
	}
	return textfmt.FitSentence("", e.What, fmt.Sprintf(" stopped at %s after %s in %s, %s; to read on, %s.",
		at, textfmt.Plural(e.Items, "item", "items"), textfmt.Plural(e.Requests, "request", "requests"), cost, next))
}

// Unwrap makes a CapStop a UserError to errors.As, as EstimateError.
func (e *CapStop) Unwrap() error { return &UserError{Msg: e.Error()} }

func jsonNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// StopEstimate is a read stopped because it spent clearly more than its
// estimate (EstimateError): what it read is kept, the rest is not read.
const StopEstimate StopReason = "estimate"
