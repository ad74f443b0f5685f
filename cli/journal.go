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
	"strings"
	"time"

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

// journalEntryObject is one entry of `journal --output json`: the entry as
// recorded, its state from the marks, and its items (key, the image as
// read, the image it leaves or would leave, its condition); key, old and
// new at the top are its first item's.
type journalEntryObject struct {
	Number       int                 `json:"number"`
	ID           string              `json:"id,omitempty"`
	Version      int                 `json:"version"`
	Time         time.Time           `json:"time"`
	Endpoint     string              `json:"endpoint"`
	Region       string              `json:"region"`
	Table        string              `json:"table"`
	Operation    edit.Op             `json:"operation"`
	PK           edit.KeyAttrJSON    `json:"pk"`
	SK           *edit.KeyAttrJSON   `json:"sk,omitempty"`
	State        edit.State          `json:"state"`
	Unanswered   bool                `json:"unanswered,omitempty"` // no answer was recorded: the run ended before it came
	Answered     *time.Time          `json:"answered"`
	Note         string              `json:"note,omitempty"`
	Key          json.RawMessage     `json:"key"`
	Old          json.RawMessage     `json:"old"`
	New          json.RawMessage     `json:"new"`
	Items        []journalItemObject `json:"items"`
	PredictedWCU float64             `json:"predictedWCU"`
	WCU          *float64            `json:"wcu"` // null: unknown, never 0
	VersionAttr  string              `json:"versionAttribute,omitempty"`
	Undoes       int                 `json:"undoes,omitempty"`
	UndoesAlso   []int               `json:"undoesAlso,omitempty"` // the undo of a chain: the other entries it takes back
	Continues    int                 `json:"continues,omitempty"`  // the stopped bulk entry whose rest this one sent
	UndoneBy     int                 `json:"undoneBy,omitempty"`
	UndoInDoubt  int                 `json:"undoInDoubt,omitempty"` // an undo of it that got no answer
}

type journalItemObject struct {
	Key       json.RawMessage `json:"key"`
	Old       json.RawMessage `json:"old"`
	New       json.RawMessage `json:"new"`
	Condition string          `json:"condition,omitempty"`
	State     edit.State      `json:"state"`
}

func newJournalEntryObject(e edit.Entry, undoneBy, undoInDoubt int) journalEntryObject {
	o := journalEntryObject{Number: e.Number, ID: e.ID, Version: e.Version, Time: e.Time, Endpoint: e.Endpoint, Region: e.Region, Table: e.Table,
		Operation: e.Operation, PK: e.PK, SK: e.SK, State: e.State, Unanswered: e.Unanswered, Note: e.Note, Items: []journalItemObject{},
		PredictedWCU: e.PredictedWCU, WCU: e.WCU, VersionAttr: e.VersionAttr, Undoes: e.Undoes, UndoneBy: undoneBy, UndoInDoubt: undoInDoubt,
		Continues: e.Continues,
		Key:       json.RawMessage("null"), Old: json.RawMessage("null"), New: json.RawMessage("null")}
	if u := e.UndoesEntries(); len(u) > 1 {
		o.UndoesAlso = u[1:]
	}
	if !e.Answered.IsZero() {
		at := e.Answered
		o.Answered = &at
	}
	for i, it := range e.Items {
		if i == 0 {
			o.Key, o.Old, o.New = orNull(it.Key), orNull(it.Old), orNull(it.New)
		}
		o.Items = append(o.Items, journalItemObject{Key: orNull(it.Key), Old: orNull(it.Old), New: orNull(it.New), Condition: it.Condition, State: it.State})
	}
	return o
}

func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// undoneBy maps each entry to the undo that took it back, and to an undo
// of it in doubt.
func undoneBy(entries []edit.Entry) (done, inDoubt map[int]int) {
	done, inDoubt = map[int]int{}, map[int]int{}
	undone := edit.Undone(entries) // a bulk undo stopped part-way undid only part
	for _, e := range entries {
		for _, n := range e.UndoesEntries() {
			switch {
			case e.State == edit.StateDone && undone[n]:
				done[n] = e.Number
			case e.State == edit.StateInDoubt:
				inDoubt[n] = e.Number
			}
		}
	}
	return done, inDoubt
}

func printJournal(w io.Writer, path string, entries []edit.Entry, output string) error {
	undone, undoInDoubt := undoneBy(entries)
	var b bytes.Buffer
	if output == "json" {
		objs := []journalEntryObject{}
		for _, e := range entries {
			objs = append(objs, newJournalEntryObject(e, undone[e.Number], undoInDoubt[e.Number]))
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
		if len(e.Items) > 1 {
			line := fmt.Sprintf("%d  %s  bulk %s of %s on %s (%s): %s; %s", e.Number, e.Time.Format("2006-01-02 15:04:05Z"), e.Operation,
				textfmt.Plural(len(e.Items), "item", "items"), e.Table, where, entryStatus(e, undone[e.Number], undoInDoubt[e.Number]), itemStates(e))
			b.WriteString(textfmt.Sanitize(line) + "\n")
			continue
		}
		old, _ := e.OldItem()
		new, _ := e.NewItem()
		keys := e.Keys()
		line := fmt.Sprintf("%d  %s  %s %s on %s (%s): %s", e.Number, e.Time.Format("2006-01-02 15:04:05Z"), e.Operation,
			edit.KeyText(keys, old, new), e.Table, where, entryStatus(e, undone[e.Number], undoInDoubt[e.Number]))
		b.WriteString(textfmt.Sanitize(line) + "\n")
		for _, l := range edit.DiffLines(keys, edit.Diff(old, new)) {
			b.WriteString("     " + textfmt.Sanitize(l) + "\n")
		}
		if e.Note != "" && e.State != edit.StateDone {
			b.WriteString("     " + textfmt.Sanitize(e.Note) + "\n")
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// entryStatus is an entry's state for its journal line: what is known of
// its outcome and its units, and its undo.
func entryStatus(e edit.Entry, undoneBy, undoInDoubt int) string {
	units := "WCU unknown"
	if e.WCU != nil {
		units = jsonFloat(*e.WCU) + " WCU"
	}
	var s string
	switch e.State {
	case edit.StateDone:
		s = "done, " + units
	case edit.StateRefused:
		s = "refused, nothing written, " + units
	case edit.StateFailed:
		s = "failed, not applied"
	default:
		s = "IN DOUBT (no answer: it may have been applied), WCU unknown"
		if e.Unanswered {
			s = "IN DOUBT (no answer was recorded: the run ended before it came), WCU unknown"
		}
	}
	switch {
	case undoneBy > 0:
		s += fmt.Sprintf(", undone by %d", undoneBy)
	case undoInDoubt > 0:
		s += fmt.Sprintf(", its undo %d is in doubt", undoInDoubt)
	}
	if u := e.UndoesEntries(); len(u) > 0 {
		s += ", undoes " + numbersText(u)
	}
	if e.Continues > 0 {
		s += fmt.Sprintf(", continues %d", e.Continues)
	}
	return s
}

// undoOptions are the flag values of `dynascope undo`.
type undoOptions struct {
	writeAccess
	Table string    // the last write of this table; "" for any
	Entry int       // --entry; 0 for the last write not undone yet
	Err   io.Writer // stderr: a bulk undo's progress line
	Keys  string    // --keys: undo only these items of a bulk entry (the file a stopped undo wrote)
	// Chain is --chain: with --entry N, take back N and every entry it
	// continues, as undo without --entry does.
	Chain bool
	// MaxWCU is --max-wcu-per-second: the pace of a bulk undo's writes.
	MaxWCU float64
	Files  keyFiles // how --keys is opened
	// Line is the command as given less --entry and --keys, for the
	// command that undoes only the items a stop left (bulk_rest.go).
	Line []string
}

func newUndoCmd(f *factory, runF func(context.Context, *undoOptions) error) *cobra.Command {
	opts := &undoOptions{writeAccess: newWriteAccess(f)}
	cmd := &cobra.Command{
		Use:     "undo [--entry N] --allow-writes",
		Short:   "take back a journalled write or bulk change, each item only if it is still as the write left it",
		GroupID: groupWrite,
		Example: `  dynascope undo --dry-run
  dynascope undo --entry 12 --allow-writes`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	fs.IntVar(&opts.Entry, "entry", 0, "the journal entry `N` to undo (default: the last write not undone yet)")
	fs.Float64Var(&opts.MaxWCU, "max-wcu-per-second", defaultBulkWCU, "send the undo of a bulk change at most at this `RATE` of predicted WCU per second")
	fs.BoolVar(&opts.Chain, "chain", false, "with --entry N: take back N and every bulk entry it continues (a change stopped and its rest sent), as undo without --entry does")
	fs.StringVar(&opts.Keys, "keys", "", "undo only the items of a bulk entry whose keys this `FILE` holds, one JSON key a line (a stopped undo writes the file of those it left); - for standard input")
	opts.registerAccess(cmd, "print the diff, the aws command and the predicted WCU; send nothing")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		opts.Table, opts.WritesAllowed, opts.Out, opts.Err = f.Conn.Table, f.Conn.WritesAllowed, f.Stdout(), f.Stderr()
		if err := checkRate(opts.MaxWCU); err != nil {
			return err
		}
		opts.Files, opts.Line = keyFiles{Open: f.OpenFile, Stdin: f.Stdin}, commandLine(cmd, nil, "entry", "keys", "chain")
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
	chain := []edit.Entry{e}
	if opts.Entry == 0 || opts.Chain {
		chain = edit.Chain(entries, e.Number)
	} else {
		sayChain(opts, entries, e)
	}
	if len(e.Items) > 1 || len(chain) > 1 {
		return undoBulk(ctx, opts, client, t, chain, entries)
	}
	if opts.Keys != "" {
		return usageError{fmt.Sprintf("--keys picks items of a bulk change, and journal entry %d is a write of one item: leave out --keys.", e.Number)}
	}
	plan, err := edit.UndoPlan(e, t)
	if err != nil {
		return fmt.Errorf("undo entry %d: %w.", e.Number, err)
	}
	out := writeOutput{plan: plan, target: edit.Target{Endpoint: client.Endpoint(), Region: client.Region(), Profile: client.Profile()}, undo: true}
	if opts.DryRun {
		return out.print(opts.Out, opts.Output)
	}
	w, err := opts.ConnectWriter(ctx)
	if err != nil {
		return err
	}
	out.result, out.err = w.Undo(ctx, plan, e)
	out.journal = w.JournalPath()
	if perr := out.print(opts.Out, opts.Output); perr != nil {
		return perr
	}
	return out.err
}

// sayChain says, of an entry undone alone (--entry N) that is part of a
// chain, what undo of the whole chain would take back.
func sayChain(opts *undoOptions, entries []edit.Entry, e edit.Entry) {
	head := e.Number
	for n := edit.ContinuedBy(entries, head); n != 0; n = edit.ContinuedBy(entries, head) {
		head = n
	}
	chain := edit.Chain(entries, head)
	if len(chain) < 2 {
		return
	}
	items := 0
	for _, c := range chain {
		for _, it := range c.Items {
			if c.Undoable() && (it.State == edit.StateDone || it.State == edit.StateInDoubt) { // as edit.UndoPlans takes them
				items++
			}
		}
	}
	var part []string
	if e.Continues != 0 {
		part = append(part, fmt.Sprintf("continues entry %d", e.Continues))
	}
	if by := edit.ContinuedBy(entries, e.Number); by != 0 {
		part = append(part, fmt.Sprintf("is continued by entry %d", by))
	}
	fmt.Fprintf(opts.Err, "journal entry %d %s: it is part of a chain, a bulk change stopped and its rest sent; this takes back only entry %d. "+
		"'dynascope undo --entry %d --chain' takes back %s, %s in all (items an earlier undo took back left be)\n",
		e.Number, strings.Join(part, " and "), e.Number, head, chainText(chain), textfmt.Plural(items, "item", "items"))
}

// pickEntry finds the entry to undo: the numbered one, else the last write
// (of the table, when given) that is not an undo, not undone yet, and was
// applied or may have been (in doubt). A refused or failed write wrote
// nothing to undo.
func pickEntry(entries []edit.Entry, number int, table string) (edit.Entry, error) {
	if number > 0 {
		for _, e := range entries {
			if e.Number != number {
				continue
			}
			if !e.Undoable() {
				return edit.Entry{}, usageError{fmt.Sprintf("journal entry %d was %s: nothing was written, so there is nothing to undo.", number, e.State)}
			}
			return e, nil
		}
		return edit.Entry{}, usageError{fmt.Sprintf("the journal has no entry %d; list them with 'dynascope journal'.", number)}
	}
	undone := edit.Undone(entries)
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		if e.Undoes == 0 && !undone[e.Number] && e.Undoable() && (table == "" || e.Table == table) {
			return e, nil
		}
	}
	return edit.Entry{}, usageError{"the journal holds no write left to undo; list them with 'dynascope journal'."}
}
