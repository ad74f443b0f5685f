package cli

// The command tree. newRootCmd builds it from each command's constructor
// (declared in the command's own file); the one tree feeds dispatch, help,
// usage and shell completion. This file holds what the commands share: the
// connection flags, argument checks, the help layout, and the root command
// itself (the terminal UI) with the connection helpers.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/patterns"
	"dynascope/ui"
)

// usageError marks a mistake in the command line itself: exit code 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// Command groups of `dynascope help`.
const (
	groupExplore = "explore"
	groupWrite   = "write"
	groupSetup   = "setup"
)

// offline marks a command that never connects: its help leaves out the
// connection flags and the global ones.
const offline = "offline"

// globalFlag marks a persistent flag that is not a connection flag
// (--debug, --color): help lists it under Global flags.
const globalFlag = "global"

// globalFlags are the values of the root's persistent flags that are not
// the connection's (those are config.Connection's).
type globalFlags struct {
	Color string // --color: auto, always, never (or on, off)
	// Query is --query, compiled; Doc the document layer it and
	// --output text and yaml go through (document.go).
	Query queryValue
	Doc   document
}

// helpWidth is where flag descriptions wrap in help: fixed, so that help
// reads the same in every terminal and in the tests.
const helpWidth = 100

// newRootCmd builds the whole command tree. Every call returns a fresh tree
// with its own flag values, so tests can build and walk as many as they like.
func newRootCmd(b Build) *cobra.Command {
	root, _ := newRootTree(b)
	return root
}

// newRootTree is newRootCmd with the document layer of the tree's one
// command line, which runBuild finishes once the command has run.
func newRootTree(b Build) (*cobra.Command, *document) {
	var conn config.Connection
	f := &factory{} // filled in below: its streams are the root's
	root := newUICmd(f, nil)
	*f = *newFactory(&conn, root)
	// The connection flags are persistent: accepted before or after the
	// command, as the AWS CLI accepts them. config declares them on a Go
	// flag set; pflag wraps those flags, their validation included.
	gofs := flag.NewFlagSet("dynascope", flag.ContinueOnError)
	conn.Register(gofs)
	root.PersistentFlags().AddGoFlagSet(gofs)
	root.RegisterFlagCompletionFunc("table", completeTables(&conn))
	root.RegisterFlagCompletionFunc("connection", completeConnections)
	// The flags of every command that are not the connection's: help lists
	// them apart (printUsage).
	colorFlag(root, &f.Global.Color)
	queryFlag(root, &f.Global.Query)
	f.Global.Doc.query = &f.Global.Query
	f.Global.Doc.defaultOutput = func() string { return awsDefaultOutput(&conn) }
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error { return f.Global.Doc.prepare(cmd) }
	for _, name := range []string{"debug", "color", "query"} {
		_ = root.PersistentFlags().SetAnnotation(name, globalFlag, []string{"yes"})
	}

	root.AddGroup(
		&cobra.Group{ID: groupExplore, Title: "Explore (read-only):"},
		&cobra.Group{ID: groupWrite, Title: "Write:"},
		&cobra.Group{ID: groupSetup, Title: "Settings and shell:"},
	)
	root.AddCommand(
		newTablesCmd(f, nil), newQueryCmd(f, nil), newGetCmd(f, nil), newGroupsCmd(f, nil),
		newScanCmd(f, nil), newPartiQLCmd(f, nil),
		newTailCmd(f, nil),
		newLayoutCmd(f, nil), newPatternsCmd(f), newCheckCmd(f, nil), newExplainCmd(f, nil),
		newItemCmd(f, nil), newIndexCmd(f),
		newSeedCmd(f, nil), newDemoCmd(f, nil),
		newPutCmd(f, nil), newUpdateCmd(f, nil), newDeleteCmd(f, nil), newJournalCmd(f, nil), newUndoCmd(f, nil),
		newEntitiesCmd(f), newConfigCmd(f), newCompletionCmd(f, nil), newVersionCmd(f, nil),
	)
	root.SetHelpCommandGroupID(groupSetup)
	root.CompletionOptions.DisableDefaultCmd = true // ours is newCompletionCmd

	info, ok := debug.ReadBuildInfo()
	root.Version = buildVersion(b, info, ok)
	root.Flags().BoolP("version", "v", false, "print the version and commit")
	root.SetVersionTemplate("{{.Version}}\n")
	root.SilenceErrors = true // main prints the one sentence
	root.SilenceUsage = true  // a mistake is one sentence, not the flag dump
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{flagSentence(c, err)}
	})
	root.SetUsageFunc(printUsage)
	for c := range walk(root) {
		nameFlagValues(c.LocalFlags())
		nameFlagValues(c.PersistentFlags())
	}
	return root, &f.Global.Doc
}

// awsDefaultOutput is the AWS CLI's default output format: the
// environment's AWS_DEFAULT_OUTPUT, else the output setting of the profile
// the connection uses (--profile, the settings' connection, AWS_PROFILE,
// else default).
func awsDefaultOutput(c *config.Connection) string {
	if v := os.Getenv("AWS_DEFAULT_OUTPUT"); v != "" {
		return v
	}
	profile := c.Profile
	if o, _, err := c.Resolve(); err == nil && o.Profile != "" {
		profile = o.Profile
	}
	if profile == "" {
		profile = os.Getenv("AWS_PROFILE")
	}
	if profile == "" {
		profile = "default"
	}
	return config.AWSProfileSetting(profile, "output")
}

// walk yields a command and all its subcommands.
func walk(c *cobra.Command) func(func(*cobra.Command) bool) {
	return func(yield func(*cobra.Command) bool) {
		var visit func(*cobra.Command) bool
		visit = func(c *cobra.Command) bool {
			if !yield(c) {
				return false
			}
			for _, sub := range c.Commands() {
				if !visit(sub) {
					return false
				}
			}
			return true
		}
		visit(c)
	}
}

// noArgs refuses positional arguments: a value goes after its flag.
func noArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q; values go after their flag (e.g. --pk 'CUST#42').", args[0])}
	}
	return nil
}

// printUsage writes a command's usage: how to call it, examples, its
// subcommands by group, its own flags, then the connection flags.
func printUsage(c *cobra.Command) error {
	var b strings.Builder
	b.WriteString("Usage:\n")
	if c.Runnable() && (!c.HasAvailableSubCommands() || !c.HasParent()) {
		fmt.Fprintf(&b, "  %s\n", c.UseLine())
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(&b, "  %s COMMAND [flags]\n", c.CommandPath())
	}
	if c.HasExample() {
		fmt.Fprintf(&b, "\nExamples:\n%s\n", strings.TrimRight(c.Example, "\n"))
	}
	if c.HasAvailableSubCommands() {
		groups := append([]*cobra.Group{}, c.Groups()...)
		groups = append(groups, &cobra.Group{Title: "Commands:"})
		for _, g := range groups {
			var lines []string
			for _, sub := range c.Commands() {
				if sub.GroupID == g.ID && (sub.IsAvailableCommand() || sub.Name() == "help") {
					lines = append(lines, fmt.Sprintf("  %-*s  %s", c.NamePadding(), sub.Name(), sub.Short))
				}
			}
			if len(lines) > 0 {
				fmt.Fprintf(&b, "\n%s\n%s\n", g.Title, strings.Join(lines, "\n"))
			}
		}
	}
	local, inherited := c.LocalFlags(), c.InheritedFlags()
	if !c.HasParent() {
		local, inherited = c.LocalNonPersistentFlags(), c.PersistentFlags()
	}
	if local.HasAvailableFlags() {
		fmt.Fprintf(&b, "\nFlags:\n%s", local.FlagUsagesWrapped(helpWidth))
	}
	connFlags, global := splitGlobal(inherited)
	if connFlags.HasAvailableFlags() && c.Annotations[offline] == "" {
		fmt.Fprintf(&b, "\nConnection flags (before or after the command):\n%s", connFlags.FlagUsagesWrapped(helpWidth))
	}
	if global.HasAvailableFlags() && c.Annotations[offline] == "" {
		fmt.Fprintf(&b, "\nGlobal flags (before or after the command):\n%s", global.FlagUsagesWrapped(helpWidth))
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(&b, "\nRun '%s COMMAND -h' for a command's flags and examples.\n", c.CommandPath())
	}
	_, err := io.WriteString(c.OutOrStderr(), b.String())
	return err
}

// splitGlobal parts persistent flags into the connection's and the global
// ones (globalFlag).
func splitGlobal(fs *pflag.FlagSet) (connFlags, global *pflag.FlagSet) {
	connFlags, global = pflag.NewFlagSet("connection", pflag.ContinueOnError), pflag.NewFlagSet("global", pflag.ContinueOnError)
	fs.VisitAll(func(fl *pflag.Flag) {
		if _, ok := fl.Annotations[globalFlag]; ok {
			global.AddFlag(fl)
		} else {
			connFlags.AddFlag(fl)
		}
	})
	return connFlags, global
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

// openWriter builds the writer of guarded editing, journalling to the
// user's journal. Only called once writes were allowed.
func openWriter(ctx context.Context, c *config.Connection) (*edit.Writer, error) {
	o, err := c.Options()
	if err != nil {
		return nil, err
	}
	j, err := edit.OpenJournal("")
	if err != nil {
		return nil, err
	}
	return edit.Open(ctx, o, true, j)
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

// uiOptions are the flag values of the root command, the terminal UI.
type uiOptions struct {
	ConnectSettings func(context.Context) (*dynamo.Client, config.Settings, error)
	ConnectWriter   func(context.Context) (*edit.Writer, error)
	ConnectStreams  func(context.Context, *dynamo.Client) (*dynamo.StreamClient, error)
	WritesAllowed   func(config.Settings) bool // writes: true on the connection
	Table           string                     // "" for the table picker
	Index, PK       string
	PatternsFile    string
	PatternsGiven   bool // --patterns named it, else the default (none when absent)
	MaxLoaded       int  // --max-loaded; -1 when not given
	AllowWrites     bool
	// DebugLog points --debug at the UI's log file, the screen being the
	// UI's (debuglog.go); done closes it and names it on stderr.
	DebugLog func() (done func(), err error)
	// UIStarts says the terminal is the UI's from now on: an MFA code can
	// no longer be asked on it.
	UIStarts func()
	Color    string // --color
	// Conn is the command line's connection, which ctrl+k's switch starts
	// from (switch.go).
	Conn *config.Connection
}

// newUICmd is the root command: the terminal UI. Its flags are its own;
// the connection flags are added by newRootCmd for every command. It reads
// f's funcs only when it runs: newRootCmd fills f in after building it.
func newUICmd(f *factory, runF func(context.Context, *uiOptions) error) *cobra.Command {
	opts := &uiOptions{MaxLoaded: -1}
	cmd := &cobra.Command{
		Use:   "dynascope [--table NAME [--pk VALUE]]",
		Short: "a terminal explorer for DynamoDB single-table designs",
		Long: `dynascope — a terminal explorer for DynamoDB single-table designs.

Without a command it opens the terminal UI on --table, or lists the tables.
Everything but 'seed' and 'demo' only reads, unless --allow-writes is given
to put, update, delete or undo (each write conditional on the item as read).`,
		Example: `  dynascope --endpoint-url http://127.0.0.1:8000 --table App --pk 'CUST#42'
  dynascope --profile prod tables
  dynascope query --table App --pk 'CUST#42' --sk-begins-with 'ORDER#' --reverse --limit 1`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			if s := c.SuggestionsFor(args[0]); len(s) > 0 {
				return usageError{fmt.Sprintf("unknown command %q (did you mean %s?); run 'dynascope help' for the commands.", args[0], strings.Join(s, " or "))}
			}
			return usageError{fmt.Sprintf("unknown command %q; run 'dynascope help' for the commands.", args[0])}
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.PK, "pk", "", "open this partition key `VALUE` directly")
	fs.StringVar(&opts.Index, "index", "", "query this secondary `INDEX`")
	fs.StringVar(&opts.PatternsFile, "patterns", patterns.PatternsFile, "the access patterns `FILE`: a lists its patterns, S saves the current request to it")
	fs.Func("max-loaded", fmt.Sprintf("`N` items kept in memory; beyond them the pages farthest from the cursor are released and read again when scrolled back to; 0 for no cap (default: the setting maxLoadedItems, else %d)", config.DefaultMaxLoadedItems), func(v string) error {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			return fmt.Errorf("--max-loaded takes a whole number, not %q", v)
		case n < 0:
			return errors.New("--max-loaded takes a number of items, or 0 for no cap")
		}
		opts.MaxLoaded = n
		return nil
	})
	fs.BoolVar(&opts.AllowWrites, "allow-writes", false, "allow editing items (else writes: true on the connection in the settings file); every write is shown before it is sent and conditional on the item as read")
	cmd.RegisterFlagCompletionFunc("index", func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return completeIndexes(f.Conn)(c, args, toComplete)
	})
	cmd.MarkFlagFilename("patterns", "yaml", "yml")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if opts.PK != "" && f.Conn.Table == "" {
			return usageError{"--pk needs --table: the partition key belongs to one table."}
		}
		opts.ConnectSettings, opts.ConnectWriter, opts.ConnectStreams = f.ConnectSettings, f.ConnectWriter, f.ConnectStreams
		opts.WritesAllowed, opts.Table, opts.PatternsGiven = f.Conn.WritesAllowed, f.Conn.Table, fs.Changed("patterns")
		opts.UIStarts, opts.Color, opts.Conn = f.MFA.uiStarts, f.Global.Color, f.Conn
		opts.DebugLog = func() (func(), error) { return uiDebugLog(f.Conn, f.Stderr()) }
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runUI(cmd.Context(), opts)
	}
	return cmd
}

// runUI connects and runs the terminal UI until the user quits.
func runUI(ctx context.Context, opts *uiOptions) error {
	// A broken patterns file does not keep the UI from starting: the
	// patterns view and the status line say what is wrong with it, and
	// saving to it is refused until it is fixed.
	set, setPath, patternsErr := patterns.Open(opts.PatternsFile, opts.PatternsGiven)
	done, err := opts.DebugLog()
	if err != nil {
		return err
	}
	defer done()
	client, settings, err := opts.ConnectSettings(ctx)
	if err != nil {
		return err
	}
	var editor ui.Editor
	if opts.AllowWrites || opts.WritesAllowed(settings) {
		w, err := opts.ConnectWriter(ctx)
		if err != nil {
			return err
		}
		editor = w
	}
	opts.UIStarts() // an MFA code was asked above, while connecting, if at all
	return ui.Run(ctx, uiEnvironment(ui.Options{
		Editor: editor,
		Store:  client, Table: opts.Table, Index: opts.Index, PK: opts.PK,
		Streams: liveStreams(ctx, opts.ConnectStreams, client),
		Region:  client.Region(), Endpoint: client.Endpoint(), Profile: client.Profile(),
		Connection:  connectionName(*opts.Conn, settings),
		Connections: config.Choices(settings), Switch: switchConnection(opts.Conn, opts.AllowWrites),
		Patterns: set, PatternsPath: setPath, PatternsErr: patternsErr,
		Settings: settings, MaxLoadedItems: itemCap(opts.MaxLoaded, settings),
	}, opts.Color))
}

// uiEnvironment fills in what the UI takes from the process's environment,
// which package ui does not read itself: where the partition history lives
// and its colours (--color over NO_COLOR, uiColors).
func uiEnvironment(o ui.Options, color string) ui.Options {
	if o.ConfigDir == "" {
		o.ConfigDir = config.Dir()
	}
	o.NoColor, o.ColorProfile = uiColors(color, os.Stdout, os.Environ())
	if _, h, err := term.GetSize(os.Stdout.Fd()); err == nil && o.Rows == 0 {
		o.Rows = h // the first page is sized to it before the window's size arrives
	}
	if o.ExportDir == "" {
		// Exports land where the user ran the command, said in full.
		o.ExportDir, _ = os.Getwd()
	}
	return o
}

// uiColors reads --color: never (off) is NO_COLOR; always (on) is colour
// even under NO_COLOR or where the terminal does not say it has any (as
// many as it says, at least 256); auto leaves it to NO_COLOR and Bubble
// Tea's detection.
func uiColors(color string, out io.Writer, environ []string) (noColor bool, p colorprofile.Profile) {
	switch color {
	case "never", "off":
		return true, colorprofile.Unknown
	case "always", "on":
		env := slices.DeleteFunc(slices.Clone(environ), func(kv string) bool { return strings.HasPrefix(kv, "NO_COLOR=") })
		return false, max(colorprofile.Detect(out, env), colorprofile.ANSI256)
	}
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "NO_COLOR="); ok && v != "" {
			return true, colorprofile.Unknown
		}
	}
	return false, colorprofile.Unknown
}
