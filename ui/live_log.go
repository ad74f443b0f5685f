package ui

import (
	"fmt"

	"dynascope/dynamo"
	"dynascope/ui/widget"
)

// streamLogLine is one request of the live pane's tail in the request log:
// apart from the table's reads (its own kind, no RCU: a GetRecords is a
// streams read request unit, and the stream's other calls are free).
func streamLogLine(st styles, n int, r dynamo.Request, w int) string {
	head := widget.PadLeft(fmt.Sprintf("%d", n), 3) + " " + st.Accent.Render("stream") + " " + widget.Fit(r.Operation, 17) + " "
	what := ""
	switch r.Operation {
	case "GetRecords":
		what = plural(int(r.Count), "record", "records") + " · 1 streams read request unit"
	case "DescribeStream":
		what = plural(int(r.Count), "shard", "shards") + " · free"
	default:
		what = sanitize(r.Note) + " · free"
	}
	if r.Err != nil {
		what = st.Err.Render("✗ " + sanitize(r.Err.Error()))
	}
	right := fmt.Sprintf("  %7s", fmtDuration(r.Duration))
	return widget.Fit(head+widget.Fit(what, max(8, w-widget.Width(head)-widget.Width(right)))+right, w)
}
