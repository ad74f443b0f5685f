package request

import (
	"fmt"

	"dynascope/dynamo"
	"dynascope/textfmt"
)

// Options are the other parameters of the request, spelled as DynamoDB
// spells them and in a short form for narrow terminals.
func Options(q dynamo.QueryInput) (long, short string) {
	limit := fmt.Sprintf("Limit=%d", q.Limit)
	slimit := fmt.Sprintf("Limit %d", q.Limit)
	if q.Limit == 0 {
		limit, slimit = "Limit=none", "no Limit"
	}
	long = fmt.Sprintf("ScanIndexForward=%t  %s  ConsistentRead=%t", !q.Reverse, limit, q.Consistent)
	dir := "fwd"
	if q.Reverse {
		dir = "rev"
	}
	cons := "eventual"
	if q.Consistent {
		cons = "strong"
	}
	short = dir + " · " + slimit + " · " + cons
	if q.Index != "" {
		long += "  IndexName=" + textfmt.Sanitize(q.Index)
		short += " · " + textfmt.Sanitize(q.Index)
	}
	return long, short
}
