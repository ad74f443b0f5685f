// Package number is DynamoDB's number grammar and limits, in one place: key
// input, item decoding and item sizing all read number text through it, so
// that no number is accepted by one and refused by another.
//
// It imports only the standard library.
package number

import (
	"errors"
	"strconv"
)

// Text is number text split into its parts as written.
type Text struct {
	Neg     bool
	Int     string // digits before the point, possibly empty or with leading zeros
	Frac    string // digits after the point, possibly empty
	ExpText string // the exponent as written, letter and sign included; "" without one
	Exp     int    // the exponent's value, saturated far outside DynamoDB's range
}

// maxExp saturates exponents so absurd input cannot overflow an int while
// staying far outside the range DynamoDB accepts.
const maxExp = 1 << 30

// Scan splits number text by the grammar DynamoDB accepts (that of Java's
// BigDecimal): [+-] digits [. [digits]] | [+-] . digits, then an optional
// exponent [eE][+-]digits. Spaces, NaN, hex and the like are refused.
func Scan(s string) (Text, bool) {
	var t Text
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		t.Neg = s[i] == '-'
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	t.Int = s[start:i]
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		t.Frac = s[start:i]
	}
	if t.Int == "" && t.Frac == "" {
		return t, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		t.ExpText = s[i:]
		i++
		expNeg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		start = i
		for i < len(s) && isDigit(s[i]) {
			if t.Exp < maxExp {
				t.Exp = t.Exp*10 + int(s[i]-'0')
			}
			i++
		}
		if i == start {
			return t, false
		}
		if t.Exp > maxExp {
			t.Exp = maxExp
		}
		if expNeg {
			t.Exp = -t.Exp
		}
	}
	return t, i == len(s)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Decimal is a number reduced to what defines its value, which is what
// DynamoDB stores and sizes; "+5", "5.0" and "0.5E1" are the same Decimal.
type Decimal struct {
	Neg    bool   // never set for zero: DynamoDB has no negative zero
	Digits string // significant digits without leading or trailing zeros; "" for zero
	Exp    int    // power of ten of Digits[0]
}

// ErrSyntax is returned for text DynamoDB cannot convert to a number.
var ErrSyntax = errors.New("not a number")

// ParseSyntax reads number text by the grammar only; Parse also applies
// DynamoDB's limits.
func ParseSyntax(s string) (Decimal, error) {
	t, ok := Scan(s)
	if !ok {
		return Decimal{}, ErrSyntax
	}
	all := t.Int + t.Frac
	lead := 0
	for lead < len(all) && all[lead] == '0' {
		lead++
	}
	if lead == len(all) {
		return Decimal{}, nil
	}
	end := len(all)
	for all[end-1] == '0' {
		end--
	}
	return Decimal{Neg: t.Neg, Digits: all[lead:end], Exp: len(t.Int) - 1 - lead + t.Exp}, nil
}

// Parse reads number text DynamoDB can store: ErrSyntax for text that is
// not a number, else the limit it breaks.
func Parse(s string) (Decimal, error) {
	d, err := ParseSyntax(s)
	if err != nil {
		return d, err
	}
	return d, d.Check()
}

// Valid tells whether Parse would accept s, without building its Decimal:
// the check of every number an answer holds.
func Valid(s string) bool {
	t, ok := Scan(s)
	if !ok {
		return false
	}
	// The significant digits run from the first non-zero digit of Int+Frac
	// to the last; Digits[0]'s power of ten is len(Int)-1-lead+Exp.
	n := len(t.Int) + len(t.Frac)
	digit := func(i int) byte {
		if i < len(t.Int) {
			return t.Int[i]
		}
		return t.Frac[i-len(t.Int)]
	}
	lead := 0
	for lead < n && digit(lead) == '0' {
		lead++
	}
	if lead == n {
		return true // zero
	}
	end := n
	for digit(end-1) == '0' {
		end--
	}
	exp := len(t.Int) - 1 - lead + t.Exp
	return end-lead <= MaxDigits && exp <= MaxExponent && exp >= MinExponent
}

// DynamoDB's number limits: 38 significant digits, magnitudes from 1E-130
// up to (but excluding) 1E+126. DynamoDB Local rejects anything outside.
const (
	MaxDigits   = 38
	MaxExponent = 125
	MinExponent = -130
)

// Check reports a number DynamoDB would refuse to store, with the reason
// it gives.
func (d Decimal) Check() error {
	switch {
	case d.Digits == "":
		return nil
	case len(d.Digits) > MaxDigits:
		return errors.New("more than 38 significant digits")
	case d.Exp > MaxExponent:
		return errors.New("magnitude larger than 1E+126")
	case d.Exp < MinExponent:
		return errors.New("magnitude smaller than 1E-130")
	}
	return nil
}

// Key is a canonical form: two texts of the same number share it, which is
// how a number set's duplicates are found.
func (d Decimal) Key() string {
	if d.Digits == "" {
		return "0"
	}
	sign := ""
	if d.Neg {
		sign = "-"
	}
	return sign + d.Digits + "e" + strconv.Itoa(d.Exp)
}
