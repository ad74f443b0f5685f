package filterexpr

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec/number"
)

// Step is one step of a document path: a map key or a list index.
type Step struct {
	Name    string
	Index   int
	IsIndex bool
}

// Path is a document path: address.city, items[0].sku.
type Path []Step

type nodeKind int

const (
	nAnd nodeKind = iota
	nOr
	nNot
	nCmp     // op is the comparator
	nBetween // args: operand, low, high
	nIn      // args: operand, then the list
	nFunc    // op is the function name
)

type opKind int

const (
	oPath opKind = iota
	oValue
	oSize // size(path)
)

type operand struct {
	kind opKind
	path Path
	val  types.AttributeValue
	// A placeholder of a template (template.go), which Fill replaces: a
	// bare {number}, or the parts of a quoted text that holds one. val is
	// then a value of the type it will have.
	number string
	parts  []TemplatePart
	// bare is a path written as a plain word (not in back quotes) and col
	// its column: what SuspectNames (suspect.go) weighs and names.
	bare bool
	col  int
}

type node struct {
	kind nodeKind
	op   string
	kids []*node
	args []operand
}

// Expr is a parsed condition: what the user wrote, checked, ready to become
// a ConditionBuilder. The zero Expr is no condition.
type Expr struct{ root *node }

// Empty tells whether the expression holds no condition.
func (e Expr) Empty() bool { return e.root == nil }

// MaxInList is DynamoDB's limit on the values an IN list compares with.
const MaxInList = 100

// attrTypes are the types attribute_type accepts.
var attrTypes = []string{"S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M"}

// conditionFuncs are the functions that are conditions themselves.
var conditionFuncs = map[string]bool{"attribute_exists": true, "attribute_not_exists": true, "attribute_type": true, "begins_with": true, "contains": true}

type parser struct {
	src  string
	what string
	toks []token
	i    int
}

// notValue refuses a placeholder found where no value can stand; nil when
// t is not one.
func (p *parser) notValue(t token, where string) error {
	if t.kind != tParam {
		return nil
	}
	return p.fail(t, "%s stands %s, but a placeholder stands for a value only (\"{%s}\" for text, %s for a number)", t.raw, where, t.text, t.raw)
}

// Parse reads a condition. Blank text is the empty Expr; anything that is
// not a condition is a *SyntaxError naming the column.
func Parse(src string) (Expr, error) { return parse(src, false) }

// parse reads a condition, or a template of one (tmpl: template.go).
func parse(src string, tmpl bool) (Expr, error) {
	if strings.TrimSpace(src) == "" {
		return Expr{}, nil
	}
	toks, err := lexAs(src, "filter", tmpl)
	if err != nil {
		return Expr{}, err
	}
	p := &parser{src: src, what: "filter", toks: toks}
	n, err := p.or(0)
	if err != nil {
		return Expr{}, err
	}
	if t := p.peek(); t.kind != tEOF {
		if t.kind == tPunct && t.text == ")" {
			return Expr{}, p.fail(t, "this ) closes no (")
		}
		if err := p.notValue(t, "where AND or OR is expected"); err != nil {
			return Expr{}, err
		}
		return Expr{}, p.fail(t, "expected AND or OR before %s", t.raw)
	}
	return Expr{root: n}, nil
}

// maxDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxDepth = 100

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) fail(t token, format string, a ...any) error {
	return &SyntaxError{Col: column(p.src, t.pos), Msg: fmt.Sprintf(format, a...), What: p.what}
}

// near names a token for a message: "the end" or its text.
func near(t token) string {
	if t.kind == tEOF {
		return "the end"
	}
	return t.raw
}

func (p *parser) keyword(word string) bool {
	t := p.peek()
	if t.kind == tIdent && strings.EqualFold(t.text, word) {
		p.i++
		return true
	}
	return false
}

func (p *parser) punct(s string) bool {
	if t := p.peek(); t.kind == tPunct && t.text == s {
		p.i++
		return true
	}
	return false
}

func (p *parser) expect(s, after string) error {
	if p.punct(s) {
		return nil
	}
	t := p.peek()
	return p.fail(t, "expected %s %s, found %s", s, after, near(t))
}

func (p *parser) or(depth int) (*node, error) {
	left, err := p.and(depth)
	if err != nil {
		return nil, err
	}
	for p.keyword("OR") {
		right, err := p.and(depth)
		if err != nil {
			return nil, err
		}
		left = join(nOr, left, right)
	}
	return left, nil
}

func (p *parser) and(depth int) (*node, error) {
	left, err := p.not(depth)
	if err != nil {
		return nil, err
	}
	for p.keyword("AND") {
		right, err := p.not(depth)
		if err != nil {
			return nil, err
		}
		left = join(nAnd, left, right)
	}
	return left, nil
}

// join makes a AND b (or OR), flattening a chain into one node.
func join(k nodeKind, a, b *node) *node {
	if a.kind == k {
		a.kids = append(a.kids, b)
		return a
	}
	return &node{kind: k, kids: []*node{a, b}}
}

func (p *parser) not(depth int) (*node, error) {
	if depth > maxDepth {
		return nil, p.fail(p.peek(), "the condition nests deeper than %d levels", maxDepth)
	}
	if p.keyword("NOT") {
		n, err := p.not(depth + 1)
		if err != nil {
			return nil, err
		}
		return &node{kind: nNot, kids: []*node{n}}, nil
	}
	return p.primary(depth)
}

func (p *parser) primary(depth int) (*node, error) {
	t := p.peek()
	if p.punct("(") {
		n, err := p.or(depth + 1)
		if err != nil {
			return nil, err
		}
		return n, p.expect(")", "to close the ( at column "+strconv.Itoa(column(p.src, t.pos)))
	}
	if t.kind == tIdent && conditionFuncs[t.text] && p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "(" {
		return p.function()
	}
	if t.kind == tEOF {
		return nil, p.fail(t, "expected a condition, found the end")
	}
	left, err := p.operand()
	if err != nil {
		return nil, err
	}
	op := p.peek()
	switch {
	case op.kind == tOp:
		p.next()
		right, err := p.operand()
		if err != nil {
			return nil, err
		}
		if left.kind == oValue && right.kind == oValue {
			if err := p.notValue(t, "where an attribute name is expected"); err != nil {
				return nil, err
			}
			return nil, p.fail(t, "both sides of %s are values; compare an attribute with a value", op.text)
		}
		return &node{kind: nCmp, op: op.text, args: []operand{left, right}}, nil
	case p.keyword("BETWEEN"):
		low, err := p.operand()
		if err != nil {
			return nil, err
		}
		if !p.keyword("AND") {
			return nil, p.fail(p.peek(), "expected AND between the two bounds of BETWEEN, found %s", near(p.peek()))
		}
		high, err := p.operand()
		if err != nil {
			return nil, err
		}
		if left.kind == oValue && low.kind == oValue && high.kind == oValue {
			return nil, p.fail(t, "BETWEEN needs an attribute, not only values")
		}
		return &node{kind: nBetween, args: []operand{left, low, high}}, nil
	case p.keyword("IN"):
		if err := p.expect("(", "after IN"); err != nil {
			return nil, err
		}
		args := []operand{left}
		for {
			v, err := p.operand()
			if err != nil {
				return nil, err
			}
			args = append(args, v)
			if len(args)-1 > MaxInList {
				return nil, p.fail(p.peek(), "IN takes at most %d values", MaxInList)
			}
			if !p.punct(",") {
				break
			}
		}
		if err := p.expect(")", "to close the IN list"); err != nil {
			return nil, err
		}
		return &node{kind: nIn, args: args}, nil
	}
	if err := p.notValue(op, "where an operator is expected"); err != nil {
		return nil, err
	}
	return nil, p.fail(op, "expected a comparison (=, <>, <, <=, >, >=, BETWEEN or IN) after %s, found %s", t.raw, near(op))
}

// function reads attribute_exists(path) and the other condition functions.
func (p *parser) function() (*node, error) {
	name := p.next()
	p.next() // (
	path, err := p.pathArg(name.text)
	if err != nil {
		return nil, err
	}
	n := &node{kind: nFunc, op: name.text, args: []operand{{kind: oPath, path: path}}}
	switch name.text {
	case "attribute_exists", "attribute_not_exists":
	default:
		if err := p.expect(",", "and a second argument to "+name.text); err != nil {
			return nil, err
		}
		at := p.peek()
		v, err := p.operand()
		if err != nil {
			return nil, err
		}
		if v.kind != oValue {
			return nil, p.fail(at, "the second argument of %s must be a value", name.text)
		}
		switch name.text {
		case "begins_with":
			if _, ok := v.val.(*types.AttributeValueMemberS); !ok {
				return nil, p.fail(at, "begins_with takes a text prefix in quotes")
			}
		case "attribute_type":
			if v.parts != nil {
				return nil, p.fail(at, "attribute_type takes a type written out (%s), not a placeholder", strings.Join(attrTypes, ", "))
			}
			s, ok := v.val.(*types.AttributeValueMemberS)
			if !ok || !contains(attrTypes, s.Value) {
				return nil, p.fail(at, "attribute_type takes one of %s in quotes", strings.Join(attrTypes, ", "))
			}
		}
		n.args = append(n.args, v)
	}
	return n, p.expect(")", "to close "+name.text+"(")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// pathArg reads the path a function takes as its first argument.
func (p *parser) pathArg(fn string) (Path, error) {
	t := p.peek()
	if err := p.notValue(t, "where "+fn+" takes an attribute name"); err != nil {
		return nil, err
	}
	if t.kind != tIdent && t.kind != tQuoted {
		return nil, p.fail(t, "%s takes an attribute name first, found %s", fn, near(t))
	}
	return p.path()
}

func (p *parser) operand() (operand, error) {
	t := p.peek()
	switch t.kind {
	case tString:
		p.next()
		return operand{kind: oValue, val: &types.AttributeValueMemberS{Value: t.text}, parts: t.parts}, nil
	case tParam:
		p.next()
		return operand{kind: oValue, val: &types.AttributeValueMemberN{Value: "0"}, number: t.text}, nil
	case tNumber:
		p.next()
		d, err := number.Parse(t.text)
		if err != nil {
			why := "it is not a number"
			if err != number.ErrSyntax {
				why = "DynamoDB cannot store it: " + err.Error()
			}
			return operand{}, p.fail(t, "%s is not a number value (%s)", t.raw, why)
		}
		_ = d
		return operand{kind: oValue, val: &types.AttributeValueMemberN{Value: t.text}}, nil
	case tBinary:
		p.next()
		b, err := base64.StdEncoding.DecodeString(t.text)
		if err != nil {
			return operand{}, p.fail(t, "a binary value b\"…\" holds base64, and %s is not base64", t.raw)
		}
		return operand{kind: oValue, val: &types.AttributeValueMemberB{Value: b}}, nil
	case tQuoted:
		path, err := p.path()
		return operand{kind: oPath, path: path}, err
	case tIdent:
		switch strings.ToLower(t.text) {
		case "true", "false":
			p.next()
			return operand{kind: oValue, val: &types.AttributeValueMemberBOOL{Value: strings.EqualFold(t.text, "true")}}, nil
		case "null":
			p.next()
			return operand{kind: oValue, val: &types.AttributeValueMemberNULL{Value: true}}, nil
		case "and", "or", "not", "between", "in":
			return operand{}, p.fail(t, "expected an attribute or a value, found the keyword %s (quote a name like this as `%s`)", t.raw, t.text)
		}
		if p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "(" {
			if t.text == "size" {
				p.next()
				p.next()
				path, err := p.pathArg("size")
				if err != nil {
					return operand{}, err
				}
				return operand{kind: oSize, path: path}, p.expect(")", "to close size(")
			}
			if conditionFuncs[t.text] {
				return operand{}, p.fail(t, "%s is a condition on its own, not a value to compare", t.text)
			}
			return operand{}, p.fail(t, "%s is not a function; the functions are size, %s", t.text, strings.Join(sortedFuncs(), ", "))
		}
		path, err := p.path()
		return operand{kind: oPath, path: path, bare: true, col: column(p.src, t.pos)}, err
	}
	return operand{}, p.fail(t, "expected an attribute or a value, found %s", near(t))
}

func sortedFuncs() []string {
	return []string{"attribute_exists", "attribute_not_exists", "attribute_type", "begins_with", "contains"}
}

// path reads name ( .name | [n] )*.
func (p *parser) path() (Path, error) {
	t := p.next()
	path := Path{{Name: t.text}}
	for {
		switch {
		case p.punct("."):
			n := p.peek()
			if err := p.notValue(n, "where an attribute name is expected"); err != nil {
				return nil, err
			}
			if n.kind != tIdent && n.kind != tQuoted {
				return nil, p.fail(n, "expected an attribute name after the dot, found %s", near(n))
			}
			p.next()
			path = append(path, Step{Name: n.text})
		case p.punct("["):
			n := p.peek()
			if err := p.notValue(n, "where a list index is expected"); err != nil {
				return nil, err
			}
			if n.kind != tNumber || strings.ContainsAny(n.text, ".eE+-") {
				return nil, p.fail(n, "expected a list index (0, 1, …) inside [ ], found %s", near(n))
			}
			idx, err := strconv.Atoi(n.text)
			if err != nil || idx > 1<<30 {
				return nil, p.fail(n, "the list index %s is too large", n.raw)
			}
			p.next()
			if err := p.expect("]", "after the list index"); err != nil {
				return nil, err
			}
			path = append(path, Step{Index: idx, IsIndex: true})
		default:
			return path, nil
		}
	}
}

// ParseProjection reads a list of paths separated by commas: `a, b, c.d`.
func ParseProjection(src string) ([]Path, error) {
	if strings.TrimSpace(src) == "" {
		return nil, nil
	}
	toks, err := lex(src, "projection")
	if err != nil {
		return nil, err
	}
	p := &parser{src: src, what: "projection", toks: toks}
	var out []Path
	for {
		t := p.peek()
		if t.kind != tIdent && t.kind != tQuoted {
			return nil, p.fail(t, "expected an attribute name, found %s", near(t))
		}
		path, err := p.path()
		if err != nil {
			return nil, err
		}
		out = append(out, path)
		if p.punct(",") {
			continue
		}
		if t := p.peek(); t.kind != tEOF {
			return nil, p.fail(t, "expected a comma between attribute names, found %s", near(t))
		}
		return out, nil
	}
}
