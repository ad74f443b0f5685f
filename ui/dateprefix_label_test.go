package ui

import (
	"testing"

	"dynascope/dynamo"
)

// On a label type whose keys go on with a date (ORDER#2025-03-01#A17) a date
// prefix means a date under the label: e 2025-06 on ORDER selects
// begins_with(SK, "ORDER#2025-06"), not "2025-06", which finds nothing.
func TestDatePrefixOnALabelTypeKeepsTheLabel(t *testing.T) {
	hs := openExample(t, 120, 35, canned{items: example()[:2], cap: halfRCU()})
	hs.keys("j", "enter") // query the ORDER type
	hs.keys("e")
	hs.contains("2024-03: that month of the ORDER group")
	hs.keys("esc")
	for _, tc := range []struct{ typed, want string }{
		{"2025-06", "ORDER#2025-06"},
		{"2025", "ORDER#2025"},
		{"20250301", "ORDER#2025-03-01"}, // written as the keys are
	} {
		c := conditionAfter(hs, tc.typed)
		if c.Op != dynamo.SKBeginsWith || len(c.Values) != 1 || c.Values[0] != tc.want {
			t.Errorf("%q on ORDER sent %+v, want begins_with %q", tc.typed, c, tc.want)
		}
	}
	// An impossible month is refused with its sentence; nothing is sent.
	before := len(hs.store.queries())
	hs.keys("e", "ctrl+u")
	hs.typeText("2025-13")
	hs.keys("enter")
	hs.contains("2025-13 is not a date")
	if len(hs.store.queries()) != before {
		t.Error("an impossible date was sent")
	}
}
