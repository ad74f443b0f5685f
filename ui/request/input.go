package request

import "dynascope/dynamo"

// Input is what a request asked, as sent, with the key schema (Query) or
// table (GetItem, Scan) it was built on, so that its code can be shown
// later, even after another table was opened. The request log keeps one
// per request; empty for the skip-scan's requests, which the log knows by
// their record only.
type Input struct {
	KS    dynamo.KeySchema
	Table dynamo.Table
	Q     *dynamo.QueryInput
	G     *dynamo.GetInput
	Scan  *dynamo.ScanInput // a Scan; Table is its table
	Stmt  string            // a PartiQL SELECT
}
