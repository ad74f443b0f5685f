package number

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// refSyntax is the grammar written another way (Java BigDecimal's, which
// DynamoDB uses), as a regular expression.
var refSyntax = regexp.MustCompile(`^([+-]?)([0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE]([+-]?[0-9]+))?$`)

var ten = big.NewInt(10)

func pow10(n int) *big.Rat {
	if n >= 0 {
		return new(big.Rat).SetInt(new(big.Int).Exp(ten, big.NewInt(int64(n)), nil))
	}
	return new(big.Rat).Inv(pow10(-n))
}

// reference reads s with math/big: whether it is number text, its value,
// and DynamoDB's verdict from the value alone (at most 38 significant
// digits, a magnitude from 1E-130 up to, not including, 1E+126).
func reference(s string) (syntax bool, value *big.Rat, inRange bool) {
	m := refSyntax.FindStringSubmatch(s)
	if m == nil {
		return false, nil, false
	}
	mant := m[2]
	if strings.HasPrefix(mant, ".") {
		mant = "0" + mant
	}
	mant = strings.TrimSuffix(mant, ".")
	r, ok := new(big.Rat).SetString(mant)
	if !ok {
		panic("big.Rat refused " + mant)
	}
	if m[1] == "-" {
		r.Neg(r)
	}
	if r.Sign() == 0 {
		return true, r, true
	}
	// An exponent far beyond every digit the text has puts the magnitude out
	// of range whatever the mantissa: no need to build 10^huge.
	e, err := strconv.Atoi(m[3])
	if m[3] != "" && (err != nil || e > len(s)+200 || e < -len(s)-200) {
		return true, nil, false
	}
	r.Mul(r, pow10(e))
	abs := new(big.Rat).Abs(r)
	// exp: 10^exp <= |r| < 10^(exp+1).
	exp := 0
	for abs.Cmp(pow10(exp)) < 0 {
		exp--
	}
	for abs.Cmp(pow10(exp+1)) >= 0 {
		exp++
	}
	// digits: the fewest with |r| * 10^(digits-1-exp) a whole number.
	digits := 1
	for !new(big.Rat).Mul(abs, pow10(digits-1-exp)).IsInt() {
		digits++
	}
	// DynamoDB's documented limits, written here rather than taken from the
	// package under test.
	return true, r, digits <= 38 && exp >= -130 && exp <= 125
}

// value is the number a Decimal stands for.
func (d Decimal) value() *big.Rat {
	if d.Digits == "" {
		return new(big.Rat)
	}
	r, _ := new(big.Rat).SetString(d.Digits)
	r.Mul(r, pow10(d.Exp-(len(d.Digits)-1)))
	if d.Neg {
		r.Neg(r)
	}
	return r
}

func check(t *testing.T, s string) {
	syntax, want, inRange := reference(s)
	d, err := ParseSyntax(s)
	if (err == nil) != syntax {
		t.Fatalf("%q: ParseSyntax says %v; math/big says number text: %v", s, err, syntax)
	}
	_, perr := Parse(s)
	if (perr == nil) != (syntax && inRange) {
		t.Fatalf("%q: Parse says %v; math/big says storable: %v", s, perr, syntax && inRange)
	}
	if Valid(s) != (syntax && inRange) {
		t.Fatalf("%q: Valid says %v; math/big says storable: %v", s, Valid(s), syntax && inRange)
	}
	if syntax && want != nil && d.value().Cmp(want) != 0 {
		t.Fatalf("%q: Decimal %+v is %s, math/big reads %s", s, d, d.value().RatString(), want.RatString())
	}
	if syntax && d.Digits == "" && d.Neg {
		t.Fatalf("%q: a negative zero", s)
	}
}

var edges = []string{
	"0", "-0", "+0", "0.000", ".5", "5.", "-.5e-3", "1e125", "9.9e125", "1e126", "1e-130", "1e-131", "0.1e-129",
	"10e125", "1e200", "1E+125", "12345678901234567890123456789012345678", "123456789012345678901234567890123456789",
	"1234567890123456789012345678901234567800000", "0.00000000000000000000000000000000000000012345678901234567890123456789012345678",
	"1.", ".", "", "e5", "1e", "1e+", "--1", "1.2.3", " 1", "1 ", "NaN", "Infinity", "0x10", "1_000", "1e99999999999999999999",
	"0e99999999999999999999", "-1e-99999999999", "١",
}

func TestGrammarAgainstMathBig(t *testing.T) {
	for _, s := range edges {
		check(t, s)
	}
}

// FuzzGrammar: Scan, ParseSyntax, Parse and Valid agree with an independent read
// by a regular expression and math/big, value and verdict.
func FuzzGrammar(f *testing.F) {
	for _, s := range edges {
		f.Add(s)
	}
	f.Fuzz(check)
}
