package ui

import (
	"context"
	"errors"
	"fmt"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/keys"
	"dynascope/patterns"
	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
)

// screen is the main thing on screen; overlays sit on top of it.
type screen int

const (
	screenLoading   screen = iota // describing the table named on the command line
	screenTables                  // the table picker
	screenPrompt                  // asking for a partition key value
	screenPartition               // a partition: entity types, items, query line
)

type pane int

const (
	paneGroups pane = iota
	paneItems
)

// result is what the items pane shows: the query that produced it, its
// read page by page (a dynamo.QueryPager stepped one reply at a time) and
// when the next page is asked for (paging.go).
type result struct {
	q      dynamo.QueryInput // as the user set it; StartKey nil
	pager  dynamo.QueryPager // its pages: where the next starts, what they kept, read and cost
	paging pagePolicy
	base   bool             // no sort-key condition: its pages feed the entity types
	get    *dynamo.GetInput // the results are one GetItem's (a pattern's); q is its key as a Query
	// proj compares the pattern that made these results with its KEYS_ONLY
	// or INCLUDE index; its note stays under the query line while they are
	// shown. nil for a hand-made request, the base table, an ALL index.
	proj *patterns.Projection
}

// more tells whether the results have another page.
func (r result) more() bool { return r.pager.LastKey() != nil }

// pages is how many pages are shown: a GetItem's item is one.
func (r result) pages() int {
	if r.get != nil {
		return 1
	}
	return r.pager.Pages()
}

// kept is what the pages returned (a filter's keep), scanned what they
// read and rcu what they cost: every item read is paid for.
func (r result) kept() int { return r.pager.Result().Count }

func (r result) scanned() int { return r.pager.Result().Scanned }

func (r result) rcu() float64 { return r.pager.Result().Capacity().Total }

// Model is the root model: it owns the screen, focus, layout and the request
// in flight, and routes messages to the panes.
type Model struct {
	ctx     context.Context
	store   Store
	gen     int // how many times the connection was switched (switch.go): replies without an id carry it
	opts    Options
	cfgDir  string
	keymap  keymap.KeyMap // the one key declaration (ui/keymap), with the settings' overrides
	st      styles
	dark    bool
	noColor bool
	// fixedTheme: the settings chose dark, light or none, so the
	// terminal's background does not decide.
	fixedTheme bool
	w, h       int

	screen   screen
	overlays []overlay.Overlay // the overlay stack (overlay.go); the last is on top
	focus    pane

	picker tablePicker
	prompt partitionPrompt
	groups groupsPane
	items  itemsPane
	qline  queryLine
	log    requestLog
	status statusLine
	help   help.Model

	table     dynamo.Table
	haveTable bool
	index     string
	schema    dynamo.KeySchema
	pendingPK string // --pk, opened once the table is described

	history        []historyEntry
	historyTable   string
	historyLoaded  bool
	historyPending []historyEntry // opened before the history file was read

	query    dynamo.QueryInput // the current request, as the query line shows it
	get      *dynamo.GetInput  // the current request when it is a GetItem; query holds its key
	results  result            // what the current request returned: its pages, items and costs
	delim    string
	colors   map[string]int     // entity type -> colour, in order of first sight
	cursors  map[cursorSpot]int // overlays' cursors kept across a partition change (cursors.go)
	openAt   partitionPlace     // the partition enterPartition opened last
	edits    []edit.Entry       // the session's writes not undone, oldest first (editing.go)
	reselect string             // the sort key the cursor goes back to when a write's reload lands; "" for none
	crumbs   []crumb            // where each jump to an index came from, for esc (xray.go)
	flight   inFlight           // the requests in flight: ids, cancels, stale replies (inflight.go)
	count    countJob           // an exact count of one type, in flight (its id and cancel are flight's)
	ask      countAsk           // a count announced with its cost, waiting for yes

	patterns      *patterns.PatternSet // nil without a patterns file
	patternsPath  string               // where S saves; "" when no file is known
	patternCursor int                  // where the patterns list was left (ui/overlay's patterns.go)
	patternOffset int
	send          *sender        // reaches the program from requests' goroutines: retries, progress
	live          liveState      // the live pane's tail (live.go)
	exports       *exportTracker // export.go: the exports in flight, which quitting waits for

	overview overlay.OverviewState // the table overview's sample and layout, kept between openings
	sampled  []sampleLogged        // per sample not yet done: its requests already in the request log
	export   exportJob             // the export in flight (export.go); its form is the overlay's

	// Seams for tests: the spinner's delay and the clipboard.
	after func(id int) tea.Cmd
	clip  func(string) tea.Cmd
}

// New builds the root model. It makes no request; Init starts them.
func New(o Options) Model {
	m := Model{
		ctx:          context.Background(),
		store:        o.Store,
		opts:         o,
		cfgDir:       o.ConfigDir,
		keymap:       keymap.Default(),
		dark:         true,
		noColor:      o.NoColor,
		w:            80,
		h:            24,
		index:        o.Index,
		colors:       map[string]int{},
		help:         help.New(),
		status:       newStatusLine(),
		after:        spinnerDueCmd,
		clip:         tea.SetClipboard,
		screen:       screenTables,
		groups:       groupsPane{active: -1, partExact: -1},
		send:         &sender{},
		exports:      &exportTracker{},
		patterns:     o.Patterns,
		patternsPath: o.PatternsPath,
	}
	m.applySettings(o.Settings)
	m.setStyles(newStyles(m.dark, m.noColor))
	if o.PatternsErr != nil {
		m.status.err = sanitize(o.PatternsErr.Error())
	}
	if o.Table != "" {
		m.flight.mark(flightTable)
		m.screen = screenLoading
		m.pendingPK = o.PK
		m.historyTable = o.Table
	}
	return m
}

func (m *Model) setStyles(st styles) {
	m.st = st
	m.help.Styles = st.Help
	m.status.spinner.Style = st.Accent
}

// Init asks for the terminal's background (for light or dark styles) and
// starts with the table: describe the one given, or list them all.
func (m Model) Init() tea.Cmd {
	if m.store == nil {
		return graphemeWidths
	}
	if m.opts.Table == "" {
		return tea.Batch(graphemeWidths, tea.RequestBackgroundColor, listTablesCmd(m.ctx, m.store, m.gen))
	}
	return tea.Batch(graphemeWidths, tea.RequestBackgroundColor,
		openTableCmd(m.observe(m.ctx, m.flight.id(flightTable)), m.store, m.flight.id(flightTable), m.opts.Table),
		loadHistoryCmd(m.cfgDir, m.opts.Table))
}

// Run runs the UI on the terminal (alternate screen, mouse on) until the
// user quits, and cancels whatever is still in flight when it returns.
func Run(ctx context.Context, o Options) error {
	if o.Store == nil {
		return errors.New("ui: no store to read from")
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if o.Table != "" {
		// The first requests leave now, not after the terminal's start-up
		// messages have been worked through (prefetch.go).
		o.Store = newPrefetchStore(ctx, o.Store, o.Table, o.Index, o.PK, o.Settings)
	}
	m := New(o)
	m.ctx = ctx
	// 120 fps: a frame waits at most about 8 ms for the renderer's tick.
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(120)}
	if o.ColorProfile != colorprofile.Unknown {
		popts = append(popts, tea.WithColorProfile(o.ColorProfile))
	}
	p := tea.NewProgram(m, popts...)
	m.send.set(p.Send)
	_, err := p.Run()
	// Whatever is in flight stops now; an export removes its partial file
	// before the process may end.
	m.exports.close()
	cancel()
	exportErr := m.exports.wait(5 * time.Second)
	signalled := parent.Err() != nil // SIGINT, SIGTERM or SIGHUP (main.go)
	if errors.Is(err, tea.ErrInterrupted) || (errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil) {
		err = nil
	}
	switch {
	case err != nil:
		return errors.Join(fmt.Errorf("terminal UI: %w", err), exportErr)
	case signalled && exportErr == nil:
		return errors.New("interrupted by a signal.")
	}
	return exportErr
}

// mode is what the keyboard talks to now.
func (m Model) mode() *keymap.Mode {
	if o := m.top(); o != nil {
		return o.Mode(m.stateEnv())
	}
	switch m.screen {
	case screenLoading:
		return modeLoading
	case screenTables:
		return modeTables
	case screenPrompt:
		return modePrompt
	}
	if m.ask.on {
		return modeConfirm
	}
	switch m.qline.edit {
	case editCondition:
		return modeCondition
	case editLimit:
		return modeLimit
	case editFilter:
		return modeFilter
	case editRequestFilter:
		return modeRequestFilter
	case editProjection:
		return modeProjection
	}
	if m.focus == paneItems {
		return modeItems
	}
	return modeGroups
}

func (m Model) keyState() keymap.State {
	_, has := m.items.selected()
	return keymap.State{
		CanGoBack: m.opts.Table == "",
		Busy:      m.busy(),
		More:      m.results.more(),
		HasItem:   has,
		NextView:  m.nextDetailView(),
		Patterns:  m.patterns != nil && len(m.patterns.Patterns) > 0,
		Writes:    m.opts.Editor != nil,
		NoSortKey: m.schema.SK == nil && m.schema.PK.Name != "",
		EntAttr:   m.groups.attribute(),
		ByAttr:    m.groups.byAttribute(),
	}
}

// keyMap is the keymap of the current mode.
func (m Model) keyMap() keymap.KeyMap { return m.keymap.ForMode(m.mode(), m.keyState()) }

// entityKey names the group of a sort key (keys.Class.ID), as colours are assigned.
func (m Model) entityKey(sk string) string {
	kt := "S"
	if m.schema.SK != nil {
		kt = m.schema.SK.Type
	}
	return keys.ClassifyTyped(sk, kt, m.delim).ID()
}

// colourOf is the colour index of a sort key's entity type, -1 if unseen.
func (m Model) colourOf(sk string) int {
	if c, ok := m.colors[m.entityKey(sk)]; ok {
		return c
	}
	return -1
}

func (m Model) groupColour(id string) int {
	if c, ok := m.colors[id]; ok {
		return c
	}
	return -1
}

// noteTypeColours gives each entity type the skip-scan found, not seen
// before, the next colour.
func (m Model) noteTypeColours() {
	for _, t := range m.groups.types() {
		k := t.ID()
		if _, ok := m.colors[k]; !ok {
			m.colors[k] = len(m.colors)
		}
	}
}

// noteColours gives each entity type not seen before the next colour.
func (m Model) noteColours(items []dynamo.Item) {
	name := m.items.keyName
	for _, it := range items {
		k := m.entityKey(keyOf(it, name))
		if _, ok := m.colors[k]; !ok {
			m.colors[k] = len(m.colors)
		}
	}
}
