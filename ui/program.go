package ui

import (
	"context"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/pane"
	"errors"
	"fmt"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// The program around the model: New and Init, Run on the terminal, and
// what the keyboard talks to now (mode, keyState, keyMap), which read
// every pane; model.go holds only the model's state.

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
		status:       pane.NewStatus(),
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
		m.status.Err = sanitize(o.PatternsErr.Error())
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
	m.status.Spinner.Style = st.Accent
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
		o.Store = newPrefetchStore(ctx, o.Store, o.Table, o.Index, o.PK, o.Settings, o.Rows)
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
	final, err := p.Run()
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
	if fm, ok := final.(Model); ok && exportErr == nil {
		return fm.quitError()
	}
	return exportErr
}

// quitError is the error the program ends with when the user quits from a
// screen that stands on one: the picker opened for a missing table, the
// table that could not be opened, the tables that could not be listed. A
// script or a shell sees the failure in the exit code, as the command
// line's own commands report theirs.
func (m Model) quitError() error {
	switch m.screen {
	case screenTables:
		if err := m.picker.MissingError(); err != nil {
			return err
		}
		if m.picker.ListErr != "" {
			return &textfmt.UserError{Msg: m.picker.ListErr}
		}
	case screenLoading:
		if m.status.Err != "" {
			return &textfmt.UserError{Msg: m.status.Err}
		}
	}
	return nil
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
	if m.ask.on && m.ask.marks {
		return modeMarkConfirm
	}
	if m.ask.on {
		return modeConfirm
	}
	switch m.qline.Edit {
	case pane.EditCondition:
		return modeCondition
	case pane.EditLimit:
		return modeLimit
	case pane.EditFilter:
		return modeFilter
	case pane.EditRequestFilter:
		return modeRequestFilter
	case pane.EditProjection:
		return modeProjection
	}
	if m.focus == paneItems {
		return modeItems
	}
	return modeGroups
}

func (m Model) keyState() keymap.State {
	_, has := m.items.Selected()
	return keymap.State{
		CanGoBack: m.opts.Table == "",
		Busy:      m.busy(),
		More:      m.results.more(),
		HasItem:   has,
		NextView:  m.nextDetailView(),
		Patterns:  m.patterns != nil && len(m.patterns.Patterns) > 0,
		Writes:    m.opts.Editor != nil,
		NoSortKey: m.schema.SK == nil && m.schema.PK.Name != "",
		Marks:     m.items.MarkCount(),
		EntAttr:   m.groups.attribute(),
		ByAttr:    m.groups.byAttribute(),
		Empty:     m.emptyResult(),
		// Only the prompt's field is asked: a value typed there may hold
		// a ?, an empty one cannot.
		EmptyField: m.screen == screenPrompt && m.prompt.Input.String() == "",
	}
}

// keyMap is the keymap of the current mode.
func (m Model) keyMap() keymap.KeyMap { return m.keymap.ForMode(m.mode(), m.keyState()) }
