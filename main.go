// Command dynascope is a terminal explorer for DynamoDB tables built with
// single-table design. This file holds main, the root command (the terminal
// UI) and the connection helpers; main is the only place that may exit the
// process. The command tree is built in cli.go.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/patterns"
	"dynascope/textfmt"
	"dynascope/ui"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	signalled := ctx.Err() != nil // before stop, which cancels ctx too
	stop()
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, "dynascope: "+textfmt.Sanitize(err.Error()))
	os.Exit(exitCode(signalled, err))
}

// Exit codes: 0 done, 1 a failure at run time, 2 a mistake in the command
// line, 130 stopped by a signal (SIGINT, SIGTERM or SIGHUP; 128 + SIGINT's
// number, as shells report Ctrl-C), whatever was written then incomplete.
const exitInterrupted = 130

func exitCode(signalled bool, err error) int {
	var ue usageError
	switch {
	case errors.As(err, &ue):
		return 2
	case signalled:
		return exitInterrupted
	}
	return 1
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

// newUICmd is the root command: the terminal UI. Its flags are its own;
// the connection flags are added by newRootCmd for every command.
func newUICmd(conn *config.Connection) *cobra.Command {
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
	pk := fs.String("pk", "", "open this partition key `VALUE` directly")
	index := fs.String("index", "", "query this secondary `INDEX`")
	patternsFile := fs.String("patterns", patterns.PatternsFile, "the access patterns `FILE`: a lists its patterns, S saves the current request to it")
	maxLoaded := -1 // not given
	fs.Func("max-loaded", fmt.Sprintf("`N` items kept in memory; beyond them the pages farthest from the cursor are released and read again when scrolled back to; 0 for no cap (default: the setting maxLoadedItems, else %d)", config.DefaultMaxLoadedItems), func(v string) error {
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
	allowWrites := fs.Bool("allow-writes", false, "allow editing items (else writes: true on the connection in the settings file); every write is shown before it is sent and conditional on the item as read")
	cmd.RegisterFlagCompletionFunc("index", completeIndexes(conn))
	cmd.MarkFlagFilename("patterns", "yaml", "yml")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ctx := cmd.Context()
		if *pk != "" && conn.Table == "" {
			return usageError{"--pk needs --table: the partition key belongs to one table."}
		}
		// A broken patterns file does not keep the UI from starting: the
		// patterns view and the status line say what is wrong with it, and
		// saving to it is refused until it is fixed.
		set, setPath, patternsErr := ui.LoadPatterns(*patternsFile, fs.Changed("patterns"))
		client, settings, err := connectWithSettings(ctx, conn)
		if err != nil {
			return err
		}
		var editor ui.Editor
		if *allowWrites || conn.WritesAllowed(settings) {
			w, err := openWriter(ctx, conn)
			if err != nil {
				return err
			}
			editor = w
		}
		return ui.Run(ctx, ui.Options{
			Editor: editor,
			Store:  client, Table: conn.Table, Index: *index, PK: *pk,
			Region: client.Region(), Endpoint: client.Endpoint(), Profile: client.Profile(),
			Patterns: set, PatternsPath: setPath, PatternsErr: patternsErr,
			Settings: settings, MaxLoadedItems: itemCap(maxLoaded, settings),
		})
	}
	return cmd
}
