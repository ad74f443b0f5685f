package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
	"dynascope/patterns"
)

// What an overlay may read of the root, and what it may ask of it: an
// overlay's update (overlay.go) gets an overlayEnv and returns an action,
// which Model.do interprets. Only the root sends requests, hands out their
// ids, keeps their cancel functions and the request log.

// overlayEnv is the root as an overlay's update may see it: values, built
// by the root for each message, so nothing an overlay does with it reaches
// the root.
type overlayEnv struct {
	keys     KeyMap // the keys of the overlay's mode, as the keymap has them now
	st       styles
	w, bodyH int // the screen's width and the body's height (layout)

	table    dynamo.Table // the table open (zero before one is)
	index    string       // the index open, "" for the table
	patterns *patterns.PatternSet
	version  string      // the settings' version attribute, for a write's condition
	target   edit.Target // where a write would go, for its aws command; zero without a writer

	overview  overviewPane // the overview's sample and layout
	exporting bool         // an export is in flight
	// helpLines is the help of a mode for a box w wide (overlay_help.go).
	helpLines func(md mode, w int) []string
}

// env builds what the top overlay's update may read.
func (m Model) env() overlayEnv {
	lay := m.layout()
	e := overlayEnv{
		keys: m.keyMap(), st: m.st, w: lay.w, bodyH: lay.bodyH,
		table: m.table, index: m.index, patterns: m.patterns,
		version: m.opts.Settings.VersionAttribute, overview: m.overview, exporting: m.export.running,
		helpLines: m.helpLines,
	}
	if m.opts.Editor != nil {
		e.target = m.opts.Editor.Target()
	}
	return e
}

// updateTop gives msg to the overlay on top and does what it asks.
func (m Model) updateTop(o overlay, msg tea.Msg) (Model, tea.Cmd) {
	next, a := o.update(m.env(), msg)
	return m.setTop(next).do(a)
}

// want is what an overlay asks the root to do: an action. Each is a small value
// type below; do is the one place that carries them out.
type want interface{ isWant() }

// then is several wants, done in order, their commands batched.
type then []want

// The stack.
type (
	// closeOverlay closes the overlay on top.
	closeOverlay struct{}
	// openOverlay opens o over it.
	openOverlay struct{ o overlay }
	// removeOverlays closes every overlay of these ids.
	removeOverlays struct{ ids []overlayID }
)

// The status line and the clipboard.
type (
	// showInfo says text in the status line.
	showInfo struct{ text string }
	// showError shows text as the status line's error ("" clears it).
	showError struct{ text string }
	// copyText copies text to the clipboard (OSC 52), saying info.
	copyText struct{ text, info string }
)

// What the root's own methods do for an item, a request or a partition.
type (
	// copyItem copies the item as JSON.
	copyItem struct{ it dynamo.Item }
	// copyGetItem copies the item's GetItem as an aws command.
	copyGetItem struct{ it dynamo.Item }
	// copyRequest copies the current request as an aws command.
	copyRequest struct{}
	// openJumpList lists where the item can be opened (xray.go).
	openJumpList struct{ it dynamo.Item }
	// openLinkList lists the partitions the item's keys name, and sends
	// their confirmations (links.go).
	openLinkList struct{ it dynamo.Item }
	// editItem opens the edit overlay on a draft.
	editItem struct {
		d     draft
		title string
	}
	// deleteItem shows the delete of it for confirmation.
	deleteItem struct{ it dynamo.Item }
	// undoLast shows the undo of the session's last write for confirmation.
	undoLast struct{}
	// jumpTo opens tg's partition from the item on (xray.go).
	jumpTo struct {
		it dynamo.Item
		tg jumpTarget
	}
	// openCode shows the code of a request.
	openCode struct {
		in   reqInput
		from string
	}
	// openPatternCode shows the code of a pattern's request, under a
	// comment line naming its parameters and their values (note).
	openPatternCode struct {
		r    patterns.Resolved
		from string
		note string
	}
	// openLoggedCode shows the code of the request selected in the log.
	openLoggedCode struct{}
	// openLogList shows the request log.
	openLogList struct{}
	// moveLog moves the log's cursor by delta, in a box h lines high.
	moveLog struct{ delta, h int }
	// stopLive stops the live pane's tail.
	stopLive struct{}
	// chooseIndex queries that index (or the table, for ""), asking for
	// its partition.
	chooseIndex struct{ name string }
	// openIndexMap shows the overview's index map.
	openIndexMap struct{}
	// openPartitionAt opens partition pk of index.
	openPartitionAt struct{ index, pk string }
)

// Requests and jobs: the root hands out the id and keeps the cancel.
type (
	// savePattern appends p to the patterns file.
	savePattern struct{ p patterns.Pattern }
	// runPattern sends a pattern's request with its parameters.
	runPattern struct {
		p      patterns.Pattern
		params map[string]string
	}
	// keepPatterns remembers where the patterns list was left.
	keepPatterns struct{ cursor, offset int }
	// scanIndexMap sends the index map's Scan.
	scanIndexMap struct {
		table    string
		maxItems int
		maxRCU   float64
	}
	// planBulk describes the table (and plans the statement) of a bulk read.
	planBulk struct{ o bulkOverlay }
	// runBulk sends the bulk read, or goes on with it.
	runBulk struct{ o bulkOverlay }
	// stopBulk cancels the bulk read in flight: its reply brings what was read.
	stopBulk struct{}
	// sendWrite sends a confirmed write (an undo when undo is set).
	sendWrite struct {
		plan *edit.Plan
		undo *edit.Entry
	}
	// startExport writes the items of src to a new file at path.
	startExport struct {
		src    exportSource
		path   string
		format itemcodec.ExportFormat
	}
	// stopExport cancels the export in flight; it removes its file.
	stopExport struct{}
	// startSample sends the overview's sample with the caps in.
	startSample struct{ in dynamo.SampleInput }
	// stopSample cancels the sample, keeping what was read.
	stopSample struct{}
	// overviewErr says why the caps are refused; "" clears it.
	overviewErr struct{ text string }
	// showCaps shows the overview's caps again, to sample anew.
	showCaps struct{}
	// showLayout goes back to the layout sampled before.
	showLayout struct{}
	// keepOverview remembers the overview's cursor and caps for the next
	// opening.
	keepOverview struct {
		cursor int
		form   form
	}
)

func (then) isWant()            {}
func (closeOverlay) isWant()    {}
func (openOverlay) isWant()     {}
func (removeOverlays) isWant()  {}
func (showInfo) isWant()        {}
func (showError) isWant()       {}
func (copyText) isWant()        {}
func (copyItem) isWant()        {}
func (copyGetItem) isWant()     {}
func (copyRequest) isWant()     {}
func (openJumpList) isWant()    {}
func (openLinkList) isWant()    {}
func (editItem) isWant()        {}
func (deleteItem) isWant()      {}
func (undoLast) isWant()        {}
func (jumpTo) isWant()          {}
func (openCode) isWant()        {}
func (openLoggedCode) isWant()  {}
func (openPatternCode) isWant() {}
func (openLogList) isWant()     {}
func (moveLog) isWant()         {}
func (stopLive) isWant()        {}
func (chooseIndex) isWant()     {}
func (openIndexMap) isWant()    {}
func (openPartitionAt) isWant() {}
func (savePattern) isWant()     {}
func (runPattern) isWant()      {}
func (keepPatterns) isWant()    {}
func (scanIndexMap) isWant()    {}
func (planBulk) isWant()        {}
func (runBulk) isWant()         {}
func (stopBulk) isWant()        {}
func (sendWrite) isWant()       {}
func (startExport) isWant()     {}
func (stopExport) isWant()      {}
func (startSample) isWant()     {}
func (stopSample) isWant()      {}
func (overviewErr) isWant()     {}
func (showCaps) isWant()        {}
func (showLayout) isWant()      {}
func (keepOverview) isWant()    {}

// do carries out what an overlay asked.
func (m Model) do(a want) (Model, tea.Cmd) {
	switch a := a.(type) {
	case nil:
		return m, nil
	case then:
		var cmds []tea.Cmd
		for _, x := range a {
			var cmd tea.Cmd
			m, cmd = m.do(x)
			cmds = append(cmds, cmd)
		}
		return m, tea.Batch(cmds...)
	case closeOverlay:
		return m.pop(), nil
	case openOverlay:
		return m.push(a.o), nil
	case removeOverlays:
		for _, id := range a.ids {
			m = m.remove(id)
		}
		return m, nil
	case showInfo:
		m.status.info = a.text
		return m, nil
	case showError:
		m.status.err = a.text
		return m, nil
	case copyText:
		m.status.info = a.info
		return m, m.clip(a.text)
	case copyItem:
		return m.copyItem(a.it)
	case copyGetItem:
		return m.copyGetItem(a.it)
	case copyRequest:
		return m.copyCommand()
	case openJumpList:
		return m.openJump(a.it)
	case openLinkList:
		return m.openLinks(a.it)
	case editItem:
		return m.openEdit(a.d, a.title)
	case deleteItem:
		return m.deleteItem(a.it)
	case undoLast:
		return m.undoLast()
	case jumpTo:
		return m.jump(a.it, a.tg)
	case openCode:
		return m.openCode(a.in, a.from), nil
	case openPatternCode:
		return m.openCodeNoted(m.resolvedInput(a.r), a.from, a.note), nil
	case openLoggedCode:
		return m.codeLogged(), nil
	case openLogList:
		return m.openLog(), nil
	case moveLog:
		m.log = m.log.move(a.delta, a.h)
		return m, nil
	case stopLive:
		return m.stopLive(), nil
	case chooseIndex:
		return m.chooseIndex(a.name), nil
	case openIndexMap:
		return m.openIndexMap(), nil
	case openPartitionAt:
		return m.openPartitionOf(a.index, a.pk)
	case savePattern:
		return m, savePatternCmd(m.patternsPath, a.p)
	case runPattern:
		return m.runPattern(a.p, a.params)
	case keepPatterns:
		m.patternCursor, m.patternOffset = a.cursor, a.offset
		return m, nil
	case scanIndexMap:
		return m.scanIndexMap(a)
	case planBulk:
		id, ctx := m.flight.start(m.ctx, flightBulk)
		return m, bulkPlanCmd(ctx, m.store, id, a.o)
	case runBulk:
		id, ctx := m.flight.start(m.ctx, flightBulk)
		return m, bulkRunCmd(ctx, m.store, m.send, id, a.o)
	case stopBulk:
		m.flight.cancel(flightBulk) // the reply brings what was read
		return m, nil
	case sendWrite:
		id := m.flight.mark(flightWrite)
		return m, writeCmd(m.ctx, m.opts.Editor, id, a.plan, a.undo)
	case startExport:
		return m.startExport(a)
	case stopExport:
		if m.export.cancel != nil {
			m.export.cancel()
		}
		return m, nil
	case startSample:
		return m.startSample(a.in)
	case stopSample:
		// The sample returns what it read so far; sampleDone shows it.
		m.overview.stopping = true
		m.flight.cancel(flightSample)
		return m, nil
	case overviewErr:
		m.overview.err = a.text
		return m, nil
	case showCaps:
		m.overview.phase, m.overview.err = ovSetup, ""
		return m, nil
	case showLayout:
		m.overview.phase = ovDone
		return m, nil
	case keepOverview:
		m.overview.cursor, m.overview.form = a.cursor, a.form
		return m, nil
	}
	m.status.err = fmt.Sprintf("ui: no root action for %T", a) // a new action without its case here
	return m, nil
}
