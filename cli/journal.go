package cli

// journal and undo: the writes made (every put, update, delete and undo is
// journalled by package edit), and taking one back.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"dynascope/edit"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// journalOptions are the flag values of `dynascope journal`.
type journalOptions struct {
	Out, Err io.Writer
	Table    string // only this table's writes; "" for all
	Output   string // text | json
}

func newJournalCmd(f *factory, runF func(context.Context, *journalOptions) error) *cobra.Command {
	opts := &journalOptions{}
	cmd := &cobra.Command{
		Use:     "journal [--table NAME] [--output text|json]",
		Short:   "list the writes made (reads a file; sends nothing)",
		GroupID: groupWrite,
		Example: `  dynascope journal
  dynascope journal --table App --output json`,
		Args: noArgs,
	}
	outputFlag(cmd, &opts.Output, "text", "", "text", "json")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		opts.Table, opts.Out, opts.Err = f.Conn.Table, f.Stdout(), f.Stderr()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runJournal(cmd.Context(), opts)
	}
	return cmd
}

// runJournal prints the journal's entries (of the table, when given).
func runJournal(_ context.Context, opts *journalOptions) error {
	j, entries, err := readJournal(opts.Err)
	if err != nil {
		return err
	}
	if opts.Table != "" {
		entries = slices.DeleteFunc(entries, func(e edit.Entry) bool { return e.Table != opts.Table })
	}
	return printJournal(opts.Out, j.Path, entries, opts.Output)
}

// readJournal reads the journal; each line that is not an entry is a
// sentence on notes.
func readJournal(notes io.Writer) (*edit.Journal, []edit.Entry, error) {
	j, err := edit.OpenJournal("")
	if err != nil {
		return nil, nil, err
	}
	entries, bad, err := j.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read the journal %s: %w", j.Path, err)
	}
	for _, s := range bad {
		fmt.Fprintln(notes, textfmt.Sanitize(s))
	}
	return j, entries, nil
}

type journalEntryObject struct {
	Number int `json:"number"`
	edit.Entry
	UndoneBy int `json:"undoneBy,omitempty"`
}

func printJournal(w io.Writer, path string, entries []edit.Entry, output string) error {
	undoneBy := map[int]int{}
	for _, e := range entries {
		if e.Undoes > 0 {
			undoneBy[e.Undoes] = e.Number
		}
	}
	var b bytes.Buffer
	if output == "json" {
		objs := []journalEntryObject{}
		for _, e := range entries {
			objs = append(objs, journalEntryObject{Number: e.Number, Entry: e, UndoneBy: undoneBy[e.Number]})
		}
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"file": path, "entries": objs}); err != nil {
			return err
		}
		_, err := w.Write(itemcodec.EscapeTerminalJSON(b.Bytes()))
		return err
	}
	if len(entries) == 0 {
		fmt.Fprintf(&b, "no writes in the journal %s\n", textfmt.Sanitize(path))
	}
	for _, e := range entries {
		where := e.Endpoint
		if where == "" {
			where = "AWS " + e.Region
		}
		old, _ := e.OldItem()
		new, _ := e.NewItem()
		keys := e.Keys()
		status := ""
		switch {
		case undoneBy[e.Number] > 0:
			status = fmt.Sprintf(", undone by %d", undoneBy[e.Number])
		case e.Undoes > 0:
			status = fmt.Sprintf(", undoes %d", e.Undoes)
		}
		line := fmt.Sprintf("%d  %s  %s %s on %s (%s): %s WCU%s", e.Number, e.Time.Format("2006-01-02 15:04:05Z"), e.Operation,
			edit.KeyText(keys, old, new), e.Table, where, jsonFloat(e.WCU), status)
		b.WriteString(textfmt.Sanitize(line) + "\n")
		for _, l := range edit.DiffLines(keys, edit.Diff(old, new)) {
			b.WriteString("     " + textfmt.Sanitize(l) + "\n")
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// undoOptions are the flag values of `dynascope undo`.
type undoOptions struct {
	writeAccess
	Table string // the last write of this table; "" for any
	Entry int    // --entry; 0 for the last write not undone yet
}

func newUndoCmd(f *factory, runF func(context.Context, *undoOptions) error) *cobra.Command {
	opts := &undoOptions{writeAccess: newWriteAccess(f)}
	cmd := &cobra.Command{
		Use:     "undo [--entry N] --allow-writes",
		Short:   "take back one journalled write, only if the item is still as it left it",
		GroupID: groupWrite,
		Example: `  dynascope undo --dry-run
  dynascope undo --entry 12 --allow-writes`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	fs.IntVar(&opts.Entry, "entry", 0, "the journal entry `N` to undo (default: the last write not undone yet)")
	opts.registerAccess(cmd, "print the diff, the aws command and the predicted WCU; send nothing")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		opts.Table, opts.WritesAllowed, opts.Out = f.Conn.Table, f.Conn.WritesAllowed, f.Stdout()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runUndo(cmd.Context(), opts)
	}
	return cmd
}

// runUndo takes back the entry: the journal is read and the entry picked,
// and writes not allowed refused, before anything connects.
func runUndo(ctx context.Context, opts *undoOptions) error {
	_, entries, err := readJournal(io.Discard)
	if err != nil {
		return err
	}
	e, err := pickEntry(entries, opts.Entry, opts.Table)
	if err != nil {
		return err
	}
	if _, err := opts.allowed("undo"); err != nil {
		return err
	}
	client, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	if e.Endpoint != client.Endpoint() || e.Region != client.Region() {
		where := e.Endpoint
		if where == "" {
			where = "AWS"
		}
		return usageError{textfmt.Sanitize(fmt.Sprintf("journal entry %d was written to %s in %s; connect there (--endpoint-url, --region) to undo it.", e.Number, where, e.Region))}
	}
	t, err := client.DescribeTable(ctx, e.Table) // its indexes, for the predicted units
	if err != nil {
		return err
	}
	plan, err := edit.UndoPlan(e, t)
	if err != nil {
		return fmt.Errorf("undo entry %d: %w.", e.Number, err)
	}
	out := writeOutput{plan: plan, target: edit.Target{Endpoint: client.Endpoint(), Region: client.Region(), Profile: client.Profile()}}
	if opts.DryRun {
		return out.print(opts.Out, opts.Output)
	}
	w, err := opts.ConnectWriter(ctx)
	if err != nil {
		return err
	}
	out.result, out.err = w.Undo(ctx, plan, e.Number)
	out.journal = w.JournalPath()
	if perr := out.print(opts.Out, opts.Output); perr != nil {
		return perr
	}
	return out.err
}

// pickEntry finds the entry to undo: the numbered one, else the last write
// (of the table, when given) that is not an undo and not undone yet.
func pickEntry(entries []edit.Entry, number int, table string) (edit.Entry, error) {
	if number > 0 {
		for _, e := range entries {
			if e.Number == number {
				return e, nil
			}
		}
		return edit.Entry{}, usageError{fmt.Sprintf("the journal has no entry %d; list them with 'dynascope journal'.", number)}
	}
	undone := edit.Undone(entries)
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		if e.Undoes == 0 && !undone[e.Number] && (table == "" || e.Table == table) {
			return e, nil
		}
	}
	return edit.Entry{}, usageError{"the journal holds no write left to undo; list them with 'dynascope journal'."}
}
