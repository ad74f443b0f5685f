package filterexpr

// Templates: a filter whose literal values hold {name} placeholders, as the
// patterns file writes them ("open orders above an amount"). A placeholder
// stands for a value only, never for an attribute name, an operator or a
// keyword, and it is filled in the parsed tree, not in the text: the value
// becomes a value of the condition (an ExpressionAttributeValue once
// built), whatever quotes or keywords it holds.
//
// The typing rule:
//   - inside quotes, "{status}" or "OPEN#{date}", the placeholder is text:
//     the value is a string, taken as it is;
//   - bare, {min}, it is a number: the value must be a DynamoDB number, and
//     any other value is refused with one sentence.
//
// {{ and }} are literal braces, in quoted text and in back-quoted names
// alike, as in the key templates of the patterns file.

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec/number"
)

// TemplatePart is a piece of a template: literal text or a parameter name.
type TemplatePart struct {
	Text  string
	Param bool
}

// paramName is what may stand between the braces of a placeholder.
var paramName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// SplitTemplate splits "CUST#{customerId}" into its literal text and
// parameters; {{ and }} are literal braces. The key templates of the
// patterns file and the quoted values of a filter template share it.
func SplitTemplate(s string) ([]TemplatePart, error) {
	var parts []TemplatePart
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, TemplatePart{Text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "{{"):
			lit.WriteByte('{')
			i += 2
		case strings.HasPrefix(s[i:], "}}"):
			lit.WriteByte('}')
			i += 2
		case s[i] == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("%q has a { without its closing }; write {{ for a literal brace", s)
			}
			name := s[i+1 : i+end]
			if !paramName.MatchString(name) {
				return nil, fmt.Errorf("%q has the placeholder {%s}, but a placeholder is a name of letters, digits and _ (write {{ and }} for literal braces)", s, name)
			}
			flush()
			parts = append(parts, TemplatePart{Text: name, Param: true})
			i += end + 1
		case s[i] == '}':
			return nil, fmt.Errorf("%q has a } without its opening {; write }} for a literal brace", s)
		default:
			lit.WriteByte(s[i])
			i++
		}
	}
	flush()
	return parts, nil
}

// template splits the text of a quoted string at i.
func (l *lexer) template(i int, s string) ([]TemplatePart, error) {
	parts, err := SplitTemplate(s)
	if err != nil {
		return nil, l.fail(i, "the text %s", strings.TrimPrefix(err.Error(), fmt.Sprintf("%q ", s)))
	}
	return parts, nil
}

// literal is a back-quoted name of a template: its braces doubled, since a
// placeholder cannot name an attribute.
func (l *lexer) literal(i int, name string) (string, error) {
	parts, err := l.template(i, name)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Param {
			return "", l.fail(i, "{%s} stands in an attribute name, but a placeholder stands for a value only (\"{%s}\" for text, {%s} for a number)", p.Text, p.Text, p.Text)
		}
		b.WriteString(p.Text)
	}
	return b.String(), nil
}

// param reads a bare {name} at i: a number placeholder.
func (l *lexer) param(i int) (token, int, error) {
	end := strings.IndexByte(l.src[i:], '}')
	if end < 0 {
		return token{}, 0, l.fail(i, "the { is never closed; a placeholder is {name}")
	}
	name := l.src[i+1 : i+end]
	if !paramName.MatchString(name) {
		return token{}, 0, l.fail(i, "{%s} is not a placeholder: a placeholder is a name of letters, digits and _ in braces", name)
	}
	return token{kind: tParam, text: name, pos: i, raw: l.src[i : i+end+1]}, i + end + 1, nil
}

// Template is a parsed filter template: a condition whose values may be
// placeholders, checked, waiting for its parameters.
type Template struct{ root *node }

// ParseTemplate reads a filter template: the condition syntax of Parse
// with {name} placeholders in its values (see the typing rule at the top
// of this file). A placeholder anywhere else is a *SyntaxError.
func ParseTemplate(src string) (Template, error) {
	e, err := parse(src, true)
	return Template{root: e.root}, err
}

// Empty tells whether the template holds no condition.
func (t Template) Empty() bool { return t.root == nil }

// Attributes are the top-level attributes the condition reads (Expr.Attributes).
func (t Template) Attributes() []string { return Expr(t).Attributes() }

// Parameters lists the placeholders in the order they first appear.
func (t Template) Parameters() []string {
	var names []string
	walkOperands(t.root, func(o operand) {
		if o.number != "" && !slices.Contains(names, o.number) {
			names = append(names, o.number)
		}
		for _, p := range o.parts {
			if p.Param && !slices.Contains(names, p.Text) {
				names = append(names, p.Text)
			}
		}
	})
	return names
}

func walkOperands(n *node, f func(operand)) {
	if n == nil {
		return
	}
	for _, a := range n.args {
		f(a)
	}
	for _, k := range n.kids {
		walkOperands(k, f)
	}
}

// ParamError is a parameter's value that its placeholder cannot take.
type ParamError struct {
	Param, Value string
	Msg          string // the whole sentence
}

func (e *ParamError) Error() string { return e.Msg }

// Fill puts the values of params into the placeholders and returns the
// condition. A missing parameter is an error, and so is a bare (number)
// placeholder given something that is not a DynamoDB number.
func (t Template) Fill(params map[string]string) (Expr, error) {
	var fill func(n *node) (*node, error)
	fill = func(n *node) (*node, error) {
		out := &node{kind: n.kind, op: n.op}
		for _, k := range n.kids {
			c, err := fill(k)
			if err != nil {
				return nil, err
			}
			out.kids = append(out.kids, c)
		}
		for _, a := range n.args {
			v, err := a.fill(params)
			if err != nil {
				return nil, err
			}
			out.args = append(out.args, v)
		}
		return out, nil
	}
	if t.root == nil {
		return Expr{}, nil
	}
	root, err := fill(t.root)
	return Expr{root: root}, err
}

func (o operand) fill(params map[string]string) (operand, error) {
	value := func(name string) (string, error) {
		v, ok := params[name]
		if !ok {
			return "", &ParamError{Param: name, Msg: fmt.Sprintf("the filter needs a value for the parameter %s (placeholder {%s})", name, name)}
		}
		return v, nil
	}
	switch {
	case o.number != "":
		v, err := value(o.number)
		if err != nil {
			return o, err
		}
		if _, err := number.Parse(v); err != nil {
			why := "is not a number"
			if err != number.ErrSyntax {
				why = "is not a number DynamoDB can store (" + err.Error() + ")"
			}
			return o, &ParamError{Param: o.number, Value: v, Msg: fmt.Sprintf("the filter compares {%s} as a number (it is not in quotes), and %q %s; give a number, or write \"{%s}\" in the filter to compare text", o.number, v, why, o.number)}
		}
		return operand{kind: oValue, val: &types.AttributeValueMemberN{Value: v}}, nil
	case o.parts != nil:
		var b strings.Builder
		for _, p := range o.parts {
			if !p.Param {
				b.WriteString(p.Text)
				continue
			}
			v, err := value(p.Text)
			if err != nil {
				return o, err
			}
			if !utf8.ValidString(v) {
				// Written out, the bad bytes would become U+FFFD: a value
				// nobody asked for.
				return o, &ParamError{Param: p.Text, Value: v, Msg: fmt.Sprintf("the filter compares {%s} as text, and %q is not valid UTF-8", p.Text, v)}
			}
			b.WriteString(v)
		}
		return operand{kind: oValue, val: &types.AttributeValueMemberS{Value: b.String()}}, nil
	}
	return o, nil
}
