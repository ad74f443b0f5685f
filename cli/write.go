package cli

// put, update and delete: guarded writes of one item (package edit). Each
// reads the item first (one strongly consistent GetItem), plans the change
// against it, and sends it only with --allow-writes (or writes: true on the
// connection), on the condition that the item is still as read. --dry-run
// stops after the plan: it only reads, with or without the flag.

import (
	"errors"
	"fmt"
	"maps"

	"github.com/spf13/cobra"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
)

// writeFlags are the flags put, update and delete share.
type writeFlags struct {
	pk, sk   string
	allow    bool
	dryRun   bool
	output   string
	sets     []string
	removals []string
}

func (f *writeFlags) register(cmd *cobra.Command, withSets bool) {
	fs := cmd.Flags()
	fs.StringVar(&f.pk, "pk", "", "partition key `VALUE` of the item (required)")
	fs.StringVar(&f.sk, "sk", "", "sort key `VALUE` of the item (required when the table has a sort key)")
	fs.BoolVar(&f.allow, "allow-writes", false, "allow this write (else writes: true on the connection in the settings file); without it only --dry-run runs")
	fs.BoolVar(&f.dryRun, "dry-run", false, "read the item and print the diff, the aws command and the predicted WCU; send nothing")
	fs.StringVar(&f.output, "output", "text", "output `FORMAT`: text | json")
	cmd.RegisterFlagCompletionFunc("output", fixedChoices("text", "json"))
	if withSets {
		fs.StringArrayVar(&f.sets, "set", nil, "set an attribute: `NAME=TYPE:VALUE`, e.g. status=S:SHIPPED, total=N:35.5, tags=SS:[\"a\"] (repeatable; a key attribute changes the key)")
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
  dynascope update --table App --pk 'CUST#1000' --sk 'PROFILE' --remove email --dry-run`
	deleteExamples = `  dynascope delete --table App --pk 'CUST#42' --sk 'ORDER#2025-04-01#A20' --dry-run
  dynascope delete --table App --pk 'CUST#42' --sk 'ORDER#2025-04-01#A20' --allow-writes --output json`
)

func newPutCmd(conn *config.Connection) *cobra.Command {
	var f writeFlags
	var itemJSON string
	cmd := &cobra.Command{
		Use:     "put --table NAME (--item JSON | --pk VALUE [--sk VALUE] --set NAME=TYPE:VALUE...) --allow-writes",
		Short:   "create one item, only if its key is free (conditional PutItem)",
		GroupID: groupWrite,
		Example: putExamples,
		Args:    noArgs,
	}
	f.register(cmd, true)
	cmd.Flags().StringVar(&itemJSON, "item", "", "the item in DynamoDB `JSON` ({\"PK\":{\"S\":\"CUST#42\"},...}); --set adds to it")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		var item dynamo.Item
		if itemJSON != "" {
			it, err := itemcodec.ParseDynamoJSON([]byte(itemJSON))
			if err != nil {
				return usageError{fmt.Sprintf("--item: %v.", err)}
			}
			item = it
		}
		return runWrite(cmd, conn, &f, "put", func(t dynamo.Table, key, old dynamo.Item) (dynamo.Item, error) {
			if old != nil {
				return nil, fmt.Errorf("an item with this key exists in %s; change it with 'dynascope update', or delete it first", t.Name)
			}
			new := maps.Clone(item)
			if new == nil {
				new = dynamo.Item{}
			}
			maps.Copy(new, key)
			return applySets(t, new, f.sets, nil)
		}, itemKey(itemJSON, item))
	}
	return cmd
}

func newUpdateCmd(conn *config.Connection) *cobra.Command {
	var f writeFlags
	cmd := &cobra.Command{
		Use:     "update --table NAME --pk VALUE [--sk VALUE] (--set NAME=TYPE:VALUE | --remove NAME)... --allow-writes",
		Short:   "change attributes of one item, only if it is still as read (conditional UpdateItem)",
		GroupID: groupWrite,
		Example: updateExamples,
		Args:    noArgs,
	}
	f.register(cmd, true)
	cmd.Flags().StringArrayVar(&f.removals, "remove", nil, "remove the attribute `NAME` (repeatable)")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if len(f.sets)+len(f.removals) == 0 {
			return usageError{"update needs --set NAME=TYPE:VALUE or --remove NAME: say what to change."}
		}
		return runWrite(cmd, conn, &f, "update", func(t dynamo.Table, _, old dynamo.Item) (dynamo.Item, error) {
			if old == nil {
				return nil, fmt.Errorf("there is no item with this key in %s; create it with 'dynascope put'", t.Name)
			}
			return applySets(t, maps.Clone(old), f.sets, f.removals)
		}, nil)
	}
	return cmd
}

func newDeleteCmd(conn *config.Connection) *cobra.Command {
	var f writeFlags
	cmd := &cobra.Command{
		Use:     "delete --table NAME --pk VALUE [--sk VALUE] --allow-writes",
		Short:   "delete one item, only if it is still as read (conditional DeleteItem)",
		GroupID: groupWrite,
		Example: deleteExamples,
		Args:    noArgs,
	}
	f.register(cmd, false)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return runWrite(cmd, conn, &f, "delete", func(t dynamo.Table, _, old dynamo.Item) (dynamo.Item, error) {
			if old == nil {
				return nil, fmt.Errorf("there is no item with this key in %s: nothing to delete", t.Name)
			}
			return nil, nil
		}, nil)
	}
	return cmd
}

// itemKey is nil, or a function that takes --pk and --sk from the item of
// put --item when they are not given.
func itemKey(raw string, item dynamo.Item) func(dynamo.Table, *writeFlags) {
	if raw == "" {
		return nil
	}
	return func(t dynamo.Table, f *writeFlags) {
		if v, ok := item[t.PK.Name]; ok && f.pk == "" {
			_, f.pk = edit.ValueInput(v)
		}
		if t.SK != nil {
			if v, ok := item[t.SK.Name]; ok && f.sk == "" {
				_, f.sk = edit.ValueInput(v)
			}
		}
	}
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

// runWrite is what put, update and delete share: check, read, plan, then
// print the plan (--dry-run) or send it.
func runWrite(cmd *cobra.Command, conn *config.Connection, f *writeFlags, name string,
	wanted func(t dynamo.Table, key, old dynamo.Item) (dynamo.Item, error), fillKey func(dynamo.Table, *writeFlags)) error {
	ctx := cmd.Context()
	if err := conn.RequireTable(name); err != nil {
		return usageError{err.Error()}
	}
	if f.output != "text" && f.output != "json" {
		return usageError{fmt.Sprintf("--output must be text or json, not %q.", f.output)}
	}
	if err := checkSets(f.sets); err != nil {
		return err
	}
	o, settings, err := conn.Resolve()
	if err != nil {
		return err
	}
	allowed := f.allow || conn.WritesAllowed(settings)
	if !allowed && !f.dryRun {
		// Refused before connecting: not one request goes out.
		return fmt.Errorf("%s: %w", name, edit.ErrWritesOff)
	}
	client, err := dynamo.Connect(ctx, o)
	if err != nil {
		return err
	}
	// DescribeTable, not the schema cache: a write must not rest on keys
	// that may be out of date.
	t, err := client.DescribeTable(ctx, conn.Table)
	if err != nil {
		return err
	}
	if fillKey != nil {
		fillKey(t, f)
	}
	key, err := keyOf(t, f)
	if err != nil {
		return err
	}
	page, err := client.GetItem(ctx, dynamo.GetInput{Table: t.Name, PK: f.pk, SK: f.sk, Consistent: true})
	if err != nil {
		return err
	}
	var old dynamo.Item
	if len(page.Items) > 0 {
		old = page.Items[0]
	}
	new, err := wanted(t, key, old)
	if err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			return err
		}
		return fmt.Errorf("%s: %w.", name, err)
	}
	plan, err := edit.NewPlan(edit.Change{Table: t.Name, Keys: t, Old: old, New: new, Version: settings.VersionAttribute})
	if err != nil {
		return fmt.Errorf("%s: %w.", name, err)
	}
	out := writeOutput{plan: plan, read: page.Request, target: edit.Target{Endpoint: client.Endpoint(), Region: client.Region(), Profile: client.Profile()}}
	if f.dryRun {
		return out.print(cmd.OutOrStdout(), f.output)
	}
	journal, err := edit.OpenJournal("")
	if err != nil {
		return err
	}
	w, err := edit.Open(ctx, o, allowed, journal)
	if err != nil {
		return err
	}
	out.result, out.err = w.Apply(ctx, plan)
	out.journal = journal.Path
	if perr := out.print(cmd.OutOrStdout(), f.output); perr != nil {
		return perr
	}
	return out.err
}

// keyOf is the item's key from --pk and --sk, typed by the table's schema.
func keyOf(t dynamo.Table, f *writeFlags) (dynamo.Item, error) {
	if f.pk == "" {
		return nil, usageError{fmt.Sprintf("--pk is required: the partition key %s of the item.", t.PK.Name)}
	}
	pk, err := dynamo.KeyValue(t.PK, "partition key", f.pk)
	if err != nil {
		return nil, err
	}
	key := dynamo.Item{t.PK.Name: pk}
	if t.SK == nil {
		return key, nil
	}
	if f.sk == "" {
		return nil, usageError{fmt.Sprintf("table %s has the sort key %s: pass --sk VALUE.", t.Name, t.SK.Name)}
	}
	if key[t.SK.Name], err = dynamo.KeyValue(*t.SK, "sort key", f.sk); err != nil {
		return nil, err
	}
	return key, nil
}
