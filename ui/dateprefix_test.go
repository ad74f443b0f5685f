package ui

import (
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/keys"
	"dynascope/ui/widget"
)

// chatUser is the partition User:UserA of the ChatSystem model (its key
// shapes pinned here): three messages under ISO-8601 timestamps of one day.
func chatUser(pk string, sks ...string) canned {
	var items []dynamo.Item
	for _, k := range sks {
		items = append(items, dynamo.Item{"PK": s(pk), "SK": s(k), "RoomID": s("Music")})
	}
	return canned{items: items, cap: halfRCU()}
}

func openValues(t *testing.T, pk string, sks ...string) *harness {
	t.Helper()
	return newHarness(t, Options{Table: "App", PK: pk}, 120, 35, chatUser(pk, sks...))
}

// conditionAfter types text into the sort-key editor and returns the
// condition of the request it sent, or fails when none was sent.
func conditionAfter(hs *harness, text string) dynamo.SKCond {
	hs.t.Helper()
	before := len(hs.store.queries())
	hs.queue(canned{cap: halfRCU()})
	hs.keys("e", "ctrl+u")
	hs.typeText(text)
	hs.keys("enter")
	qs := hs.store.queries()
	if len(qs) != before+1 {
		hs.t.Fatalf("typing %q sent %d requests, want 1", text, len(qs)-before)
	}
	return qs[len(qs)-1].SK
}

func (hs *harness) queue(c ...canned) { hs.store.queue(c...) }

func TestDatePrefixSelectsAMonthOfATimeGroup(t *testing.T) {
	hs := openValues(t, "User:UserA", "2023-04-01T12:00:00.001Z", "2023-04-01T13:00:00.001Z", "2023-04-01T14:00:00.001Z")
	hs.keys("e")
	hs.contains("2024-03: that month of the timestamp group")
	hs.keys("esc")
	for _, tc := range []struct{ typed, want string }{
		{"2023-04", "2023-04"},
		{"2023", "2023"},
		{"2023-04-01", "2023-04-01"},
		{"2023-04-01T13", "2023-04-01T13"},
		{"2023-04-01 13:00", "2023-04-01T13:00"}, // the group's own separator
		{"20230401", "2023-04-01"},               // typed compact, written as the keys are
	} {
		c := conditionAfter(hs, tc.typed)
		if c.Op != dynamo.SKBeginsWith || len(c.Values) != 1 || c.Values[0] != tc.want {
			t.Errorf("%q on a timestamp group sent %+v, want begins_with %q", tc.typed, c, tc.want)
		}
	}
	hs.contains(`PK = "User:UserA" AND begins_with(SK, "2023-04-01")`)
	// An operator keeps the text as typed.
	if c := conditionAfter(hs, `>= 2023-04-01T13`); c.Op != dynamo.SKGe || c.Values[0] != "2023-04-01T13" {
		t.Errorf("an operator's value was rewritten: %+v", c)
	}
}

func TestDatePrefixOnCompactAndDateGroups(t *testing.T) {
	hs := openValues(t, "DEVICE#9", "20190925T010101", "20191002T101010")
	if c := conditionAfter(hs, "2019-09"); c.Op != dynamo.SKBeginsWith || c.Values[0] != "201909" {
		t.Errorf("2019-09 on compact timestamps sent %+v, want begins_with 201909", c)
	}
	if c := conditionAfter(hs, "2019-10-02T10:10"); c.Values[0] != "20191002T1010" {
		t.Errorf("a minute on compact timestamps sent %+v", c)
	}
	ds := openValues(t, "CAL", "2024-02-28", "2024-03-01", "2024-03-15")
	if c := conditionAfter(ds, "2024-03"); c.Op != dynamo.SKBeginsWith || c.Values[0] != "2024-03" {
		t.Errorf("2024-03 on dates sent %+v", c)
	}
	// No time group: a digit-led text is the begins_with it always was.
	ls := openValues(t, "CUST#1", "ORDER#1", "PROFILE")
	if c := conditionAfter(ls, "2019-09"); c.Values[0] != "2019-09" {
		t.Errorf("without a time group the value was rewritten: %+v", c)
	}
}

func TestDatePrefixRefusesImpossibleDates(t *testing.T) {
	hs := openValues(t, "User:UserA", "2023-04-01T12:00:00.001Z", "2023-04-01T14:00:00.001Z")
	ds := openValues(t, "CAL", "2024-02-28", "2024-03-15")
	for _, tc := range []struct {
		hs        *harness
		typed, is string
	}{
		{hs, "2023-13", "2023-13 is not a date: the month is 01 to 12."},
		{hs, "2023-04-32", "the day is 01 to 31."},
		{hs, "2023-04-01T24", "the hour is 00 to 23."},
		{ds, "2024-03-01T10", "the date group's keys hold no time of day"},
	} {
		before := len(tc.hs.store.queries())
		tc.hs.keys("e", "ctrl+u")
		tc.hs.typeText(tc.typed)
		tc.hs.keys("enter")
		if n := len(tc.hs.store.queries()); n != before {
			t.Errorf("%q sent a request", tc.typed)
		}
		tc.hs.contains(tc.is)
		tc.hs.keys("esc")
	}
}

func TestValueRangeTellsSameDayEndsApart(t *testing.T) {
	hs := openValues(t, "User:UserA", "2023-04-01T12:00:00.001Z", "2023-04-01T13:00:00.001Z", "2023-04-01T14:00:00.001Z")
	hs.contains("┊ timestamp", "2023-04-01T12 … 14:00:00") // the pane is narrower than both keys
	if strings.Contains(hs.screen(), "2023-04-01 … 2023-04-01") {
		t.Errorf("the range's ends look the same:\n%s", hs.screen())
	}
	for _, w := range []int{12, 16, 20, 26, 30, 40, 60} {
		tr := typeRow{Group: keys.Group{Kind: keys.KindValue, First: "2023-04-01T12:00:00.001Z", Last: "2023-04-01T14:00:00.001Z"}}
		got := valueRange(tr, w)
		if widget.Width(got) > w {
			t.Errorf("valueRange at %d cells is %d wide: %q", w, widget.Width(got), got)
		}
		lo, hi, _ := strings.Cut(got, " … ")
		if w >= 20 && (!strings.Contains(lo, "12") || !strings.Contains(hi, "14")) {
			t.Errorf("valueRange at %d cells = %q; the hours 12 and 14 do not both show", w, got)
		}
	}
	// Ends that differ early keep the plain form.
	if got := valueRange(typeRow{Group: keys.Group{Kind: keys.KindValue, First: "2023-04-01T12:00:00Z", Last: "2023-07-09T12:00:00Z"}}, 23); got != "2023-04-01 … 2023-07-09" {
		t.Errorf("valueRange of different days = %q", got)
	}
}
