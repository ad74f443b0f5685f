// Package filterexpr reads DynamoDB's condition-expression language written
// with literal values in place of placeholders (`status = "OPEN" AND
// total > 1000`) and turns it into the SDK expression package's
// ConditionBuilder, which assigns the #name and :value placeholders itself:
// no user text is ever pasted into a request. It also reads projection lists
// (`a, b, c.d`), and filter templates, whose values may be {name}
// placeholders filled in the parsed tree (template.go), for the patterns
// file. SuspectNames (suspect.go) finds the bare words a filter reads as
// attribute names that look like values the user meant to quote
// (`status = OPEN`), so a caller can say so before the read.
//
// It is pure: it imports the SDK's expression and types packages and the
// number grammar, never dynamo, ui or config.
package filterexpr

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SyntaxError is text that is not a condition, with the column (in
// characters, from 1) where reading stopped.
type SyntaxError struct {
	Col int
	Msg string // "expected a value after >"
	// What names the text read: "filter" or "projection".
	What string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("the %s is not valid at column %d: %s.", e.What, e.Col, e.Msg)
}

type tokKind int

const (
	tEOF    tokKind = iota
	tIdent          // a bare name or keyword: status, AND, begins_with
	tQuoted         // a `back-quoted` attribute name
	tString         // "text" or 'text'
	tNumber         // 12, -3.5, 1e3
	tBinary         // b"base64"
	tOp             // = <> < <= > >=
	tPunct          // ( ) , . [ ]
	tParam          // {name}, a value placeholder of a template (template.go)
)

type token struct {
	kind tokKind
	text string // the value: unquoted for strings and names
	pos  int    // byte offset in the source
	raw  string // as written, for messages
	// parts is a quoted string of a template that holds placeholders.
	parts []TemplatePart
}

// lexer splits source text into tokens; errors carry the column.
type lexer struct {
	src  string
	what string
	toks []token
	tmpl bool // a template: {name} placeholders in values (template.go)
}

func (l *lexer) fail(pos int, format string, a ...any) error {
	return &SyntaxError{Col: column(l.src, pos), Msg: fmt.Sprintf(format, a...), What: l.what}
}

// column turns a byte offset into a 1-based character column.
func column(src string, pos int) int {
	if pos > len(src) {
		pos = len(src)
	}
	return utf8.RuneCountInString(src[:pos]) + 1
}

func isIdentStart(r rune) bool { return r == '_' || r < 128 && unicode.IsLetter(r) }
func isIdentPart(r rune) bool  { return isIdentStart(r) || r >= '0' && r <= '9' }

func lex(src, what string) ([]token, error) { return lexAs(src, what, false) }

func lexAs(src, what string, tmpl bool) ([]token, error) {
	l := &lexer{src: src, what: what, tmpl: tmpl}
	if err := l.checkUTF8(); err != nil {
		return nil, err
	}
	for i := 0; i < len(src); {
		end, err := l.next(i)
		if err != nil {
			return nil, err
		}
		i = end
	}
	l.toks = append(l.toks, token{kind: tEOF, pos: len(src)})
	return l.toks, nil
}

// checkUTF8 names the first byte that is not valid UTF-8.
func (l *lexer) checkUTF8() error {
	if utf8.ValidString(l.src) {
		return nil
	}
	for i := 0; i < len(l.src); {
		r, n := utf8.DecodeRuneInString(l.src[i:])
		if r == utf8.RuneError && n <= 1 {
			return l.fail(i, "the text is not valid UTF-8")
		}
		i += n
	}
	return nil
}

// emit appends a token whose raw text is src[i:end] and returns end.
func (l *lexer) emit(kind tokKind, text string, i, end int) int {
	l.toks = append(l.toks, token{kind: kind, text: text, pos: i, raw: l.src[i:end]})
	return end
}

// next reads the token (or space) at i and returns where the next one starts.
func (l *lexer) next(i int) (int, error) {
	r, n := utf8.DecodeRuneInString(l.src[i:])
	switch {
	case unicode.IsSpace(r):
		return i + n, nil
	case r == 'b' && l.quoteAt(i+1):
		return l.binary(i)
	case isIdentStart(r):
		return l.ident(i), nil
	case r == '`':
		return l.backQuoted(i)
	case r == '"' || r == '\'':
		return l.str(i)
	case l.numberAt(i, r):
		return l.number(i), nil
	case strings.ContainsRune("<>=!", r):
		return l.op(i, r)
	case strings.ContainsRune("(),.[]", r):
		return l.emit(tPunct, string(r), i, i+1), nil
	case r == '{' && l.tmpl:
		return l.paramTok(i)
	default:
		return 0, l.unexpected(i, r)
	}
}

// quoteAt says whether a quote opens at i.
func (l *lexer) quoteAt(i int) bool {
	return i < len(l.src) && (l.src[i] == '"' || l.src[i] == '\'')
}

// paramTok reads a {name} placeholder of a template at i.
func (l *lexer) paramTok(i int) (int, error) {
	t, end, err := l.param(i)
	if err == nil {
		l.toks = append(l.toks, t)
	}
	return end, err
}

// unexpected names a character no token starts with.
func (l *lexer) unexpected(i int, r rune) error {
	if r == ':' || r == '#' {
		return l.fail(i, "write values and names as they are (\"OPEN\", total), not as %c placeholders", r)
	}
	return l.fail(i, "%q cannot appear here", r)
}

// binary reads b"base64" at i.
func (l *lexer) binary(i int) (int, error) {
	s, end, err := l.quoted(i+1, l.src[i+1])
	if err != nil {
		return 0, err
	}
	if l.tmpl && strings.ContainsAny(s, "{}") {
		return 0, l.fail(i, "a binary value b\"…\" cannot hold a placeholder; a parameter is a quoted text \"{name}\" or a bare number {name}")
	}
	return l.emit(tBinary, s, i, end), nil
}

// ident reads a bare name or keyword at i.
func (l *lexer) ident(i int) int {
	j := i
	for j < len(l.src) {
		r, n := utf8.DecodeRuneInString(l.src[j:])
		if !isIdentPart(r) {
			break
		}
		j += n
	}
	return l.emit(tIdent, l.src[i:j], i, j)
}

// backQuoted reads a `back-quoted` attribute name at i.
func (l *lexer) backQuoted(i int) (int, error) {
	end := strings.IndexByte(l.src[i+1:], '`')
	if end < 0 {
		return 0, l.fail(i, "the name opened with ` is never closed")
	}
	name := l.src[i+1 : i+1+end]
	if name == "" {
		return 0, l.fail(i, "an attribute name cannot be empty")
	}
	if strings.ContainsAny(name, "[]") {
		return 0, l.fail(i, "an attribute name in back quotes cannot hold [ or ]")
	}
	if l.tmpl {
		var err error
		if name, err = l.literal(i, name); err != nil {
			return 0, err
		}
	}
	return l.emit(tQuoted, name, i, i+2+end), nil
}

// str reads a "text" or 'text' value at i; in a template it may hold
// placeholders.
func (l *lexer) str(i int) (int, error) {
	s, end, err := l.quoted(i, l.src[i])
	if err != nil {
		return 0, err
	}
	tok := token{kind: tString, text: s, pos: i, raw: l.src[i:end]}
	if l.tmpl {
		if tok.parts, err = l.template(i, s); err != nil {
			return 0, err
		}
		if len(tok.parts) == 1 && !tok.parts[0].Param {
			tok.text, tok.parts = tok.parts[0].Text, nil
		} else if len(tok.parts) == 0 {
			tok.text, tok.parts = "", nil
		}
	}
	l.toks = append(l.toks, tok)
	return end, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// numberAt says whether a number starts at i: a digit, or a sign or dot
// followed by a digit or dot.
func (l *lexer) numberAt(i int, r rune) bool {
	if r >= '0' && r <= '9' {
		return true
	}
	return (r == '-' || r == '+' || r == '.') && i+1 < len(l.src) && (isDigit(l.src[i+1]) || l.src[i+1] == '.')
}

// numberPart says whether src[j] continues a number: a digit, a dot, an
// exponent mark, or a sign right after one.
func (l *lexer) numberPart(j int) bool {
	c := l.src[j]
	switch c {
	case '.', 'e', 'E':
		return true
	case '-', '+':
		return l.src[j-1] == 'e' || l.src[j-1] == 'E'
	}
	return isDigit(c)
}

// number reads a number at i.
func (l *lexer) number(i int) int {
	j := i + 1
	for j < len(l.src) && l.numberPart(j) {
		j++
	}
	// Letters right after digits (12abc) belong to the same word:
	// the number check then names the whole of it.
	for j < len(l.src) && l.src[j] < utf8.RuneSelf && isIdentPart(rune(l.src[j])) {
		j++
	}
	return l.emit(tNumber, l.src[i:j], i, j)
}

// op reads a comparison operator at i, naming the ones DynamoDB lacks.
func (l *lexer) op(i int, r rune) (int, error) {
	op := string(r)
	if i+1 < len(l.src) && (l.src[i+1] == '=' || r == '<' && l.src[i+1] == '>') {
		op = l.src[i : i+2]
	}
	if op == "!" || op == "==" {
		return 0, l.fail(i, "%s is not an operator; use = or <>", strings.TrimSpace(op))
	}
	if op == "!=" {
		return 0, l.fail(i, "!= is not DynamoDB's; write <>")
	}
	return l.emit(tOp, op, i, i+len(op)), nil
}

// quoted reads a string opened by q at i: \\, \q, \n, \t and \uXXXX escape.
func (l *lexer) quoted(i int, q byte) (string, int, error) {
	var b strings.Builder
	j := i + 1
	for j < len(l.src) {
		c := l.src[j]
		switch {
		case c == q:
			return b.String(), j + 1, nil
		case c == '\\':
			if j+1 >= len(l.src) {
				return "", 0, l.fail(j, "a \\ ends the text")
			}
			switch e := l.src[j+1]; e {
			case '\\', '"', '\'':
				b.WriteByte(e)
				j += 2
			case 'n':
				b.WriteByte('\n')
				j += 2
			case 't':
				b.WriteByte('\t')
				j += 2
			case 'u':
				var r rune
				if j+6 > len(l.src) || !hex4(l.src[j+2:j+6], &r) {
					return "", 0, l.fail(j, "\\u takes four hex digits")
				}
				if !utf8.ValidRune(r) {
					return "", 0, l.fail(j, "\\u%s is not a character", l.src[j+2:j+6])
				}
				b.WriteRune(r)
				j += 6
			default:
				return "", 0, l.fail(j, "\\%c is not an escape; use \\\\, \\%c, \\n, \\t or \\uXXXX", e, q)
			}
		default:
			b.WriteByte(c)
			j++
		}
	}
	return "", 0, l.fail(i, "the text opened with %c is never closed", q)
}

func hex4(s string, r *rune) bool {
	for _, c := range []byte(s) {
		var d rune
		switch {
		case c >= '0' && c <= '9':
			d = rune(c - '0')
		case c >= 'a' && c <= 'f':
			d = rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = rune(c-'A') + 10
		default:
			return false
		}
		*r = *r<<4 | d
	}
	return true
}
