package keys

// The key-layout lint: mistakes in key design that a sample of keys shows.
// Each rule errs towards silence: it fires only on evidence in the sample
// itself (two keys that sort wrongly, a date that cannot sort), never on a
// guess about keys it has not seen.

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The lint's rule ids. They are stable: scripts and the UI match on them.
const (
	RuleUnpaddedNumber  = "unpadded-number"
	RuleUnsortableDate  = "unsortable-date"
	RuleMixedDelimiters = "mixed-delimiters"
	RuleNoSharedPrefix  = "no-shared-prefix"
	RuleHotPartition    = "hot-partition"
	RuleNearSizeLimit   = "item-near-size-limit"
)

// Rules lists every rule with what it checks, in the order findings are reported.
var Rules = []struct{ ID, Checks string }{
	{RuleUnpaddedNumber, "numbers in sort keys of one type have different widths, so ORDER#10 sorts before ORDER#9"},
	{RuleUnsortableDate, "dates in sort keys are not ISO 8601 (03/01/2025, 1-3-2025, 2025-3-1, 1 Mar 2025), so they do not sort by time"},
	{RuleMixedDelimiters, "keys of one family (or the partition keys) use different delimiters"},
	{RuleNoSharedPrefix, "items of one entity type have sort keys without a common prefix, so no begins_with selects them"},
	{RuleHotPartition, "one partition holds a large share of the sampled items (hot-partition risk)"},
	{RuleNearSizeLimit, "items within 25% of DynamoDB's 400 KB item size limit"},
}

// ItemSizeLimit is DynamoDB's limit on the size of one item, in bytes (400 KB).
const ItemSizeLimit = 400 * 1024

// NearSizeLimit is the item size from which RuleNearSizeLimit reports: 75% of the limit.
const NearSizeLimit = ItemSizeLimit * 3 / 4

// Thresholds of RuleHotPartition: a partition is hot when it holds at least
// hotShare of the sampled items and hotMedian times the median partition, and
// the sample saw at least hotMinPartitions partitions (with fewer, large
// shares are normal). At most hotMaxFindings are reported.
const (
	hotShare         = 0.10
	hotMedian        = 10
	hotMinPartitions = 5
	hotMaxFindings   = 3
)

// Finding is one lint result: which rule, where, what, and a key that shows it.
type Finding struct {
	Rule    string // one of the Rule* ids
	Family  string // the family's Pattern; "" when the finding is about the whole table
	Message string // one sentence naming the keys involved
	Example KeyRef // a sampled key that shows the problem
}

func lint(in LayoutInput, fams []*familyAcc, parts []Partition) []Finding {
	var out []Finding
	if in.SKType == "S" {
		for _, fa := range fams {
			for _, ta := range sortedTypes(fa) {
				out = append(out, unpaddedNumbers(in, fa, ta)...)
				out = append(out, unsortableDates(in, fa, ta)...)
			}
			out = append(out, mixedSortKeyDelimiters(in, fa)...)
			out = append(out, noSharedPrefix(in, fa)...)
		}
	}
	if in.PKType == "S" {
		out = append(out, mixedPartitionDelimiters(in, parts)...)
	}
	out = append(out, hotPartitions(in, parts)...)
	out = append(out, nearSizeLimit(in, fams)...)
	order := map[string]int{}
	for i, r := range Rules {
		order[r.ID] = i
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Rule != out[j].Rule {
			return order[out[i].Rule] < order[out[j].Rule]
		}
		return out[i].Family < out[j].Family
	})
	if out == nil {
		out = []Finding{}
	}
	return out
}

func sortedTypes(fa *familyAcc) []*typeAcc {
	out := make([]*typeAcc, 0, len(fa.types))
	for _, ta := range fa.types {
		out = append(out, ta)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].t.First != out[j].t.First {
			return out[i].t.First < out[j].t.First
		}
		return out[i].t.Prefix < out[j].t.Prefix
	})
	return out
}

func ref(it KeyItem, skType string) KeyRef {
	return KeyRef{PK: it.PK, SK: it.SK, HasSK: skType != ""}
}

func typeName(ta *typeAcc, fa *familyAcc) string {
	return fmt.Sprintf("sort keys of type %s under %s", ta.t.Entity, fa.f.Pattern)
}

// numberRE is a key segment that ends in a number: "17", "A17", "orderid_17".
var numberRE = regexp.MustCompile(`^(\D*)(\d+)$`)

// unpaddedNumbers finds, per segment position and stem, numbers of
// different widths in one type. Sorted by value, the numbers must also be
// sorted as text; the first neighbours that are not are the example.
func unpaddedNumbers(in LayoutInput, fa *familyAcc, ta *typeAcc) []Finding {
	type slot struct {
		pos  int
		stem string
	}
	seen := map[slot]map[string]int{} // digits -> item index
	for _, i := range ta.items {
		sk := in.Items[i].SK
		for pos, seg := range strings.FieldsFunc(sk, func(r rune) bool { return strings.ContainsRune("#|:/", r) }) {
			m := numberRE.FindStringSubmatch(seg)
			if m == nil || len(m[2]) > 40 {
				continue
			}
			s := slot{pos, m[1]}
			if seen[s] == nil {
				seen[s] = map[string]int{}
			}
			if j, ok := seen[s][m[2]]; !ok || lessItem(in.Items[i], in.Items[j]) {
				seen[s][m[2]] = i
			}
		}
	}
	slots := make([]slot, 0, len(seen))
	for s := range seen {
		slots = append(slots, s)
	}
	sort.Slice(slots, func(i, j int) bool {
		if slots[i].pos != slots[j].pos {
			return slots[i].pos < slots[j].pos
		}
		return slots[i].stem < slots[j].stem
	})
	for _, s := range slots {
		nums := make([]string, 0, len(seen[s]))
		widths := map[int]bool{}
		for d := range seen[s] {
			nums = append(nums, d)
			widths[len(d)] = true
		}
		if len(widths) < 2 {
			continue
		}
		sort.Slice(nums, func(i, j int) bool { return lessNumber(nums[i], nums[j]) })
		lo, hi := nums[0], nums[len(nums)-1]
		for k := 1; k < len(nums); k++ {
			if nums[k-1] > nums[k] {
				lo, hi = nums[k-1], nums[k]
				break
			}
		}
		a, b := in.Items[seen[s][lo]], in.Items[seen[s][hi]]
		minW, maxW := len(nums[0]), len(nums[0])
		for w := range widths {
			minW, maxW = min(minW, w), max(maxW, w)
		}
		msg := fmt.Sprintf("%s hold numbers of %d to %d digits without zero-padding, so %q sorts before %q", typeName(ta, fa), minW, maxW, b.SK, a.SK)
		if lo < hi {
			// No pair is out of order yet, but the widths differ: say what will happen.
			msg = fmt.Sprintf("%s hold numbers of %d to %d digits without zero-padding (%q, %q): they sort as text, not as numbers", typeName(ta, fa), minW, maxW, a.SK, b.SK)
		}
		return []Finding{{Rule: RuleUnpaddedNumber, Family: fa.f.Pattern, Message: msg, Example: ref(b, in.SKType)}}
	}
	return nil
}

// lessNumber orders digit strings by value, then by width (so "07" before "7").
func lessNumber(a, b string) bool {
	x, y := strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(x) != len(y) {
		return len(x) < len(y)
	}
	if x != y {
		return x < y
	}
	return len(a) > len(b)
}

// Dates that do not sort as text. Each is checked for plausible fields, so
// version numbers and phone numbers do not match.
var (
	dmyRE     = regexp.MustCompile(`(?:^|\D)(\d{1,2})([/.-])(\d{1,2})([/.-])(\d{4}|\d{2})(?:\D|$)`)
	ymdRE     = regexp.MustCompile(`(?:^|\D)(\d{4})([/.-])(\d{1,2})([/.-])(\d{1,2})(?:\D|$)`)
	monthName = `(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*`
	namedRE   = regexp.MustCompile(`(?i)(?:^|[^0-9a-z])(?:\d{1,2}[- ]?` + monthName + `[- ,]*\d{2,4}|` + monthName + `[- ]\d{1,2},?[- ]\d{4})(?:[^0-9a-z]|$)`)
)

// badDate returns the first date in a key that does not sort, and why.
func badDate(k string) (string, string) {
	if m := ymdRE.FindStringSubmatch(k); m != nil && m[2] == m[4] {
		y, mo, d := atoi(m[1]), atoi(m[3]), atoi(m[5])
		if y >= 1900 && y < 2200 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && (len(m[3]) == 1 || len(m[5]) == 1) {
			return strings.Trim(m[0], "#|:/_ "), "is not zero-padded"
		}
	}
	if m := dmyRE.FindStringSubmatch(k); m != nil && m[2] == m[4] {
		a, b := atoi(m[1]), atoi(m[3])
		if a >= 1 && b >= 1 && a <= 31 && b <= 31 && (a <= 12 || b <= 12) && (m[2] == "/" || len(m[5]) == 4) {
			return strings.Trim(m[0], "#|:/_ "), "puts the year last"
		}
	}
	if m := namedRE.FindString(k); m != "" {
		return strings.Trim(m, "#|:/_ "), "spells the month as a name"
	}
	return "", ""
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func unsortableDates(in LayoutInput, fa *familyAcc, ta *typeAcc) []Finding {
	found := -1
	for _, i := range ta.items {
		if (found < 0 || lessItem(in.Items[i], in.Items[found])) && hasBadDate(in.Items[i].SK) {
			found = i
		}
	}
	if found < 0 {
		return nil
	}
	it := in.Items[found]
	date, why := badDate(it.SK)
	return []Finding{{Rule: RuleUnsortableDate, Family: fa.f.Pattern, Example: ref(it, in.SKType),
		Message: fmt.Sprintf("%s hold dates that do not sort by time: %q in %q %s; use ISO 8601 (2025-03-01)", typeName(ta, fa), date, it.SK, why)}}
}

func hasBadDate(k string) bool {
	d, _ := badDate(k)
	return d != ""
}

// lessItem orders items by sort key, then partition key, so examples do not
// depend on the order the sample arrived in.
func lessItem(a, b KeyItem) bool {
	if a.SK != b.SK {
		return a.SK < b.SK
	}
	return a.PK < b.PK
}

// delimiterCounts counts keys by their structural delimiter, keeping the
// first key (in byte order) of each as the example.
func delimiterCounts(keys []KeyItem, key func(KeyItem) string) (map[string]int, map[string]KeyItem) {
	counts, ex := map[string]int{}, map[string]KeyItem{}
	for _, it := range keys {
		k := key(it)
		d := keyDelimiter(k)
		if d == "" {
			continue
		}
		counts[d]++
		if e, ok := ex[d]; !ok || k < key(e) || k == key(e) && lessItem(it, e) {
			ex[d] = it
		}
	}
	return counts, ex
}

// mixMessage describes a mix of delimiters and picks the example from the
// rarest one (the likely mistake).
func mixMessage(what string, counts map[string]int, ex map[string]KeyItem, key func(KeyItem) string) (string, KeyItem, bool) {
	if len(counts) < 2 {
		return "", KeyItem{}, false
	}
	var parts []string
	rare := ""
	for _, d := range Delimiters {
		if counts[d] == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%q in %d (e.g. %q)", d, counts[d], key(ex[d])))
		if rare == "" || counts[d] <= counts[rare] {
			rare = d
		}
	}
	return fmt.Sprintf("%s mix delimiters: %s", what, strings.Join(parts, ", ")), ex[rare], true
}

func mixedSortKeyDelimiters(in LayoutInput, fa *familyAcc) []Finding {
	items := make([]KeyItem, len(fa.items))
	for j, i := range fa.items {
		items[j] = in.Items[i]
	}
	sk := func(it KeyItem) string { return it.SK }
	counts, ex := delimiterCounts(items, sk)
	msg, e, ok := mixMessage("sort keys under "+fa.f.Pattern, counts, ex, sk)
	if !ok {
		return nil
	}
	return []Finding{{Rule: RuleMixedDelimiters, Family: fa.f.Pattern, Message: msg, Example: ref(e, in.SKType)}}
}

func mixedPartitionDelimiters(in LayoutInput, parts []Partition) []Finding {
	items := make([]KeyItem, len(parts))
	for i, p := range parts {
		items[i] = KeyItem{PK: p.PK}
	}
	pk := func(it KeyItem) string { return it.PK }
	counts, ex := delimiterCounts(items, pk)
	msg, e, ok := mixMessage("partition keys", counts, ex, pk)
	if !ok {
		return nil
	}
	return []Finding{{Rule: RuleMixedDelimiters, Message: msg, Example: KeyRef{PK: e.PK}}}
}

// noSharedPrefix reports items that no begins_with can select: keys without
// an entity prefix beside typed keys, and a library entity whose sort keys
// have no common prefix at all.
func noSharedPrefix(in LayoutInput, fa *familyAcc) []Finding {
	var out []Finding
	if ta := fa.types[typeID{entity: NoPrefixEntity}]; ta != nil && len(fa.types) > 1 {
		var others []string
		for _, t := range sortedTypes(fa) {
			if t != ta && len(others) < 3 {
				others = append(others, strconv.Quote(t.t.Prefix))
			}
		}
		it := in.Items[ta.items[0]]
		for _, i := range ta.items {
			if lessItem(in.Items[i], it) {
				it = in.Items[i]
			}
		}
		out = append(out, Finding{Rule: RuleNoSharedPrefix, Family: fa.f.Pattern, Example: ref(it, in.SKType),
			Message: fmt.Sprintf("%d sort keys under %s carry no entity prefix (e.g. %q) beside typed keys (%s): begins_with cannot select them", ta.t.Items, fa.f.Pattern, it.SK, strings.Join(others, ", "))})
	}
	byLib := map[LibraryEntity][]KeyItem{}
	for _, i := range fa.items {
		if it := in.Items[i]; it.Library.Library != "" {
			byLib[it.Library] = append(byLib[it.Library], it)
		}
	}
	for _, lc := range tally(fa.libs) {
		items := byLib[lc.LibraryEntity]
		sort.Slice(items, func(i, j int) bool { return lessItem(items[i], items[j]) })
		first, last := items[0], items[len(items)-1]
		if commonPrefixLen(first.SK, last.SK) > 0 {
			continue // sorted keys share a prefix exactly when the first and last do
		}
		out = append(out, Finding{Rule: RuleNoSharedPrefix, Family: fa.f.Pattern, Example: ref(last, in.SKType),
			Message: fmt.Sprintf("items of %s under %s have sort keys with no common prefix (%q … %q): no begins_with selects the entity", lc.String(), fa.f.Pattern, first.SK, last.SK)})
	}
	return out
}

func commonPrefixLen(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func hotPartitions(in LayoutInput, parts []Partition) []Finding {
	if len(parts) < hotMinPartitions || len(in.Items) == 0 {
		return nil
	}
	sizes := make([]int, len(parts))
	for i, p := range parts {
		sizes[i] = p.Items
	}
	sort.Ints(sizes)
	median := sizes[len(sizes)/2]
	var out []Finding
	for _, p := range parts { // most items first
		share := float64(p.Items) / float64(len(in.Items))
		if share < hotShare || p.Items < hotMedian*median || len(out) == hotMaxFindings {
			break
		}
		out = append(out, Finding{Rule: RuleHotPartition, Family: p.Family, Example: KeyRef{PK: p.PK},
			Message: fmt.Sprintf("partition %q holds %d of %d sampled items (%.0f%%), %d× the median partition: its reads and writes all go to one partition (hot-partition risk)",
				p.PK, p.Items, len(in.Items), 100*share, p.Items/max(median, 1))})
	}
	return out
}

func kb(n int) string { return strconv.FormatFloat(float64(n)/1024, 'f', 1, 64) + " KB" }

// nearSizeLimit reports measured items at or over NearSizeLimit, per family,
// and otherwise pages whose bytes prove that one of their items is.
func nearSizeLimit(in LayoutInput, fams []*familyAcc) []Finding {
	var out []Finding
	measured := false
	for _, fa := range fams {
		n, big := 0, -1
		for _, i := range fa.items {
			it := in.Items[i]
			if it.Size > 0 {
				measured = true
			}
			if it.Size >= NearSizeLimit {
				n++
				if big < 0 || it.Size > in.Items[big].Size || it.Size == in.Items[big].Size && lessItem(it, in.Items[big]) {
					big = i
				}
			}
		}
		if big >= 0 {
			it := in.Items[big]
			out = append(out, Finding{Rule: RuleNearSizeLimit, Family: fa.f.Pattern, Example: ref(it, in.SKType),
				Message: fmt.Sprintf("%d items under %s are within 25%% of the 400 KB item limit; the largest is %s (%s)", n, fa.f.Pattern, keyText(it, in.SKType), kb(it.Size))})
		}
	}
	if measured {
		return out
	}
	// Sizes were not measured: a page that read B bytes for n items holds an
	// item of at least B/n bytes. Keep the strongest page per family.
	byFamily := map[string]Finding{}
	strongest := map[string]int{}
	familyOf := map[string]string{}
	for _, fa := range fams {
		for pk := range fa.parts {
			familyOf[pk] = fa.f.Pattern
		}
	}
	for _, p := range in.Pages {
		if p.Count <= 0 || p.First < 0 || p.First+p.Count > len(in.Items) {
			continue
		}
		atLeast := p.MinBytes / p.Count
		if atLeast < NearSizeLimit {
			continue
		}
		it := in.Items[p.First]
		f := familyOf[it.PK]
		if atLeast <= strongest[f] {
			continue
		}
		strongest[f] = atLeast
		msg := fmt.Sprintf("item %s is at least %s, within 25%% of the 400 KB item limit (from the read capacity of its Scan page)", keyText(it, in.SKType), kb(atLeast))
		if p.Count > 1 {
			msg = fmt.Sprintf("a Scan page of %d items from %s read at least %s, so one of them is at least %s, within 25%% of the 400 KB item limit; measure item sizes to name it", p.Count, keyText(it, in.SKType), kb(p.MinBytes), kb(atLeast))
		}
		byFamily[f] = Finding{Rule: RuleNearSizeLimit, Family: f, Example: ref(it, in.SKType), Message: msg}
	}
	for _, f := range byFamily {
		out = append(out, f)
	}
	return out
}

func keyText(it KeyItem, skType string) string {
	if skType == "" {
		return strconv.Quote(it.PK)
	}
	return strconv.Quote(it.PK) + " / " + strconv.Quote(it.SK)
}
