package ui

// A date prefix in the sort-key editor: on a partition whose value group is
// time-shaped (timestamps or dates), "2024-03" selects that month of it.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"dynascope/dynamo"
	"dynascope/keys"
	"dynascope/ui/pane"
)

// The spans a user types: a year, month, day, hour or minute, in the ISO form
// (2024-03-01T14:05, with T or a space) or the compact one (20240301T1405).
var (
	isoPrefix     = regexp.MustCompile(`^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2})(?::(\d{2}))?)?)?)?$`)
	compactPrefix = regexp.MustCompile(`^(\d{4})(\d{2})(\d{2})?(?:T(\d{2})(\d{2})?)?$`)
)

// timeGroup is the partition's value group when it is time-shaped. There is
// at most one value group (every digit-led key, see package keys), so a
// digit-led prefix can only ever select keys of this group.
func (g groupsPane) timeGroup() (typeRow, bool) {
	if g.keyType() != "S" {
		return typeRow{}, false
	}
	for _, t := range g.types() {
		if t.Kind == keys.KindValue && keys.TimeShape(t.Entity) && t.First != "" {
			return t, true
		}
	}
	return typeRow{}, false
}

// datePrefix reads text typed in the sort-key editor as a date prefix of the
// partition's time-shaped value group. ok is false when it is not one (no
// such group, an operator or quotes typed, not a date's shape): the text is
// then a condition as parseCondition reads it. A date of impossible fields
// ("2024-13") is refused with err.
//
// The condition is begins_with, not BETWEEN "2024-03" AND the first key
// after the month. BETWEEN is inclusive at both ends, and no string is the
// last one before "2024-04", so a BETWEEN either takes in a key "2024-04"
// (a month-shaped date is a key of its own in a date group) or needs an
// invented upper bound such as "2024-03\uffff". begins_with is exact here
// instead: the time shapes have fixed-width, zero-padded fields, so every
// key of the month, in the group's own form, starts with the prefix's text
// and no key outside it does. The prefix is written in the group's form
// (ISO or compact, T or space before the hour) whatever form was typed, since
// a literal "2024-03" never matches "20240301T...".
func (g groupsPane) datePrefix(text string) (c dynamo.SKCond, ok bool, err error) {
	t, found := g.timeGroup()
	s := strings.TrimSpace(text)
	if !found {
		return c, false, nil
	}
	m := isoPrefix.FindStringSubmatch(s)
	if m == nil {
		m = compactPrefix.FindStringSubmatch(s)
	}
	if m == nil {
		return c, false, nil
	}
	year, month, day, hour, minute := m[1], m[2], m[3], m[4], m[5]
	for _, f := range []struct {
		v, name string
		lo, hi  int
	}{{month, "month", 1, 12}, {day, "day", 1, 31}, {hour, "hour", 0, 23}, {minute, "minute", 0, 59}} {
		if n, _ := strconv.Atoi(f.v); f.v != "" && (n < f.lo || n > f.hi) {
			return c, true, fmt.Errorf("%s is not a date: the %s is %02d to %02d.", s, f.name, f.lo, f.hi)
		}
	}
	form, sep, err := timeForm(t)
	if err != nil {
		return c, true, err
	}
	if hour != "" && sep == 0 {
		return c, true, fmt.Errorf("the %s group's keys hold no time of day; type a year, month or day (2024-03-01).", t.Entity)
	}
	var b strings.Builder
	b.WriteString(year)
	for i, f := range []string{month, day, hour, minute} {
		if f == "" {
			break
		}
		switch {
		case form == "compact" && i == 2:
			b.WriteByte('T')
		case form == "iso" && i < 2:
			b.WriteByte('-')
		case form == "iso" && i == 2:
			b.WriteByte(sep)
		case form == "iso":
			b.WriteByte(':')
		}
		b.WriteString(f)
	}
	return dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{b.String()}}, true, nil
}

// timeForm is how the group writes its times, read from its first and last
// keys: "iso" (2024-03-01) or "compact" (20240301), and the byte before the
// hour ('T' or ' '), 0 when the keys hold no hour. A group whose ends differ
// in form has no one prefix for a month; it is refused rather than half
// selected.
func timeForm(t typeRow) (form string, sep byte, err error) {
	formOf := func(k string) (string, byte) {
		f := "compact"
		if len(k) > 4 && k[4] == '-' {
			f = "iso"
		}
		at := map[string]int{"iso": 10, "compact": 8}[f]
		if len(k) > at && (k[at] == 'T' || k[at] == ' ') {
			return f, k[at]
		}
		return f, 0
	}
	f1, s1 := formOf(t.First)
	f2, s2 := formOf(t.Last)
	if f1 != f2 || s1 != s2 {
		return "", 0, fmt.Errorf("the %s group writes its keys in two forms (%s, %s); type the condition with an operator, e.g. begins_with %s.",
			t.Entity, sanitize(t.First), sanitize(t.Last), pane.QuoteValue(sanitize(t.First[:min(len(t.First), 7)])))
	}
	return f1, s1, nil
}
