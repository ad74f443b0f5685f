package ui

import (
	"dynascope/dynamo"
	"dynascope/ui/request"
)

// queryInput is the log's record of a Query sent on the current table.
// A late reply for a table left since has no schema here: no code for it.
func (m Model) queryInput(q dynamo.QueryInput) request.Input {
	ks, err := m.table.Schema(q.Index)
	if err != nil || q.Table != m.table.Name {
		return request.Input{}
	}
	return request.Input{KS: ks, Table: m.table, Q: &q}
}

// getInput is the log's record of a GetItem sent on the current table.
func (m Model) getInput(g dynamo.GetInput) request.Input {
	if g.Table != m.table.Name {
		return request.Input{}
	}
	return request.Input{Table: m.table, G: &g}
}
