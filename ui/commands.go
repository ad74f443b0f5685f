package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/sync/errgroup"

	"dynascope/config"
	"dynascope/dynamo"
)

// Every command here takes its inputs by value and returns one message; none
// touches the model. Replies carry the id of the request they answer, so the
// root can drop those that arrive after the user moved on.

// tablesListedMsg answers listTablesCmd.
type tablesListedMsg struct {
	gen   int // the connection it was sent on (Model.gen): one switched from is stale
	names []string
	err   error
}

func listTablesCmd(ctx context.Context, s Store, gen int) tea.Cmd {
	return func() tea.Msg {
		names, err := s.ListTables(ctx)
		return tablesListedMsg{gen: gen, names: names, err: err}
	}
}

// tablesDescribedMsg answers describeTablesCmd: one description or error per name.
type tablesDescribedMsg struct {
	gen    int // as tablesListedMsg's
	names  []string
	tables []dynamo.Table
	errs   []error
}

// describeConcurrency bounds the DescribeTable calls the picker makes at once.
const describeConcurrency = 8

func describeTablesCmd(ctx context.Context, s Store, gen int, names []string) tea.Cmd {
	names = append([]string(nil), names...)
	return func() tea.Msg {
		out := tablesDescribedMsg{gen: gen, names: names, tables: make([]dynamo.Table, len(names)), errs: make([]error, len(names))}
		// Each name keeps its own error: one table that fails to describe
		// does not cancel the others, so no goroutine returns an error.
		var g errgroup.Group
		g.SetLimit(describeConcurrency)
		for i, n := range names {
			g.Go(func() error {
				out.tables[i], out.errs[i] = s.DescribeTable(ctx, n)
				return nil
			})
		}
		_ = g.Wait()
		return out
	}
}

// tableOpenedMsg answers openTableCmd.
type tableOpenedMsg struct {
	id    int
	table dynamo.Table
	err   error
}

// openTableCmd needs only the key schema, which the client may answer from
// its cache without a request: the first screen waits on nothing else.
func openTableCmd(ctx context.Context, s Store, id int, name string) tea.Cmd {
	return func() tea.Msg {
		t, err := s.TableKeys(ctx, name)
		return tableOpenedMsg{id: id, table: t, err: err}
	}
}

// tableStatsMsg answers tableStatsCmd: the table's item count and size.
type tableStatsMsg struct {
	table dynamo.Table
	err   error
}

// tableStatsCmd asks DescribeTable for the counts and sizes that only the
// count estimate and the overview show, after the first screen is drawn.
func tableStatsCmd(ctx context.Context, s Store, name string) tea.Cmd {
	return func() tea.Msg {
		t, err := s.DescribeTable(ctx, name)
		return tableStatsMsg{table: t, err: err}
	}
}

// queryDoneMsg answers queryCmd with one page. page.Request is the record of
// the request even when err is set.
type queryDoneMsg struct {
	id      int
	q       dynamo.QueryInput
	next    bool // a further page of the results shown, not a new query
	pageNo  int  // which page of its query, when next
	refetch bool // a released page read again (itemscap.go, pane/items_cap.go)
	screen  bool // the first page of a partition, sized to the screen (paging.go): q has the Limit sent, the user's request none
	page    dynamo.Page
	err     error
}

// queryCmd sends q exactly as the query line shows it: without a Limit when
// the user set none, so pages are DynamoDB's own (up to 1 MB).
func queryCmd(ctx context.Context, s Store, id int, q dynamo.QueryInput, next bool, pageNo int) tea.Cmd {
	return func() tea.Msg {
		p, err := s.Query(ctx, q)
		return queryDoneMsg{id: id, q: q, next: next, pageNo: pageNo, page: p, err: err}
	}
}

// spinnerDueMsg says a request has been in flight long enough to show a spinner.
type spinnerDueMsg struct{ id int }

// spinnerDelay keeps fast requests from flickering a spinner.
const spinnerDelay = 100 * time.Millisecond

func spinnerDueCmd(id int) tea.Cmd {
	return tea.Tick(spinnerDelay, func(time.Time) tea.Msg { return spinnerDueMsg{id: id} })
}

// historyLoadedMsg answers loadHistoryCmd.
type historyLoadedMsg struct {
	table   string
	entries []historyEntry
	err     error
}

func loadHistoryCmd(dir, table string) tea.Cmd {
	return func() tea.Msg {
		e, err := config.LoadHistory(dir, table)
		return historyLoadedMsg{table: table, entries: e, err: err}
	}
}

// historySavedMsg answers saveHistoryCmd.
type historySavedMsg struct{ err error }

func saveHistoryCmd(dir, table string, entries []historyEntry) tea.Cmd {
	entries = append([]historyEntry(nil), entries...)
	return func() tea.Msg {
		return historySavedMsg{err: config.SaveHistory(dir, table, entries)}
	}
}
