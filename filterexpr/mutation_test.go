package filterexpr

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A string literal is written with \u escapes for exactly the invisible
// and control characters, at each range's edge.
func TestQuoteTextEdges(t *testing.T) {
	for r, escaped := range map[rune]bool{
		0x1f: true, 0x20: false, 0x7e: false, 0x7f: true, 0x9f: true, 0xa0: false,
		0x61b: false, 0x61c: true, 0x61d: false,
		0x200d: false, 0x200e: true, 0x200f: true, 0x2010: false,
		0x2027: false, 0x2028: true, 0x2029: true, 0x202a: true, 0x202e: true, 0x202f: false,
		0x2065: false, 0x2066: true, 0x2069: true, 0x206a: false,
	} {
		got := quoteText(string(r))
		want := `"` + string(r) + `"`
		if escaped {
			want = fmt.Sprintf(`"\u%04x"`, r)
		}
		if got != want {
			t.Errorf("quoteText(U+%04X) = %q, want %q", r, got, want)
		}
	}
	if got := ValueText(&types.AttributeValueMemberS{Value: "a\"b\\c\nd\te"}); got != `"a\"b\\c\nd\te"` {
		t.Errorf("escapes: %s", got)
	}
}

// A name is bare only when it is an identifier that is no keyword: a digit
// may follow its first letter but not lead.
func TestNameText(t *testing.T) {
	for in, want := range map[string]string{
		"a1": "a1", "_x": "_x", "status": "status", "1abc": "`1abc`", "": "``",
		"a-b": "`a-b`", "AND": "`AND`", "null": "`null`", "é": "`é`",
	} {
		if got := nameText(in); got != want {
			t.Errorf("nameText(%q) = %s, want %s", in, got, want)
		}
	}
}

// Parentheses are written only where precedence needs them.
func TestStringParenthesesByPrecedence(t *testing.T) {
	for in, want := range map[string]string{
		"a = 1 OR b = 2 AND c = 3":   "a = 1 OR b = 2 AND c = 3",
		"(a = 1 OR b = 2) AND c = 3": "(a = 1 OR b = 2) AND c = 3",
		"NOT NOT a = 1":              "NOT NOT a = 1",
		"NOT (a = 1 AND b = 2)":      "NOT (a = 1 AND b = 2)",
		"a IN (1, 2, 3)":             "a IN (1, 2, 3)",
	} {
		e, err := Parse(in)
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if got := e.String(); got != want {
			t.Errorf("Parse(%q).String() = %q, want %q", in, got, want)
		}
	}
}
