package filterexpr

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Condition is the expression as the SDK's builder: it assigns the #n and
// :v placeholders, so the request holds names and values only in its maps.
func (e Expr) Condition() expression.ConditionBuilder {
	return e.root.condition()
}

func (n *node) condition() expression.ConditionBuilder {
	switch n.kind {
	case nAnd, nOr:
		kids := make([]expression.ConditionBuilder, len(n.kids))
		for i, k := range n.kids {
			kids[i] = k.condition()
		}
		if n.kind == nAnd {
			return expression.And(kids[0], kids[1], kids[2:]...)
		}
		return expression.Or(kids[0], kids[1], kids[2:]...)
	case nNot:
		return expression.Not(n.kids[0].condition())
	case nCmp:
		l, r := n.args[0].builder(), n.args[1].builder()
		switch n.op {
		case "=":
			return expression.Equal(l, r)
		case "<>":
			return expression.NotEqual(l, r)
		case "<":
			return expression.LessThan(l, r)
		case "<=":
			return expression.LessThanEqual(l, r)
		case ">":
			return expression.GreaterThan(l, r)
		default:
			return expression.GreaterThanEqual(l, r)
		}
	case nBetween:
		return expression.Between(n.args[0].builder(), n.args[1].builder(), n.args[2].builder())
	case nIn:
		rest := make([]expression.OperandBuilder, 0, len(n.args)-2)
		for _, a := range n.args[2:] {
			rest = append(rest, a.builder())
		}
		return expression.In(n.args[0].builder(), n.args[1].builder(), rest...)
	}
	name := n.args[0].path.Name()
	switch n.op {
	case "attribute_exists":
		return expression.AttributeExists(name)
	case "attribute_not_exists":
		return expression.AttributeNotExists(name)
	case "attribute_type":
		return expression.AttributeType(name, expression.DynamoDBAttributeType(n.args[1].val.(*types.AttributeValueMemberS).Value))
	case "begins_with":
		return expression.BeginsWith(name, n.args[1].val.(*types.AttributeValueMemberS).Value)
	default: // contains
		return expression.Contains(name, n.args[1].val)
	}
}

func (o operand) builder() expression.OperandBuilder {
	switch o.kind {
	case oPath:
		return o.path.Name()
	case oSize:
		return o.path.Name().Size()
	}
	return expression.Value(o.val)
}

// Name is the path as the builder's NameBuilder. Each step is its own name,
// never split on dots again: a back-quoted `a.b` is one attribute.
func (p Path) Name() expression.NameBuilder {
	nb := expression.NameNoDotSplit(p[0].Name)
	for _, s := range p[1:] {
		if s.IsIndex {
			nb = nb.AppendName(expression.NameNoDotSplit("[" + strconv.Itoa(s.Index) + "]"))
		} else {
			nb = nb.AppendName(expression.NameNoDotSplit(s.Name))
		}
	}
	return nb
}

// Top is the top-level attribute the path starts from.
func (p Path) Top() string { return p[0].Name }

// String writes the path as Parse reads it: bare names where they can be,
// back quotes otherwise.
func (p Path) String() string {
	var b strings.Builder
	for i, s := range p {
		switch {
		case s.IsIndex:
			fmt.Fprintf(&b, "[%d]", s.Index)
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(nameText(s.Name))
		}
	}
	return b.String()
}

func nameText(s string) string {
	bare := s != ""
	for i, r := range s {
		if !(isIdentPart(r) && (i > 0 || isIdentStart(r))) {
			bare = false
			break
		}
	}
	switch strings.ToLower(s) {
	case "and", "or", "not", "between", "in", "true", "false", "null":
		bare = false
	}
	if bare {
		return s
	}
	return "`" + s + "`"
}

// Projection is the builder for a list of paths.
func Projection(paths []Path) expression.ProjectionBuilder {
	var pb expression.ProjectionBuilder
	for _, p := range paths {
		pb = pb.AddNames(p.Name())
	}
	return pb
}

// String writes the condition back as Parse reads it, with values quoted
// and escaped: for the query line, the request log and generated code.
// Parsing it again gives the same text.
func (e Expr) String() string {
	if e.root == nil {
		return ""
	}
	var b strings.Builder
	e.root.write(&b)
	return b.String()
}

func prec(k nodeKind) int {
	switch k {
	case nOr:
		return 1
	case nAnd:
		return 2
	case nNot:
		return 3
	}
	return 4
}

func (n *node) write(b *strings.Builder) {
	child := func(k *node, min int) {
		if prec(k.kind) < min {
			b.WriteByte('(')
			k.write(b)
			b.WriteByte(')')
			return
		}
		k.write(b)
	}
	switch n.kind {
	case nAnd, nOr:
		word := " AND "
		if n.kind == nOr {
			word = " OR "
		}
		for i, k := range n.kids {
			if i > 0 {
				b.WriteString(word)
			}
			// Same-kind children are parenthesised, so that a tree that
			// was not flattened (a AND (b AND c)) reads back the same.
			child(k, prec(n.kind)+1)
		}
	case nNot:
		b.WriteString("NOT ")
		child(n.kids[0], prec(nNot))
	case nCmp:
		b.WriteString(n.args[0].String() + " " + n.op + " " + n.args[1].String())
	case nBetween:
		b.WriteString(n.args[0].String() + " BETWEEN " + n.args[1].String() + " AND " + n.args[2].String())
	case nIn:
		b.WriteString(n.args[0].String() + " IN (")
		for i, a := range n.args[1:] {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(a.String())
		}
		b.WriteByte(')')
	case nFunc:
		b.WriteString(n.op + "(")
		for i, a := range n.args {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(a.String())
		}
		b.WriteByte(')')
	}
}

func (o operand) String() string {
	switch o.kind {
	case oPath:
		return o.path.String()
	case oSize:
		return "size(" + o.path.String() + ")"
	}
	return ValueText(o.val)
}

// ValueText writes a literal value as Parse reads it.
func ValueText(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return quoteText(v.Value)
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberB:
		return `b"` + base64.StdEncoding.EncodeToString(v.Value) + `"`
	case *types.AttributeValueMemberBOOL:
		return strconv.FormatBool(v.Value)
	case *types.AttributeValueMemberNULL:
		return "null"
	}
	return "?"
}

// quoteText writes s in double quotes with the escapes the lexer reads;
// control characters and other invisible ones become \uXXXX, so the text is
// safe on a terminal.
func quoteText(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r >= 0x7f && r < 0xa0 || r == 0x2028 || r == 0x2029 || r >= 0x200e && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x61c:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Attributes are the top-level attributes the condition reads, each once,
// in the order they first appear: what an index must project for the
// condition to be evaluated on it.
func (e Expr) Attributes() []string {
	var names []string
	var walk func(n *node)
	walk = func(n *node) {
		if n == nil {
			return
		}
		for _, a := range n.args {
			if (a.kind == oPath || a.kind == oSize) && len(a.path) > 0 && !slices.Contains(names, a.path.Top()) {
				names = append(names, a.path.Top())
			}
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(e.root)
	return names
}
