package cli

// put, update and delete: guarded writes of one item (package edit). Each
// reads the item first (one strongly consistent GetItem), plans the change
// against it, and sends it only with --allow-writes (or writes: true on the
// connection), on the condition that the item is still as read. --dry-run
// stops after the plan: it only reads, with or without the flag.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"

	"github.com/spf13/cobra"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
)

// writeOptions are the flag values of put, update and delete.
type writeOptions struct {
	writeAccess
	Command  string // put | update | delete
	Table    string
	PK, SK   string
	Sets     []string
	Removals []string    // update's --remove
	Changes  bulkChanges // update's --rename, --set-default (bulk_changes.go)
	Item     dynamo.Item // put's --item; nil for none
	// Bulk is update's and delete's selector of many items (bulk.go); a
	// command given none changes the one item --pk and --sk name.
	Bulk bulkSelect
}

func (o *writeOptions) register(cmd *cobra.Command, withSets bool) {
	fs := cmd.Flags()
	fs.StringVar(&o.PK, "pk", "", "partition key `VALUE` of the item (required)")
	fs.StringVar(&o.SK, "sk", "", "sort key `VALUE` of the item (required when the table has a sort key)")
	o.registerAccess(cmd, "read the item and print the diff, the aws command and the predicted WCU; send nothing")
	if withSets {
		fs.StringArrayVar(&o.Sets, "set", nil, "set an attribute: `NAME=TYPE:VALUE`, e.g. status=S:SHIPPED, total=N:35.5, tags=SS:[\"a\"] (repeatable; a key attribute changes the key)")
	}
}

// newWriteOptions are the options of the write command name, with the
// factory's funcs.
func newWriteOptions(f *factory, name string) *writeOptions {
	return &writeOptions{writeAccess: newWriteAccess(f), Command: name}
}

// writeAccess is what every writing command (put, update, delete, undo)
// shares: how it reads the settings and connects, where it prints, and
// whether it may write.
type writeAccess struct {
	// Settings reads the settings file: whether writes are allowed on the
	// connection (WritesAllowed) and the version attribute, before any
	// request.
	Settings      func() (config.Settings, error)
	WritesAllowed func(config.Settings) bool
	Connect       func(context.Context) (*dynamo.Client, error)
	ConnectWriter func(context.Context) (*edit.Writer, error)
	Out           io.Writer
	Allow         bool   // --allow-writes
	DryRun        bool   // --dry-run
	Output        string // text | json
}

func newWriteAccess(f *factory) writeAccess {
	return writeAccess{Settings: f.Settings, Connect: f.Connect, ConnectWriter: f.ConnectWriter}
}

// registerAccess adds --allow-writes, --dry-run (its help dryRun) and
// --output.
func (a *writeAccess) registerAccess(cmd *cobra.Command, dryRun string) {
	fs := cmd.Flags()
	fs.BoolVar(&a.Allow, "allow-writes", false, "allow this write (else writes: true on the connection in the settings file); without it only --dry-run runs")
	fs.BoolVar(&a.DryRun, "dry-run", false, dryRun)
	outputFlag(cmd, &a.Output, "text", "", "text", "json")
}

// allowed reads the settings and refuses the write op when writes are not
// allowed and it is no dry run: before connecting, so not one request goes
// out.
func (a writeAccess) allowed(op string) (config.Settings, error) {
	settings, err := a.Settings()
	if err != nil {
		return settings, err
	}
	if !a.Allow && !a.WritesAllowed(settings) && !a.DryRun {
		return settings, fmt.Errorf("%s: %w", op, edit.ErrWritesOff)
	}
	return settings, nil
}

// writeRunE is what put, update and delete do once their own flags are
// read: check what they share, before anything is read or sent, then run.
func writeRunE(f *factory, opts *writeOptions, runF func(context.Context, *writeOptions) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		if err := f.Conn.RequireTable(opts.Command); err != nil {
			return usageError{err.Error()}
		}
		if err := checkSets(opts.Sets); err != nil {
			return err
		}
		bulk := false
		if cmd.Flags().Lookup("entity") != nil {
			var err error
			if bulk, err = opts.bulk(cmd); err != nil {
				return err
			}
		}
		if !bulk && opts.Changes.given() {
			return usageError{"--rename and --set-default change many items: give a sort-key condition, --entity, --filter, --index, --keys or --scan (for one item, --set and --remove)."}
		}
		opts.Table, opts.WritesAllowed, opts.Out, opts.Bulk.Err = f.Conn.Table, f.Conn.WritesAllowed, f.Stdout(), f.Stderr()
		if bulk {
			opts.Bulk.Files = keyFiles{Open: f.OpenFile, Stdin: f.Stdin}
			opts.Bulk.Line = commandLine(cmd, nil, append(sortKeyFlagNames(), "pk", "entity", "patterns", "models", "keys", "filter", "index", "scan", "continues")...)
		}
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		if bulk {
			return runBulk(cmd.Context(), opts)
		}
		return runWrite(cmd.Context(), opts)
	}
}

// The examples of each write command open with that command: a dry run
// first, then the write.
const (
	putExamples = `  dynascope put --table App --pk 'CUST#42' --sk 'ORDER#2025-04-01#A20' --set total=N:12 --dry-run
  dynascope put --table App --pk 'CUST#42' --sk 'ORDER#2025-04-01#A20' --set total=N:12 --set status=S:NEW --allow-writes
  dynascope put --table App --item '{"PK":{"S":"CUST#77"},"SK":{"S":"PROFILE"},"name":{"S":"Ada"}}' --allow-writes`
	updateExamples = `  dynascope update --table App --pk 'CUST#42' --sk 'ORDER#2025-03-01#A17' --set status=S:SHIPPED --dry-run
  dynascope update --table App --pk 'CUST#42' --sk 'ORDER#2025-03-01#A17' --set status=S:SHIPPED --allow-writes
  dynascope update --table App --pk 'CUST#1000' --sk 'PROFILE' --remove email --dry-run` + updateBulkExamples
	deleteExamples = `  dynascope delete --table App --pk 'CUST#42' --sk 'ORDER#2025-04-01#A20' --dry-run
  dynascope delete --table App --pk 'CUST#42' --sk 'ORDER#2025-04-01#A20' --allow-writes --output json` + deleteBulkExamples
)

func newPutCmd(f *factory, runF func(context.Context, *writeOptions) error) *cobra.Command {
	opts := newWriteOptions(f, "put")
	var itemJSON string
	cmd := &cobra.Command{
		Use:     "put --table NAME (--item JSON | --pk VALUE [--sk VALUE] --set NAME=TYPE:VALUE...) --allow-writes",
		Short:   "create one item, only if its key is free (conditional PutItem)",
		GroupID: groupWrite,
		Example: putExamples,
		Args:    noArgs,
	}
	opts.register(cmd, true)
	cmd.Flags().StringVar(&itemJSON, "item", "", "the item in DynamoDB `JSON` ({\"PK\":{\"S\":\"CUST#42\"},...}); --set adds to it")
	shared := writeRunE(f, opts, runF)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if itemJSON != "" {
			it, err := itemcodec.ParseDynamoJSON([]byte(itemJSON))
			if err != nil {
				return usageError{fmt.Sprintf("--item: %v.", err)}
			}
			opts.Item = it
		}
		return shared(cmd, args)
	}
	return cmd
}

func newUpdateCmd(f *factory, runF func(context.Context, *writeOptions) error) *cobra.Command {
	opts := newWriteOptions(f, "update")
	cmd := &cobra.Command{
		Use:     "update --table NAME (--pk VALUE [--sk VALUE | sort-key condition | --entity TYPE] [--filter EXPR] [--index NAME] | --keys FILE) (--set NAME=TYPE:VALUE | --remove NAME)... --allow-writes",
		Short:   "change attributes of one item, only if it is still as read (conditional UpdateItem)",
		GroupID: groupWrite,
		Example: updateExamples,
		Args:    noArgs,
	}
	opts.register(cmd, true)
	opts.registerBulk(cmd)
	cmd.Flags().StringArrayVar(&opts.Removals, "remove", nil, "remove the attribute `NAME` (repeatable)")
	opts.Changes.register(cmd)
	shared := writeRunE(f, opts, runF)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if len(opts.Sets)+len(opts.Removals) == 0 && !opts.Changes.given() {
			return usageError{"update needs --set NAME=TYPE:VALUE, --remove NAME, --rename OLD=NEW or --set-default NAME=TYPE:VALUE: say what to change."}
		}
		if err := opts.Changes.check(); err != nil {
			return err
		}
		return shared(cmd, args)
	}
	return cmd
}

func newDeleteCmd(f *factory, runF func(context.Context, *writeOptions) error) *cobra.Command {
	opts := newWriteOptions(f, "delete")
	cmd := &cobra.Command{
		Use:     "delete --table NAME (--pk VALUE [--sk VALUE | sort-key condition | --entity TYPE] [--filter EXPR] [--index NAME] | --keys FILE) --allow-writes",
		Short:   "delete one item, only if it is still as read (conditional DeleteItem)",
		GroupID: groupWrite,
		Example: deleteExamples,
		Args:    noArgs,
	}
	opts.register(cmd, false)
	opts.registerBulk(cmd)
	cmd.RunE = writeRunE(f, opts, runF)
	return cmd
}

// wanted is the item the command wants in place of old (nil to delete
// it), or why it will not write: put needs the key free, update and delete
// need the item.
func (o *writeOptions) wanted(t dynamo.Table, key, old dynamo.Item) (dynamo.Item, error) {
	switch o.Command {
	case "put":
		if old != nil {
			return nil, fmt.Errorf("an item with this key exists in %s; change it with 'dynascope update', or delete it first", t.Name)
		}
		new := maps.Clone(o.Item)
		if new == nil {
			new = dynamo.Item{}
		}
		maps.Copy(new, key)
		return applySets(t, new, o.Sets, nil)
	case "update":
		if old == nil {
			return nil, fmt.Errorf("there is no item with this key in %s; create it with 'dynascope put'", t.Name)
		}
		return applySets(t, maps.Clone(old), o.Sets, o.Removals)
	}
	if old == nil {
		return nil, fmt.Errorf("there is no item with this key in %s: nothing to delete", t.Name)
	}
	return nil, nil
}

// itemKey is the key given (--pk, --sk), or for put --item the item's key
// where it was not given.
func (o *writeOptions) itemKey(t dynamo.Table) (pk, sk string) {
	pk, sk = o.PK, o.SK
	if o.Item == nil {
		return pk, sk
	}
	if v, ok := o.Item[t.PK.Name]; ok && pk == "" {
		_, pk = edit.ValueInput(v)
	}
	if t.SK != nil {
		if v, ok := o.Item[t.SK.Name]; ok && sk == "" {
			_, sk = edit.ValueInput(v)
		}
	}
	return pk, sk
}

// applySets sets and removes attributes on an image; a typed value that
// DynamoDB would refuse is one sentence.
func applySets(t dynamo.Table, it dynamo.Item, sets, removals []string) (dynamo.Item, error) {
	for _, s := range sets {
		name, av, err := edit.ParseAssignment(s)
		if err != nil {
			return nil, usageError{fmt.Sprintf("--set %s.", err)}
		}
		it[name] = av
	}
	for _, name := range removals {
		if name == t.PK.Name || t.SK != nil && name == t.SK.Name {
			return nil, usageError{fmt.Sprintf("--remove %s: a key attribute cannot be removed; --set it to change the key.", name)}
		}
		if _, ok := it[name]; !ok {
			return nil, usageError{fmt.Sprintf("--remove %s: the item has no attribute %s.", name, name)}
		}
		delete(it, name)
	}
	return it, nil
}

// checkSets reads every --set before anything connects: bad typed input is
// one sentence and no request.
func checkSets(sets []string) error {
	for _, s := range sets {
		if _, _, err := edit.ParseAssignment(s); err != nil {
			return usageError{fmt.Sprintf("--set %s.", err)}
		}
	}
	return nil
}

// runWrite is what put, update and delete share: read, plan, then print
// the plan (--dry-run) or send it. Writes not allowed are refused before
// anything connects.
func runWrite(ctx context.Context, opts *writeOptions) error {
	settings, err := opts.allowed(opts.Command)
	if err != nil {
		return err
	}
	client, t, err := opts.describe(ctx, opts.Table)
	if err != nil {
		return err
	}
	pk, sk := opts.itemKey(t)
	key, err := keyOf(t, pk, sk)
	if err != nil {
		return err
	}
	page, err := client.GetItem(ctx, dynamo.GetInput{Table: t.Name, PK: pk, SK: sk, Consistent: true})
	if err != nil {
		return err
	}
	var old dynamo.Item
	if len(page.Items) > 0 {
		old = page.Items[0]
	}
	new, err := opts.wanted(t, key, old)
	if err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			return err
		}
		return fmt.Errorf("%s: %w.", opts.Command, err)
	}
	plan, err := edit.NewPlan(edit.Change{Table: t.Name, Keys: t, Old: old, New: new, Version: settings.VersionAttribute})
	if err != nil {
		return fmt.Errorf("%s: %w.", opts.Command, err)
	}
	out := writeOutput{plan: plan, read: page.Request, target: edit.Target{Endpoint: client.Endpoint(), Region: client.Region(), Profile: client.Profile()}}
	if opts.DryRun {
		return out.print(opts.Out, opts.Output)
	}
	w, err := opts.ConnectWriter(ctx)
	if err != nil {
		return err
	}
	out.result, out.err = w.Apply(ctx, plan)
	out.journal = w.JournalPath()
	if perr := out.print(opts.Out, opts.Output); perr != nil {
		return perr
	}
	return out.err
}

// describe connects and reads the table's keys with DescribeTable, not
// the schema cache: a write must not rest on keys that may be out of date.
func (a writeAccess) describe(ctx context.Context, table string) (*dynamo.Client, dynamo.Table, error) {
	client, err := a.Connect(ctx)
	if err != nil {
		return nil, dynamo.Table{}, err
	}
	t, err := client.DescribeTable(ctx, table)
	return client, t, err
}

// keyOf is the item's key from --pk and --sk, typed by the table's schema.
func keyOf(t dynamo.Table, pkValue, skValue string) (dynamo.Item, error) {
	if pkValue == "" {
		return nil, usageError{fmt.Sprintf("--pk is required: the partition key %s of the item.", t.PK.Name)}
	}
	pk, err := dynamo.KeyValue(t.PK, "partition key", pkValue)
	if err != nil {
		return nil, err
	}
	key := dynamo.Item{t.PK.Name: pk}
	if t.SK == nil {
		return key, nil
	}
	if skValue == "" {
		return nil, usageError{fmt.Sprintf("table %s has the sort key %s: pass --sk VALUE.", t.Name, t.SK.Name)}
	}
	if key[t.SK.Name], err = dynamo.KeyValue(*t.SK, "sort key", skValue); err != nil {
		return nil, err
	}
	return key, nil
}
