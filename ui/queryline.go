package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/ui/keymap"
	"dynascope/ui/request"
	"dynascope/ui/widget"
)

// editKind is what the query line's field is editing.
type editKind int

const (
	editNone editKind = iota
	editCondition
	editLimit
	editFilter
	editRequestFilter // the request's FilterExpression, sent to DynamoDB
	editProjection    // the request's ProjectionExpression
)

// queryLine shows the current request in DynamoDB's words, and is where the
// sort-key condition, the Limit and the local filter are typed.
type queryLine struct {
	edit  editKind
	input widget.LineEdit
	err   string // why the typed text was refused, sanitised
	dates string // the name of the partition's time-shaped value group, which takes a date prefix
}

func (l queryLine) view(st styles, q dynamo.QueryInput, get bool, keyCond string, skName string, w int) string {
	switch l.edit {
	case editCondition:
		label := " " + st.Accent.Render(sanitize(skName)+" ›") + " "
		return label + l.input.View(st, max(1, w-widget.Width(label)), "")
	case editLimit:
		label := " " + st.Accent.Render("Limit ›") + " "
		return label + l.input.View(st, max(1, w-widget.Width(label)), "")
	case editFilter:
		label := " " + st.Accent.Render("filter ›") + " "
		return label + l.input.View(st, max(1, w-widget.Width(label)), "")
	case editRequestFilter:
		label := " " + st.Accent.Render("FilterExpression ›") + " "
		return label + l.input.View(st, max(1, w-widget.Width(label)), "")
	case editProjection:
		label := " " + st.Accent.Render("ProjectionExpression ›") + " "
		return label + l.input.View(st, max(1, w-widget.Width(label)), "")
	}
	cond := st.QueryKey.Render(sanitize(keyCond))
	if q.Filter != "" {
		// The filter is part of the request: shown with the key condition.
		cond += st.Accent.Render("  filter " + sanitize(q.Filter))
	}
	if q.Project != "" {
		cond += st.Accent.Render("  project " + sanitize(q.Project))
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

// hint is the line under the field while editing: the syntax, or the
// error; otherwise note (what a filtered request kept of what it read).
func (l queryLine) hint(st styles, loaded int, note string, w int) string {
	if l.err != "" {
		return widget.Fit(" "+st.Err.Render(l.err), w)
	}
	var h string
	switch l.edit {
	case editNone:
		return widget.Fit(" "+st.Accent.Render(note), w)
	case editRequestFilter:
		h = `= <> < <= > >= BETWEEN IN begins_with contains attribute_exists size AND OR NOT  ·  e.g. status = "OPEN" AND total > 1000  ·  empty: no filter`
	case editProjection:
		h = "the attributes to return, a, b, c.d (the keys always come too)  ·  saves bandwidth, not capacity  ·  empty: every attribute"
	case editCondition:
		h = `= < <= > >= between begins_with  ·  e.g. begins_with ORDER#  or  between "A" and "B"  ·  empty: the whole partition`
		if l.dates != "" {
			h = `= < <= > >= between begins_with  ·  2024-03: that month of the ` + l.dates + ` group  ·  empty: the whole partition`
		}
	case editLimit:
		h = "items per request  ·  empty or 0: no Limit (DynamoDB's pages of up to 1 MB load as you scroll)"
	case editFilter:
		h = fmt.Sprintf("filters the %s locally; no request is sent", plural(loaded, "loaded item", "loaded items"))
	}
	return widget.Fit(" "+st.Muted.Render(h), w)
}

// formatCondition writes a sort-key condition the way parseCondition reads it.
func formatCondition(c dynamo.SKCond) string {
	switch {
	case c.Op == dynamo.SKNone:
		return ""
	case c.Op == dynamo.SKBetween && len(c.Values) == 2:
		return "between " + quoteValue(c.Values[0]) + " and " + quoteValue(c.Values[1])
	case len(c.Values) == 1:
		return string(c.Op) + " " + quoteValue(c.Values[0])
	}
	return string(c.Op)
}

func quoteValue(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// ops in the order they must be tried: "<=" before "<".
var condOps = []dynamo.SKOp{dynamo.SKBeginsWith, dynamo.SKBetween, dynamo.SKLe, dynamo.SKGe, dynamo.SKEq, dynamo.SKLt, dynamo.SKGt}

// parseCondition reads a sort-key condition as typed in the query line:
// an operator and a value, a value alone meaning begins_with. Values may be
// quoted ("ORDER#", with \" and \\) to keep spaces or to hold " and ".
func parseCondition(text string) (dynamo.SKCond, error) {
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
			return dynamo.SKCond{}, fmt.Errorf("unexpected text after the second value: %s", sanitize(tail))
		}
		return dynamo.SKCond{Op: op, Values: []string{a, b}}, nil
	}
	v, tail, err := takeValue(s, false)
	if err != nil {
		return dynamo.SKCond{}, err
	}
	if strings.TrimSpace(tail) != "" {
		return dynamo.SKCond{}, fmt.Errorf("unexpected text after the value: %s; quote a value that has spaces", sanitize(tail))
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

// parseLimit reads the Limit field: empty or 0 for none.
func parseLimit(text string) (int32, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("Limit is a whole number of items, 1 or more (0 or empty for none); %q is not.", sanitize(s))
	}
	return int32(n), nil
}

// editKey handles the query line's field: the sort-key condition, the Limit,
// or the local filter.
func (m Model) editKey(msg tea.KeyPressMsg, km keymap.KeyMap, md *keymap.Mode) (Model, tea.Cmd) {
	switch {
	case key.Matches(msg, km.Cancel):
		if md == modeFilter {
			m.items = m.items.SetFilter("")
		}
		m.qline = queryLine{}
		return m.maybeLoadMore()
	case key.Matches(msg, km.Open):
		text := m.qline.input.String()
		switch md {
		case modeCondition:
			c, isDate, err := m.groups.labelDatePrefix(text, m.query.SK)
			if !isDate {
				c, isDate, err = m.groups.datePrefix(text)
			}
			if !isDate {
				c, err = parseCondition(text)
			}
			if err != nil {
				m.qline.err = sanitize(err.Error())
				return m, nil
			}
			q := m.query
			q.SK = c
			if _, err := dynamo.BuildQuery(m.schema, q); err != nil {
				m.qline.err = sanitize(err.Error())
				return m, nil
			}
			m.qline = queryLine{}
			return m.runQuery(q)
		case modeRequestFilter, modeProjection:
			q := m.query
			if md == modeProjection {
				q.Project = text
			} else {
				q.Filter = text
			}
			if _, err := dynamo.BuildQuery(m.schema, q); err != nil {
				m.qline.err = sanitize(err.Error())
				return m, nil
			}
			m.qline = queryLine{}
			return m.runQuery(q)
		case modeLimit:
			n, err := parseLimit(text)
			if err != nil {
				m.qline.err = err.Error()
				return m, nil
			}
			m.qline = queryLine{}
			q := m.query
			q.Limit = n
			return m.runQuery(q)
		default:
			m.qline = queryLine{}
			m.focus = paneItems
			return m, nil
		}
	}
	return m.editText(msg)
}

func (m Model) editText(msg tea.Msg) (Model, tea.Cmd) {
	in, ok := m.qline.input.Update(msg)
	if !ok {
		return m, nil
	}
	m.qline.input, m.qline.err = in, ""
	if m.qline.edit == editFilter {
		m.items = m.items.SetFilter(in.String())
		return m.itemsFollowUp()
	}
	return m, nil
}

func (m Model) startEdit(k editKind, text string) Model {
	m.qline = queryLine{edit: k, input: widget.NewLineEdit(text)}
	if t, _, ok := m.groups.labelTimes(m.query.SK); ok && k == editCondition {
		m.qline.dates = sanitize(t.Entity)
	} else if t, ok := m.groups.timeGroup(); ok && k == editCondition {
		m.qline.dates = sanitize(t.Entity)
	}
	return m
}

// The query line's fields: enter applies, esc cancels, printable keys type.
var (
	modeCondition = editMode("condition", "run query")
	modeLimit     = editMode("limit", "apply Limit")
	modeFilter    = editMode("filter", "keep filter")
	// requestFilterMode edits the FilterExpression DynamoDB applies after
	// reading: it narrows what comes back, not what is charged.
	modeRequestFilter = editMode("request filter", "run with this filter")
	modeProjection    = editMode("projection", "run with this projection")
)

func editMode(name, apply string) *keymap.Mode {
	return &keymap.Mode{Name: name, Typing: true, Keys: []keymap.Binding{keymap.InBar("open", apply), keymap.InBar("cancel", "cancel")}}
}
