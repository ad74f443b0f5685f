package keys

// Value shapes: what a sort key that is data looks like, so a value group can
// be named as a practitioner would name it.

import (
	"regexp"
	"strconv"
	"strings"
)

// Shape names a value group by what its keys look like.
const (
	ShapeTimestamp   = "timestamp"     // 2023-04-01T12:00:00.001Z, 2020-04-24 14:40, 20190925T010101, 2019-09-24T010101
	ShapeDate        = "date"          // 2024-03-01, 2024-03, 20240301
	ShapeEpochSecond = "epoch seconds" // 1700000000 (2001 to 2033)
	ShapeEpochMilli  = "epoch ms"      // 1700000000000
	ShapeNumber      = "number"        // 42, 0042, 3.14
	ShapeUUID        = "uuid"
	ShapeULID        = "ulid"
	ShapeKSUID       = "ksuid"
	ShapeHex         = "hex id"
	ShapeValue       = "value" // data of no shape above, or of two shapes
)

var (
	zone        = `(Z|[+-]\d{2}(:?\d{2})?)?`
	isoTime     = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})[T ](\d{2})(:\d{2}(:\d{2}([.,]\d+)?)?)?` + zone + `$`)
	compactTime = regexp.MustCompile(`^(\d{4})-?(\d{2})-?(\d{2})T(\d{2})(\d{2}(\d{2}([.,]\d+)?)?)?` + zone + `$`) // 20190925T010101, 2019-09-24T010101
	isoDate     = regexp.MustCompile(`^(\d{4})-(\d{2})(-(\d{2}))?$`)
	compactDate = regexp.MustCompile(`^(\d{4})(\d{2})(\d{2})$`)
	number      = regexp.MustCompile(`^\d+(\.\d+)?$`)
	uuid        = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	ulid        = regexp.MustCompile(`^[0-7][0-9A-HJKMNP-TV-Z]{25}$`)
	ksuid       = regexp.MustCompile(`^[0-9A-Za-z]{27}$`)
	hexID       = regexp.MustCompile(`^([0-9a-f]{8,}|[0-9A-F]{8,})$`)
)

// ValueShape returns the shape of a key that is data, or "" when it has none of the known shapes.
//
// A key that starts with a value and goes on after "#", "|", "/" or "_"
// ("2025-03-01#A17") has the shape of that value.
func ValueShape(k string) string {
	if s := shapeOf(k); s != "" {
		return s
	}
	if i := strings.IndexAny(k, "#|/_"); i > 0 {
		return shapeOf(k[:i])
	}
	return ""
}

func shapeOf(k string) string {
	switch {
	case k == "":
		return ""
	case uuid.MatchString(k):
		return ShapeUUID
	case calendar(isoTime, k) || calendar(compactTime, k):
		return ShapeTimestamp
	case calendar(isoDate, k) || calendar(compactDate, k):
		return ShapeDate
	case number.MatchString(k):
		return numberShape(k)
	case ulid.MatchString(strings.ToUpper(k)):
		return ShapeULID
	case ksuid.MatchString(k):
		return ShapeKSUID
	case hexID.MatchString(k):
		return ShapeHex
	}
	return ""
}

// calendar tells whether k matches re with a month 01-12, a day 01-31 and an
// hour 00-23 where re captures them, so "20241399" stays a number.
func calendar(re *regexp.Regexp, k string) bool {
	m := re.FindStringSubmatch(k)
	if m == nil {
		return false
	}
	in := func(s string, lo, hi int) bool {
		if s == "" {
			return true
		}
		n, _ := strconv.Atoi(s)
		return n >= lo && n <= hi
	}
	day := ""
	switch re {
	case isoDate:
		day = m[4]
	default:
		day = m[3]
	}
	hour := ""
	if re == isoTime || re == compactTime {
		hour = m[4]
	}
	return in(m[2], 1, 12) && in(day, 1, 31) && in(hour, 0, 23)
}

// numberShape tells epoch seconds and milliseconds (a plausible time, no
// leading zero) from other numbers.
func numberShape(k string) string {
	if k[0] != '0' && !strings.Contains(k, ".") {
		switch n, _ := strconv.ParseInt(k, 10, 64); {
		case len(k) == 10 && n >= 1_000_000_000 && n < 2_000_000_000:
			return ShapeEpochSecond
		case len(k) == 13 && n >= 1_000_000_000_000 && n < 2_000_000_000_000:
			return ShapeEpochMilli
		}
	}
	return ShapeNumber
}

// RunName names the value group whose first and last key (in sort order) are given: their common shape, or ShapeValue.
//
// The name comes from the ends because that is what a skip-scan sees of the
// group (it jumps past the middle), so the UI, `groups` and `layout` give the
// same name however much of the partition they read.
func RunName(first, last string) string {
	a := ValueShape(first)
	if a != "" && a == ValueShape(last) {
		return a
	}
	return ShapeValue
}

// TimeShape tells whether a value group's name is a time, which a date prefix ("2024-03") can select part of.
func TimeShape(name string) bool { return name == ShapeTimestamp || name == ShapeDate }
