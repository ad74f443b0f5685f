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
	if !utf8.ValidString(src) {
		i := 0
		for i < len(src) {
			r, n := utf8.DecodeRuneInString(src[i:])
			if r == utf8.RuneError && n <= 1 {
				return nil, l.fail(i, "the text is not valid UTF-8")
			}
			i += n
		}
	}
	i := 0
	for i < len(src) {
		r, n := utf8.DecodeRuneInString(src[i:])
		switch {
		case unicode.IsSpace(r):
			i += n
		case r == 'b' && i+1 < len(src) && (src[i+1] == '"' || src[i+1] == '\''):
			s, end, err := l.quoted(i+1, src[i+1])
			if err != nil {
				return nil, err
			}
			if l.tmpl && strings.ContainsAny(s, "{}") {
				return nil, l.fail(i, "a binary value b\"…\" cannot hold a placeholder; a parameter is a quoted text \"{name}\" or a bare number {name}")
			}
			l.toks = append(l.toks, token{kind: tBinary, text: s, pos: i, raw: src[i:end]})
			i = end
		case isIdentStart(r):
			j := i
			for j < len(src) {
				r2, n2 := utf8.DecodeRuneInString(src[j:])
				if !isIdentPart(r2) {
					break
				}
				j += n2
			}
			l.toks = append(l.toks, token{kind: tIdent, text: src[i:j], pos: i, raw: src[i:j]})
			i = j
		case r == '`':
			end := strings.IndexByte(src[i+1:], '`')
			if end < 0 {
				return nil, l.fail(i, "the name opened with ` is never closed")
			}
			name := src[i+1 : i+1+end]
			if name == "" {
				return nil, l.fail(i, "an attribute name cannot be empty")
			}
			if strings.ContainsAny(name, "[]") {
				return nil, l.fail(i, "an attribute name in back quotes cannot hold [ or ]")
			}
			if l.tmpl {
				var err error
				if name, err = l.literal(i, name); err != nil {
					return nil, err
				}
			}
			l.toks = append(l.toks, token{kind: tQuoted, text: name, pos: i, raw: src[i : i+2+end]})
			i += end + 2
		case r == '"' || r == '\'':
			s, end, err := l.quoted(i, src[i])
			if err != nil {
				return nil, err
			}
			tok := token{kind: tString, text: s, pos: i, raw: src[i:end]}
			if l.tmpl {
				if tok.parts, err = l.template(i, s); err != nil {
					return nil, err
				}
				if len(tok.parts) == 1 && !tok.parts[0].Param {
					tok.text, tok.parts = tok.parts[0].Text, nil
				} else if len(tok.parts) == 0 {
					tok.text, tok.parts = "", nil
				}
			}
			l.toks = append(l.toks, tok)
			i = end
		case r >= '0' && r <= '9' || (r == '-' || r == '+' || r == '.') && i+1 < len(src) && (src[i+1] >= '0' && src[i+1] <= '9' || src[i+1] == '.'):
			j := i + 1
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.' || src[j] == 'e' || src[j] == 'E' ||
				(src[j] == '-' || src[j] == '+') && (src[j-1] == 'e' || src[j-1] == 'E')) {
				j++
			}
			// Letters right after digits (12abc) belong to the same word:
			// the number check then names the whole of it.
			for j < len(src) && src[j] < utf8.RuneSelf && isIdentPart(rune(src[j])) {
				j++
			}
			l.toks = append(l.toks, token{kind: tNumber, text: src[i:j], pos: i, raw: src[i:j]})
			i = j
		case r == '<' || r == '>' || r == '=' || r == '!':
			op := string(r)
			if i+1 < len(src) && (src[i+1] == '=' || r == '<' && src[i+1] == '>') {
				op = src[i : i+2]
			}
			if op == "!" || op == "==" {
				return nil, l.fail(i, "%s is not an operator; use = or <>", strings.TrimSpace(op))
			}
			if op == "!=" {
				return nil, l.fail(i, "!= is not DynamoDB's; write <>")
			}
			l.toks = append(l.toks, token{kind: tOp, text: op, pos: i, raw: op})
			i += len(op)
		case strings.ContainsRune("(),.[]", r):
			l.toks = append(l.toks, token{kind: tPunct, text: string(r), pos: i, raw: string(r)})
			i++
		case r == '{' && l.tmpl:
			t, end, err := l.param(i)
			if err != nil {
				return nil, err
			}
			l.toks = append(l.toks, t)
			i = end
		case r == ':' || r == '#':
			return nil, l.fail(i, "write values and names as they are (\"OPEN\", total), not as %c placeholders", r)
		default:
			return nil, l.fail(i, "%q cannot appear here", r)
		}
	}
	l.toks = append(l.toks, token{kind: tEOF, pos: len(src)})
	return l.toks, nil
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
