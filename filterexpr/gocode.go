package filterexpr

import (
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// GoCode writes the condition as Go source that builds the same
// ConditionBuilder with the SDK's expression package, for generated code;
// value writes a literal value as a Go expression expression.Value takes.
func (e Expr) GoCode(value func(types.AttributeValue) string) string {
	return e.root.goCode(value)
}

func (n *node) goCode(value func(types.AttributeValue) string) string {
	kids := func() []string {
		out := make([]string, len(n.kids))
		for i, k := range n.kids {
			out[i] = k.goCode(value)
		}
		return out
	}
	args := func(from int) []string {
		out := make([]string, 0, len(n.args))
		for _, a := range n.args[from:] {
			out = append(out, a.goCode(value))
		}
		return out
	}
	switch n.kind {
	case nAnd:
		return "expression.And(\n" + strings.Join(kids(), ",\n") + ")"
	case nOr:
		return "expression.Or(\n" + strings.Join(kids(), ",\n") + ")"
	case nNot:
		return "expression.Not(" + n.kids[0].goCode(value) + ")"
	case nCmp:
		fn := map[string]string{"=": "Equal", "<>": "NotEqual", "<": "LessThan", "<=": "LessThanEqual", ">": "GreaterThan", ">=": "GreaterThanEqual"}[n.op]
		return "expression." + fn + "(" + strings.Join(args(0), ", ") + ")"
	case nBetween:
		return "expression.Between(" + strings.Join(args(0), ", ") + ")"
	case nIn:
		return "expression.In(" + strings.Join(args(0), ", ") + ")"
	}
	name := n.args[0].path.GoCode()
	switch n.op {
	case "attribute_exists":
		return "expression.AttributeExists(" + name + ")"
	case "attribute_not_exists":
		return "expression.AttributeNotExists(" + name + ")"
	case "attribute_type":
		return "expression.AttributeType(" + name + ", expression." + attrTypeConst[n.args[1].val.(*types.AttributeValueMemberS).Value] + ")"
	case "begins_with":
		return "expression.BeginsWith(" + name + ", " + strconv.Quote(n.args[1].val.(*types.AttributeValueMemberS).Value) + ")"
	}
	return "expression.Contains(" + name + ", " + value(n.args[1].val) + ")"
}

// attrTypeConst names the expression package's constant for each type.
var attrTypeConst = map[string]string{
	"S": "String", "SS": "StringSet", "N": "Number", "NS": "NumberSet", "B": "Binary", "BS": "BinarySet",
	"BOOL": "Boolean", "NULL": "Null", "L": "List", "M": "Map",
}

func (o operand) goCode(value func(types.AttributeValue) string) string {
	switch o.kind {
	case oPath:
		return o.path.GoCode()
	case oSize:
		return o.path.GoCode() + ".Size()"
	}
	return "expression.Value(" + value(o.val) + ")"
}

// GoCode writes the path as a NameBuilder expression: expression.Name with
// the path's text where every name is a plain word (Name splits on dots),
// NameNoDotSplit steps otherwise.
func (p Path) GoCode() string {
	plain := true
	for _, s := range p {
		if !s.IsIndex && nameText(s.Name) != s.Name {
			plain = false
		}
	}
	if plain {
		return "expression.Name(" + strconv.Quote(p.String()) + ")"
	}
	var b strings.Builder
	b.WriteString("expression.NameNoDotSplit(" + strconv.Quote(p[0].Name) + ")")
	for _, s := range p[1:] {
		step := s.Name
		if s.IsIndex {
			step = "[" + strconv.Itoa(s.Index) + "]"
		}
		b.WriteString(".AppendName(expression.NameNoDotSplit(" + strconv.Quote(step) + "))")
	}
	return b.String()
}
