package cli

// Flags: pflag's mistakes told in one sentence, the names help shows for
// flag values, and the flags that take two values (--sk-between LOW HIGH).

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dynascope/config"
	"dynascope/keys"
	"dynascope/textfmt"
)

// flagSentence turns pflag's error into a sentence that names the flag as
// it is typed (--limit) and says what it takes.
func flagSentence(c *cobra.Command, err error) string {
	var unknown *pflag.NotExistError
	var noValue *pflag.ValueRequiredError
	var invalid *pflag.InvalidValueError
	switch {
	case errors.As(err, &unknown):
		name := "--" + unknown.GetSpecifiedName()
		if unknown.GetSpecifiedShortnames() != "" {
			name = "-" + unknown.GetSpecifiedName()
		}
		if unknown.GetSpecifiedShortnames() == "" {
			if near := nearFlag(c, unknown.GetSpecifiedName()); near != "" {
				return fmt.Sprintf("unknown flag %s (did you mean --%s?); run '%s -h' for the flags.", name, near, c.CommandPath())
			}
		}
		return fmt.Sprintf("unknown flag %s; run '%s -h' for the flags.", name, c.CommandPath())
	case errors.As(err, &noValue):
		return fmt.Sprintf("--%s needs a value.", noValue.GetFlag().Name)
	case errors.As(err, &invalid):
		f, value, cause := invalid.GetFlag(), invalid.GetValue(), errors.Unwrap(invalid)
		takes := map[string]string{
			"int": "a whole number", "int32": "a whole number", "int64": "a whole number",
			"uint": "a whole number", "uint32": "a whole number", "uint64": "a whole number",
			"float64": "a number", "duration": "a duration such as 15s or 2m", "bool": "true or false",
		}[flagKind(f)]
		switch {
		case takes == "" && cause != nil:
			// A flag of ours, whose error says what it takes.
			return strings.TrimSuffix(cause.Error(), ".") + "."
		case errors.Is(cause, strconv.ErrRange) || cause != nil && cause.Error() == "value out of range":
			return fmt.Sprintf("--%s: %s is out of range.", f.Name, value)
		case takes == "":
			takes = "another value"
		}
		return fmt.Sprintf("--%s takes %s, not %q.", f.Name, takes, value)
	}
	return strings.TrimSuffix(err.Error(), ".") + "."
}

// nearFlag is the flag of c (its own or inherited, not hidden) that a
// mistyped name most likely meant: the one within two edits (--revers,
// --tabel), else the only one it begins (--rev); "" when none.
func nearFlag(c *cobra.Command, typed string) string {
	var names, starting []string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		names = append(names, f.Name)
		if strings.HasPrefix(f.Name, typed) {
			starting = append(starting, f.Name)
		}
	})
	if near := textfmt.Nearest(typed, names); near != "" {
		return near
	}
	if len(starting) == 1 && len(typed) >= 2 {
		return starting[0]
	}
	return ""
}

// goStyleFlag says what went wrong when a long flag was typed with one
// dash, as Go's flag package took it (-table App): pflag reads it as a row
// of one-letter flags and complains about a letter.
func goStyleFlag(args []string, err error, sentence string) string {
	var unknown *pflag.NotExistError
	if !errors.As(err, &unknown) || len(unknown.GetSpecifiedShortnames()) < 2 {
		return sentence
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, unknown.GetSpecifiedShortnames()) {
			long, _, _ := strings.Cut(a[1:], "=")
			return fmt.Sprintf("unknown flag %s; long flags take two dashes: --%s.", a, long)
		}
	}
	return sentence
}

// metaValue is a flag value with the name help shows for it (--pk VALUE,
// --timeout DURATION) instead of pflag's type name.
type metaValue struct {
	pflag.Value
	meta string
}

func (v metaValue) Type() string { return v.meta }

// flagKind is the type of a flag's value before nameFlagValues named it.
func flagKind(f *pflag.Flag) string {
	if v, ok := f.Value.(metaValue); ok {
		return v.Value.Type()
	}
	return f.Value.Type()
}

// connectionMetavars name the values of the connection flags, whose usage
// config writes without a `NAME` in back quotes.
var connectionMetavars = map[string]string{
	"table": "NAME", "profile": "NAME", "region": "REGION", "endpoint-url": "URL", "connection": "NAME",
	"timeout": "DURATION", "max-attempts": "N", "cli-connect-timeout": "SECONDS", "cli-read-timeout": "SECONDS",
}

// nameFlagValues gives every flag that takes a value the name help shows
// for it: the back-quoted word of its usage as Go's flag package reads it
// (its quotes then dropped, so completion shows plain text), else one for
// its type.
func nameFlagValues(fs *pflag.FlagSet) {
	fs.VisitAll(func(f *pflag.Flag) {
		if _, done := f.Value.(metaValue); done || f.NoOptDefVal != "" {
			return
		}
		meta := connectionMetavars[f.Name]
		if i := strings.IndexByte(f.Usage, '`'); i >= 0 {
			if j := strings.IndexByte(f.Usage[i+1:], '`'); j >= 0 {
				meta = f.Usage[i+1 : i+1+j]
				f.Usage = f.Usage[:i] + meta + f.Usage[i+2+j:]
			}
		}
		if meta == "" {
			switch f.Value.Type() {
			case "int", "int32", "int64", "uint", "uint32", "uint64":
				meta = "N"
			case "float64":
				meta = "NUMBER"
			case "duration":
				meta = "DURATION"
			default:
				// A value type that names itself in capitals (LOW HIGH).
				if meta = f.Value.Type(); strings.ToUpper(meta) != meta {
					meta = "VALUE"
				}
			}
		}
		f.Value = metaValue{f.Value, meta}
		// pflag leaves an empty list's default out by its type, which the
		// wrapper hides: without this help says "(default [])".
		if f.DefValue == "[]" {
			f.DefValue = ""
		}
	})
}

// pairValue is a flag that takes two values (--sk-between LOW HIGH), which
// pflag cannot parse: takePairs takes them out of the command line first.
type pairValue struct {
	lo, hi string
	into   func(lo, hi string) // where the two values go; nil for nowhere but the pair
}

func (p *pairValue) String() string { return "" }
func (p *pairValue) Type() string   { return "LOW HIGH" }
func (p *pairValue) Set(string) error {
	return errors.New("takes two values") // takePairs saw to it; only reached after "--"
}

// takePairs finds the command the line runs and takes the two values of
// each of its pair flags out of args, setting the flag.
func takePairs(root *cobra.Command, args []string) error {
	c, _, err := root.Find(args)
	if err != nil || c == nil {
		return nil // cobra reports it when it runs
	}
	var pairs []*pflag.Flag
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if _, ok := unwrap(f.Value).(*pairValue); ok {
			pairs = append(pairs, f)
		}
	})
	rest := args
	for _, f := range pairs {
		var lo, hi string
		var found bool
		rest, lo, hi, found, err = config.SplitPairFlag(rest, f.Name)
		if err != nil {
			return usageError{err.Error()}
		}
		if found {
			p := unwrap(f.Value).(*pairValue)
			p.lo, p.hi = lo, hi
			if p.into != nil {
				p.into(lo, hi)
			}
			f.Changed = true
		}
	}
	if len(pairs) > 0 {
		root.SetArgs(rest)
	}
	return nil
}

func unwrap(v pflag.Value) pflag.Value {
	if m, ok := v.(metaValue); ok {
		return m.Value
	}
	return v
}

// delimiterList names every delimiter the inference knows, for the help of
// --delimiter, so help, README and inference cannot drift apart.
func delimiterList() string { return strings.Join(keys.Delimiters, " ") }
