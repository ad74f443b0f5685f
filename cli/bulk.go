package cli

// Bulk update and delete: update or delete with a sort-key condition or
// --entity in place of --sk changes every item it selects. The selection
// is one strongly consistent Query read through dynamo's one paged reader
// (its cost said first, as query --all-pages says it); --entity keeps the
// items whose sort key the partition's entity table names so (keys.Names,
// as groups names types), or, for an entity the patterns file declares,
// the items whose keys match its templates (bulk_entity.go). The items are planned by edit.PlanBulk (each by
// edit.NewPlan, as a single write is; the UI's marks plan the same way),
// and the preview sums the plans: items, the count per attribute change,
// the predicted WCU and the time at --max-wcu-per-second, the typed diff
// of the first few and one item's write as an aws command and a boto3
// program. With --yes and --allow-writes the plans are
// then sent (bulk_send.go).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/entities"
	"dynascope/keys"
	"dynascope/patterns"
)

// bulkSelect is the selector of a bulk change: a sort-key condition or an
// entity type within one partition.
type bulkSelect struct {
	SK     dynamo.SKCond
	Entity string
	Keys   string    // --keys: a file of keys, "-" for standard input (bulk_keys.go)
	Filter string    // --filter: a FilterExpression sent with the selection's read
	Index  string    // --index: select through this secondary index (bulk_index.go)
	Scan   bool      // --scan: select from the whole table by a Scan (bulk_scan.go)
	Files  keyFiles  // how --keys is opened
	Yes    bool      // --yes: send it, after the preview
	MaxWCU float64   // --max-wcu-per-second: the pace of the writes, in predicted WCU
	Err    io.Writer // where the selection's cost is said
	chosen []string  // the sort-key condition flags given, for the check
	// Line is the command as given less its selector, for the command
	// that sends only the items a stop left (bulk_rest.go).
	Line []string
	// MaxWCUGiven: --max-wcu-per-second was given, else MaxWCU is the
	// default (the preview's time says which).
	MaxWCUGiven bool
	// Continues is --continues: the journal entry of the stopped bulk
	// change whose rest --keys names (bulk_chain.go); left are the keys it
	// left, each with the entry that sent it since (0 for none).
	Continues int
	left      map[string]int
	// Patterns and Models are where --entity's declared entities are read
	// (bulk_entity.go): --patterns FILE (default dynascope.yaml of the
	// table) and --models FILE.
	Patterns, Models string
}

// The bulk lines of update's and delete's examples.
const (
	updateBulkExamples = `
  dynascope update --table App --pk 'CUST#7' --sk-begins-with 'ORDER#' --set status=S:ARCHIVED
  dynascope update --table App --pk 'CUST#7' --entity ORDER --remove note --output json
  dynascope update --table App --pk 'CUST#7' --entity ORDER --rename state=status --set-default tier=S:basic`
	deleteBulkExamples = `
  dynascope delete --table App --pk 'CUST#7' --sk-between 'ORDER#2024-01' 'ORDER#2024-12'
  dynascope delete --table App --keys stale-keys.jsonl --output json
  dynascope delete --table App --pk 'PRODUCT#SKU-1025' --entity ProductVersion --patterns dynascope.yaml`
)

// registerBulk adds the selectors of a bulk change to update or delete.
func (o *writeOptions) registerBulk(cmd *cobra.Command) {
	fs := cmd.Flags()
	sortKeyFlags(fs, &o.Bulk.SK)
	fs.StringVar(&o.Bulk.Entity, "entity", "", "change every item of this entity `TYPE` of the partition, as groups names it: a declared entity's items are those whose keys match its templates (a bulk change)")
	fs.StringVar(&o.Bulk.Patterns, "patterns", "", "take --entity's declared entities from the entities: of this patterns `FILE` (default: "+patterns.PatternsFile+" here, when its table: is the table)")
	cmd.MarkFlagFilename("patterns", "yaml", "yml")
	modelsFlag(cmd, &o.Bulk.Models)
	fs.StringVar(&o.Bulk.Filter, "filter", "", "change only the items of the partition this FilterExpression keeps: `EXPR` such as 'status = \"OPEN\"' (sent with the read: every item read is charged; a bulk change)")
	fs.StringVar(&o.Bulk.Index, "index", "", "select through the secondary index `NAME`: --pk and the sort-key condition are the index's; each item is written by its table key (a bulk change)")
	fs.StringVar(&o.Bulk.Keys, "keys", "", "change the items whose keys this `FILE` holds, one JSON key a line ({\"PK\":\"CUST#7\",\"SK\":\"ORDER#1\"} or the AWS CLI's {\"PK\":{\"S\":\"CUST#7\"},...}); - for standard input (a bulk change)")
	fs.BoolVar(&o.Bulk.Scan, "scan", false, "select from the whole table by one strongly consistent Scan, its estimate said first; with --filter the items it keeps (a bulk change)")
	fs.BoolVar(&o.Bulk.Yes, "yes", false, "send the bulk change after its preview (with --allow-writes); without it the preview only")
	fs.Float64Var(&o.Bulk.MaxWCU, "max-wcu-per-second", defaultBulkWCU, "send a bulk change at most at this `RATE` of predicted WCU per second (without it, the settings' maxWCUPerSecond)")
	fs.IntVar(&o.Bulk.Continues, "continues", 0, "with --keys: the items are the rest of the stopped bulk change of journal entry `N` (its printed command gives it), so that one undo takes back both")
}

// bulk tells whether the command changes many items, and checks its
// selector before anything connects.
func (o *writeOptions) bulk(cmd *cobra.Command) (bool, error) {
	fs := cmd.Flags()
	o.Bulk.chosen = nil
	o.Bulk.MaxWCUGiven = fs.Changed("max-wcu-per-second")
	for _, name := range sortKeyFlagNames() {
		if fs.Changed(name) {
			o.Bulk.chosen = append(o.Bulk.chosen, "--"+name)
		}
	}
	entity, filter, index := fs.Changed("entity"), fs.Changed("filter"), fs.Changed("index")
	if !entity && (fs.Changed("patterns") || fs.Changed("models")) {
		return entity, usageError{"--patterns and --models give the entities --entity names: give --entity TYPE too, or leave them out."}
	}
	if o.Bulk.Scan {
		return true, o.bulkScanFlags(fs)
	}
	if err := o.continuesFlags(fs.Changed("continues"), fs.Changed("keys")); err != nil {
		return true, err
	}
	if fs.Changed("keys") {
		if filter || index {
			return true, usageError{"--filter and --index shape a query's read, and --keys reads item by item: give one of them."}
		}
		return true, o.bulkKeysFlags(fs.Changed("sk"), entity)
	}
	if filter {
		if err := o.bulkFilterFlags(fs.Changed("sk"), entity); err != nil {
			return true, err
		}
	}
	if index {
		if err := o.bulkIndexFlags(fs.Changed("sk"), entity); err != nil {
			return true, err
		}
	}
	if len(o.Bulk.chosen) == 0 && !entity && !filter && !index {
		if o.Bulk.Yes {
			return false, usageError{"--yes sends a bulk change: give a sort-key condition, --entity or --keys, or leave --yes out for one item."}
		}
		return false, nil
	}
	switch {
	case fs.Changed("sk"):
		return true, usageError{fmt.Sprintf("--sk names one item and %s selects many: give one of them.", strings.Join(append(o.Bulk.chosen, entityFlag(entity)...), " and "))}
	case len(o.Bulk.chosen) > 1:
		return true, usageError{fmt.Sprintf("give at most one sort-key condition, not %s.", strings.Join(o.Bulk.chosen, " and "))}
	case entity && len(o.Bulk.chosen) > 0:
		return true, usageError{fmt.Sprintf("--entity selects by type: leave out %s, or leave out --entity.", o.Bulk.chosen[0])}
	case entity && o.Bulk.Entity == "":
		return true, usageError{"--entity takes the name of a type, as groups lists them."}
	case o.PK == "":
		return true, usageError{"a bulk change selects within one partition: pass --pk VALUE."}
	}
	return true, o.checkRate()
}

func (o *writeOptions) checkRate() error { return checkRate(o.Bulk.MaxWCU) }

// checkRate refuses a --max-wcu-per-second that is no pace.
func checkRate(rate float64) error {
	if !(rate > 0) || math.IsInf(rate, 1) {
		return usageError{fmt.Sprintf("--max-wcu-per-second takes a positive number of WCU, not %s.", jsonFloat(rate))}
	}
	return nil
}

// bulkRate sets the pace of a bulk change: --max-wcu-per-second, else
// the settings' maxWCUPerSecond (the UI's pace too), else
// edit.DefaultBulkWCU; and says, for the preview, which it is.
func (o *writeOptions) bulkRate(s config.Settings) string {
	switch {
	case o.Bulk.MaxWCUGiven:
		return "--max-wcu-per-second"
	case s.MaxWCUPerSecond > 0 && !math.IsInf(s.MaxWCUPerSecond, 1) && s.MaxWCUPerSecond != defaultBulkWCU:
		o.Bulk.MaxWCU = s.MaxWCUPerSecond
		return "maxWCUPerSecond of the settings; --max-wcu-per-second sets it"
	}
	return "the default; --max-wcu-per-second sets it"
}

func entityFlag(given bool) []string {
	if given {
		return []string{"--entity"}
	}
	return nil
}

// runBulk selects the items, plans each one's change and previews them.
func runBulk(ctx context.Context, opts *writeOptions) error {
	if opts.Bulk.Yes && !opts.DryRun {
		// Refused before anything connects, as a single write without
		// --allow-writes is.
		if _, err := opts.allowed(opts.Command); err != nil {
			return err
		}
	}
	settings, err := opts.Settings()
	if err != nil {
		return err
	}
	rateFrom := opts.bulkRate(settings)
	client, t, err := opts.describe(ctx, opts.Table)
	if err != nil {
		return err
	}
	change, err := opts.bulkChange()
	if err != nil {
		return err
	}
	if err := bulkKeysUntouched(t, opts, change); err != nil {
		return err
	}
	if err := opts.Bulk.continuedLeft(client, t); err != nil {
		return err
	}
	selectFn := selectItems
	switch {
	case opts.Bulk.Keys != "":
		selectFn = selectByKeys
	case opts.Bulk.Scan:
		selectFn = selectByScan
	}
	sel, err := selectFn(ctx, client, t, opts)
	if err != nil {
		return err
	}
	pre := bulkPreview{command: opts.Command, table: t.Name, selector: sel.what, read: sel.read, byKey: opts.Bulk.Keys != "", scan: opts.Bulk.Scan, missing: sel.missing, declared: sel.declared, filter: opts.Bulk.Filter,
		target: edit.Target{Endpoint: client.Endpoint(), Region: client.Region(), Profile: client.Profile()}, rate: opts.Bulk.MaxWCU, rateFrom: rateFrom}
	b, err := edit.PlanBulk(edit.BulkInput{Table: t, Items: sel.items, Change: change, Version: settings.VersionAttribute})
	if err != nil {
		return fmt.Errorf("%s: %w.", opts.Command, err)
	}
	pre.plans, pre.unchanged, pre.skipped = b.Plans, b.Unchanged, b.Skipped
	pre.sending = opts.Bulk.Yes && !opts.DryRun && len(pre.plans) > 0
	if !pre.sending || opts.Output != "json" { // JSON is one document: the outcome holds the preview's counts
		if err := pre.print(opts.Out, opts.Output); err != nil {
			return err
		}
	}
	if !pre.sending {
		return nil
	}
	return sendBulk(ctx, opts, pre)
}

// bulkKeysUntouched refuses a bulk change that sets a key attribute
// (edit's KeysUntouched, in the flags' words): a key move is a put and a
// delete per item, one item at a time (--sk).
func bulkKeysUntouched(t dynamo.Table, opts *writeOptions, change edit.BulkChange) error {
	var kc *edit.KeyChangeError
	if errors.As(change.KeysUntouched(t), &kc) {
		switch kc.Part {
		case edit.PartSet:
			return usageError{fmt.Sprintf("--set %s: a bulk change cannot touch the key attribute %s; move items one at a time with --sk.", kc.Name, kc.Name)}
		case edit.PartRemove:
			return usageError{fmt.Sprintf("--remove %s: a key attribute cannot be removed.", kc.Name)}
		case edit.PartRename:
			return usageError{fmt.Sprintf("--rename %s: %s is a key attribute, which a bulk change cannot touch.", opts.Changes.Renames[kc.Index], kc.Name)}
		case edit.PartDefault:
			return usageError{fmt.Sprintf("--set-default %s: %s is a key attribute, which every item has.", opts.Changes.Defaults[kc.Index], kc.Name)}
		}
	}
	if t.SK == nil && opts.Bulk.Keys == "" && !opts.Bulk.Scan {
		return usageError{fmt.Sprintf("table %s has no sort key: a partition holds one item, so change it with --pk alone, or many with --keys.", t.Name)}
	}
	return nil
}

// bulkChange is the change the flags ask for, as edit plans it: delete's,
// or update's --rename, --set-default, --set and --remove.
func (o *writeOptions) bulkChange() (edit.BulkChange, error) {
	if o.Command == "delete" {
		return edit.BulkChange{Delete: true}, nil
	}
	c, err := o.Changes.change()
	if err != nil {
		return c, err
	}
	for _, s := range o.Sets {
		name, av, err := edit.ParseAssignment(s)
		if err != nil {
			return c, usageError{fmt.Sprintf("--set %s.", err)}
		}
		c.Sets = append(c.Sets, edit.Assignment{Name: name, Value: av})
	}
	c.Removals = o.Removals
	return c, nil
}

// selection is what a bulk change selected: the items as read, what read
// them, and the selector in words.
type selection struct {
	items   []dynamo.Item
	read    dynamo.QueryResult
	what    string
	missing []dynamo.Item // --keys: the keys no item has
	// declared is --entity of a declared entity: what its read gave and
	// matched (bulk_entity.go); nil otherwise.
	declared *declaredPick
}

// selectItems reads the items of the selector: the partition's items
// under the sort-key condition, or all of them for --entity, kept by the
// entity table's name of their sort key; for a declared entity, those
// under its template's prefix, kept when they match its declaration. Strongly consistent, since each
// write is conditional on the image read: an eventually consistent image
// may be one write behind, and its item refused for nothing.
func selectItems(ctx context.Context, client *dynamo.Client, t dynamo.Table, opts *writeOptions) (selection, error) {
	q := dynamo.QueryInput{Table: t.Name, Index: opts.Bulk.Index, PK: opts.PK, SK: entityQuery(opts.Bulk), Consistent: true, Filter: opts.Bulk.Filter}
	ix, err := bulkIndex(t, opts.Bulk.Index)
	if err != nil {
		return selection{}, err
	}
	set, err := bulkDeclarations(ctx, t, opts)
	if err != nil {
		return selection{}, err
	}
	pick, err := pickDeclared(set, t, opts)
	if err != nil {
		return selection{}, err
	}
	if pick != nil {
		q.SK = pick.cond
	}
	q.Consistent = ix.Kind != dynamo.GSI // a GSI is read eventually consistent only
	sel := selection{what: selectorText(t, opts, pick), declared: pick}
	if q.Filter != "" {
		suspectFilter(opts.Bulk.Err, "--filter", q.Filter, nil, func() (dynamo.Table, error) { return t, nil })
	}
	read := dynamo.QueryRead{Query: q, What: opts.Command + " " + sel.what}
	read.Est = announceEstimate(ctx, client, opts.Bulk.Err, t.Name, q.Index, q.Consistent, 0, "the selection ("+sel.what+") reads its items once, "+consistency(q.Consistent))
	read.OnPage = func(p dynamo.Page) error {
		sel.items = append(sel.items, p.Items...)
		return nil
	}
	res, err := client.ReadQuery(ctx, read)
	sel.read = res
	if err != nil {
		return sel, err
	}
	if res.Stop != dynamo.StopComplete {
		return sel, fmt.Errorf("%s: the selection stopped (%s) before it was read whole: nothing planned, nothing sent", opts.Command, res.Stop)
	}
	if pick != nil {
		pick.keep(&sel)
		return sel, nil
	}
	if err := noEntityPrefix(opts, res, set); err != nil {
		return sel, err
	}
	if q.Index != "" {
		return sel, tableImages(ctx, client, t, ix, opts, &sel)
	}
	if opts.Bulk.Entity == "" {
		return sel, nil
	}
	sks := make([]string, len(sel.items))
	for i, it := range sel.items {
		_, sks[i] = edit.ValueInput(it[t.SK.Name])
	}
	names := keys.NamesOfKeys(opts.PK, sks, t.SK.Type, "")
	kept := sel.items[:0]
	var types []string
	for i, it := range sel.items {
		n := names.Name(sks[i])
		if n == opts.Bulk.Entity {
			kept = append(kept, it)
		} else if !slices.Contains(types, n) {
			types = append(types, n)
		}
	}
	if len(kept) == 0 && (len(sel.items) > 0 || set != nil) {
		return sel, unknownEntity(set, opts, types)
	}
	sel.items = kept
	return sel, nil
}

// entityQuery is the read's sort-key condition. With --entity and
// --filter it is the type's prefix (a label type's keys begin with its
// name: ORDER is ORDER#...), so that the filter is charged for that type's
// items only, not the whole partition's; the keys read are then named as
// without the filter, a key such as ORDERLINE#1 that shares the prefix
// being of another type and left out. Without a filter --entity reads the
// whole partition, whose keys name its types as groups does.
func entityQuery(b bulkSelect) dynamo.SKCond {
	if b.Entity != "" && b.Filter != "" {
		return dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{b.Entity}}
	}
	return b.SK
}

// selectorText is the selector in words: "CUST#7, SK begins_with ORDER#".
func selectorText(t dynamo.Table, opts *writeOptions, pick *declaredPick) string {
	ks, _ := t.Schema(opts.Bulk.Index) // the index was found before
	s := ks.PK.Name + " = " + opts.PK
	if opts.Bulk.Index != "" {
		s = "index " + opts.Bulk.Index + ": " + s
	}
	c := opts.Bulk.SK
	switch {
	case pick != nil:
		s += ", entity " + opts.Bulk.Entity + " (declared: " + pick.templates() + ")"
	case opts.Bulk.Entity != "":
		s += ", entity " + opts.Bulk.Entity
	case ks.SK == nil:
	case c.Op == dynamo.SKBetween && len(c.Values) == 2:
		s += ", " + ks.SK.Name + " between " + c.Values[0] + " and " + c.Values[1]
	case c.Op != "" && len(c.Values) == 1:
		s += ", " + ks.SK.Name + " " + string(c.Op) + " " + c.Values[0]
	}
	if opts.Bulk.Filter != "" {
		s += ", filter " + opts.Bulk.Filter
	}
	return s
}

// bulkFilterFlags checks --filter beside the other selectors: it filters
// the partition's read, with or without a sort-key condition or --entity
// (whose type's prefix is then the read's key condition: entityQuery).
func (o *writeOptions) bulkFilterFlags(sk, entity bool) error {
	switch {
	case sk:
		return usageError{"--sk names one item and --filter selects many: give one of them."}
	case strings.TrimSpace(o.Bulk.Filter) == "":
		return usageError{"--filter takes a FilterExpression such as 'status = \"OPEN\"'."}
	case entity && keys.ValueGroupName(o.Bulk.Entity):
		// Its keys share a shape, not a prefix: a filtered read keeps no
		// key condition to it, and the keys the filter drops are needed
		// to name the ones it keeps.
		return usageError{fmt.Sprintf("--entity %s with --filter: %s is a group of values (its sort keys share a shape, not a prefix), so a filtered read cannot be narrowed to it; select its keys by their range with --sk-between FIRST LAST and --filter (dynascope groups --pk %s shows the group's first and last keys), or leave out --filter.",
			o.Bulk.Entity, o.Bulk.Entity, shellQuote(o.PK))}
	}
	return nil
}

// noEntityPrefix refuses --entity with --filter when no sort key of the
// partition begins with the type's name: the read under that prefix found
// nothing, which is no selection of the type but a name it does not have
// as a prefix (never a silent 0).
func noEntityPrefix(opts *writeOptions, res dynamo.QueryResult, set *entities.Set) error {
	if opts.Bulk.Entity == "" || opts.Bulk.Filter == "" || opts.Bulk.Index != "" || res.Scanned > 0 {
		return nil
	}
	return usageError{fmt.Sprintf("--entity %s with --filter: no sort key of partition %s begins with %s, so the read found no item of it (--filter narrows the read to a type by its prefix, as ORDER is ORDER#…); check the type's name (dynascope groups --pk %s lists them)%s, or leave out --filter.",
		opts.Bulk.Entity, opts.PK, opts.Bulk.Entity, shellQuote(opts.PK), declaredNames(set))}
}
