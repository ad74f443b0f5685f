package patterns

import (
	"strings"
	"testing"
)

// A pattern's ceilings are read with the file, and a wrong one is refused
// at its line.
func TestCeilingsParse(t *testing.T) {
	set, err := ParsePatterns("dynascope.yaml", []byte(`table: App
patterns:
  - name: a
    pk: "CUST#42"
    maxRCU: 0.5
    maxItemBytes: 4 KB
  - name: b
    pk: "CUST#42"
    maxRCU: 2
    maxItemBytes: 1500
  - name: c
    pk: "CUST#42"
`))
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := set.Patterns[0].Ceilings, set.Patterns[1].Ceilings, set.Patterns[2].Ceilings
	if a.RCU == nil || *a.RCU != 0.5 || a.ItemBytes == nil || *a.ItemBytes != 4096 {
		t.Errorf("a: %+v", a)
	}
	if b.RCU == nil || *b.RCU != 2 || b.ItemBytes == nil || *b.ItemBytes != 1500 {
		t.Errorf("b: %+v", b)
	}
	if c.RCU != nil || c.ItemBytes != nil {
		t.Errorf("c has ceilings it was not given: %+v", c)
	}
	if l := set.Patterns[0].CeilingLine("maxRCU"); l != 5 {
		t.Errorf("maxRCU of a is at line %d, want 5", l)
	}
	if l := set.Patterns[2].CeilingLine("maxRCU"); l != 11 {
		t.Errorf("c has no maxRCU: its line is the pattern's, 11, not %d", l)
	}
	for _, tc := range []struct{ field, want string }{
		{"maxRCU: 0", `dynascope.yaml:5: pattern "a": maxRCU must be a positive number of read capacity units, such as 0.5, not "0".`},
		{"maxRCU: -1", `dynascope.yaml:5: pattern "a": maxRCU must be a positive number`},
		{"maxRCU: lots", `dynascope.yaml:5: pattern "a": maxRCU must be a positive number`},
		{"maxRCU: [1]", `dynascope.yaml:5: pattern "a": maxRCU must be a positive number of read capacity units, such as 0.5, not a list of 1.`},
		{"maxItemBytes: 401 KB", `dynascope.yaml:5: pattern "a": maxItemBytes must be a size in bytes such as 4096 or 4 KB, at most DynamoDB's 400 KB, not "401 KB".`},
		{"maxItemBytes: 0", `dynascope.yaml:5: pattern "a": maxItemBytes must be a size`},
		{"maxItemBytes: 1.5", `dynascope.yaml:5: pattern "a": maxItemBytes must be a size`},
		{"maxRcu: 1", `dynascope.yaml:5: pattern "a": unknown field "maxRcu" (did you mean "maxRCU"?).`},
	} {
		_, err := ParsePatterns("dynascope.yaml", []byte("table: App\npatterns:\n  - name: a\n    pk: \"CUST#42\"\n    "+tc.field+"\n"))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %s", tc.field, err, tc.want)
		}
	}
}

// A saved pattern keeps its ceilings.
func TestCeilingsSaved(t *testing.T) {
	rcu, n := 1.5, 2048
	text, err := renderPattern(Pattern{Name: "x", PK: "CUST#42", Ceilings: Ceilings{RCU: &rcu, ItemBytes: &n}})
	if err != nil {
		t.Fatal(err)
	}
	set, err := ParsePatterns("f.yaml", []byte("patterns:\n"+text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	c := set.Patterns[0].Ceilings
	if c.RCU == nil || *c.RCU != 1.5 || c.ItemBytes == nil || *c.ItemBytes != 2048 {
		t.Errorf("saved and read back: %+v\n%s", c, text)
	}
}
