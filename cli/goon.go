package cli

// Going on after a read that stopped short (scan --resume, query
// --start-key, partiql --next-token): the command line that reads the
// rest, as a user pastes it into a shell. Keys are table data, so a word
// that Sanitize would change is written in bash's $'...' quoting, byte by
// byte: the line is then safe to print and pastes back to the same bytes.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// commandLine is the command as it was given, rebuilt from what cobra
// parsed: the command's path below the root, its arguments, then every
// flag that was set (the connection flags among them) as --name=value,
// less the flags named in drop, which the go-on line fills in anew.
func commandLine(cmd *cobra.Command, args []string, drop ...string) []string {
	line := strings.Fields(cmd.CommandPath())[1:]
	line = append(line, args...)
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Changed { // takePairs marks --sk-between so, not by Set
			return
		}
		for _, d := range drop {
			if f.Name == d {
				return
			}
		}
		if p, ok := unwrap(f.Value).(*pairValue); ok {
			line = append(line, "--"+f.Name, p.lo, p.hi)
			return
		}
		if s, ok := unwrap(f.Value).(pflag.SliceValue); ok {
			for _, v := range s.GetSlice() { // a repeated flag, each as given
				line = append(line, "--"+f.Name+"="+v)
			}
			return
		}
		v := f.Value.String()
		if f.NoOptDefVal != "" && v == f.NoOptDefVal {
			line = append(line, "--"+f.Name) // --yes, --reverse
			return
		}
		line = append(line, "--"+f.Name+"="+v)
	})
	return line
}

// goOnLine is "dynascope" and line with the flags add appended, quoted for
// a shell, sanitised (a no-op: shellQuote leaves nothing to change).
func goOnLine(line []string, add ...string) string {
	words := []string{"dynascope"}
	for _, w := range append(append([]string{}, line...), add...) {
		words = append(words, shellQuote(w))
	}
	return textfmt.Sanitize(strings.Join(words, " "))
}

// maxGoOnLine is the longest go-on command printed in place: a scan's
// resume over a few segments fits; a key near DynamoDB's limits (2,048
// bytes of partition key, 1,024 of sort key) would flood the terminal.
const maxGoOnLine = 1000

// goOnSentence is the last sentence of a read that stopped short. A
// command too long to print is written to a file the sentence names
// (only the start of it is shown, should that fail).
func goOnSentence(cmd string) string {
	return goOnSentenceOf("to go on where it stopped, reading only the rest, run: ", cmd)
}

// goOnSentenceOf is goOnSentence with its own lead.
func goOnSentenceOf(lead, cmd string) string {
	if len(cmd) <= maxGoOnLine {
		return lead + cmd
	}
	path, err := writeGoOn(cmd)
	if err != nil {
		return fmt.Sprintf("%sthe command of %d characters that starts %s… (too long to print, and it could not be written to a file: %v)",
			lead, len(cmd), ansi.Truncate(cmd, 120, ""), err)
	}
	return fmt.Sprintf("%sbash %s (the command, %d characters with its key, is too long to print: that file holds it)", lead, shellQuote(path), len(cmd))
}

// writeGoOn writes a go-on command to a new file of its own in the
// temporary directory and returns its path.
func writeGoOn(cmd string) (string, error) {
	return writeNewFile("", "dynascope-go-on-*.sh", []byte(cmd+"\n"))
}

// writeNewFile writes b to a new file of its own in dir (the temporary
// directory for "") named by pattern, as os.CreateTemp names it, and
// returns its path; a file it could not write whole is removed.
func writeNewFile(dir, pattern string, b []byte) (string, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// shellQuote quotes a word for bash: bare when it is plain, in single
// quotes when Sanitize would leave it as it is, else in $'...' with every
// byte that Sanitize would change written as \xHH.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/:@=+,%") == "" {
		return s
	}
	if textfmt.Sanitize(s) == s {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteByte(s[i])
		case (r == utf8.RuneError && size == 1) || textfmt.Sanitize(s[i:i+size]) != s[i:i+size]:
			for _, c := range []byte(s[i : i+size]) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('\'')
	return b.String()
}

// goOnError is the error a read stopped short ends with: its own sentence
// unchanged, and the command that goes on, which Main prints on the line
// after it (a pasted line cannot end with a sentence's full stop).
type goOnError struct {
	err  error
	cmd  string
	lead string // the sentence before the command; "" for a read's
}

func (e goOnError) Error() string { return e.err.Error() }

func (e goOnError) Unwrap() error { return e.err }

// goOnOf is the sentence and command an error says to go on with, ""
// for none.
func goOnOf(err error) string {
	var g goOnError
	switch {
	case !errors.As(err, &g) || g.cmd == "":
		return ""
	case g.lead != "":
		return goOnSentenceOf(g.lead, g.cmd)
	}
	return goOnSentence(g.cmd)
}

// resumeSource reads the value of --resume or --next-token: the value
// itself, or with @FILE (@- for standard input) the JSON document a
// previous run printed with --output json, read whole.
type resumeSource struct {
	Open  func(name string) (io.ReadCloser, error)
	Stdin func() io.Reader
}

// read returns the document and the name to give it in sentences; doc is
// false for a value given in place.
func (r resumeSource) read(flag, value string) (text []byte, name string, doc bool, err error) {
	name, ok := strings.CutPrefix(value, "@")
	if !ok {
		return []byte(value), flag, false, nil
	}
	var in io.Reader
	if name == "-" {
		in, name = r.Stdin(), "standard input"
	} else {
		f, err := r.Open(name)
		if err != nil {
			return nil, "", true, &textfmt.UserError{Msg: fmt.Sprintf("%s @%s: cannot read it (%v); give the file a previous --output json run printed.", flag, name, err), Err: err}
		}
		defer f.Close()
		in = f
	}
	b, err := io.ReadAll(io.LimitReader(in, 64<<20))
	if err != nil {
		return nil, "", true, &textfmt.UserError{Msg: fmt.Sprintf("%s: reading %s failed: %v.", flag, name, err), Err: err}
	}
	return b, name, true, nil
}

// checkStartKeyText refuses, as a usage error before anything connects, a
// --start-key that is no JSON object of key values whatever the table.
func checkStartKeyText(text string) error {
	n, err := dynamo.ParseStartKeyNode("--start-key", text)
	if err == nil && n.Kind != itemcodec.JSONObject {
		_, err = dynamo.StartKey(dynamo.Table{}, "", "--start-key", n)
	}
	if err != nil {
		return usageError{err.Error()}
	}
	return nil
}
