package ui

import (
	"fmt"

	"dynascope/codegen"
	"dynascope/dynamo"
	"dynascope/ui/overlay"
)

// The root's side of the code view (overlay_code.go is the overlay): the
// code of a request, generated for where the UI reads, from the current
// request, one in the log, or what an overlay asks for.

// codeTarget is where the code sends its request: where the UI reads.
func (m Model) codeTarget() codegen.CodeTarget {
	return codegen.CodeTarget{Region: m.opts.Region, Endpoint: m.opts.Endpoint, Profile: m.opts.Profile}
}

// requestCode is a request's code in one language.
func requestCode(lang codegen.CodeLang, in overlay.Input, to codegen.CodeTarget) (string, error) {
	switch {
	case in.G != nil:
		return codegen.GetItemCode(lang, in.Table, *in.G, to)
	case in.Q != nil:
		return codegen.QueryCode(lang, in.KS, *in.Q, to)
	case in.Scan != nil:
		return codegen.ScanCode(lang, in.Table, *in.Scan, to)
	case in.Stmt != "":
		return codegen.PartiQLCode(lang, in.Stmt, false, to)
	}
	return "", fmt.Errorf("no code for this request")
}

// describeInput is a request in DynamoDB's words, for the code view's title.
func describeInput(in overlay.Input) string {
	switch {
	case in.Scan != nil:
		s := "Scan " + in.Scan.Table
		if in.Scan.Filter != "" {
			s += " filter " + in.Scan.Filter
		}
		return s
	case in.Stmt != "":
		return "PartiQL " + in.Stmt
	case in.G != nil:
		b, err := dynamo.BuildGetItem(in.Table, *in.G)
		if err != nil {
			return err.Error()
		}
		return "GetItem " + b.KeyCondition
	case in.Q != nil:
		b, err := dynamo.BuildQuery(in.KS, *in.Q)
		if err != nil {
			return err.Error()
		}
		s := "Query " + b.KeyCondition
		if _, short := queryOptions(*in.Q); short != "" {
			s += " · " + short
		}
		if in.Q.CountOnly {
			s += " · Select=COUNT"
		}
		if in.Q.StartKey != nil {
			s += " · from its ExclusiveStartKey"
		}
		return s
	}
	return ""
}

// openCode shows the code of a request; esc goes back to what is below.
func (m Model) openCode(in overlay.Input, from string) Model { return m.openCodeNoted(in, from, "") }

// openCodeNoted is openCode with a comment line above the code of every
// language (a pattern's parameters, as patterns show prints them), copied
// with it; "" for none.
func (m Model) openCodeNoted(in overlay.Input, from, note string) Model {
	to := m.codeTarget()
	c := codeView{what: sanitize(describeInput(in)), from: sanitize(from)}
	for _, l := range codegen.CodeLangs {
		code, err := requestCode(l, in, to)
		errText := ""
		if err != nil {
			errText = sanitize(err.Error())
		} else if note != "" {
			code = codegen.Comment(l, note) + code
		}
		c.code = append(c.code, code)
		c.errs = append(c.errs, errText)
	}
	c.tab = clamp(c.tab, 0, len(c.code)-1)
	m.status.info = ""
	if o, ok := m.top().(codeOverlay); ok {
		c.tab = o.c.tab // another request's code, in the language shown
		return m.setTop(codeOverlay{c: c})
	}
	return m.push(codeOverlay{c: c})
}

// currentInput is the request the query line shows, as the log would keep it.
func (m Model) currentInput() overlay.Input {
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

// codeLogged opens the code of the request selected in the log. The
// skip-scan's steps are known by their record only.
func (m Model) codeLogged() Model {
	i := m.log.cursor
	if i < 0 || i >= len(m.log.reqs) {
		return m
	}
	in := m.log.ins[i]
	if in.Q == nil && in.G == nil && in.Scan == nil && in.Stmt == "" {
		if m.log.kinds[i] == "skip-scan" {
			m.status.info = "a skip-scan step (Limit 1) has no code: C works on your own requests" // short enough for 120 columns
		} else {
			m.status.info = "no code for that request: it was sent on a table no longer open"
		}
		return m
	}
	return m.openCode(in, fmt.Sprintf("request %d of the log", i+1))
}
