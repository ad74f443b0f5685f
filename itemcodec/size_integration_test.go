package itemcodec_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// These tests prove itemcodec.ItemSize byte-exact against DynamoDB Local: each item is
// padded (using itemcodec.ItemSize itself) to land exactly on a 4 KB boundary and one
// byte past it. If itemcodec.ItemSize were off by a single byte in either direction,
// one of the two would be charged a different number of read units.

// sizeTestTable starts a parallel test with its own table.
func sizeTestTable(t *testing.T) (context.Context, *dynamodb.Client, string) {
	t.Helper()
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx, api, table
}

// padName is the attribute padItem adds; 3 bytes of name.
const padName = "pad"

// padItem returns a copy of base with a string attribute that brings it to
// exactly size bytes by itemcodec.ItemSize's count.
func padItem(t *testing.T, base itemcodec.Item, size int) itemcodec.Item {
	t.Helper()
	n := size - itemcodec.ItemSize(base) - len(padName)
	if n < 0 {
		t.Fatalf("cannot pad an item of %d bytes down to %d", itemcodec.ItemSize(base), size)
	}
	it := maps.Clone(base)
	it[padName] = valS(strings.Repeat("p", n))
	if got := itemcodec.ItemSize(it); got != size {
		t.Fatalf("padded item is %d bytes, want %d", got, size)
	}
	return it
}

// putItems loads items with BatchWriteItem, retrying what comes back unprocessed.
func putItems(ctx context.Context, t *testing.T, api *dynamodb.Client, table string, items []itemcodec.Item) {
	t.Helper()
	const batch = 25
	for start := 0; start < len(items); start += batch {
		var reqs []types.WriteRequest
		for _, it := range items[start:min(start+batch, len(items))] {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
		}
		pending := map[string][]types.WriteRequest{table: reqs}
		for len(pending) > 0 {
			out, err := api.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
			if err != nil {
				t.Fatalf("BatchWriteItem: %v", err)
			}
			pending = out.UnprocessedItems
		}
	}
}

// getUnits reads one item back and returns the capacity DynamoDB charged.
func getUnits(ctx context.Context, t *testing.T, api *dynamodb.Client, table string, it itemcodec.Item, consistent bool) float64 {
	t.Helper()
	out, err := api.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:              aws.String(table),
		Key:                    itemcodec.Item{"PK": it["PK"], "SK": it["SK"]},
		ConsistentRead:         aws.Bool(consistent),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	if err != nil {
		t.Fatalf("GetItem: %v", err)
	}
	if out.ConsumedCapacity == nil || out.ConsumedCapacity.CapacityUnits == nil {
		t.Fatal("GetItem returned no consumed capacity")
	}
	return *out.ConsumedCapacity.CapacityUnits
}

// boundaryCase is an item whose size must be counted exactly.
type boundaryCase struct {
	name string
	item itemcodec.Item // without PK, SK and padding
}

func boundaryCases() []boundaryCase {
	var cs []boundaryCase
	for _, c := range numberSizeCases {
		cs = append(cs, boundaryCase{"number " + c.in, itemcodec.Item{"n": valN(c.in)}})
	}
	var all []types.AttributeValue
	var set []string
	for i, c := range numberSizeCases {
		all = append(all, valN(c.in))
		// A set must not repeat a value; distinct prefixes keep them apart.
		set = append(set, strconv.Itoa(i+1)+"e-3")
	}
	cs = append(cs,
		boundaryCase{"list of every number", itemcodec.Item{"l": valL(all...)}},
		boundaryCase{"number set", itemcodec.Item{"ns": valNS(set...)}},
		boundaryCase{"number set with extremes", itemcodec.Item{"ns": valNS("-1", "1.5", "1E+125", "-1E-130", "12345678901234567890123456789012345678", "0")}},
		boundaryCase{"string", itemcodec.Item{"s": valS("hello")}},
		boundaryCase{"empty string", itemcodec.Item{"s": valS("")}},
		boundaryCase{"two-byte runes", itemcodec.Item{"s": valS("café é")}},
		boundaryCase{"three-byte runes", itemcodec.Item{"s": valS("日本語")}},
		boundaryCase{"emoji", itemcodec.Item{"s": valS("😀👍🏽")}},
		boundaryCase{"multi-byte names", itemcodec.Item{"prénom": valS("x"), "名前": valS("y"), "😀": valN("1")}},
		boundaryCase{"names with spaces and dots", itemcodec.Item{"a b": valS("x"), "c.d": valS("y")}},
		boundaryCase{"binary", itemcodec.Item{"b": valB([]byte{0, 1, 2, 0xff, 0x80})}},
		boundaryCase{"empty binary", itemcodec.Item{"b": valB([]byte{})}},
		boundaryCase{"booleans and null", itemcodec.Item{"t": valBool(true), "f": valBool(false), "z": valNull()}},
		boundaryCase{"string set", itemcodec.Item{"ss": valSS("a", "日本", "😀", "")}},
		boundaryCase{"binary set", itemcodec.Item{"bs": valBS([]byte{1}, []byte{1, 2}, []byte{0xff, 0, 0})}},
		boundaryCase{"empty list and map", itemcodec.Item{"l": valL(), "m": valM()}},
		boundaryCase{"list of everything", itemcodec.Item{"l": valL(valS("é"), valN("-1.5"), valB([]byte{1}), valBool(true), valNull(),
			valSS("x"), valNS("7"), valBS([]byte{9}), valL(valN("1")), valM("k", valS("v")))}},
		boundaryCase{"map of everything", itemcodec.Item{"m": valM("s", valS("日本"), "n", valN("100"), "b", valB([]byte{1, 2}),
			"t", valBool(false), "z", valNull(), "ss", valSS("a", "b"), "ns", valNS("1", "2"), "bs", valBS([]byte{3}),
			"l", valL(valL(valL())), "m", valM("é", valM()))}},
		boundaryCase{"nested 30 deep", nestedItem(30)},
		boundaryCase{"every type", everyTypeItem()},
	)
	return cs
}

func TestItemSizeOnReadBoundaries(t *testing.T) {
	ctx, api, table := sizeTestTable(t)
	type placed struct {
		name string
		item itemcodec.Item
		size int
	}
	var all []placed
	for i, c := range boundaryCases() {
		for _, boundary := range []int{4096, 8192} {
			for _, over := range []int{0, 1} {
				base := maps.Clone(c.item)
				// everyTypeItem brings its own PK; the test's key replaces it.
				base["PK"] = valS("BOUNDARY")
				base["SK"] = valS(fmt.Sprintf("%03d#%d#%d", i, boundary, over))
				size := boundary + over
				all = append(all, placed{c.name, padItem(t, base, size), size})
			}
		}
	}
	items := make([]itemcodec.Item, len(all))
	for i, p := range all {
		items[i] = p.item
	}
	putItems(ctx, t, api, table, items)

	for _, p := range all {
		for _, consistent := range []bool{true, false} {
			got := getUnits(ctx, t, api, table, p.item, consistent)
			if want := itemcodec.ReadUnits(p.size, consistent); got != want {
				t.Errorf("%s padded to %d bytes (consistent=%v): DynamoDB Local charged %v RCU, ReadUnits says %v",
					p.name, p.size, consistent, got, want)
			}
		}
	}
}

// TestItemSizeAtMaximum uses DynamoDB's 400 KB item limit as a second,
// independent scale: an item of exactly 409600 bytes by itemcodec.ItemSize is
// accepted and one of 409601 is refused.
func TestItemSizeAtMaximum(t *testing.T) {
	ctx, api, table := sizeTestTable(t)
	const maxItem = 400 * 1024
	for i, c := range []itemcodec.Item{
		{"s": valS("x")},
		everyTypeItem(),
		nestedItem(30),
		{"n": valN("-9.9999999999999999999999999999999999999E+125"), "ns": valNS("1.5", "-0.001", "1700000000000")},
		{"s": valS("日本 😀 é")},
	} {
		for _, over := range []int{0, 1} {
			base := maps.Clone(c)
			base["PK"] = valS("MAX")
			base["SK"] = valS(fmt.Sprintf("%d#%d", i, over))
			it := padItem(t, base, maxItem+over)
			_, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it})
			var apiErr smithy.APIError
			switch {
			case over == 0 && err != nil:
				t.Errorf("item %d of exactly %d bytes refused: %v", i, maxItem, err)
			case over == 1 && err == nil:
				t.Errorf("item %d of %d bytes accepted, so ItemSize counts more than DynamoDB does", i, maxItem+1)
			case over == 1 && (!errors.As(err, &apiErr) || apiErr.ErrorCode() != "ValidationException"):
				t.Errorf("item %d of %d bytes: want a ValidationException, got %v", i, maxItem+1, err)
			}
			if over == 0 && err == nil {
				if got := getUnits(ctx, t, api, table, it, true); got != 100 {
					t.Errorf("item %d of %d bytes charged %v RCU, want 100", i, maxItem, got)
				}
			}
		}
	}
}

// largeItems are items over 4 KB and over 100 KB built from many small
// values, where a per-value error would add up.
func largeItems() []boundaryCase {
	var nums []types.AttributeValue
	for i := range 3000 {
		nums = append(nums, valN(strconv.Itoa(i*7919-1_000_000)+"."+strconv.Itoa(i%100)))
	}
	wide := map[string]types.AttributeValue{}
	for i := range 2000 {
		wide[fmt.Sprintf("clé %d 日本", i)] = valS(strings.Repeat("é", i%50))
	}
	var ss []string
	var bs [][]byte
	for i := range 1000 {
		ss = append(ss, fmt.Sprintf("member-%d-😀", i))
		bs = append(bs, bytes.Repeat([]byte{byte(i)}, i%40+1))
		bs[len(bs)-1][0] = byte(i >> 8) // keep members distinct
		bs[len(bs)-1] = append(bs[len(bs)-1], byte(i))
	}
	return []boundaryCase{
		{"3000 numbers in a list", itemcodec.Item{"l": valL(nums...)}},
		{"2000-key map", itemcodec.Item{"m": &types.AttributeValueMemberM{Value: wide}}},
		{"1000-member sets", itemcodec.Item{"ss": valSS(ss...), "bs": valBS(bs...)}},
		{"large binary", itemcodec.Item{"b": valB(bytes.Repeat([]byte{0xab}, 120_000))}},
		{"large multi-byte string", itemcodec.Item{"s": valS(strings.Repeat("日本😀é", 10_000))}},
	}
}

func TestItemSizeLargeItems(t *testing.T) {
	ctx, api, table := sizeTestTable(t)
	for i, c := range largeItems() {
		base := maps.Clone(c.item)
		base["PK"] = valS("LARGE")
		natural := itemcodec.ItemSize(base) + len(padName)
		if natural <= 4096 {
			t.Fatalf("%s is only %d bytes; the case wants more than 4 KB", c.name, natural)
		}
		// The next 4 KB boundaries above the item's own size, at and one past.
		boundary := (natural/4096 + 1) * 4096
		for _, size := range []int{boundary, boundary + 1, 200 * 1024, 200*1024 + 1} {
			if size < natural+20 {
				continue
			}
			base["SK"] = valS(fmt.Sprintf("%d#%d", i, size))
			it := padItem(t, base, size)
			putItems(ctx, t, api, table, []itemcodec.Item{it})
			for _, consistent := range []bool{true, false} {
				got := getUnits(ctx, t, api, table, it, consistent)
				if want := itemcodec.ReadUnits(size, consistent); got != want {
					t.Errorf("%s at %d bytes (consistent=%v): charged %v RCU, ReadUnits says %v", c.name, size, consistent, got, want)
				}
			}
		}
	}
}

func TestReadUnitsOfMissingItem(t *testing.T) {
	ctx, api, table := sizeTestTable(t)
	for _, consistent := range []bool{true, false} {
		got := getUnits(ctx, t, api, table, itemcodec.Item{"PK": valS("NOPE"), "SK": valS("NOPE")}, consistent)
		if want := itemcodec.ReadUnits(0, consistent); got != want {
			t.Errorf("GetItem of a missing item (consistent=%v): charged %v RCU, ReadUnits(0) says %v", consistent, got, want)
		}
	}
}

// queryPages runs a query to the end and returns each page's items and charge.
func queryPages(ctx context.Context, t *testing.T, api *dynamodb.Client, in dynamodb.QueryInput) (pages [][]itemcodec.Item, units []float64) {
	t.Helper()
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	for {
		out, err := api.Query(ctx, &in)
		if err != nil {
			t.Fatalf("Query: %v", err)
		}
		if out.ConsumedCapacity == nil || out.ConsumedCapacity.CapacityUnits == nil {
			t.Fatal("Query returned no consumed capacity")
		}
		pages = append(pages, out.Items)
		units = append(units, *out.ConsumedCapacity.CapacityUnits)
		if out.LastEvaluatedKey == nil {
			return pages, units
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

func partitionQuery(table, pk string, consistent bool) dynamodb.QueryInput {
	return dynamodb.QueryInput{
		TableName:                 aws.String(table),
		KeyConditionExpression:    aws.String("PK = :pk"),
		ExpressionAttributeValues: itemcodec.Item{":pk": valS(pk)},
		ConsistentRead:            aws.Bool(consistent),
	}
}

// sizedPartition returns items of the given exact sizes in one partition,
// in sort-key order.
func sizedPartition(t *testing.T, pk string, sizes []int) []itemcodec.Item {
	t.Helper()
	items := make([]itemcodec.Item, len(sizes))
	for i, n := range sizes {
		items[i] = padItem(t, itemcodec.Item{"PK": valS(pk), "SK": valS(fmt.Sprintf("%03d", i))}, n)
	}
	return items
}

func TestPageReadUnitsOnQueryPages(t *testing.T) {
	ctx, api, table := sizeTestTable(t)

	// A partition of assorted items, all of whose sizes matter.
	var mixed []itemcodec.Item
	for i, c := range boundaryCases() {
		it := maps.Clone(c.item)
		it["PK"] = valS("MIXED")
		it["SK"] = valS(fmt.Sprintf("%03d", i))
		mixed = append(mixed, it)
	}
	parts := map[string][]itemcodec.Item{
		"MIXED":   mixed,
		"SUM4096": sizedPartition(t, "SUM4096", []int{1500, 1500, 1096}),
		"SUM4097": sizedPartition(t, "SUM4097", []int{1500, 1500, 1097}),
		// Pairs of 2048-byte items fill a 4 KB unit exactly; rounding per
		// item instead of per page would charge twice as much.
		"HALVES": sizedPartition(t, "HALVES", []int{2048, 2048, 2048, 2048, 2048, 2049, 2047, 2048}),
		"ONE":    sizedPartition(t, "ONE", []int{4096}),
	}
	var all []itemcodec.Item
	for _, items := range parts {
		all = append(all, items...)
	}
	putItems(ctx, t, api, table, all)

	for pk, items := range parts {
		for _, consistent := range []bool{true, false} {
			for _, limit := range []int32{0, 1, 2, 3, 7} {
				t.Run(fmt.Sprintf("%s/consistent=%v/limit=%d", pk, consistent, limit), func(t *testing.T) {
					in := partitionQuery(table, pk, consistent)
					if limit > 0 {
						in.Limit = aws.Int32(limit)
					}
					pages, units := queryPages(ctx, t, api, in)
					read := 0
					for i, page := range pages {
						// The page as returned, and as written: the same sizes.
						wantWritten := itemcodec.PageReadUnits(items[read:read+len(page)], consistent)
						if got := itemcodec.PageReadUnits(page, consistent); got != units[i] || got != wantWritten {
							t.Errorf("page %d of %d items: charged %v RCU, PageReadUnits says %v (written items: %v)",
								i, len(page), units[i], got, wantWritten)
						}
						read += len(page)
					}
					if read != len(items) {
						t.Errorf("read %d items, want %d", read, len(items))
					}
				})
			}
		}
	}

	exact := []struct {
		pk                   string
		consistent, eventual float64
	}{
		{"SUM4096", 1, 0.5},
		{"SUM4097", 2, 1},
		{"HALVES", 4, 2},
	}
	for _, e := range exact {
		for _, consistent := range []bool{true, false} {
			want := e.eventual
			if consistent {
				want = e.consistent
			}
			if got := itemcodec.PageReadUnits(parts[e.pk], consistent); got != want {
				t.Errorf("PageReadUnits(%s, consistent=%v) = %v, want %v", e.pk, consistent, got, want)
			}
		}
	}

	// A filter, a projection and Select=COUNT return less but cost the same:
	// the charge is for the items read, which is what itemcodec.PageReadUnits takes.
	for _, consistent := range []bool{true, false} {
		want := itemcodec.PageReadUnits(parts["MIXED"], consistent)
		variants := map[string]func(*dynamodb.QueryInput){
			"filter removing everything": func(in *dynamodb.QueryInput) {
				in.FilterExpression = aws.String("attribute_exists(#none)")
				in.ExpressionAttributeNames = map[string]string{"#none": "no such attribute"}
			},
			"projection of the keys": func(in *dynamodb.QueryInput) { in.ProjectionExpression = aws.String("PK, SK") },
			"select count":           func(in *dynamodb.QueryInput) { in.Select = types.SelectCount },
		}
		for name, apply := range variants {
			in := partitionQuery(table, "MIXED", consistent)
			apply(&in)
			_, units := queryPages(ctx, t, api, in)
			if len(units) != 1 || units[0] != want {
				t.Errorf("%s (consistent=%v): charged %v, want one page of %v", name, consistent, units, want)
			}
		}
	}

	// A Query that reads nothing reports 0 RCU on DynamoDB Local, which is
	// what itemcodec.PageReadUnits says for an empty page.
	for _, consistent := range []bool{true, false} {
		empty := []dynamodb.QueryInput{partitionQuery(table, "NOTHING HERE", consistent)}
		past := partitionQuery(table, "ONE", consistent)
		past.ExclusiveStartKey = itemcodec.Item{"PK": valS("ONE"), "SK": valS("000")}
		empty = append(empty, past)
		for i, in := range empty {
			pages, units := queryPages(ctx, t, api, in)
			if len(pages) != 1 || len(pages[0]) != 0 {
				t.Fatalf("empty query %d returned %d pages", i, len(pages))
			}
			if want := itemcodec.PageReadUnits(nil, consistent); units[0] != want {
				t.Errorf("empty query %d (consistent=%v): charged %v RCU, PageReadUnits(nil) says %v", i, consistent, units[0], want)
			}
		}
	}
}

// pageCut is how many items of these sizes DynamoDB puts on one page: it
// stops once the page has read 1 MB, keeping the item that reached it.
func pageCut(sizes []int) int {
	sum := 0
	for i, n := range sizes {
		sum += n
		if sum >= 1<<20 {
			return i + 1
		}
	}
	return len(sizes)
}

func TestPageReadUnitsAcrossOneMegabytePages(t *testing.T) {
	ctx, api, table := sizeTestTable(t)
	repeat := func(n, size int, tail ...int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = size
		}
		return append(s, tail...)
	}
	const tenth = 104856 // ten of these are 16 bytes short of 1 MB
	cases := []struct {
		pk        string
		sizes     []int
		firstPage int
	}{
		// 1.2 MB of 100 KB items: the 11th crosses 1 MB and ends the page.
		{"HUNDREDS", repeat(12, 100_000), 11},
		// Reaching exactly 1 MB ends the page too.
		{"EXACT", repeat(10, tenth, 16, 100, 100), 11},
		// One byte short of 1 MB: the next item is still read.
		{"SHORT", repeat(10, tenth, 15, 100, 100), 12},
		{"OVER", repeat(10, tenth, 17, 100, 100), 11},
		// Big items near the 400 KB limit: 3 fit, the 4th crosses.
		{"BIG", repeat(7, 300_000), 4},
	}
	var all []itemcodec.Item
	parts := map[string][]itemcodec.Item{}
	for _, c := range cases {
		if got := pageCut(c.sizes); got != c.firstPage {
			t.Fatalf("%s: pageCut = %d, the case expects %d", c.pk, got, c.firstPage)
		}
		parts[c.pk] = sizedPartition(t, c.pk, c.sizes)
		all = append(all, parts[c.pk]...)
	}
	putItems(ctx, t, api, table, all)

	for _, c := range cases {
		for _, consistent := range []bool{true, false} {
			pages, units := queryPages(ctx, t, api, partitionQuery(table, c.pk, consistent))
			if len(pages) < 2 {
				t.Errorf("%s: %d page(s), want more than one", c.pk, len(pages))
				continue
			}
			if len(pages[0]) != c.firstPage {
				t.Errorf("%s: first page has %d items, want %d", c.pk, len(pages[0]), c.firstPage)
			}
			read := 0
			for i, page := range pages {
				var sizes []int
				for _, it := range page {
					sizes = append(sizes, itemcodec.ItemSize(it))
				}
				if i < len(pages)-1 && len(page) > 0 && pageCut(sizes) != len(page) {
					t.Errorf("%s page %d: %d items, but they pass 1 MB after %d", c.pk, i, len(page), pageCut(sizes))
				}
				want := itemcodec.PageReadUnits(page, consistent)
				if units[i] != want {
					t.Errorf("%s page %d (consistent=%v, %d items): charged %v RCU, PageReadUnits says %v",
						c.pk, i, consistent, len(page), units[i], want)
				}
				if w := itemcodec.PageReadUnits(parts[c.pk][read:read+len(page)], consistent); w != want {
					t.Errorf("%s page %d: returned items cost %v, written items %v", c.pk, i, want, w)
				}
				read += len(page)
			}
			if read != len(c.sizes) {
				t.Errorf("%s: read %d items, want %d", c.pk, read, len(c.sizes))
			}
		}
	}
}
