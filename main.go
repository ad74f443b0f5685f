// Command dynascope is a terminal explorer for DynamoDB tables built with
// single-table design. This file holds the subcommands and the wiring; it is
// the only place that may exit the process.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/ui"
)

const usage = `dynascope — a terminal explorer for DynamoDB single-table designs

usage:
  dynascope [--table T] [--pk VALUE] [--index I]      the terminal UI
  dynascope tables                                    tables with keys, indexes, items, size
  dynascope query --table T --pk V [sort-key condition] [--reverse] [--limit N] ...
  dynascope get --table T --pk V [--sk V]             one item by its full primary key
  dynascope groups --table T --pk V [--count]         the entity types of a partition (skip-scan)
  dynascope patterns list | run NAME [--param k=v] | check | show NAME [--lang cli|python|go]
                                                      the access patterns of dynascope.yaml
  dynascope layout --table T [--max-items N] [--max-rcu R] [--segments S]
                                                      the table's key layout from a bounded sample, with a lint
  dynascope seed --table T (--demo | --file F | --workbench MODEL.json) [--skip-invalid] [--table-prefix P] [--force]
                                                      F: JSON lines, a JSON array, batch-write-item documents, an S3 export
  dynascope demo [--workbench MODEL.json [--skip-invalid]]  DynamoDB Local + demo table + UI
  dynascope config path|show                          the settings file
  dynascope completion bash|zsh|fish                  shell completion
  dynascope --version

connection flags (every command): --table --profile --region --endpoint-url --timeout --max-attempts --connection
Run 'dynascope COMMAND -h' for a command's flags.
`

// usageError marks a mistake in the command line itself: exit code 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err == nil {
		return
	}
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	fmt.Fprintln(os.Stderr, "dynascope: "+ui.Sanitize(err.Error()))
	var ue usageError
	if errors.As(err, &ue) {
		os.Exit(2)
	}
	os.Exit(1)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cmd := ""
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	if ok, err := runExtra(ctx, cmd, args, stdout, stderr); ok {
		return err
	}
	switch cmd {
	case "":
		return cmdUI(ctx, args, stderr)
	case "tables":
		return cmdTables(ctx, args, stdout, stderr)
	case "query":
		return cmdQuery(ctx, args, stdout, stderr)
	case "get":
		return cmdGet(ctx, args, stdout, stderr)
	case "groups":
		return cmdGroups(ctx, args, stdout, stderr)
	case "patterns":
		return cmdPatterns(ctx, args, stdout, stderr)
	case "layout":
		return cmdLayout(ctx, args, stdout, stderr)
	case "seed":
		return cmdSeed(ctx, args, stdout, stderr)
	case "demo":
		return cmdDemo(ctx, args, stdout, stderr)
	case "help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return usageError{fmt.Sprintf("unknown command %q; run 'dynascope help' for the commands.", cmd)}
}

// newFlags builds a command's flag set with the connection flags on it.
func newFlags(name string, stderr io.Writer) (*flag.FlagSet, *config.Connection) {
	fs := flag.NewFlagSet("dynascope "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config.Connection
	c.Register(fs)
	return fs, &c
}

// parse parses flags and refuses stray positional arguments.
func parse(fs *flag.FlagSet, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q; values go after their flag (e.g. --pk 'CUST#42').", fs.Arg(0))}
	}
	return nil
}

// flagSetParsed, set only by tests, sees each command's flag set as it is
// parsed, every flag defined: the no-writes test enumerates the commands'
// flags from it rather than from a list of its own.
var flagSetParsed func(*flag.FlagSet)

// parseFlags is fs.Parse with a mistake told in one sentence, without the
// flag package's dump of every flag; -h still prints the flags.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if flagSetParsed != nil {
		flagSetParsed(fs)
	}
	out := fs.Output()
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.SetOutput(out)
	if err == nil {
		return nil
	}
	if errors.Is(err, flag.ErrHelp) {
		fs.Usage()
		return err
	}
	return usageError{flagSentence(fs, err)}
}

var (
	badValueRE = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-([A-Za-z0-9-]+): (.*)$`)
	unknownRE  = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	noValueRE  = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
)

// flagSentence turns the flag package's error into a sentence that names
// the flag as it is typed (--limit) and says what it takes.
func flagSentence(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if m := unknownRE.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("unknown flag --%s; run '%s -h' for the flags.", m[1], fs.Name())
	}
	if m := noValueRE.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("--%s needs a value.", m[1])
	}
	m := badValueRE.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	value, name, why := m[1], m[2], m[3]
	if why != "parse error" && why != "value out of range" {
		// A flag of ours, whose error says what it takes.
		return strings.TrimSuffix(why, ".") + "."
	}
	takes := "another value"
	if f := fs.Lookup(name); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			switch g.Get().(type) {
			case int, int64, uint, uint64:
				takes = "a whole number"
			case float64:
				takes = "a number"
			case time.Duration:
				takes = "a duration such as 15s or 2m"
			case bool:
				takes = "true or false"
			}
		}
	}
	if why == "value out of range" {
		return fmt.Sprintf("--%s: %s is out of range.", name, value)
	}
	return fmt.Sprintf("--%s takes %s, not %q.", name, takes, value)
}

// connect builds the read-only client; a settings file that cannot be read
// is reported rather than skipped.
func connect(ctx context.Context, c *config.Connection) (*dynamo.Client, error) {
	client, _, err := connectWithSettings(ctx, c)
	return client, err
}

// connectWithSettings is connect that also returns the settings it read.
func connectWithSettings(ctx context.Context, c *config.Connection) (*dynamo.Client, config.Settings, error) {
	o, s, err := c.Resolve()
	if err != nil {
		return nil, s, err
	}
	client, err := dynamo.Connect(ctx, o)
	return client, s, err
}

// itemCap is the UI's cap on items in memory (ui.Options.MaxLoadedItems,
// where negative means none) from --max-loaded (-1 when not given; 0 for
// no cap) over the settings' maxLoadedItems (0 for no cap).
func itemCap(flagValue int, s config.Settings) int {
	n := flagValue
	if n < 0 {
		n = s.MaxLoadedItems
	}
	if n == 0 {
		return -1
	}
	return n
}

func cmdUI(ctx context.Context, args []string, stderr io.Writer) error {
	fs, conn := newFlags("", stderr)
	pk := fs.String("pk", "", "open this partition key value directly")
	index := fs.String("index", "", "query this secondary index")
	patterns := fs.String("patterns", config.PatternsFile, "the access patterns file: a lists its patterns, S saves the current request to it")
	maxLoaded := -1 // not given
	fs.Func("max-loaded", fmt.Sprintf("items kept in memory; beyond them the pages farthest from the cursor are released and read again when scrolled back to; 0 for no cap (default: the setting maxLoadedItems, else %d)", config.DefaultMaxLoadedItems), func(v string) error {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			return fmt.Errorf("--max-loaded takes a whole number, not %q", v)
		case n < 0:
			return errors.New("--max-loaded takes a number of items, or 0 for no cap")
		}
		maxLoaded = n
		return nil
	})
	fs.Usage = func() { fmt.Fprint(fs.Output(), usage, "\nflags:\n"); fs.PrintDefaults() }
	if err := parse(fs, args); err != nil {
		return err
	}
	if *pk != "" && conn.Table == "" {
		return usageError{"--pk needs --table: the partition key belongs to one table."}
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "patterns" })
	// A broken patterns file does not keep the UI from starting: the
	// patterns view and the status line say what is wrong with it, and
	// saving to it is refused until it is fixed.
	set, setPath, patternsErr := ui.LoadPatterns(*patterns, given)
	client, settings, err := connectWithSettings(ctx, conn)
	if err != nil {
		return err
	}
	return ui.Run(ctx, ui.Options{
		Store: client, Table: conn.Table, Index: *index, PK: *pk,
		Region: client.Region(), Endpoint: client.Endpoint(), Profile: client.Profile(),
		Patterns: set, PatternsPath: setPath, PatternsErr: patternsErr,
		Settings: settings, MaxLoadedItems: itemCap(maxLoaded, settings),
	})
}
