package pane

import (
	"dynascope/dynamo"
	"dynascope/textfmt"
	"dynascope/ui/request"
	"dynascope/ui/theme"
	"dynascope/ui/widget"
	"fmt"
	"strconv"
	"strings"
)

// EditKind is what the query line's field is editing.
type EditKind int

const (
	EditNone EditKind = iota
	EditCondition
	EditLimit
	EditFilter
	EditRequestFilter // the request's FilterExpression, sent to DynamoDB
	EditProjection    // the request's ProjectionExpression
)

// QueryLine shows the current request in DynamoDB's words, and is where the
// sort-key condition, the Limit and the local filter are typed.
type QueryLine struct {
	Edit  EditKind
	Input widget.LineEdit
	Err   string // why the typed text was refused, sanitised
	Dates string // the name of the partition's time-shaped value group, which takes a date prefix
}

// View is the query line for w cells: the field being edited, or the
// request q in DynamoDB's words (a GetItem's when get).
func (l QueryLine) View(st theme.Styles, q dynamo.QueryInput, get bool, keyCond string, skName string, w int) string {
	switch l.Edit {
	case EditCondition:
		label := " " + st.Accent.Render(textfmt.Sanitize(skName)+" ›") + " "
		return label + l.Input.View(st, max(1, w-widget.Width(label)), "")
	case EditLimit:
		label := " " + st.Accent.Render("Limit ›") + " "
		return label + l.Input.View(st, max(1, w-widget.Width(label)), "")
	case EditFilter:
		label := " " + st.Accent.Render("filter ›") + " "
		return label + l.Input.View(st, max(1, w-widget.Width(label)), "")
	case EditRequestFilter:
		label := " " + st.Accent.Render("FilterExpression ›") + " "
		return label + l.Input.View(st, max(1, w-widget.Width(label)), "")
	case EditProjection:
		label := " " + st.Accent.Render("ProjectionExpression ›") + " "
		return label + l.Input.View(st, max(1, w-widget.Width(label)), "")
	}
	cond := st.QueryKey.Render(textfmt.Sanitize(keyCond))
	if q.Filter != "" {
		// The filter is part of the request: shown with the key condition.
		cond += st.Accent.Render("  filter " + textfmt.Sanitize(q.Filter))
	}
	if q.Project != "" {
		cond += st.Accent.Render("  project " + textfmt.Sanitize(q.Project))
	}
	head := " " + st.Muted.Render("Query") + " "
	long, short := request.Options(q)
	if get {
		// A pattern's GetItem: one item by its full key, no other knobs.
		head = " " + st.Muted.Render("GetItem") + " "
		long, short = fmt.Sprintf("ConsistentRead=%t", q.Consistent), "eventual"
		if q.Consistent {
			short = "strong"
		}
	}
	for _, line := range []string{
		head + cond + "   " + st.Muted.Render(long),
		head + cond + "   " + st.Muted.Render(short),
		" " + cond + "  " + st.Muted.Render(short),
	} {
		if widget.Width(line) <= w {
			return widget.Fit(line, w)
		}
	}
	return widget.Fit(" "+cond+"  "+st.Muted.Render(short), w)
}

// Hint is the line under the field while editing: the syntax, or the
// error; otherwise note (what a filtered request kept of what it read).
func (l QueryLine) Hint(st theme.Styles, loaded int, note string, w int) string {
	if l.Err != "" {
		return widget.Fit(" "+st.Err.Render(l.Err), w)
	}
	var h string
	switch l.Edit {
	case EditNone:
		return widget.Fit(" "+st.Accent.Render(note), w)
	case EditRequestFilter:
		h = `= <> < <= > >= BETWEEN IN begins_with contains attribute_exists size AND OR NOT  ·  e.g. status = "OPEN" AND total > 1000  ·  empty: no filter`
	case EditProjection:
		h = "the attributes to return, a, b, c.d (the keys always come too)  ·  saves bandwidth, not capacity  ·  empty: every attribute"
	case EditCondition:
		h = `= < <= > >= between begins_with  ·  e.g. begins_with ORDER#  or  between "A" and "B"  ·  empty: the whole partition`
		if l.Dates != "" {
			h = `= < <= > >= between begins_with  ·  2024-03: that month of the ` + l.Dates + ` group  ·  empty: the whole partition`
		}
	case EditLimit:
		h = "items per request  ·  empty or 0: no Limit (DynamoDB's pages of up to 1 MB load as you scroll)"
	case EditFilter:
		h = fmt.Sprintf("filters the %s locally; no request is sent", textfmt.Plural(loaded, "loaded item", "loaded items"))
	}
	return widget.Fit(" "+st.Muted.Render(h), w)
}

// FormatCondition writes a sort-key condition the way parseCondition reads it.
func FormatCondition(c dynamo.SKCond) string {
	switch {
	case c.Op == dynamo.SKNone:
		return ""
	case c.Op == dynamo.SKBetween && len(c.Values) == 2:
		return "between " + QuoteValue(c.Values[0]) + " and " + QuoteValue(c.Values[1])
	case len(c.Values) == 1:
		return string(c.Op) + " " + QuoteValue(c.Values[0])
	}
	return string(c.Op)
}

// QuoteValue quotes a sort-key value as the condition editor reads it back.
func QuoteValue(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// ops in the order they must be tried: "<=" before "<".
var condOps = []dynamo.SKOp{dynamo.SKBeginsWith, dynamo.SKBetween, dynamo.SKLe, dynamo.SKGe, dynamo.SKEq, dynamo.SKLt, dynamo.SKGt}

// ParseCondition reads a sort-key condition as typed in the query line:
// an operator and a value, a value alone meaning begins_with. Values may be
// quoted ("ORDER#", with \" and \\) to keep spaces or to hold " and ".
func ParseCondition(text string) (dynamo.SKCond, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return dynamo.SKCond{}, nil
	}
	op := dynamo.SKBeginsWith
	for _, o := range condOps {
		word := o == dynamo.SKBeginsWith || o == dynamo.SKBetween
		if word && len(s) > len(o) && strings.EqualFold(s[:len(o)], string(o)) && (s[len(o)] == ' ' || s[len(o)] == '"') {
			op, s = o, strings.TrimSpace(s[len(o):])
			break
		}
		if !word && strings.HasPrefix(s, string(o)) {
			op, s = o, strings.TrimSpace(s[len(o):])
			break
		}
	}
	if op == dynamo.SKBetween {
		a, rest, err := takeValue(s, true)
		if err != nil {
			return dynamo.SKCond{}, err
		}
		rest = strings.TrimSpace(rest)
		if len(rest) < 4 || !strings.EqualFold(rest[:3], "and") || (rest[3] != ' ' && rest[3] != '"') {
			return dynamo.SKCond{}, fmt.Errorf(`between takes two values: between "A" and "B".`)
		}
		b, tail, err := takeValue(strings.TrimSpace(rest[3:]), false)
		if err != nil {
			return dynamo.SKCond{}, err
		}
		if strings.TrimSpace(tail) != "" {
			return dynamo.SKCond{}, fmt.Errorf("unexpected text after the second value: %s", textfmt.Sanitize(tail))
		}
		return dynamo.SKCond{Op: op, Values: []string{a, b}}, nil
	}
	v, tail, err := takeValue(s, false)
	if err != nil {
		return dynamo.SKCond{}, err
	}
	if strings.TrimSpace(tail) != "" {
		return dynamo.SKCond{}, fmt.Errorf("unexpected text after the value: %s; quote a value that has spaces", textfmt.Sanitize(tail))
	}
	if v == "" {
		return dynamo.SKCond{}, fmt.Errorf("%s needs a value, e.g. %s \"ORDER#\".", op, op)
	}
	return dynamo.SKCond{Op: op, Values: []string{v}}, nil
}

// takeValue reads one value: quoted, or up to " and " when another follows,
// or the rest of the text.
func takeValue(s string, another bool) (v, rest string, err error) {
	if strings.HasPrefix(s, `"`) {
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				if i+1 < len(s) {
					i++
					b.WriteByte(s[i])
				}
			case '"':
				return b.String(), s[i+1:], nil
			default:
				b.WriteByte(s[i])
			}
		}
		return "", "", fmt.Errorf("a quoted value has no closing quote.")
	}
	if another {
		if i := strings.Index(strings.ToLower(s), " and "); i >= 0 {
			return s[:i], s[i:], nil
		}
		return "", "", fmt.Errorf(`between takes two values: between "A" and "B".`)
	}
	return s, "", nil
}

// ParseLimit reads the Limit field: empty or 0 for none.
func ParseLimit(text string) (int32, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("Limit is a whole number of items, 1 or more (0 or empty for none); %q is not.", textfmt.Sanitize(s))
	}
	return int32(n), nil
}
