package cli

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/spf13/cobra"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/edit"
)

// stripAccess clears what a writing command's options compare by identity
// (the factory's funcs, the stream), saying whether all of it was set.
func stripAccess(a *writeAccess) bool {
	set := a.Settings != nil && a.WritesAllowed != nil && a.Connect != nil && a.ConnectWriter != nil && a.Out != nil
	a.Settings, a.WritesAllowed, a.Connect, a.ConnectWriter, a.Out = nil, nil, nil, nil, nil
	return set
}

func stripWrite(o *writeOptions) bool {
	set := o.Bulk.Err != nil
	o.Bulk.Err, o.Bulk.chosen, o.Bulk.Files, o.Bulk.Line = nil, nil, keyFiles{}, nil
	return stripAccess(&o.writeAccess) && set
}

// A sort-key condition or --entity in place of --sk makes update and
// delete a bulk change; the selector's mistakes are one sentence each,
// before anything connects.
func TestBulkSelectorOptions(t *testing.T) {
	w := func(cmd string, f func(*writeOptions)) writeOptions {
		o := writeOptions{writeAccess: writeAccess{Output: "text"}, Command: cmd, Table: "App", PK: "CUST#7", Bulk: bulkSelect{MaxWCU: defaultBulkWCU}}
		f(&o)
		return o
	}
	with := func(cases []optionsCase[writeOptions]) []optionsCase[writeOptions] {
		for i := range cases {
			cases[i].args = append([]string{"--table", "App", "--pk", "CUST#7"}, cases[i].args...)
		}
		return cases
	}
	begins := dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}}
	checkOptions(t, newUpdateCmd, stripWrite, with([]optionsCase[writeOptions]{
		{args: []string{"--sk-begins-with", "ORDER#", "--set", "status=S:X"},
			want: w("update", func(o *writeOptions) { o.Sets, o.Bulk.SK = []string{"status=S:X"}, begins })},
		{args: []string{"--entity", "ORDER", "--remove", "note", "--yes", "--allow-writes", "--output", "json"},
			want: w("update", func(o *writeOptions) {
				o.Removals, o.Bulk.Entity, o.Bulk.Yes, o.Allow, o.Output = []string{"note"}, "ORDER", true, true, "json"
			})},
		{args: []string{"--sk-between", "A", "B", "--set", "a=S:b"},
			want: w("update", func(o *writeOptions) {
				o.Sets, o.Bulk.SK = []string{"a=S:b"}, dynamo.SKCond{Op: dynamo.SKBetween, Values: []string{"A", "B"}}
			})},
		{args: []string{"--sk", "ORDER#1", "--sk-begins-with", "ORDER#", "--set", "a=S:b"}, usage: "--sk names one item and --sk-begins-with selects many: give one of them."},
		{args: []string{"--sk", "ORDER#1", "--entity", "ORDER", "--set", "a=S:b"}, usage: "--sk names one item and --entity selects many: give one of them."},
		{args: []string{"--sk-gt", "A", "--sk-lt", "B", "--set", "a=S:b"}, usage: "give at most one sort-key condition, not --sk-lt and --sk-gt."},
		{args: []string{"--entity", "ORDER", "--sk-gt", "A", "--set", "a=S:b"}, usage: "--entity selects by type: leave out --sk-gt, or leave out --entity."},
		{args: []string{"--entity", "", "--set", "a=S:b"}, usage: "--entity takes the name of a type, as groups lists them."},
		{args: []string{"--sk", "ORDER#1", "--set", "a=S:b", "--yes"}, usage: "--yes sends a bulk change: give a sort-key condition, --entity or --keys, or leave --yes out for one item."},
		{args: []string{"--keys", "k.jsonl", "--set", "a=S:b"}, usage: "--keys names the items by their whole keys: leave out --pk."},
		{args: []string{"--keys", "k.jsonl", "--entity", "ORDER", "--set", "a=S:b"}, usage: "--keys names the items itself: leave out --entity."},
		{args: []string{"--entity", "ORDER", "--rename", "state=status", "--overwrite", "--set-default", "tier=S:basic"},
			want: w("update", func(o *writeOptions) {
				o.Bulk.Entity, o.Changes = "ORDER", bulkChanges{Renames: []string{"state=status"}, Overwrite: true, Defaults: []string{"tier=S:basic"}}
			})},
		{args: []string{"--entity", "ORDER", "--rename", "state"}, usage: "--rename takes OLD=NEW, such as state=status, not \"state\"."},
		{args: []string{"--entity", "ORDER", "--rename", "a=a"}, usage: "--rename a=a: the new name is the old one."},
		{args: []string{"--entity", "ORDER", "--set-default", "tier=basic"}, usage: "--set-default "},
		{args: []string{"--entity", "ORDER", "--set", "a=S:b", "--overwrite"}, usage: "--overwrite goes with --rename"},
		{args: []string{"--sk", "ORDER#1", "--rename", "a=b"}, usage: "--rename and --set-default change many items"},
		{args: []string{"--entity", "ORDER"}, usage: "update needs --set NAME=TYPE:VALUE, --remove NAME, --rename OLD=NEW or --set-default NAME=TYPE:VALUE: say what to change."},
	}))
	checkOptions(t, newDeleteCmd, stripWrite, with([]optionsCase[writeOptions]{
		{args: []string{"--sk-begins-with", "ORDER#", "--dry-run"}, want: w("delete", func(o *writeOptions) { o.Bulk.SK, o.DryRun = begins, true })},
		{args: []string{"--sk-eq", "A", "--sk-between", "A", "B"}, usage: "give at most one sort-key condition, not --sk-eq and --sk-between."},
	}))
	got, _, err := cmdOptions(t, newDeleteCmd, "--table", "App", "--entity", "ORDER")
	wantUsage(t, []string{"--entity", "ORDER"}, got != nil, err, "a bulk change selects within one partition: pass --pk VALUE.")
	got, _, err = cmdOptions(t, newDeleteCmd, "--table", "App", "--keys", "-", "--yes")
	if err != nil || got == nil || got.Bulk.Keys != "-" || !got.Bulk.Yes || got.Bulk.Files.Stdin == nil || !slices.Contains(got.Bulk.Line, "--yes") || slices.Contains(got.Bulk.Line, "--keys=-") {
		t.Errorf("delete --keys -: %v, %+v", err, got)
	}
}

// Arguments become the options of put, update and delete through runF,
// with no network: typed --set values and --item are read, and the
// mistakes refused, before anything is read or sent.
func TestNewWriteCmds(t *testing.T) {
	w := func(cmd string, f func(*writeOptions)) writeOptions {
		o := writeOptions{writeAccess: writeAccess{Output: "text"}, Command: cmd, Table: "App", PK: "CUST#42", SK: "PROFILE"}
		if cmd != "put" {
			o.Bulk.MaxWCU = defaultBulkWCU
		}
		if f != nil {
			f(&o)
		}
		return o
	}
	key := []string{"--table", "App", "--pk", "CUST#42", "--sk", "PROFILE"}
	with := func(cases []optionsCase[writeOptions]) []optionsCase[writeOptions] {
		for i := range cases {
			cases[i].args = append(append([]string{}, key...), cases[i].args...)
		}
		return cases
	}
	checkOptions(t, newPutCmd, stripWrite, with([]optionsCase[writeOptions]{
		{args: []string{"--set", "total=N:12", "--set", "status=S:NEW", "--allow-writes"},
			want: w("put", func(o *writeOptions) { o.Sets, o.Allow = []string{"total=N:12", "status=S:NEW"}, true })},
		{args: []string{"--item", `{"name":{"S":"Ada"}}`, "--dry-run", "--output", "json"},
			want: w("put", func(o *writeOptions) {
				o.Item, o.DryRun, o.Output = dynamo.Item{"name": &types.AttributeValueMemberS{Value: "Ada"}}, true, "json"
			})},
		{args: []string{"--item", `{"name":`}, usage: "--item: "},
		{args: []string{"--set", "total=12"}, usage: "--set "},
		{args: []string{"--set", "total=N:12", "--output", "yaml"}, usage: "--output takes text or json, not \"yaml\"."},
		{args: []string{"--remove", "total"}, usage: "remove"},
		{args: []string{"CUST#42"}, usage: "unexpected argument"},
	}))
	checkOptions(t, newUpdateCmd, stripWrite, with([]optionsCase[writeOptions]{
		{args: []string{"--set", "status=S:SHIPPED", "--dry-run"},
			want: w("update", func(o *writeOptions) { o.Sets, o.DryRun = []string{"status=S:SHIPPED"}, true })},
		{args: []string{"--remove", "email", "--remove", "phone", "--allow-writes"},
			want: w("update", func(o *writeOptions) { o.Removals, o.Allow = []string{"email", "phone"}, true })},
		{args: nil, usage: "update needs --set NAME=TYPE:VALUE, --remove NAME, --rename OLD=NEW or --set-default NAME=TYPE:VALUE: say what to change."},
		{args: []string{"--set", "status=X:SHIPPED"}, usage: "--set "},
		{args: []string{"--item", "{}"}, usage: "item"},
	}))
	checkOptions(t, newDeleteCmd, stripWrite, with([]optionsCase[writeOptions]{
		{args: []string{"--allow-writes", "--output", "json"}, want: w("delete", func(o *writeOptions) { o.Allow, o.Output = true, "json" })},
		{args: []string{"--dry-run"}, want: w("delete", func(o *writeOptions) { o.DryRun = true })},
		{args: []string{"--set", "status=S:GONE"}, usage: "set"},
	}))
	for _, newX := range []func(*factory, func(context.Context, *writeOptions) error) *cobra.Command{newPutCmd, newUpdateCmd, newDeleteCmd} {
		args := []string{"--pk", "CUST#42", "--dry-run"}
		if newX(testFactory(t, &config.Connection{}, nil, nil), nil).Flags().Lookup("set") != nil {
			args = append(args, "--set", "a=S:b")
		}
		got, _, err := cmdOptions(t, newX, args...)
		wantUsage(t, args, got != nil, err, "needs a table: pass --table NAME")
	}
}

// A write or an undo without --allow-writes (or writes: true on the
// connection) and without --dry-run is refused before anything connects.
func TestWritesOffBeforeConnecting(t *testing.T) {
	connect := func(context.Context) (*dynamo.Client, error) {
		t.Error("connected although writes are off")
		return nil, errors.New("no connection in this test")
	}
	writer := func(context.Context) (*edit.Writer, error) {
		t.Error("opened a writer although writes are off")
		return nil, errors.New("no writer in this test")
	}
	settings := func() (config.Settings, error) { return config.Settings{}, nil }
	off := func(config.Settings) bool { return false }
	var out strings.Builder
	access := func(settings func() (config.Settings, error), allow bool) writeAccess {
		return writeAccess{Settings: settings, WritesAllowed: off, Connect: connect, ConnectWriter: writer, Out: &out, Allow: allow, Output: "text"}
	}
	for _, name := range []string{"put", "update", "delete"} {
		err := runWrite(context.Background(), &writeOptions{writeAccess: access(settings, false), Command: name, Table: "App", PK: "CUST#42"})
		if !errors.Is(err, edit.ErrWritesOff) || !strings.HasPrefix(err.Error(), name+": ") {
			t.Errorf("%s: %v, want %q", name, err, edit.ErrWritesOff)
		}
	}
	broken := func() (config.Settings, error) { return config.Settings{}, errors.New("cannot read the settings file") }
	if err := runWrite(context.Background(), &writeOptions{writeAccess: access(broken, true), Command: "put", Table: "App", PK: "CUST#42"}); err == nil || !strings.Contains(err.Error(), "settings file") {
		t.Errorf("a broken settings file: %v", err)
	}
	// undo reads its journal first: an empty one has nothing to undo, said
	// before the settings or a connection.
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	err := runUndo(context.Background(), &undoOptions{writeAccess: access(broken, false)})
	if err == nil || !strings.Contains(err.Error(), "the journal holds no write left to undo") {
		t.Errorf("undo with an empty journal: %v", err)
	}
	if out.Len() > 0 {
		t.Errorf("printed %q", out.String())
	}
}

// Arguments become the options of journal and undo through runF, with no
// network and without reading the journal.
func TestNewJournalAndUndoCmds(t *testing.T) {
	checkOptions(t, newJournalCmd, func(o *journalOptions) bool {
		set := o.Out != nil && o.Err != nil
		o.Out, o.Err = nil, nil
		return set
	}, []optionsCase[journalOptions]{
		{args: nil, want: journalOptions{Output: "text"}},
		{args: []string{"--table", "App", "--output", "json"}, want: journalOptions{Table: "App", Output: "json"}},
		{args: []string{"--output", "table"}, usage: "--output takes text or json, not \"table\"."},
		{args: []string{"12"}, usage: "unexpected argument"},
	})
	checkOptions(t, newUndoCmd, func(o *undoOptions) bool {
		set := o.Err != nil && o.Files.Open != nil && o.Files.Stdin != nil && o.Line[0] == "undo"
		o.Err, o.Files, o.Line = nil, keyFiles{}, nil
		return stripAccess(&o.writeAccess) && set
	}, []optionsCase[undoOptions]{
		{args: nil, want: undoOptions{writeAccess: writeAccess{Output: "text"}, MaxWCU: defaultBulkWCU}},
		{args: []string{"--entry", "12", "--allow-writes", "--output", "json"}, want: undoOptions{writeAccess: writeAccess{Allow: true, Output: "json"}, Entry: 12, MaxWCU: defaultBulkWCU}},
		{args: []string{"--dry-run", "--table", "App"}, want: undoOptions{writeAccess: writeAccess{DryRun: true, Output: "text"}, Table: "App", MaxWCU: defaultBulkWCU}},
		{args: []string{"--entry", "3", "--keys", "left.jsonl", "--allow-writes", "--max-wcu-per-second", "500"},
			want: undoOptions{writeAccess: writeAccess{Allow: true, Output: "text"}, Entry: 3, Keys: "left.jsonl", MaxWCU: 500}},
		{args: []string{"--max-wcu-per-second", "-1"}, usage: "--max-wcu-per-second takes a positive number of WCU, not -1."},
		{args: []string{"--entry", "last"}, usage: "entry"},
		{args: []string{"--output", "csv"}, usage: "--output takes text or json, not \"csv\"."},
		{args: []string{"12"}, usage: "unexpected argument"},
	})
}
