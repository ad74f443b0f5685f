package cli

// --scan: a bulk change of the items of the whole table, selected by one
// strongly consistent Scan (with --filter, of the items it keeps), the
// Scan's estimate said first, as scan says it. It is asked for by name,
// never reached by leaving out --pk: a Scan's cost grows with the table.

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"dynascope/dynamo"
)

// bulkScanFlags checks --scan beside the other selectors: it reads the
// whole table, so it takes --filter and nothing that names a partition,
// items or an index.
func (o *writeOptions) bulkScanFlags(fs *pflag.FlagSet) error {
	var others []string
	for _, name := range append([]string{"pk", "sk", "entity", "keys", "index"}, sortKeyFlagNames()...) {
		if fs.Changed(name) {
			others = append(others, "--"+name)
		}
	}
	if len(others) > 0 {
		return usageError{fmt.Sprintf("--scan reads the whole table: leave out %s (or leave out --scan).", strings.Join(others, " and "))}
	}
	if fs.Changed("filter") {
		if err := o.bulkFilterFlags(false, false); err != nil {
			return err
		}
	}
	return o.checkRate()
}

// selectByScan reads every item of the table (kept by --filter), strongly
// consistent, since each write is conditional on the image read.
func selectByScan(ctx context.Context, client *dynamo.Client, t dynamo.Table, opts *writeOptions) (selection, error) {
	in := dynamo.ScanInput{Table: t.Name, Filter: opts.Bulk.Filter, Consistent: true}
	if _, _, err := dynamo.BuildScan(t, in, 0); err != nil {
		return selection{}, err // a bad filter: before any word on cost
	}
	sel := selection{what: "scan of table " + t.Name}
	if in.Filter != "" {
		sel.what += ", filter " + in.Filter
		suspectFilter(opts.Bulk.Err, "--filter", in.Filter, nil, func() (dynamo.Table, error) { return t, nil })
	}
	in.Est = announceEstimate(ctx, client, opts.Bulk.Err, t.Name, "", true, 0, "the selection ("+sel.what+") reads every item of the table once, strongly consistent")
	in.OnPage = func(p dynamo.ScanPage) error {
		sel.items = append(sel.items, p.Items...)
		return nil
	}
	res, err := client.Scan(ctx, in)
	sel.read = dynamo.QueryResult{Requests: res.Requests, Pages: len(res.Requests), Count: res.Count, Scanned: res.Scanned, Stop: res.Stop}
	if err != nil {
		return sel, err
	}
	if res.Stop != dynamo.StopComplete {
		return sel, fmt.Errorf("%s: the selection stopped (%s) before it was read whole: nothing planned, nothing sent", opts.Command, res.Stop)
	}
	return sel, nil
}
