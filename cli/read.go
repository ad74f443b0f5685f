package cli

// What the reads beyond one key have in common (query --filter, scan,
// partiql): the filter and projection flags, the notes that say what a
// filter and a projection cost, and the cost announced before and shown
// after.

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/filterexpr"
	"dynascope/textfmt"
)

// readShapeFlags adds --filter and --project, into filter and project.
func readShapeFlags(fs *pflag.FlagSet, filter, project *string) {
	fs.StringVar(filter, "filter", "", "FilterExpression with values in place: `EXPR` such as 'status = \"OPEN\" AND total > 1000' (applied after the read: it does not lower the cost)")
	fs.StringVar(project, "project", "", "return only these attributes: `LIST` such as total,status,address.city (the keys are always kept; saves bandwidth, not capacity)")
}

// suspectFilter writes, before a read is sent, one line for each word the
// filter reads as an attribute name though it looks like a value the user
// meant to quote (`status = OPEN`: no item has an attribute OPEN, so the
// filter keeps nothing and the read is charged in full). The read goes
// ahead: the line is a warning, on stderr.
//
// What the CLI knows of a table's names without spending a request: the
// words it is given (the projection, a pattern's attributes) and the names
// the table's description declares (Table.AttributeNames: the keys of the
// table and its indexes, the INCLUDE lists). table is asked only when a
// word looks suspect by itself; it is the key schema the read needs anyway
// (the session's, the schema cache's or DescribeTable's), so asking it
// sends nothing the read would not.
func suspectFilter(w io.Writer, where, filter string, given []string, table func() (dynamo.Table, error)) {
	e, err := filterexpr.Parse(filter)
	if err != nil {
		return // the read refuses it in its own words
	}
	byWord := func(names []string) func(string) bool {
		return func(n string) bool { return slices.Contains(names, n) }
	}
	suspects := filterexpr.SuspectNames(e, byWord(given))
	if len(suspects) == 0 {
		return
	}
	if t, err := table(); err == nil {
		suspects = filterexpr.SuspectNames(e, byWord(append(slices.Clip(given), t.AttributeNames()...)))
	}
	for _, s := range suspects {
		fmt.Fprintf(w, "warning: %s: %s (the read goes ahead)\n", where, s)
	}
}

// projectedNames are the top-level attributes a projection names.
func projectedNames(project string) []string {
	paths, err := filterexpr.ParseProjection(project)
	if err != nil {
		return nil
	}
	var names []string
	for _, p := range paths {
		names = append(names, p.Top())
	}
	return names
}

// readNotes are the sentences a filtered or projected result carries:
// what was kept of what was read, and that all of it was paid for.
func readNotes(count, scanned int, rcu float64, filter, projection string) []string {
	var notes []string
	if filter != "" {
		notes = append(notes, fmt.Sprintf("kept %s of %s read; the %s RCU were charged for all %s read (%s)",
			textfmt.Count(count), textfmt.Count(scanned), jsonFloat(rcu), textfmt.Count(scanned), dynamo.FilterNote))
	}
	if projection != "" {
		notes = append(notes, "projection "+projection+": "+dynamo.ProjectionNote)
	}
	return notes
}

// pagingObject is what DynamoDB's 1 MB page rule says of a read's pages
// (dynamo.OneMB), in the JSON outputs as "dynamoDBPaging": present only
// when a page read more than one DynamoDB page may (DynamoDB Local does
// not stop a filtered page at 1 MB), so the objects are unchanged
// otherwise.
type pagingObject struct {
	Requests  int              `json:"requests"` // the requests DynamoDB would take for the whole read
	PagesOver []pageOverObject `json:"pagesOver"`
}

type pageOverObject struct {
	Page         int     `json:"page"` // from 1, in the order of "requests"
	ScannedCount int     `json:"scannedCount"`
	BytesRead    int64   `json:"bytesRead"` // at least
	RCU          float64 `json:"consumedCapacity"`
	Stops        int     `json:"stops"` // how many times DynamoDB would have ended a page within it
	Exact        bool    `json:"exact"` // from the items' own sizes; else items of the page's average size
}

func newPagingObject(m dynamo.OneMB) *pagingObject {
	if len(m.Over) == 0 {
		return nil
	}
	o := &pagingObject{Requests: m.Requests, PagesOver: []pageOverObject{}}
	for _, p := range m.Over {
		o.PagesOver = append(o.PagesOver, pageOverObject{Page: p.Page, ScannedCount: p.Scanned, BytesRead: p.Bytes, RCU: p.RCU, Stops: p.Stops, Exact: p.Exact})
	}
	return o
}

// sayPaging writes, on stderr, the sentence of a read whose pages
// DynamoDB would have cut at 1 MB (dynamo.OneMB.Text), if any.
func sayPaging(stderr io.Writer, m dynamo.OneMB, pages int) {
	if t := m.Text(pages); t != "" {
		fmt.Fprintln(stderr, textfmt.Sanitize(t))
	}
}

// unreported counts the requests whose answer held no consumed capacity.
func unreported(reqs []dynamo.Request) int {
	n := 0
	for _, r := range reqs {
		if r.NoCapacity {
			n++
		}
	}
	return n
}

// noCapacityNote says that some requests' cost is unknown, never 0.
func noCapacityNote(reqs []dynamo.Request) string {
	return fmt.Sprintf("the endpoint answered %s of %s without ConsumedCapacity although it was asked for (DynamoDB Local does so for ExecuteStatement); their cost is unknown, not 0",
		textfmt.Count(unreported(reqs)), textfmt.Plural(len(reqs), "request", "requests"))
}

// costGate is the upper bound of a read that can go through a whole table,
// said before it runs, and the consent it needs: --yes, or a --max-rcu cap.
type costGate struct {
	bound  float64 // RCU: the estimate's bound, or its budget when the size is unknown
	maxRCU float64
	yes    bool
	price  float64 // USD per million RCU; 0: no money shown
}

func newCostGate(s config.Settings, yes bool, maxRCU float64) costGate {
	return costGate{yes: yes, maxRCU: maxRCU, price: s.PricePerMillionReads}
}

// money is an amount of RCU in dollars at the settings' price, or "".
func (g costGate) money(rcu float64) string {
	if g.price <= 0 {
		return ""
	}
	return fmt.Sprintf(" ≈ %s on-demand at $%g per million reads", textfmt.Dollars(rcu*g.price/1e6), g.price)
}

// announce says what the read may cost before it runs, and refuses to
// run it without consent. what is "scan of table App"; e the estimate
// (dynamo.EstimateRead), the one figure every read of the table announces.
func (g *costGate) announce(stderr io.Writer, what string, e dynamo.Estimate) error {
	g.bound = e.RCU
	if e.Known {
		fmt.Fprintf(stderr, "%s: at most the whole of it, %s%s (DescribeTable's figures, refreshed by DynamoDB about every 6 hours)\n",
			textfmt.Sanitize(what), e.Text(), g.money(e.RCU))
	} else {
		fmt.Fprintf(stderr, "%s: %s%s\n", textfmt.Sanitize(what), e.Text(), g.money(e.RCU))
	}
	switch {
	case g.maxRCU > 0:
		fmt.Fprintf(stderr, "capped at %s RCU (--max-rcu); Ctrl-C stops and keeps what was read\n", jsonFloat(g.maxRCU))
	case g.yes:
		fmt.Fprintln(stderr, "running it (--yes); Ctrl-C stops and keeps what was read")
	default:
		return usageError{fmt.Sprintf("%s reads up to %s RCU; pass --yes to run it, or --max-rcu N to stop it at N RCU.", textfmt.Sanitize(what), jsonFloat(e.RCU))}
	}
	return nil
}

// after says, once the read is over, what it cost beside what was predicted.
func (g costGate) after(stderr io.Writer, reqs []dynamo.Request, stop dynamo.StopReason, items int, by func() string) {
	var b strings.Builder
	actual := dynamo.TotalCapacity(reqs).Total
	switch n := unreported(reqs); {
	case n > 0 && n == len(reqs):
		fmt.Fprintf(&b, "predicted ≤ %s RCU · actual unknown: %s", jsonFloat(g.bound), noCapacityNote(reqs))
	case n > 0:
		fmt.Fprintf(&b, "predicted ≤ %s RCU · actual at least %s RCU: %s", jsonFloat(g.bound), jsonFloat(actual), noCapacityNote(reqs))
	default:
		fmt.Fprintf(&b, "predicted ≤ %s RCU · actual %s RCU%s", jsonFloat(g.bound), jsonFloat(actual), g.money(actual))
	}
	switch stop {
	case dynamo.StopMaxRCU:
		fmt.Fprintf(&b, " · stopped at the --max-rcu cap after %s", textfmt.Plural(items, "item", "items"))
	case dynamo.StopCancelled:
		fmt.Fprintf(&b, " · stopped by %s after %s", by(), textfmt.Plural(items, "item", "items"))
	case dynamo.StopEstimate:
		fmt.Fprintf(&b, " · stopped past the estimate after %s", textfmt.Plural(items, "item", "items"))
	case dynamo.StopMaxItems:
		fmt.Fprintf(&b, " · stopped at --max-items after %s", textfmt.Plural(items, "item", "items"))
	}
	if over := overCap(actual, g.maxRCU); over != "" {
		b.WriteString(" · " + over)
	}
	fmt.Fprintln(stderr, b.String())
}

// overCap is what a capped read says when it spent more than its cap
// (only an item larger than any read before it gets there), or "" when it
// did not.
func overCap(spent, maxRCU float64) string {
	if maxRCU <= 0 || spent <= maxRCU {
		return ""
	}
	return dynamo.OverCapText(jsonFloat(spent-maxRCU), "--max-rcu cap")
}

// stoppedBy says, once ctx is cancelled, what cancelled it: the signal
// main's signal context names as its cause ("SIGTERM"), else Ctrl-C.
func stoppedBy(ctx context.Context) func() string {
	return func() string {
		switch cause := context.Cause(ctx); {
		case cause == nil:
			return "Ctrl-C"
		case strings.HasPrefix(cause.Error(), "terminated"):
			return "SIGTERM"
		case strings.HasPrefix(cause.Error(), "hangup"):
			return "SIGHUP"
		}
		return "Ctrl-C"
	}
}
