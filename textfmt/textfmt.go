// Package textfmt turns values into text for a terminal: Sanitize makes
// untrusted text (item data, names, error messages) safe to print, Plural
// and HumanBytes spell counts and sizes, Units capacity units. The command line and the UI both
// print through it, so they show the same value the same way.
//
// It imports only the standard library; in particular never ui, dynamo or
// config, which all may import it.
package textfmt

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// HumanBytes formats a byte count in binary units: "512 B", "3.5 MiB".
func HumanBytes(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	case n < 1024*1024*1024:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1024*1024))
	default:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1024*1024*1024))
	}
}

// Plural spells a count with its noun: "1 item", "3 items".
func Plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Count writes a whole number with thousands separators: "1,744".
func Count(n int) string {
	s := fmt.Sprint(n)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}

// Units writes capacity units as DynamoDB reports them, to four decimals
// at most and without trailing zeros: 0.5, 1, 12.5, 0.3333.
func Units(v float64) string {
	v = math.Round(v*10000) / 10000
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// Dollars is a small amount of money to three significant digits, without
// an exponent: $0.00000025.
func Dollars(v float64) string {
	if v <= 0 {
		return "$0"
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	return "$" + strconv.FormatFloat(r, 'f', -1, 64)
}

// AboutTime is a duration rounded as a person says it: "about 41 s",
// "about 1 min 22 s", "about 2 h 5 min"; "under 1 s". The CLI's and the
// UI's bulk previews say a change's time at its rate by it.
func AboutTime(d time.Duration) string {
	d = d.Round(time.Second)
	if d >= time.Hour {
		d = d.Round(time.Minute)
	}
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	switch {
	case d < time.Second:
		return "under 1 s"
	case h > 0:
		return fmt.Sprintf("about %d h %d min", h, m)
	case m > 0:
		return fmt.Sprintf("about %d min %d s", m, s)
	}
	return fmt.Sprintf("about %d s", s)
}
