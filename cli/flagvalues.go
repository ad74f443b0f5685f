package cli

// Flag values of our own: a word of a fixed list (--output), a page's
// Limit, a sort-key condition. Each refuses a bad value as the line is
// read, in its one sentence (flagSentence passes it on), and writes a good
// one straight into the options.

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dynascope/config"
	"dynascope/dynamo"
)

// enumValue is a flag that takes one word of a fixed list (--output json):
// declared by enumFlag, it refuses any other word as the line is read, in
// the one sentence every such flag says, listing the words of this
// command's flag. Which words a command takes is its own list (values),
// so a check of the flag's value against the words (a default from
// elsewhere, a format added) asks allows rather than a list of its own.
type enumValue struct {
	name   string
	p      *string
	values []string
	// made is the format the document layer makes from the json the
	// command is told (document.go): what the flag says it holds, so a
	// go-on line repeats --output text.
	made string
}

func (e *enumValue) String() string {
	if e.made != "" {
		return e.made
	}
	return *e.p
}

// Type is pflag's name for the value's kind; help names it by the usage's
// back-quoted word (nameFlagValues).
func (e *enumValue) Type() string { return "string" }

func (e *enumValue) Set(v string) error {
	if !e.allows(v) {
		return fmt.Errorf("--%s takes %s, not %q", e.name, orList(e.values), v)
	}
	*e.p = v
	return nil
}

// allows tells whether the flag takes v.
func (e *enumValue) allows(v string) bool { return slices.Contains(e.values, v) }

// enumFlag declares on cmd the flag name, which takes one of values into p
// (def until it is given). Its help is usage followed by the words
// ("output `FORMAT`: json | table"), and completion offers them.
func enumFlag(cmd *cobra.Command, p *string, name, def, usage string, values ...string) *enumValue {
	*p = def
	v := &enumValue{name: name, p: p, values: values}
	cmd.Flags().Var(v, name, usage+": "+strings.Join(values, " | "))
	cmd.RegisterFlagCompletionFunc(name, fixedChoices(values...))
	return v
}

// outputFlag is --output, the one enumFlag every command with more than
// one output format declares: formats in the order help lists them, def
// the one printed when none is given; note, when not "", adds a
// parenthesis to the help.
func outputFlag(cmd *cobra.Command, p *string, def, note string, formats ...string) *enumValue {
	v := enumFlag(cmd, p, "output", def, "output `FORMAT`", formats...)
	if note != "" {
		f := cmd.Flags().Lookup("output")
		f.Usage += " (" + note + ")"
	}
	return v
}

// colorFlag is --color on every command (persistent on root): how the
// terminal UI uses colour, in dynascope's words and the AWS CLI's (on,
// off), beside NO_COLOR, which auto honours.
func colorFlag(root *cobra.Command, p *string) {
	*p = "auto"
	values := []string{"auto", "always", "never", "on", "off"}
	v := &enumValue{name: "color", p: p, values: values}
	root.PersistentFlags().Var(v, "color", "`WHEN` the terminal UI uses colours: auto (as NO_COLOR and the terminal say), always, never; on and off are the AWS CLI's words for always and never")
	root.RegisterFlagCompletionFunc("color", fixedChoices(values...))
}

// orList writes words as a sentence lists them: "a", "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// limitValue is a --limit: a whole number of items, from 1 to the largest
// Limit DynamoDB takes, and 0 where zero says what 0 means. Where 0 would
// mean "no Limit" it is refused: DynamoDB's Limit starts at 1, and a 0
// read silently as none surprised users (issue 37.13); leaving the flag
// out says none.
type limitValue struct {
	p    *int32
	zero string // what 0 means ("the pattern's"); "" when 0 is refused
	name string // the flag's name: limit, or the AWS CLI's page-size
}

// limitFlag declares --limit into p; zero is what 0 means, "" to refuse it.
func limitFlag(fs *pflag.FlagSet, p *int32, zero, usage string) {
	fs.Var(&limitValue{p: p, zero: zero, name: "limit"}, "limit", usage)
}

func (l *limitValue) String() string { return strconv.Itoa(int(*l.p)) }

// Type is not one of pflag's names: flagSentence then says Set's sentence.
func (l *limitValue) Type() string { return "limit" }

func (l *limitValue) Set(s string) error {
	n, err := strconv.ParseInt(s, 0, 64) // as pflag reads an int
	switch {
	case errors.Is(err, strconv.ErrRange):
		return fmt.Errorf("--%s: %s is out of range", l.name, s)
	case err != nil:
		return fmt.Errorf("--%s takes a whole number, not %q", l.name, s)
	case (n == 0 && l.zero == "") || n < 0 || n > math.MaxInt32:
		if l.zero == "" {
			return fmt.Errorf("--%s takes a whole number from 1 to %d (leave it out for no Limit), not %d", l.name, math.MaxInt32, n)
		}
		return fmt.Errorf("--%s takes a whole number from 1 to %d (or 0 for %s), not %d", l.name, math.MaxInt32, l.zero, n)
	}
	*l.p = int32(n)
	return nil
}

// sortKeyFlags declares query's sort-key conditions, each writing the
// query's one condition into cond. Giving two is the caller's to refuse:
// sortKeyFlagNames names them in order, for fs.Changed.
func sortKeyFlags(fs *pflag.FlagSet, cond *dynamo.SKCond) {
	for _, o := range sortKeyOps {
		fs.Var(&skCondValue{op: o.op, cond: cond}, o.flag, "sort key "+string(o.op)+" `VALUE`")
	}
	between := &pairValue{into: func(lo, hi string) { *cond = dynamo.SKCond{Op: dynamo.SKBetween, Values: []string{lo, hi}} }}
	fs.Var(between, "sk-between", "sort key BETWEEN LOW AND HIGH (two values: --sk-between LOW HIGH)")
}

// sortKeyOps are the sort-key conditions of one value, in help's order.
var sortKeyOps = []struct {
	flag string
	op   dynamo.SKOp
}{
	{"sk-begins-with", dynamo.SKBeginsWith},
	{"sk-eq", dynamo.SKEq},
	{"sk-lt", dynamo.SKLt},
	{"sk-le", dynamo.SKLe},
	{"sk-gt", dynamo.SKGt},
	{"sk-ge", dynamo.SKGe},
}

// sortKeyFlagNames are the names sortKeyFlags declares, --sk-between last.
func sortKeyFlagNames() []string {
	var names []string
	for _, o := range sortKeyOps {
		names = append(names, o.flag)
	}
	return append(names, "sk-between")
}

// skCondValue is one sort-key condition of one value (--sk-eq VALUE).
type skCondValue struct {
	op   dynamo.SKOp
	cond *dynamo.SKCond
}

func (v *skCondValue) String() string {
	if v.cond == nil || v.cond.Op != v.op || len(v.cond.Values) != 1 {
		return ""
	}
	return v.cond.Values[0]
}

func (v *skCondValue) Type() string { return "string" }

func (v *skCondValue) Set(s string) error {
	*v.cond = dynamo.SKCond{Op: v.op, Values: []string{s}}
	return nil
}

// --max-rcu has one meaning per kind of command, each declared once, its
// help saying which: a read's cap (query, scan, partiql: stop before N
// RCU, 0 for none) or a sample's budget (layout, index try: at least one
// page's 0.5 RCU, the settings' sampling where not given).

// readCapFlag declares --max-rcu of a read into p: the read's cap.
func readCapFlag(fs *pflag.FlagSet, p *float64) {
	fs.Var((*readCapValue)(p), "max-rcu", "the read's cap: stop before reading more than `N` RCU (0: no cap)")
}

// readCapValue is a read's --max-rcu, a number of RCU from 0.
type readCapValue float64

func (v *readCapValue) String() string { return strconv.FormatFloat(float64(*v), 'g', -1, 64) } // as pflag prints a float64

// Type is not one of pflag's names: flagSentence then says Set's sentence.
func (v *readCapValue) Type() string { return "rcu" }

func (v *readCapValue) Set(s string) error {
	f, err := strconv.ParseFloat(s, 64) // as pflag reads a float64
	switch {
	case errors.Is(err, strconv.ErrRange):
		return fmt.Errorf("--max-rcu: %s is out of range", s)
	case err != nil:
		return fmt.Errorf("--max-rcu takes a number, not %q", s)
	case !(f >= 0): // NaN too
		return fmt.Errorf("--max-rcu takes a positive number of RCU, not %s", jsonFloat(f))
	}
	*v = readCapValue(f)
	return nil
}

// sampleRCUFlag declares --max-rcu of a sample into p: the sample's
// budget, checked by sampleCaps once the settings have filled it in.
func sampleRCUFlag(fs *pflag.FlagSet, p *float64) {
	fs.Float64Var(p, "max-rcu", dynamo.DefaultSampleRCU, "the sample's budget: stop before consuming more than `RCU` read capacity, at least 0.5 (the settings' sampling: maxRCU replaces the default)")
}

// sampleCaps fills in a sample's --max-items and --max-rcu from the
// settings' sampling where they were not given, and refuses caps that
// cannot read one page.
func sampleCaps(fs *pflag.FlagSet, s config.Sampling, maxItems *int, maxRCU *float64) error {
	items, rcu, _ := s.Caps()
	if !fs.Changed("max-items") {
		*maxItems = items
	}
	if !fs.Changed("max-rcu") {
		*maxRCU = rcu
	}
	switch {
	case *maxItems < 1:
		return usageError{fmt.Sprintf("--max-items must be a positive number, not %d.", *maxItems)}
	case !(*maxRCU >= 0.5):
		return usageError{fmt.Sprintf("--max-rcu must be at least 0.5 (the cost of one page), not %v.", *maxRCU)}
	}
	return nil
}
