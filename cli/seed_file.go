package cli

// seed --file: loading a file that another tool (or dynascope) wrote. The
// first pass reads every item, checks it against its table's key and
// counts, so that a bad item refuses the load before anything is written
// (or, with --skip-invalid, is named once); then the items are written.
// The file is read once: the first pass keeps the valid items, and the
// writes take them from memory, as long as they stay within heldBudget;
// past it the first pass lets them go and the writes read the file again
// (a stream, such as --file - or a pipe, is first copied once into a
// temporary file for that: itemcodec.SpoolInput). Memory holds at most
// heldBudget of items, else a few batches.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/textfmt"
	"dynascope/workbench"
)

// fileLoad is what seed's flags say about loading a file.
type fileLoad struct {
	path        string
	format      itemcodec.InputFormat
	table       string // --table: the target, or the one table of a document to load
	prefix      string // --table-prefix, before table names the data gives
	pkName      string // --pk-name/--sk-name: the key of a table that is created
	skName      string
	skipInvalid bool
	force       bool
	stdin       io.Reader // what --file - reads
}

// loadTable is one table a file loads into.
type loadTable struct {
	spec    dynamo.TableSpec
	exists  bool
	chose   string // how the key of a table to create was chosen
	source  string // the table name the document gives, "" for other formats
	items   int    // valid items for it
	skipped int
}

// filePlan is what the first pass learned.
type filePlan struct {
	format  itemcodec.InputFormat
	tables  []*loadTable
	byName  map[string]*loadTable
	skipped []workbench.SkippedItem
	read    int // records read, valid or not
	others  int // items of tables --table did not pick
	pick    bool
	renamed string // the one document table --table renames
	sources []string
	// held are the valid items of each table in the file's order, kept
	// by the first pass for the writes; nil once they passed heldBudget
	// (heldBytes), when the writes read the file again.
	held      map[string][]dynamo.Item
	heldBytes int
}

// hold keeps a valid item for the writes, or lets every item go once
// they would pass heldBudget.
func (p *filePlan) hold(table string, it dynamo.Item) {
	if p.held == nil {
		return
	}
	p.heldBytes += heldSize(it)
	if p.heldBytes > heldBudget {
		p.held = nil
		return
	}
	p.held[table] = append(p.held[table], it)
}

var errSeveralTables = errors.New("several tables")

// heldBudget is how much memory the first pass may keep items in, so
// that the file is read once, by heldSize's reckoning: 64 MB, some
// 100,000 items of 300 bytes. A test lowers it.
var heldBudget = 64 << 20

// heldSize is about what an item takes in memory: its bytes by DynamoDB's
// rules about three times over (a map entry, an interface and a string
// header for each attribute) and the map's own overhead.
func heldSize(it dynamo.Item) int { return 3*itemcodec.ItemSize(it) + 48*len(it) + 64 }

// newItemReader opens the file's items; a test counts the reads.
var newItemReader = itemcodec.NewItemReader

func loadFile(ctx context.Context, w dynamo.WriteAPI, l fileLoad, stdout, stderr io.Writer) error {
	var in itemcodec.InputFiles
	var err error
	if itemcodec.IsStream(l.path) {
		var remove func()
		in, remove, err = itemcodec.SpoolInput(l.path, l.stdin)
		defer remove()
	} else {
		in, err = itemcodec.ResolveInput(l.path)
	}
	if err != nil {
		return err
	}
	shown := itemcodec.ShownName(l.path)
	if l.table == "" && in.Table != "" {
		l.table = l.prefix + in.Table // the export's manifest names it
	}
	plan, err := planFile(ctx, w, in, l, false)
	if errors.Is(err, errSeveralTables) {
		plan, err = planFile(ctx, w, in, l, true)
	}
	if err != nil {
		return err
	}
	for _, s := range plan.skipped {
		fmt.Fprintln(stderr, textfmt.Sanitize(s.Sentence()))
	}
	if l.table != "" && plan.pick && plan.byName[l.prefix+l.table] == nil {
		return usageError{fmt.Sprintf("%s names the tables %s, not %s; --table picks one of them.", textfmt.Sanitize(itemcodec.ShownName(l.path)), textfmt.Sanitize(strings.Join(plan.sources, ", ")), l.table)}
	}
	if in.Items >= 0 && int64(plan.read) != in.Items {
		fmt.Fprintf(stderr, "note: the export's manifest lists %d items; its data files hold %d.\n", in.Items, plan.read)
	}
	began := time.Now()
	loaded := 0
	for _, t := range plan.tables {
		created, err := dynamo.EnsureTableSaying(ctx, w, t.spec, noteTo(stderr))
		if err != nil {
			return err
		}
		if created {
			fmt.Fprintf(stdout, "table %s did not exist: created it with %s, %s.\n", textfmt.Sanitize(t.spec.Name), keyText(t.spec), t.chose)
		}
		res, err := streamTable(ctx, w, in, plan, t, l, created, stderr)
		// A repeated key that replaced its earlier value before the
		// write is loaded too, though one write carried both.
		loaded += res.Written + res.Duplicates
		if err == nil && res.Written+res.Duplicates < t.items {
			// The file changed between the passes: never a quiet short load.
			err = fmt.Errorf("the second read of %s found fewer items than the first", shown)
		}
		if err != nil {
			return seedStopped(ctx, err, res, t.items, t.spec.Name)
		}
		fmt.Fprintf(stdout, "loaded %s from %s (%s): %d items in %d batches (%d retries), %s WCU, %.1f s\n",
			textfmt.Sanitize(t.spec.Name), textfmt.Sanitize(shown), plan.format.Describe(), res.Written, res.Batches, res.Retries, jsonFloat(res.WCU), res.Duration.Seconds())
	}
	if plan.others > 0 {
		fmt.Fprintf(stdout, "left out %d items of the other tables the file names (--table %s picked one).\n", plan.others, l.table)
	}
	if l.skipInvalid || len(plan.skipped) > 0 {
		fmt.Fprintf(stdout, "loaded %d of %d items; %d skipped (%.1f s)\n", loaded, loaded+len(plan.skipped), len(plan.skipped), time.Since(began).Seconds())
	}
	return nil
}

func keyText(s dynamo.TableSpec) string {
	k := fmt.Sprintf("partition key %s (%s)", s.PK.Name, s.PK.Type)
	if s.SK != nil {
		k += fmt.Sprintf(" and sort key %s (%s)", s.SK.Name, s.SK.Type)
	}
	return textfmt.Sanitize(k)
}

// target is the table a record goes into; "" leaves it out (another table
// than --table picks).
func (p *filePlan) target(rec itemcodec.Record, l fileLoad) (string, error) {
	if rec.Table == "" {
		if l.table == "" {
			return "", usageError{fmt.Sprintf("%s does not name its table; pass --table.", textfmt.Sanitize(itemcodec.ShownName(l.path)))}
		}
		return l.table, nil
	}
	if !containsStr(p.sources, rec.Table) {
		p.sources = append(p.sources, rec.Table)
	}
	switch {
	case l.table == "":
		return l.prefix + rec.Table, nil
	case p.pick && rec.Table == l.table:
		return l.prefix + l.table, nil
	case p.pick:
		return "", nil
	case p.renamed == "" || p.renamed == rec.Table:
		// One table in the document: --table says where its items go, as
		// when loading an export of one table into a copy.
		p.renamed = rec.Table
		return l.prefix + l.table, nil
	}
	return "", errSeveralTables
}

func containsStr(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// planFile is the first pass.
func planFile(ctx context.Context, w dynamo.WriteAPI, in itemcodec.InputFiles, l fileLoad, pick bool) (*filePlan, error) {
	p := &filePlan{byName: map[string]*loadTable{}, pick: pick, held: map[string][]dynamo.Item{}}
	r, err := newItemReader(in.Paths, l.format)
	if err != nil {
		return nil, err
	}
	r.ShowAs(in.Shown)
	defer r.Close()
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		p.read++
		name, err := p.target(rec, l)
		if err != nil {
			return nil, err
		}
		if name == "" {
			p.others++
			continue
		}
		t := p.byName[name]
		if rec.Err == nil && t == nil {
			if t, err = resolveTable(ctx, w, name, rec, l); err != nil {
				return nil, err
			}
			t.source = rec.Table
			p.byName[name] = t
			p.tables = append(p.tables, t)
		}
		if rec.Err == nil {
			if err := dynamo.CheckKey(dynamo.Table{Name: name, PK: t.spec.PK, SK: t.spec.SK}, rec.Item); err != nil {
				rec.Err = fmt.Errorf("%v (table %s is keyed %s)", err, name, keyText(t.spec))
			}
		}
		if rec.Err != nil {
			s := workbench.SkippedItem{Where: rec.Where, Err: rec.Err}
			if !l.skipInvalid {
				return nil, &dynamo.UserError{Msg: fmt.Sprintf("%s: %s: %s; nothing was written (--skip-invalid loads the valid items and lists the others).", textfmt.Sanitize(itemcodec.ShownName(l.path)), rec.Where, strings.TrimSuffix(rec.Err.Error(), "."))}
			}
			p.skipped = append(p.skipped, s)
			continue
		}
		t.items++
		p.hold(name, rec.Item)
	}
	p.format = r.Format()
	return p, nil
}

// resolveTable finds the key of the table a record goes into: the existing
// table's, else the one the data shows.
func resolveTable(ctx context.Context, w dynamo.WriteAPI, name string, rec itemcodec.Record, l fileLoad) (*loadTable, error) {
	if t, err := dynamo.Describe(ctx, w, name); err == nil {
		return &loadTable{spec: dynamo.TableSpec{Name: name, PK: t.PK, SK: t.SK}, exists: true}, nil
	} else if !dynamo.IsTableNotFound(err) {
		return nil, err
	}
	t := &loadTable{spec: dynamo.TableSpec{Name: name}}
	pk, sk := l.pkName, l.skName
	switch {
	case pk != "":
		t.chose = "as --pk-name/--sk-name say"
	case rec.Item["PK"] != nil:
		pk, sk, t.chose = "PK", "SK", "the key names found in the data"
	case rec.Item["pk"] != nil:
		pk, sk, t.chose = "pk", "sk", "the key names found in the data"
	default:
		return nil, usageError{fmt.Sprintf("table %s does not exist and its key cannot be told from the data (%s has no PK or pk attribute); pass --pk-name (and --sk-name), or create the table first.", name, rec.Where)}
	}
	typeOf := func(attr string) (string, error) {
		switch typ := itemcodec.AttributeTypeName(rec.Item[attr]); typ {
		case "S", "N", "B":
			return typ, nil
		case "":
			return "", usageError{fmt.Sprintf("table %s does not exist and %s has no attribute %s to take the key type from; create the table first.", name, rec.Where, attr)}
		default:
			return "", usageError{fmt.Sprintf("table %s does not exist and attribute %s of %s is %s, which cannot be a key; create the table first.", name, attr, rec.Where, typ)}
		}
	}
	typ, err := typeOf(pk)
	if err != nil {
		return nil, err
	}
	t.spec.PK = dynamo.KeyAttr{Name: pk, Type: typ}
	if sk != "" && (l.skName != "" || rec.Item[sk] != nil) {
		if typ, err = typeOf(sk); err != nil {
			return nil, err
		}
		t.spec.SK = &dynamo.KeyAttr{Name: sk, Type: typ}
	}
	t.chose += ", types from " + rec.Where
	return t, nil
}

// streamTable writes one table's items: those the first pass held, else
// from a second read of the file.
func streamTable(ctx context.Context, w dynamo.WriteAPI, in itemcodec.InputFiles, p *filePlan, t *loadTable, l fileLoad, created bool, stderr io.Writer) (dynamo.SeedResult, error) {
	o := dynamo.SeedOptions{Force: l.force || created, Total: t.items}
	if bar := newProgressBar(stderr, t.spec.Name, t.items); bar != nil {
		o.OnBatch = bar.update
		defer bar.done()
	}
	if p.held != nil {
		items := p.held[t.spec.Name]
		next := func() (dynamo.Item, error) {
			if len(items) == 0 {
				return nil, io.EOF
			}
			it := items[0]
			items[0], items = nil, items[1:] // written, let go
			return it, nil
		}
		return dynamo.SeedStream(ctx, w, t.spec.Name, next, o)
	}
	r, err := newItemReader(in.Paths, p.format)
	if err != nil {
		return dynamo.SeedResult{}, err
	}
	r.ShowAs(in.Shown)
	defer r.Close()
	l.format = p.format
	tb := dynamo.Table{Name: t.spec.Name, PK: t.spec.PK, SK: t.spec.SK}
	next := func() (dynamo.Item, error) {
		for {
			rec, err := r.Next()
			if err != nil {
				return nil, err
			}
			if rec.Err != nil {
				continue // named by the first pass
			}
			if name, _ := p.target(rec, l); name != t.spec.Name || dynamo.CheckKey(tb, rec.Item) != nil {
				continue
			}
			return rec.Item, nil
		}
	}
	return dynamo.SeedStream(ctx, w, t.spec.Name, next, o)
}
