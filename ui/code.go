package ui

import (
	"fmt"

	"dynascope/codegen"
	"dynascope/ui/overlay"
	"dynascope/ui/request"
)

// The root's side of the code view (ui/overlay's code.go is the overlay): the
// code of a request, generated for where the UI reads, from the current
// request, one in the log, or what an overlay asks for.

// codeTarget is where the code sends its request: where the UI reads.
func (m Model) codeTarget() codegen.CodeTarget {
	return codegen.CodeTarget{Region: m.opts.Region, Endpoint: m.opts.Endpoint, Profile: m.opts.Profile}
}

// openCode shows the code of a request; esc goes back to what is below.
func (m Model) openCode(in request.Input, from string) Model { return m.openCodeNoted(in, from, "") }

// openCodeNoted is openCode with a comment line above the code of every
// language (a pattern's parameters, as patterns show prints them), copied
// with it; "" for none.
func (m Model) openCodeNoted(in request.Input, from, note string) Model {
	m.status.Info = ""
	if o, ok := m.top().(overlay.Code); ok {
		// Another request's code, in the language shown.
		return m.setTop(overlay.NewCode(in, from, note, m.codeTarget(), o.Tab()))
	}
	return m.push(overlay.NewCode(in, from, note, m.codeTarget(), 0))
}

// currentInput is the request the query line shows, as the log would keep it.
func (m Model) currentInput() request.Input {
	if m.get != nil {
		return m.getInput(*m.get)
	}
	q := m.query
	q.StartKey = nil
	return m.queryInput(q)
}

// codeCurrent opens the code of the current request.
func (m Model) codeCurrent() Model {
	if m.query.PK == "" {
		return m
	}
	return m.openCode(m.currentInput(), "the current request")
}

// codeLogged opens the code of the request selected in the log; a
// skip-scan step's is the Query its record kept.
func (m Model) codeLogged() Model {
	i := m.log.Cursor
	if i < 0 || i >= len(m.log.Reqs) {
		return m
	}
	in, from := m.log.Ins[i], fmt.Sprintf("request %d of the log", i+1)
	if r := m.log.Reqs[i]; in.Q == nil && r.Query != nil {
		// A skip-scan step: its code is the Query it sent (issue 37.6).
		in = m.queryInput(*r.Query)
		from = fmt.Sprintf("request %d of the log, a %s step", i+1, m.log.Kinds[i])
	}
	if in.Q == nil && in.G == nil && in.Scan == nil && in.Stmt == "" {
		m.status.Info = "no code for that request: it was sent on a table no longer open"
		return m
	}
	return m.openCode(in, from)
}
