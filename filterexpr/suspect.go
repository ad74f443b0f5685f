package filterexpr

// A filter's value written without quotes is read as an attribute name:
// `status = OPEN` compares status with an attribute called OPEN, which no
// item has, so the filter keeps nothing while the read is charged in full.
// DynamoDB says nothing about it. SuspectNames finds such names before the
// read is sent, from the filter alone and the names the caller already
// knows, so the CLI can warn and the UI can ask.

import (
	"slices"
	"unicode"
)

// Suspect is an attribute name in a filter that looks like a value the user
// meant to quote.
type Suspect struct {
	// Name is the word as written, read as an attribute name.
	Name string
	// Col is the column (in characters, from 1) of its first appearance.
	Col int
}

// String is the one sentence that names the suspect and the way to write
// the text it looks like: `OPEN is read as an attribute name; for the
// text write "OPEN"`.
func (s Suspect) String() string {
	return s.Name + " is read as an attribute name; for the text write " + quoteText(s.Name)
}

// SuspectNames lists the attribute names of the filter that look like
// values and that known does not know, each once, in the order they first
// appear. A name is suspect when it is one plain word (not in back quotes,
// not a document path) compared with something (=, <>, <, <=, >, >=,
// BETWEEN, IN), and it looks like a value: every letter upper-case
// (OPEN, A, ORDER_42) or as many digits as letters (A17, v2, B1001). The
// name the comparison is about is no less suspect than its other side:
// `OPEN = status` is the same mistake. Names in functions (attribute_exists,
// begins_with, contains, size) are names by the function's grammar and are
// never suspect; a back-quoted `OPEN` is the way to say a name is meant.
//
// known says whether a name is one the caller has seen: in items loaded or
// sampled, the table's key schema, a projection. nil knows no name.
func SuspectNames(e Expr, known func(name string) bool) []Suspect {
	var out []Suspect
	var walk func(n *node)
	walk = func(n *node) {
		if n == nil {
			return
		}
		if n.kind == nCmp || n.kind == nBetween || n.kind == nIn {
			for _, a := range n.args {
				if a.kind != oPath || !a.bare || len(a.path) != 1 || !looksLikeValue(a.path[0].Name) {
					continue
				}
				name := a.path[0].Name
				if known != nil && known(name) {
					continue
				}
				if !slices.ContainsFunc(out, func(s Suspect) bool { return s.Name == name }) {
					out = append(out, Suspect{Name: name, Col: a.col})
				}
			}
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(e.root)
	return out
}

// looksLikeValue tells whether a plain word reads more like a value than
// like an attribute name: all its letters upper-case, or at least as many
// digits as letters. Attribute names are mostly lower or mixed case
// (status, createdAt, GSI1PK is upper-case but a key the caller knows).
func looksLikeValue(word string) bool {
	letters, digits, upper := 0, 0, 0
	for _, r := range word {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case unicode.IsLetter(r):
			letters++
			if unicode.IsUpper(r) {
				upper++
			}
		}
	}
	return letters > 0 && upper == letters || digits > 0 && digits >= letters
}
