package filterexpr

import (
	"errors"
	"fmt"
	"strings"
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

// toks shows what the lexer made of src, one "kind:text" a token, or the
// error's column and message.
func toks(src string) string {
	ts, err := lex(src, "filter")
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			return fmt.Sprintf("error at %d: %s", se.Col, se.Msg)
		}
		return err.Error()
	}
	names := map[tokKind]string{tIdent: "id", tQuoted: "q", tString: "s", tNumber: "n", tBinary: "b", tOp: "op", tPunct: "p", tEOF: "eof"}
	var parts []string
	for _, t := range ts {
		parts = append(parts, names[t.kind]+":"+t.text)
	}
	return strings.Join(parts, " ")
}

// The lexer at the edge of every character class it tells apart.
func TestLexEdges(t *testing.T) {
	for src, want := range map[string]string{
		"a=1":                          "id:a op:= n:1 eof:",
		"z9_ Z0":                       "id:z9_ id:Z0 eof:",
		"_":                            "id:_ eof:",
		"a0 a9":                        "id:a0 id:a9 eof:",
		"é":                            `error at 1: 'é' cannot appear here`,
		"a/":                           `error at 2: '/' cannot appear here`,
		"a:":                           "error at 2: write values and names as they are (\"OPEN\", total), not as : placeholders",
		"0 9":                          "n:0 n:9 eof:",
		"-5 +5 .5 -.5":                 "n:-5 n:+5 n:.5 n:-.5 eof:",
		"- 5":                          `error at 1: '-' cannot appear here`,
		"a.b":                          "id:a p:. id:b eof:",
		"x[0]":                         "id:x p:[ n:0 p:] eof:",
		"1e-5 1E+5 2e5":                "n:1e-5 n:1E+5 n:2e5 eof:",
		"5-3":                          "n:5 n:-3 eof:",
		"1.5e3x9 7_":                   "n:1.5e3x9 n:7_ eof:",
		"9:":                           "error at 2: write values and names as they are (\"OPEN\", total), not as : placeholders",
		"b'AA==' b":                    "b:AA== id:b eof:",
		"<> <= >= < > =":               "op:<> op:<= op:>= op:< op:> op:= eof:",
		"a<":                           "id:a op:< eof:",
		"a!=1":                         "error at 2: != is not DynamoDB's; write <>",
		"a==1":                         "error at 2: == is not an operator; use = or <>",
		"!a":                           "error at 1: ! is not an operator; use = or <>",
		"`a b` `x`":                    "q:a b q:x eof:",
		"``":                           "error at 1: an attribute name cannot be empty",
		"`a":                           "error at 1: the name opened with ` is never closed",
		"`a[0]`":                       "error at 1: an attribute name in back quotes cannot hold [ or ]",
		"a\xff":                        "error at 2: the text is not valid UTF-8",
		"é\xff":                        "error at 2: the text is not valid UTF-8",
		`"a\"b" 'it\'s'`:               `s:a"b s:it's eof:`,
		`"\\\n\t"`:                     "s:\\\n\t eof:",
		`"\u0041\u00e9\uABCD\uabcdef"`: "s:Aé\uabcd\uabcdef eof:",
		`"\u09af\u09AF"`:               "s:\u09af\u09af eof:",
		`"\uD800"`:                     `error at 2: \uD800 is not a character`,
		`"\u12"`:                       `error at 2: \u takes four hex digits`,
		`"\u12G4"`:                     `error at 2: \u takes four hex digits`,
		`"\u12g4"`:                     `error at 2: \u takes four hex digits`,
		`"\u12/4"`:                     `error at 2: \u takes four hex digits`,
		`"\u12:4"`:                     `error at 2: \u takes four hex digits`,
		`"\u12@4"`:                     `error at 2: \u takes four hex digits`,
		"\"\\u12`4\"":                  `error at 2: \u takes four hex digits`,
		`"\u1234`:                      `error at 1: the text opened with " is never closed`,
		`"ab\`:                         `error at 4: a \ ends the text`,
		`'\x'`:                         `error at 2: \x is not an escape; use \\, \', \n, \t or \uXXXX`,
	} {
		got := toks(src)
		if got != want {
			t.Errorf("lex(%q) = %s\nwant %s", src, got, want)
		}
	}
}

// GoCode writes each kind of condition as the SDK call that builds it; the
// generated programs (codegen) compile and run this text.
func TestGoCode(t *testing.T) {
	value := func(av types.AttributeValue) string { return "V(" + ValueText(av) + ")" }
	for in, want := range map[string]string{
		`a = 1 AND b <> "x"`:               "expression.And(\nexpression.Equal(expression.Name(\"a\"), expression.Value(V(1))),\nexpression.NotEqual(expression.Name(\"b\"), expression.Value(V(\"x\"))))",
		`a < 1 OR a <= 2`:                  "expression.Or(\nexpression.LessThan(expression.Name(\"a\"), expression.Value(V(1))),\nexpression.LessThanEqual(expression.Name(\"a\"), expression.Value(V(2))))",
		`NOT a > 1`:                        "expression.Not(expression.GreaterThan(expression.Name(\"a\"), expression.Value(V(1))))",
		`size(a) >= 2`:                     "expression.GreaterThanEqual(expression.Name(\"a\").Size(), expression.Value(V(2)))",
		`a BETWEEN 1 AND 2`:                "expression.Between(expression.Name(\"a\"), expression.Value(V(1)), expression.Value(V(2)))",
		`a IN (1, 2)`:                      "expression.In(expression.Name(\"a\"), expression.Value(V(1)), expression.Value(V(2)))",
		`attribute_exists(a.b[2])`:         "expression.AttributeExists(expression.Name(\"a.b[2]\"))",
		"attribute_not_exists(`x.y`[1].z)": "expression.AttributeNotExists(expression.NameNoDotSplit(\"x.y\").AppendName(expression.NameNoDotSplit(\"[1]\")).AppendName(expression.NameNoDotSplit(\"z\")))",
		`attribute_type(a, "SS")`:          "expression.AttributeType(expression.Name(\"a\"), expression.StringSet)",
		`begins_with(a, "O#")`:             "expression.BeginsWith(expression.Name(\"a\"), \"O#\")",
		`contains(a, 5)`:                   "expression.Contains(expression.Name(\"a\"), V(5))",
	} {
		e, err := Parse(in)
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if got := e.GoCode(value); got != want {
			t.Errorf("GoCode(%q) =\n%s\nwant\n%s", in, got, want)
		}
	}
}
