package partiql

// The plan of a PartiQL SELECT, found before it runs: DynamoDB turns a
// statement whose WHERE fixes the partition key by equality into a Query
// of that partition, and anything else into a Scan of the whole table or
// index. Only SELECT is ever sent: exploring is read-only, so every other
// statement is refused here, before any request.

import (
	"fmt"
	"strings"
	"unicode"

	"dynascope/textfmt"
)

// Plan says how DynamoDB will run a SELECT.
type Plan struct {
	Statement    string
	Table, Index string
	// Query is true when the WHERE clause fixes the partition key by
	// equality: DynamoDB reads that one partition. Otherwise it scans.
	Query  bool
	PKName string // the partition key of the table or index read
	PK     string // the value it is fixed to, as written in the statement
	// PKValue is that value unquoted (a string's text, a number's
	// digits), and PKNumber tells a number literal from a string: what
	// an answer's items are held to.
	PKValue  string
	PKNumber bool
	// OneItem is true when WHERE fixes the table's whole primary key by
	// equality (its sort key too, when it has one): the Query reads one
	// item at most. Never on an index, whose keys need not be unique.
	OneItem bool
	Why     string // the plan in one clause, for the announcement
}

// Kind is "Query" or "Scan".
func (p Plan) Kind() string {
	if p.Query {
		return "Query"
	}
	return "Scan"
}

// token is one PartiQL token.
type token struct {
	kind byte   // 'w' word, 'q' "quoted name", 's' 'string', 'n' number, 'p' punctuation
	text string // unquoted
	raw  string
}

// lex splits a statement into tokens, skipping blanks and comments. It is
// one switch over the statement's characters, a case per kind of token, so
// gocyclo counts it over 30: the count is the kinds of token, and split
// up, where one token ends would no longer be decided in one place.
func lex(s string) ([]token, error) {
	var out []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case strings.HasPrefix(s[i:], "--"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				i = len(s)
			} else {
				i += j + 1
			}
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return nil, &textfmt.UserError{Msg: "the statement has a /* comment that is never closed."}
			}
			i += j + 4
		case c == '\'' || c == '"':
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(s) {
					return nil, &textfmt.UserError{Msg: fmt.Sprintf("the statement has a %c quote that is never closed.", c)}
				}
				if s[j] == c {
					if j+1 < len(s) && s[j+1] == c { // '' and "" stand for the quote itself
						b.WriteByte(c)
						j += 2
						continue
					}
					break
				}
				b.WriteByte(s[j])
				j++
			}
			kind := byte('s')
			if c == '"' {
				kind = 'q'
			}
			out = append(out, token{kind: kind, text: b.String(), raw: s[i : j+1]})
			i = j + 1
		case c == '_' || c < 128 && unicode.IsLetter(rune(c)):
			j := i
			for j < len(s) && (s[j] == '_' || s[j] < 128 && (unicode.IsLetter(rune(s[j])) || unicode.IsDigit(rune(s[j])))) {
				j++
			}
			out = append(out, token{kind: 'w', text: s[i:j], raw: s[i:j]})
			i = j
		case c >= '0' && c <= '9' || c == '-' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := i + 1
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == 'e' || s[j] == 'E') {
				j++
			}
			out = append(out, token{kind: 'n', text: s[i:j], raw: s[i:j]})
			i = j
		default:
			n := 1
			if i+1 < len(s) && (s[i:i+2] == "<=" || s[i:i+2] == ">=" || s[i:i+2] == "<>" || s[i:i+2] == "!=") {
				n = 2
			}
			out = append(out, token{kind: 'p', text: s[i : i+n], raw: s[i : i+n]})
			i += n
		}
	}
	return out, nil
}

func (t token) is(word string) bool { return t.kind == 'w' && strings.EqualFold(t.text, word) }

// IsSelect tells whether a statement is a SELECT: its first keyword, after
// blanks, comments and opening parentheses. It is the one test that lets a
// statement through to DynamoDB.
func IsSelect(stmt string) bool {
	toks, err := lex(stmt)
	if err != nil {
		return false
	}
	for _, t := range toks {
		if t.kind == 'p' && t.text == "(" {
			continue
		}
		return t.is("SELECT")
	}
	return false
}

// Select is a SELECT read: the parts that decide its plan, before the key
// schema of the table or index it reads is known.
type Select struct {
	Statement    string
	Table, Index string
	where        []token // the WHERE clause up to ORDER BY; nil for none
}

// Parse reads the parts of a SELECT that decide its plan: the table (and
// index) after FROM, and the WHERE clause. Anything that is not one SELECT
// is refused in one sentence.
func Parse(stmt string) (Select, error) {
	p := Select{Statement: stmt}
	toks, err := lex(stmt)
	if err != nil {
		return p, err
	}
	if len(toks) == 0 {
		return p, &textfmt.UserError{Msg: "the statement is empty; write SELECT … FROM \"Table\" WHERE …."}
	}
	if !IsSelect(stmt) {
		return p, &textfmt.UserError{Msg: fmt.Sprintf("only SELECT statements run here (exploring is read-only); %s is refused.", strings.ToUpper(firstWordOf(toks)))}
	}
	for _, t := range toks {
		if t.kind == 'p' && t.text == ";" {
			return p, &textfmt.UserError{Msg: "give one statement, without ';'."}
		}
	}
	from := -1
	depth := 0
	for i, t := range toks {
		switch {
		case t.kind == 'p' && t.text == "(":
			depth++
		case t.kind == 'p' && t.text == ")":
			depth--
		case depth == 0 && t.is("FROM"):
			from = i
		}
		if from >= 0 {
			break
		}
	}
	if from < 0 || from+1 >= len(toks) || (toks[from+1].kind != 'q' && toks[from+1].kind != 'w') {
		return p, &textfmt.UserError{Msg: "the statement names no table: write FROM \"Table\" (or FROM \"Table\".\"Index\")."}
	}
	p.Table = toks[from+1].text
	rest := toks[from+2:]
	if len(rest) >= 2 && rest[0].kind == 'p' && rest[0].text == "." && (rest[1].kind == 'q' || rest[1].kind == 'w') {
		p.Index = rest[1].text
		rest = rest[2:]
	}
	if len(rest) > 0 && rest[0].is("WHERE") {
		p.where = rest[1:]
		for i, t := range p.where {
			if t.is("ORDER") {
				p.where = p.where[:i]
				break
			}
		}
	}
	return p, nil
}

func firstWordOf(toks []token) string {
	for _, t := range toks {
		if t.kind != 'p' {
			return t.raw
		}
	}
	return toks[0].raw
}

// Plan decides the SELECT's plan by the partition key of the table or
// index it reads, pkName: a Query when one top-level AND term of WHERE is
// `pkName = value`, else a Scan.
func (s Select) Plan(pkName string) Plan {
	p := Plan{Statement: s.Statement, Table: s.Table, Index: s.Index, PKName: pkName}
	if len(s.where) == 0 {
		p.Why = "there is no WHERE clause"
		return p
	}
	for _, term := range andTerms(s.where) {
		if v, ok := pkEquality(term, pkName); ok {
			p.Query, p.PK, p.PKValue, p.PKNumber = true, v.raw, v.text, v.kind == 'n'
			p.Why = fmt.Sprintf("WHERE fixes the partition key %s = %s", pkName, v.raw)
			return p
		}
	}
	p.Why = fmt.Sprintf("WHERE does not fix the partition key %s by equality", pkName)
	return p
}

// Item adds to a Query plan of the base table (p, from Plan) whether its
// WHERE fixes the table's whole primary key: the sort key skName too by
// equality ("" for a table without one). Then the Query reads one item at
// most (Plan.OneItem). An index's keys need not be unique: not on an index.
func (s Select) Item(p Plan, skName string) Plan {
	if !p.Query || s.Index != "" {
		return p
	}
	if skName == "" {
		p.OneItem = true
		return p
	}
	for _, term := range andTerms(s.where) {
		if v, ok := pkEquality(term, skName); ok {
			p.OneItem = true
			p.Why += fmt.Sprintf(" and the sort key %s = %s", skName, v.raw)
			break
		}
	}
	return p
}

// andTerms splits a condition at its top-level ANDs, or returns nothing
// when it has a top-level OR (then no one term decides). The AND of a
// BETWEEN is part of its term. Outer parentheses are removed first.
func andTerms(toks []token) [][]token {
	for len(toks) >= 2 && toks[0].text == "(" && toks[0].kind == 'p' && closes(toks) == len(toks)-1 {
		toks = toks[1 : len(toks)-1]
	}
	var terms [][]token
	depth, start, between := 0, 0, false
	for i, t := range toks {
		switch {
		case t.kind == 'p' && (t.text == "(" || t.text == "["):
			depth++
		case t.kind == 'p' && (t.text == ")" || t.text == "]"):
			depth--
		case depth == 0 && t.is("OR"):
			return nil
		case depth == 0 && t.is("BETWEEN"):
			between = true
		case depth == 0 && t.is("AND"):
			if between {
				between = false
				continue
			}
			terms = append(terms, toks[start:i])
			start = i + 1
		}
	}
	terms = append(terms, toks[start:])
	for i, term := range terms {
		for len(term) >= 2 && term[0].text == "(" && term[0].kind == 'p' && closes(term) == len(term)-1 {
			term = term[1 : len(term)-1]
		}
		terms[i] = term
	}
	return terms
}

// closes returns the index of the parenthesis that closes toks[0].
func closes(toks []token) int {
	depth := 0
	for i, t := range toks {
		if t.kind != 'p' {
			continue
		}
		switch t.text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// pkEquality matches `pk = value` and `value = pk`, pk quoted or bare.
func pkEquality(term []token, pk string) (token, bool) {
	if len(term) != 3 || term[1].kind != 'p' || term[1].text != "=" {
		return token{}, false
	}
	isPK := func(t token) bool { return (t.kind == 'q' || t.kind == 'w') && t.text == pk }
	isValue := func(t token) bool { return t.kind == 's' || t.kind == 'n' }
	switch {
	case isPK(term[0]) && isValue(term[2]):
		return term[2], true
	case isValue(term[0]) && isPK(term[2]):
		return term[0], true
	}
	return token{}, false
}
