package filterexpr

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// built is what the SDK's builder makes of a condition, with placeholders
// replaced by their names and values, so a test can read it.
func built(t *testing.T, e Expr) string {
	t.Helper()
	x, err := expression.NewBuilder().WithFilter(e.Condition()).Build()
	if err != nil {
		t.Fatalf("build %q: %v", e, err)
	}
	s := *x.Filter()
	// Longest placeholders first: #10 before #1.
	names := slices.SortedFunc(maps.Keys(x.Names()), func(a, b string) int { return len(b) - len(a) })
	for _, k := range names {
		s = strings.ReplaceAll(s, k, "<"+x.Names()[k]+">")
	}
	vals := slices.SortedFunc(maps.Keys(x.Values()), func(a, b string) int { return len(b) - len(a) })
	for _, k := range vals {
		s = strings.ReplaceAll(s, k, ValueText(x.Values()[k]))
	}
	return s
}

func TestParseBuilds(t *testing.T) {
	for _, tc := range []struct{ in, want, text string }{
		{`status = "OPEN"`, `<status> = "OPEN"`, `status = "OPEN"`},
		{`status = 'OPEN' and total > 1000`, `(<status> = "OPEN") AND (<total> > 1000)`, `status = "OPEN" AND total > 1000`},
		{`a <> -1.5e3`, `<a> <> -1.5e3`, ``},
		{`a < 1 OR b <= 2 OR c >= 3`, `(<a> < 1) OR (<b> <= 2) OR (<c> >= 3)`, ``},
		{`NOT a = true`, `NOT (<a> = true)`, ``},
		{`not (a = 1 or b = null)`, `NOT ((<a> = 1) OR (<b> = null))`, `NOT (a = 1 OR b = null)`},
		{`total BETWEEN 10 AND 20`, `<total> BETWEEN 10 AND 20`, ``},
		{`status IN ("OPEN", "SHIPPED")`, `<status> IN ("OPEN", "SHIPPED")`, ``},
		{`begins_with(SK, "ORDER#")`, `begins_with (<SK>, "ORDER#")`, ``},
		{`contains(tags, 'red') AND contains(nums, 3)`, `(contains (<tags>, "red")) AND (contains (<nums>, 3))`, `contains(tags, "red") AND contains(nums, 3)`},
		{`attribute_exists(address.city)`, `attribute_exists (<address>.<city>)`, ``},
		{`attribute_not_exists(items[0].sku)`, `attribute_not_exists (<items>[0].<sku>)`, ``},
		{`attribute_type(total, "N")`, `attribute_type (<total>, "N")`, ``},
		{`size(items) > 2`, `size (<items>) > 2`, ``},
		{"`order-id` = \"A\" AND `a.b` = 1", `(<order-id> = "A") AND (<a.b> = 1)`, ""},
		{`a = b`, `<a> = <b>`, ``},
		{`1000 < total`, `1000 < <total>`, ``},
		{`bin = b"AAE="`, `<bin> = b"AAE="`, ``},
		{`a = 1 AND (b = 2 OR c = 3)`, `(<a> = 1) AND ((<b> = 2) OR (<c> = 3))`, ``},
		{`a = "x\"y\\z\n\u00e9"`, `<a> = "x\"y\\z\né"`, `a = "x\"y\\z\né"`},
	} {
		e, err := Parse(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := built(t, e); got != tc.want {
			t.Errorf("%q built %q, want %q", tc.in, got, tc.want)
		}
		want := tc.text
		if want == "" {
			want = tc.in
		}
		if got := e.String(); got != want {
			t.Errorf("%q reads back as %q, want %q", tc.in, got, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		in  string
		col int
		msg string
	}{
		{`status = `, 10, "expected an attribute or a value, found the end"},
		{`status = "OPEN`, 10, "never closed"},
		{`status == "OPEN"`, 8, "use = or <>"},
		{`status != "OPEN"`, 8, "write <>"},
		{`status = :v`, 10, "placeholders"},
		{`a = 1 b = 2`, 7, "expected AND or OR before b"},
		{`(a = 1`, 7, "expected ) to close the ( at column 1"},
		{`a = 1)`, 6, "closes no ("},
		{`a BETWEEN 1 2`, 13, "expected AND between"},
		{`a IN 1`, 6, "expected ( after IN"},
		{`begins_with(a, 1)`, 16, "text prefix"},
		{`attribute_type(a, "X")`, 19, "attribute_type takes one of"},
		{`size(a)`, 8, "expected a comparison"},
		{`1 = 2`, 1, "both sides of = are values"},
		{`a = 1e200`, 5, "DynamoDB cannot store it"},
		{`a = 12abc`, 5, "not a number"},
		{`frobnicate(a) = 1`, 1, "not a function"},
		{`begins_with(a, "x") = true`, 21, "expected AND or OR"},
		{`a = begins_with(b, "x")`, 5, "a condition on its own"},
		{`a = AND`, 5, "keyword AND"},
		{`a[x] = 1`, 3, "list index"},
		{`a. = 1`, 4, "after the dot"},
		{"`` = 1", 1, "cannot be empty"},
		{"é = 1", 1, "cannot appear here"},
		{"a = \xff", 5, "not valid UTF-8"},
		{`a = "\q"`, 6, "not an escape"},
		{`a = b"!!"`, 5, "not base64"},
		{``, 0, ""},
	} {
		_, err := Parse(tc.in)
		if tc.msg == "" {
			if err != nil {
				t.Errorf("%q: %v", tc.in, err)
			}
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: got %v, want a syntax error", tc.in, err)
			continue
		}
		if se.Col != tc.col || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("%q: column %d %q, want column %d with %q", tc.in, se.Col, se.Msg, tc.col, tc.msg)
		}
		// One sentence: it starts with "the filter", ends with one period.
		if s := err.Error(); !strings.HasPrefix(s, "the filter is not valid at column ") || !strings.HasSuffix(s, ".") || strings.Contains(s, "\n") {
			t.Errorf("%q: %q is not one sentence", tc.in, s)
		}
	}
}

func TestINLimitAndDepth(t *testing.T) {
	vals := make([]string, MaxInList)
	for i := range vals {
		vals[i] = "1"
	}
	if _, err := Parse("a IN (" + strings.Join(vals, ",") + ")"); err != nil {
		t.Errorf("%d values: %v", MaxInList, err)
	}
	if _, err := Parse("a IN (" + strings.Join(vals, ",") + ",1)"); err == nil || !strings.Contains(err.Error(), "at most 100") {
		t.Errorf("%d values: %v", MaxInList+1, err)
	}
	deep := strings.Repeat("(", 5000) + "a = 1" + strings.Repeat(")", 5000)
	if _, err := Parse(deep); err == nil || !strings.Contains(err.Error(), "nests deeper") {
		t.Errorf("deep nesting: %v", err)
	}
	if _, err := Parse(strings.Repeat("NOT ", 5000) + "a = 1"); err == nil {
		t.Error("5000 NOTs parsed")
	}
}

func TestProjection(t *testing.T) {
	paths, err := ParseProjection("a, b.c ,items[2].sku, `x-y`")
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, p := range paths {
		texts = append(texts, p.String())
	}
	if got := strings.Join(texts, "|"); got != "a|b.c|items[2].sku|`x-y`" {
		t.Errorf("paths %q", got)
	}
	x, err := expression.NewBuilder().WithProjection(Projection(paths)).Build()
	if err != nil {
		t.Fatal(err)
	}
	if got := *x.Projection(); got != "#0, #1.#2, #3[2].#4, #5" || x.Names()["#5"] != "x-y" {
		t.Errorf("projection %q %v", got, x.Names())
	}
	for _, bad := range []string{"a,", "a b", ",a", "a = 1"} {
		if _, err := ParseProjection(bad); err == nil || !strings.HasPrefix(err.Error(), "the projection is not valid at column") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// Values reach the request as typed attribute values, never as text in
// the expression.
func TestValuesAreTyped(t *testing.T) {
	e, err := Parse(`a = "1" AND b = 1 AND c = true AND d = null`)
	if err != nil {
		t.Fatal(err)
	}
	x, err := expression.NewBuilder().WithFilter(e.Condition()).Build()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, v := range x.Values() {
		switch v.(type) {
		case *types.AttributeValueMemberS:
			kinds["S"] = true
		case *types.AttributeValueMemberN:
			kinds["N"] = true
		case *types.AttributeValueMemberBOOL:
			kinds["BOOL"] = true
		case *types.AttributeValueMemberNULL:
			kinds["NULL"] = true
		}
	}
	if f := *x.Filter(); len(kinds) != 4 || strings.Contains(f, `"`) || strings.Contains(f, "true") || strings.Contains(f, "null") {
		t.Errorf("filter %q values %v", *x.Filter(), x.Values())
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`status = "OPEN" AND total > 1000`, `NOT (a = 1 OR b IN (1, 2, "x"))`, `size(items[0].x) BETWEEN 1 AND 3`,
		"attribute_type(`a.b`, 'S')", `contains(t, b"AAE=")`, `begins_with(a, "\u00e9\n")`, `a = -1.5E-3`, `((a=b))`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := Parse(src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Col < 1 || se.Col > len([]rune(src))+1 {
				t.Fatalf("%q: %v is not a syntax error with a column in the text", src, err)
			}
			return
		}
		if e.Empty() {
			if strings.TrimSpace(src) != "" {
				t.Fatalf("%q parsed to nothing", src)
			}
			return
		}
		if _, err := expression.NewBuilder().WithFilter(e.Condition()).Build(); err != nil {
			t.Fatalf("%q parsed but does not build: %v", src, err)
		}
		text := e.String()
		again, err := Parse(text)
		if err != nil {
			t.Fatalf("%q reads back as %q, which does not parse: %v", src, text, err)
		}
		if again.String() != text {
			t.Fatalf("%q: %q then %q", src, text, again.String())
		}
	})
}

// Attributes names every top-level attribute a condition reads, once, in
// order: through comparisons, BETWEEN, IN, functions, size() and NOT.
func TestAttributes(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"", ""},
		{`status = "OPEN"`, "status"},
		{`address.city = "Oslo" AND NOT attribute_exists(deletedAt)`, "address|deletedAt"},
		{`total BETWEEN 1 AND limit OR size(items[0].tags) > 2`, "total|limit|items"},
		{`kind IN ("a", "b") AND begins_with(kind, "a") AND contains(tags, "x")`, "kind|tags"},
		{"`x-y` <> 3", "x-y"},
	} {
		e, err := Parse(c.src)
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		if got := strings.Join(e.Attributes(), "|"); got != c.want {
			t.Errorf("%q: attributes %q, want %q", c.src, got, c.want)
		}
	}
}
