package itemcodec

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec/number"
)

// Sizes are DynamoDB's own accounting, checked byte for byte against
// DynamoDB Local by size_integration_test.go: an error of one byte changes
// the capacity of an item that sits on a 4 KB boundary, so the tool would
// show a cost the server never charged.

// ReadUnitBytes is the size one read capacity unit covers.
const ReadUnitBytes = 4096

// ItemSize returns the size of an item in bytes by DynamoDB's rules.
func ItemSize(it Item) int {
	n := 0
	for name, av := range it {
		n += len(name) + ValueSize(av)
	}
	return n
}

// AttributeSize returns the bytes one attribute adds to its item: its name
// plus its value, so the detail pane can show where an item's size goes.
func AttributeSize(name string, av types.AttributeValue) int {
	return len(name) + ValueSize(av)
}

// ValueSize is the size of a value without its attribute name. Go strings
// are bytes, so len gives the UTF-8 length DynamoDB counts.
func ValueSize(av types.AttributeValue) int {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return NumberSize(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberSS:
		n := 0
		for _, s := range v.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, s := range v.Value {
			n += NumberSize(s)
		}
		return n
	case *types.AttributeValueMemberBS:
		n := 0
		for _, b := range v.Value {
			n += len(b)
		}
		return n
	case *types.AttributeValueMemberL:
		// 3 bytes of overhead for the document, 1 per element.
		n := 3 + len(v.Value)
		for _, e := range v.Value {
			n += ValueSize(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3 + len(v.Value)
		for k, e := range v.Value {
			n += len(k) + ValueSize(e)
		}
		return n
	}
	return 0
}

// NumberSize returns the bytes DynamoDB stores for a number given as text.
//
// The documentation's "about 1 byte per two significant digits + 1"
// undercounts; DynamoDB Local measures this: the significant digits
// (sign, exponent, leading and trailing zeros removed) are grouped into
// base-100 digits aligned on the decimal point, 1 byte each, plus 1 byte,
// plus 1 more for a negative number; zero is 1 byte. So 1.5 is 3 bytes
// (01.50), 100 is 2 (01 00 00 without the trailing zeros) and
// 1700000000000 is 3 (01 70 then zeros).
func NumberSize(s string) int {
	d, err := number.ParseSyntax(s)
	if err != nil {
		return lenientNumberSize(s)
	}
	if d.Digits == "" {
		return 1
	}
	last := d.Exp - (len(d.Digits) - 1) // power of ten of the last digit
	n := floorDiv2(d.Exp) - floorDiv2(last) + 1 + 1
	if d.Neg {
		n++
	}
	return n
}

// lenientNumberSize estimates text DynamoDB would reject anyway, so a size
// column never panics on a hand-built item.
func lenientNumberSize(s string) int {
	digits := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			digits++
		}
	}
	return (digits+1)/2 + 1
}

// floorDiv2 rounds towards minus infinity, so that 10^-1 and 10^-2 share
// one base-100 digit.
func floorDiv2(x int) int {
	if x >= 0 {
		return x / 2
	}
	return -((-x + 1) / 2)
}

// ReadUnits returns the RCUs a read of the given total bytes costs: rounded up
// to 4 KB, 1 per 4 KB strongly consistent, 0.5 eventually consistent. A read of
// zero bytes (GetItem of a missing item) still costs one unit.
func ReadUnits(bytes int, consistent bool) float64 {
	units := (bytes + ReadUnitBytes - 1) / ReadUnitBytes
	if units < 1 {
		units = 1
	}
	if consistent {
		return float64(units)
	}
	return float64(units) / 2
}

// PageReadUnits returns what one Query page of these items should cost.
//
// Pass the items the page read: before any filter (a filter does not lower
// the cost) and whole (a projection does not either; for a KEYS_ONLY or
// INCLUDE index pass the projected items, which is what the index charges).
// The sizes are summed and rounded up once for the page. A page that read
// no item costs 0: DynamoDB Local reports 0 RCU for an empty Query, unlike
// a GetItem of a missing item, which costs a full unit (see ReadUnits).
func PageReadUnits(items []Item, consistent bool) float64 {
	if len(items) == 0 {
		return 0
	}
	total := 0
	for _, it := range items {
		total += ItemSize(it)
	}
	return ReadUnits(total, consistent)
}
