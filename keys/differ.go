package keys

// What differs between two key values: the key an application would build
// and a key that exists (explain), or a key that matches no declaration
// and one that would (check's drift). Each kind of difference is a way
// keys drift apart in real tables: a delimiter changed in a migration, a
// label's case, a number's zero padding, a segment left out.

import (
	"slices"
	"strings"
)

// Difference is one way two keys differ.
type Difference string

// The kinds of difference, in the order Differ tries them.
const (
	DiffDelimiter Difference = "delimiter" // the same segments under another delimiter: ORDER#1 and ORDER|1
	DiffCase      Difference = "case"      // the same but for upper and lower case: ORDER#1 and order#1
	DiffPadding   Difference = "padding"   // the same but for a number's leading zeros: SEQ#00042 and SEQ#42
	DiffSegment   Difference = "segment"   // one has a segment the other has not: ORDER#2025-03-01#A17 and ORDER#A17
	DiffValue     Difference = "value"     // the same shape with other values: only the data differs
)

// Differ says what differs between want and got: the fewest of delimiter,
// case and padding whose undoing makes the keys equal; else whether one
// has a segment more (after undoing those); else value. Equal keys differ
// in nothing (nil).
func Differ(want, got string) []Difference {
	if want == got {
		return nil
	}
	norms := []struct {
		kind Difference
		f    func(string) string
	}{{DiffDelimiter, oneDelimiter}, {DiffCase, strings.ToLower}, {DiffPadding, unpadded}}
	// Every subset of the three, fewest first: 1, 2, 4, 3, 5, 6, 7.
	for _, set := range []int{1, 2, 4, 3, 5, 6, 7} {
		w, g := want, got
		var kinds []Difference
		for i, n := range norms {
			if set&(1<<i) != 0 {
				w, g = n.f(w), n.f(g)
				kinds = append(kinds, n.kind)
			}
		}
		if w == g {
			return kinds
		}
	}
	w, g := segments(want), segments(got)
	if len(w) != len(g) && (subsequence(w, g) || subsequence(g, w)) {
		return []Difference{DiffSegment}
	}
	return []Difference{DiffValue}
}

// delimiterMark stands for every delimiter in oneDelimiter: a byte no
// key text holds.
const delimiterMark = "\x00"

// oneDelimiter writes every delimiter of Delimiters as one mark, so that
// keys that differ only in their delimiters become equal.
func oneDelimiter(k string) string {
	var b strings.Builder
	for i := 0; i < len(k); {
		if d := splitterAt(k, i); d != "" {
			b.WriteString(delimiterMark)
			i += len(d)
			continue
		}
		b.WriteByte(k[i])
		i++
	}
	return b.String()
}

// unpadded drops the leading zeros of every run of digits ("SEQ#00042" →
// "SEQ#42"; a run of zeros keeps one).
func unpadded(k string) string {
	var b strings.Builder
	for i := 0; i < len(k); {
		if !isDigit(k[i]) {
			b.WriteByte(k[i])
			i++
			continue
		}
		j := i
		for j < len(k) && isDigit(k[j]) {
			j++
		}
		run := strings.TrimLeft(k[i:j], "0")
		if run == "" {
			run = "0"
		}
		b.WriteString(run)
		i = j
	}
	return b.String()
}

// segments splits a key at its delimiters, case and padding undone.
func segments(k string) []string {
	return strings.Split(unpadded(strings.ToLower(oneDelimiter(k))), delimiterMark)
}

// subsequence tells whether short's segments are all in long, in order.
func subsequence(short, long []string) bool {
	if len(short) >= len(long) {
		return false
	}
	i := 0
	for _, s := range long {
		if i < len(short) && short[i] == s {
			i++
		}
	}
	return i == len(short)
}

// MissingSegments are the segments of long that short lacks, when short's
// are all in long in order (Differ's DiffSegment); nil otherwise. Case
// and padding are long's own.
func MissingSegments(short, long string) []string {
	s := segments(short)
	l := strings.Split(oneDelimiter(long), delimiterMark)
	if len(s) >= len(l) {
		return nil
	}
	var out []string
	i := 0
	for _, seg := range l {
		if i < len(s) && s[i] == unpadded(strings.ToLower(seg)) {
			i++
			continue
		}
		out = append(out, seg)
	}
	if i != len(s) {
		return nil
	}
	return out
}

// DelimitersIn lists the delimiters of Delimiters a key uses, in the
// order they first appear.
func DelimitersIn(k string) []string {
	var out []string
	for i := 0; i < len(k); {
		d := splitterAt(k, i)
		if d == "" {
			i++
			continue
		}
		found := false
		for _, o := range out {
			found = found || o == d
		}
		if !found {
			out = append(out, d)
		}
		i += len(d)
	}
	return out
}

// splitterAt is the delimiter of Delimiters that starts at byte i of k, the
// longest where two do ("::" before ":"), "" for none: keys are compared
// segment by segment, whichever delimiter cuts them.
func splitterAt(k string, i int) string {
	for _, d := range Delimiters {
		if strings.HasPrefix(k[i:], d) {
			return d
		}
	}
	return ""
}

// Unpadded is k with the leading zeros of every run of digits dropped:
// the form padding is compared in.
func Unpadded(k string) string { return unpadded(k) }

// DifferKeys is Differ over two keys' values, attribute by attribute (the
// partition key, then the sort key): every kind of difference any of
// them has, once each, in Differ's order.
func DifferKeys(want, got []string) []Difference {
	var out []Difference
	for i := range min(len(want), len(got)) {
		for _, d := range Differ(want[i], got[i]) {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
}
