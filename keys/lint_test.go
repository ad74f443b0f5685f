package keys

import (
	"fmt"
	"reflect"
	"testing"
)

// partition builds the items of one partition from its sort keys.
func partition(pk string, sks ...string) []KeyItem {
	out := make([]KeyItem, len(sks))
	for i, sk := range sks {
		out[i] = KeyItem{PK: pk, SK: sk}
	}
	return out
}

func TestLintRules(t *testing.T) {
	tests := []struct {
		name    string
		in      LayoutInput
		rules   []string // rule@family of every finding, in order
		message string   // the first finding's message, when given
		example KeyRef   // the first finding's example, when given
	}{
		{
			name:    "unpadded numbers that already sort wrongly",
			in:      LayoutInput{PKType: "S", SKType: "S", Items: partition("ORDER#A1", "ITEM#1", "ITEM#9", "ITEM#10")},
			rules:   []string{"unpadded-number@ORDER#*"},
			message: `sort keys of type ITEM under ORDER#* hold numbers of 1 to 2 digits without zero-padding, so "ITEM#10" sorts before "ITEM#9"`,
			example: KeyRef{PK: "ORDER#A1", SK: "ITEM#10", HasSK: true},
		},
		{
			name:    "unpadded numbers whose widths differ",
			in:      LayoutInput{PKType: "S", SKType: "S", Items: partition("P", "V#1", "V#15")},
			rules:   []string{"unpadded-number@P"},
			message: `sort keys of type V under P hold numbers of 1 to 2 digits without zero-padding ("V#1", "V#15"): they sort as text, not as numbers`,
		},
		{
			name:  "one-digit numbers only: no finding",
			in:    LayoutInput{PKType: "S", SKType: "S", Items: partition("ORDER#A1", "ITEM#1", "ITEM#2", "ITEM#9")},
			rules: []string{},
		},
		{
			name:  "zero-padded numbers and ISO dates: no finding",
			in:    LayoutInput{PKType: "S", SKType: "S", Items: partition("CUST#1", "ORDER#2025-03-01#A17", "ORDER#2025-12-31#A09", "SEQ#0009", "SEQ#0010", "EVENT#2025-03-01T10:00:00Z")},
			rules: []string{},
		},
		{
			name:  "the same stem at another position is another number",
			in:    LayoutInput{PKType: "S", SKType: "S", Items: partition("C#1", "ORDER#2025-01-01#A11", "ORDER#2025-01-02#B1001")},
			rules: []string{},
		},
		{
			name:  "numbers in ElectroDB facets",
			in:    LayoutInput{PKType: "S", SKType: "S", Items: partition("$app#org_1", "$user_1#seq_9", "$user_1#seq_10")},
			rules: []string{"unpadded-number@$app#org_*"},
		},
		{
			name:    "US dates",
			in:      LayoutInput{PKType: "S", SKType: "S", Items: partition("CUST#1", "ORDER#03/01/2025#A1")},
			rules:   []string{"unsortable-date@CUST#*"},
			message: `sort keys of type ORDER under CUST#* hold dates that do not sort by time: "03/01/2025" in "ORDER#03/01/2025#A1" puts the year last; use ISO 8601 (2025-03-01)`,
		},
		{
			name:  "day-first dates with dashes",
			in:    LayoutInput{PKType: "S", SKType: "S", Items: partition("CUST#1", "LOGIN#1-3-2025")},
			rules: []string{"unsortable-date@CUST#*"},
		},
		{
			name:  "ISO dates without padding",
			in:    LayoutInput{PKType: "S", SKType: "S", Items: partition("CUST#1", "ORDER#2025-3-1#A1")},
			rules: []string{"unsortable-date@CUST#*"},
		},
		{
			name:  "month names",
			in:    LayoutInput{PKType: "S", SKType: "S", Items: partition("CUST#1", "ORDER#01-Mar-2025")},
			rules: []string{"unsortable-date@CUST#*"},
		},
		{
			name:  "not dates: versions, IP addresses, phone numbers, words",
			in:    LayoutInput{PKType: "S", SKType: "S", Items: partition("HOST#1", "IP#10.0.0.1", "VER#1.2.3", "PHONE#555-12-3456", "MARKET#eu", "TAG#may-day")},
			rules: []string{},
		},
		{
			name:    "mixed delimiters in one family",
			in:      LayoutInput{PKType: "S", SKType: "S", Items: partition("CUST#1", "ORDER#1", "ORDER#2", "ADDRESS|HOME")},
			rules:   []string{"mixed-delimiters@CUST#*"},
			message: `sort keys under CUST#* mix delimiters: "#" in 2 (e.g. "ORDER#1"), "|" in 1 (e.g. "ADDRESS|HOME")`,
			example: KeyRef{PK: "CUST#1", SK: "ADDRESS|HOME", HasSK: true},
		},
		{
			name:  "a colon inside a timestamp is not a delimiter",
			in:    LayoutInput{PKType: "S", SKType: "S", Items: partition("CUST#1", "ORDER#2025-03-01T10:00", "PROFILE")},
			rules: []string{},
		},
		{
			// Keys that start with a digit are one value group, which a
			// BETWEEN selects as begins_with selects a label type.
			name:  "values beside typed keys are a value group: no finding",
			in:    LayoutInput{PKType: "S", SKType: "S", Items: partition("CUST#1", "PROFILE", "ORDER#1", "2025-03-01#A17")},
			rules: []string{},
		},
		{
			name:  "a family of values only is one type: no finding",
			in:    LayoutInput{PKType: "S", SKType: "S", Items: partition("SENSOR#1", "2025-03-01T10:00:00Z", "2025-03-01T10:01:00Z")},
			rules: []string{},
		},
		{
			name: "a library entity spread over unrelated sort keys",
			in: LayoutInput{PKType: "S", SKType: "S", Items: []KeyItem{
				{PK: "CUST#1", SK: "ORDER#1", Library: LibraryEntity{Library: DynamoDBToolbox, Entity: "Order"}},
				{PK: "CUST#1", SK: "PURCHASE#2", Library: LibraryEntity{Library: DynamoDBToolbox, Entity: "Order"}},
			}},
			rules: []string{"no-shared-prefix@CUST#*"},
		},
		{
			name:  "mixed partition-key delimiters",
			in:    LayoutInput{PKType: "S", SKType: "S", Items: append(partition("CUST#1", "A"), partition("user:7", "A")...)},
			rules: []string{"mixed-delimiters@"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := AnalyzeLayout(tt.in)
			if got := rules(l); !reflect.DeepEqual(got, tt.rules) {
				t.Fatalf("rules %q, want %q\n%+v", got, tt.rules, l.Findings)
			}
			if tt.message != "" && l.Findings[0].Message != tt.message {
				t.Errorf("message\n got  %s\n want %s", l.Findings[0].Message, tt.message)
			}
			if tt.example != (KeyRef{}) && l.Findings[0].Example != tt.example {
				t.Errorf("example %+v, want %+v", l.Findings[0].Example, tt.example)
			}
		})
	}
}

func TestLintHotPartition(t *testing.T) {
	var items []KeyItem
	for c := range 20 {
		items = append(items, partition(fmt.Sprintf("CUST#%d", c), "PROFILE", "ORDER#0001")...)
	}
	for i := range 400 {
		items = append(items, KeyItem{PK: "CUST#7x", SK: fmt.Sprintf("ORDER#%04d", i)})
	}
	l := AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items})
	want := []string{"hot-partition@CUST#*"}
	if got := rules(l); !reflect.DeepEqual(got, want) {
		t.Fatalf("rules %q", got)
	}
	f := l.Findings[0]
	if f.Example != (KeyRef{PK: "CUST#7x"}) || f.Message != `partition "CUST#7x" holds 400 of 440 sampled items (91%), 200× the median partition: its reads and writes all go to one partition (hot-partition risk)` {
		t.Errorf("%+v", f)
	}
	// A few partitions of any size are not a finding: shares are large by nature.
	l = AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items[40:]})
	if len(l.Findings) != 0 {
		t.Errorf("single partition: %+v", l.Findings)
	}
}

func TestLintNearSizeLimit(t *testing.T) {
	items := []KeyItem{
		{PK: "DOC#1", SK: "BODY", Size: 390 * 1024},
		{PK: "DOC#1", SK: "META", Size: 200},
		{PK: "DOC#2", SK: "BODY", Size: 310 * 1024},
		{PK: "DOC#3", SK: "BODY", Size: 290 * 1024},
	}
	l := AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items})
	if got := rules(l); !reflect.DeepEqual(got, []string{"item-near-size-limit@DOC#*"}) {
		t.Fatalf("rules %q", got)
	}
	if f := l.Findings[0]; f.Example.SK != "BODY" || f.Example.PK != "DOC#1" ||
		f.Message != `2 items under DOC#* are within 25% of the 400 KB item limit; the largest is "DOC#1" / "BODY" (390.0 KB)` {
		t.Errorf("%+v", f)
	}

	// Without measured sizes, pages prove it: 1 item read 98 blocks of 4 KB.
	unmeasured := []KeyItem{{PK: "DOC#1", SK: "BODY"}, {PK: "DOC#1", SK: "META"}, {PK: "DOC#2", SK: "BODY"}}
	pages := []PageRead{{First: 0, Count: 1, MinBytes: 97*4096 + 1}, {First: 1, Count: 2, MinBytes: 8000}}
	l = AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: unmeasured, Pages: pages})
	if got := rules(l); !reflect.DeepEqual(got, []string{"item-near-size-limit@DOC#*"}) {
		t.Fatalf("rules %q", got)
	}
	if f := l.Findings[0]; f.Message != `item "DOC#1" / "BODY" is at least 388.0 KB, within 25% of the 400 KB item limit (from the read capacity of its Scan page)` {
		t.Errorf("%+v", f)
	}
	// A page of many small items proves nothing.
	pages = []PageRead{{First: 0, Count: 3, MinBytes: 700 * 1024}}
	if l = AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: unmeasured, Pages: pages}); len(l.Findings) != 0 {
		t.Errorf("%+v", l.Findings)
	}
}
