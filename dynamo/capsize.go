package dynamo

// Sizing the pages of a read under a cost cap (--max-rcu). DynamoDB
// charges a page by the bytes it read, ceil(bytes / 4 KB) units of 0.5 RCU
// (1 strongly consistent), at least one, and says so only after the page.
// A Limit of n items each at most M bytes cannot cost more than
// ceil(n·M / 4 KB) units, so a page sized by the largest item read so far
// keeps within what is left, and only an item larger than any read before
// it can pass the cap. Pages far from the cap are not smaller for it:
// their Limit lies beyond what a 1 MB page holds. Near it each page
// spends about average/largest of what is left, so a read of items of
// mixed sizes ends in a tail of smaller pages: the price of a cap that
// holds.

import (
	"math"

	"dynascope/itemcodec"
)

// pageBytes is what one Query or Scan page reads at most: 1 MB, and the
// item that crosses it.
const pageBytes = 1 << 20

// CapSizer sizes the pages of one read under a cost cap, by the largest
// item it has read. The zero CapSizer is not ready; use NewCapSizer.
type CapSizer struct {
	unit    float64 // RCU per 4 KB
	avg     float64 // bytes: DescribeTable's average item, 0 when unknown
	largest float64 // bytes: the largest item read, or assumed before any
	charged float64 // bytes charged for, over the items scanned
	scanned int
}

// NewCapSizer sizes pages of unit RCU per 4 KB (0.5, or 1 strongly
// consistent) from avg, DescribeTable's average item size (0 when
// unknown). Before any page, items are assumed four times that large (a
// 4 KB unit each when unknown): one partition's items, or the first part
// of a table, may be far larger than the average.
func NewCapSizer(unit, avg float64) CapSizer {
	c := CapSizer{unit: unit, avg: avg, largest: 4 * avg}
	if c.largest <= 0 {
		c.largest = itemcodec.ReadUnitBytes
	}
	return c
}

// Largest is the item size, in bytes, the next page is sized for: the
// largest item read, at least the table's average, and at least the bytes
// charged per item so far. The last is well above the items' sizes while
// few are read (each page is charged in whole 4 KB units), which keeps the
// pages after a small one small: a few items say little of the next one's
// size.
func (c CapSizer) Largest() float64 {
	if c.scanned == 0 {
		return c.largest
	}
	return math.Max(math.Max(c.largest, c.avg), math.Max(c.charged/float64(c.scanned), 1))
}

// itemCost is the most one item of the largest size costs.
func (c CapSizer) itemCost() float64 {
	return c.unit * math.Max(1, math.Ceil(c.Largest()/itemcodec.ReadUnitBytes))
}

// FullPage is the most a page without a Limit costs with no item larger
// than Largest: 1 MB, and the item that crosses it.
func (c CapSizer) FullPage() float64 {
	return c.unit * math.Ceil((pageBytes+c.Largest())/itemcodec.ReadUnitBytes)
}

// Next is the Limit of the next page when left RCU are left of the cap
// (after the pages in flight), shared among segments reading at once,
// never above limit when that is set; worst is the most that page can
// cost with no item larger than any read. ok is false when not even one
// such item fits in what is left, unless first (nothing spent or in flight
// yet): then one item goes if the cap holds a page's minimum, so that a
// read resumed under a cap smaller than its items still moves on (and
// says that it passed the cap).
func (c CapSizer) Next(left float64, segments int, limit int32, first bool) (n int32, worst float64, ok bool) {
	if left < c.itemCost() {
		if !first || left < c.unit {
			return 0, 0, false
		}
		return 1, c.itemCost(), true
	}
	largest := c.Largest()
	share := math.Floor(left/float64(max(segments, 1))/c.unit) * itemcodec.ReadUnitBytes
	n = int32(math.Min(math.Max(1, math.Floor(share/largest)), math.MaxInt32))
	if limit > 0 && limit < n {
		n = limit
	}
	bytes := math.Min(float64(n)*largest, pageBytes+largest)
	return n, c.unit * math.Max(1, math.Ceil(bytes/itemcodec.ReadUnitBytes)), true
}

// Read learns from a page read: the size of its largest item, and what it
// was charged. Items returned whole (no projection) are measured; the
// items a filter dropped, or all of them under a projection, are known
// only by what the page was charged, so by their average as charged.
func (c *CapSizer) Read(p Page, projected bool) {
	if p.ScannedCount <= 0 {
		return
	}
	if c.scanned == 0 {
		c.largest = 0 // what is read replaces the assumption
	}
	known := 0.0
	measured := 0
	if !projected {
		for _, it := range p.Items {
			n := float64(itemcodec.ItemSize(it))
			c.largest, known = math.Max(c.largest, n), known+n
		}
		measured = len(p.Items)
	}
	if !p.Request.NoCapacity {
		charged := p.Request.Capacity.Total / c.unit * itemcodec.ReadUnitBytes
		c.charged += charged
		if rest := int(p.ScannedCount) - measured; rest > 0 {
			c.largest = math.Max(c.largest, (charged-known)/float64(rest))
		}
	} else {
		c.charged += known // unknown cost: the sizes measured, if any
	}
	c.scanned += int(p.ScannedCount)
}

// OverCapText is what a capped read says when it spent past its cap, which
// only an item larger than any before it (or than the whole cap) can do:
// over is the excess as the caller prints RCU, name the cap's
// ("--max-rcu cap").
func OverCapText(over, name string) string {
	return over + " RCU over the " + name + ": DynamoDB charges a page by the bytes it read, known only after it, and a page held an item larger than any read before it, or than what was left"
}
