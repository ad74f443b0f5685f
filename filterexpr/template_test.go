package filterexpr

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestTemplateFills(t *testing.T) {
	for _, tc := range []struct {
		in     string
		params map[string]string
		names  []string
		want   string // the filled condition as the builder makes it
	}{
		{`status = "{status}" AND total > {min}`, map[string]string{"status": "OPEN", "min": "100"}, []string{"status", "min"},
			`(<status> = "OPEN") AND (<total> > 100)`},
		{`begins_with(SK, "ORDER#{month}")`, map[string]string{"month": "2025-06"}, []string{"month"}, `begins_with (<SK>, "ORDER#2025-06")`},
		{`total BETWEEN {lo} AND {hi} OR tag IN ("{a}", 'x{{y}}')`, map[string]string{"lo": "1", "hi": "2.5", "a": "A"}, []string{"lo", "hi", "a"},
			`(<total> BETWEEN 1 AND 2.5) OR (<tag> IN ("A", "x{y}"))`},
		{"`a{{b}}` = {n} AND contains(tags, \"{n}\")", map[string]string{"n": "7"}, []string{"n"}, `(<a{b}> = 7) AND (contains (<tags>, "7"))`},
		{`status = "OPEN"`, nil, nil, `<status> = "OPEN"`},
		{`size(name) > {n}`, map[string]string{"n": "-3"}, []string{"n"}, `size (<name>) > -3`},
	} {
		tpl, err := ParseTemplate(tc.in)
		if err != nil {
			t.Errorf("ParseTemplate(%q): %v", tc.in, err)
			continue
		}
		if got := tpl.Parameters(); !slices.Equal(got, tc.names) {
			t.Errorf("%q: parameters %q, want %q", tc.in, got, tc.names)
		}
		e, err := tpl.Fill(tc.params)
		if err != nil {
			t.Errorf("%q: Fill: %v", tc.in, err)
			continue
		}
		if got := built(t, e); got != tc.want {
			t.Errorf("%q filled:\n got %s\nwant %s", tc.in, got, tc.want)
		}
		// The filled condition is an ordinary one: its text reads back the same.
		again, err := Parse(e.String())
		if err != nil || again.String() != e.String() {
			t.Errorf("%q: %q does not read back (%v)", tc.in, e.String(), err)
		}
	}
}

// A value with quotes and OR in it is one string value of the request,
// never a part of the expression.
func TestTemplateValueIsOneValue(t *testing.T) {
	tpl, err := ParseTemplate(`status = "{status}"`)
	if err != nil {
		t.Fatal(err)
	}
	hostile := `x" OR size(PK) > 0 OR "`
	e, err := tpl.Fill(map[string]string{"status": hostile})
	if err != nil {
		t.Fatal(err)
	}
	x, err := expression.NewBuilder().WithFilter(e.Condition()).Build()
	if err != nil {
		t.Fatal(err)
	}
	if got := *x.Filter(); got != "#0 = :0" {
		t.Errorf("FilterExpression %q, want #0 = :0", got)
	}
	if len(x.Values()) != 1 || x.Values()[":0"].(*types.AttributeValueMemberS).Value != hostile {
		t.Errorf("values %v, want the one string %q", x.Values(), hostile)
	}
	// Its text, as the request log and dynamo read it, still holds one value.
	again, err := Parse(e.String())
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Attributes(); !slices.Equal(got, []string{"status"}) {
		t.Errorf("%q reads %q, want only status", e.String(), got)
	}
}

func TestTemplateFillRefuses(t *testing.T) {
	tpl, err := ParseTemplate(`total > {min} AND status = "{status}"`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		params map[string]string
		want   string
	}{
		{map[string]string{"min": "abc", "status": "x"}, `the filter compares {min} as a number (it is not in quotes), and "abc" is not a number; give a number, or write "{min}" in the filter to compare text`},
		{map[string]string{"min": "1e200", "status": "x"}, `"1e200" is not a number DynamoDB can store`},
		{map[string]string{"min": "1"}, "the filter needs a value for the parameter status (placeholder {status})"},
		{map[string]string{"min": "1", "status": "a\xffb"}, `the filter compares {status} as text, and "a\xffb" is not valid UTF-8`},
	} {
		_, err := tpl.Fill(tc.params)
		var pe *ParamError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Fill(%v) = %v, want a ParamError with %q", tc.params, err, tc.want)
		}
	}
}

// A placeholder stands for a value only: anywhere else the template is
// refused, with the column.
func TestTemplatePlaceholderOnlyForValues(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{attr} = "x"`, "column 1: {attr} stands where an attribute name is expected, but a placeholder stands for a value only"},
		{`total {op} 5`, "column 7: {op} stands where an operator is expected"},
		{"`{name}` = 1", "column 1: {name} stands in an attribute name"},
		{`a.{b} = 1`, "column 3: {b} stands where an attribute name is expected"},
		{`a[{i}] = 1`, "column 3: {i} stands where a list index is expected"},
		{`attribute_exists({a})`, "column 18: {a} stands where attribute_exists takes an attribute name"},
		{`size({a}) > 1`, "column 6: {a} stands where size takes an attribute name"},
		{`a = 1 {and} b = 2`, "column 7: {and} stands where AND or OR is expected"},
		{`attribute_type(a, "{t}")`, "attribute_type takes a type written out"},
		{`begins_with(a, {p})`, "begins_with takes a text prefix in quotes"},
		{`a = b"{x}"`, "a binary value"},
		{`a = "{x"`, "has a { without its closing }"},
		{`a = {x y}`, "{x y} is not a placeholder"},
		{`a = {x`, "the { is never closed"},
	} {
		_, err := ParseTemplate(tc.in)
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseTemplate(%q) = %v, want a SyntaxError with %q", tc.in, err, tc.want)
		}
	}
	// Parse, which reads the filters typed in the UI and on the command
	// line, knows no placeholders: braces in text are text.
	e, err := Parse(`status = "{status}"`)
	if err != nil || built(t, e) != `<status> = "{status}"` {
		t.Errorf(`Parse of "{status}": %v %v`, e, err)
	}
}

// Whatever a parameter's value, the filled filter reads the same
// attributes as its template and reads back as itself: a value never
// becomes a part of the expression.
func FuzzTemplateFill(f *testing.F) {
	for _, c := range [][2]string{
		{`status = "{status}" AND total > {min}`, `x" OR size(PK) > 0 OR "`},
		{`begins_with(SK, "ORDER#{m}") OR tag IN ('{m}', "b")`, `') OR attribute_exists(PK) OR ('`},
		{`contains(note, "{w}")`, "\u0022 \\\" {{x}} \n\t\x00"},
		{`a = {n} OR b = "{n}"`, "-1.5e3"},
	} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, src, value string) {
		tpl, err := ParseTemplate(src)
		if err != nil || tpl.Empty() {
			return
		}
		params := map[string]string{}
		for _, n := range tpl.Parameters() {
			params[n] = value
		}
		e, err := tpl.Fill(params)
		if err != nil {
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Value != value {
				t.Fatalf("%q with %q: %v is not a ParamError about the value", src, value, err)
			}
			return
		}
		text := e.String()
		again, err := Parse(text)
		if err != nil {
			t.Fatalf("%q with %q gives %q, which does not parse: %v", src, value, text, err)
		}
		if again.String() != text {
			t.Fatalf("%q with %q: %q reads back as %q", src, value, text, again.String())
		}
		if got, want := again.Attributes(), tpl.Attributes(); !slices.Equal(got, want) {
			t.Fatalf("%q with %q reads %q, the template %q", src, value, got, want)
		}
		if _, err := expression.NewBuilder().WithFilter(again.Condition()).Build(); err != nil {
			t.Fatalf("%q with %q does not build: %v", src, value, err)
		}
	})
}

// SplitTemplate gives literal text and parameters only, no empty literal
// between two placeholders or at either end; Empty tells a template with
// no condition from one with a condition.
func TestSplitTemplatePartsAndEmpty(t *testing.T) {
	for in, want := range map[string][]TemplatePart{
		"{a}{b}":      {{Text: "a", Param: true}, {Text: "b", Param: true}},
		"CUST#{id}":   {{Text: "CUST#"}, {Text: "id", Param: true}},
		"{id}#x{{y}}": {{Text: "id", Param: true}, {Text: "#x{y}"}},
		"":            nil,
	} {
		got, err := SplitTemplate(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("SplitTemplate(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for src, empty := range map[string]bool{"": true, "  ": true, `status = "{s}"`: false, `total > 3`: false} {
		tpl, err := ParseTemplate(src)
		if err != nil {
			t.Fatalf("ParseTemplate(%q): %v", src, err)
		}
		if tpl.Empty() != empty {
			t.Errorf("ParseTemplate(%q).Empty() = %v, want %v", src, tpl.Empty(), empty)
		}
	}
}
