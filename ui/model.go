package ui

import (
	"context"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/keys"
	"dynascope/patterns"
	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
	"dynascope/ui/pane"
)

// screen is the main thing on screen; overlays sit on top of it.
type screen int

const (
	screenLoading   screen = iota // describing the table named on the command line
	screenTables                  // the table picker
	screenPrompt                  // asking for a partition key value
	screenPartition               // a partition: entity types, items, query line
)

type paneID int

const (
	paneGroups paneID = iota
	paneItems
)

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
	focus    paneID

	picker pane.TablePicker
	prompt pane.Prompt
	groups groupsPane
	items  pane.Items
	qline  pane.QueryLine
	log    pane.RequestLog
	status pane.Status
	infoOn place // the screen status.Info was made on (statusscope.go)
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
	// firstSteps: the table's history was empty when read, so this is a
	// first start and the keys to begin with are shown (firststeps.go)
	// until one of them is used (firstStepsDone).
	firstSteps, firstStepsDone bool

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
	markRest markRead           // A's read of the query's other pages, marking them

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
	name := m.items.KeyName
	for _, it := range items {
		k := m.entityKey(keyOf(it, name))
		if _, ok := m.colors[k]; !ok {
			m.colors[k] = len(m.colors)
		}
	}
}

// place is a screen: the base screen and the overlay on top of it.
type place struct {
	screen  screen
	overlay overlay.ID
}

// crumb is where a jump came from: the request shown and the item.
type crumb struct {
	q        dynamo.QueryInput
	reselect string
}

func (c crumb) text() string {
	where := "base table"
	if c.q.Index != "" {
		where = c.q.Index
	}
	return where + " " + c.q.PK
}
