package pane

import (
	"fmt"

	"dynascope/dynamo"
	"dynascope/textfmt"
	"dynascope/ui/theme"
	"dynascope/ui/widget"
)

// streamLogLine is one request of the live pane's tail in the request log:
// apart from the table's reads (its own kind, no RCU: a GetRecords is a
// streams read request unit, and the stream's other calls are free).
func streamLogLine(st theme.Styles, n int, r dynamo.Request, w int) string {
	head := widget.PadLeft(fmt.Sprintf("%d", n), 3) + " " + st.Accent.Render("stream") + " " + widget.Fit(r.Operation, 17) + " "
	what := ""
	switch r.Operation {
	case "GetRecords":
		what = textfmt.Plural(int(r.Count), "record", "records") + " · 1 streams read request unit"
	case "DescribeStream":
		what = textfmt.Plural(int(r.Count), "shard", "shards") + " · free"
	default:
		what = textfmt.Sanitize(r.Note) + " · free"
	}
	if r.Err != nil {
		what = st.Err.Render("✗ " + textfmt.Sanitize(r.Err.Error()))
	}
	right := fmt.Sprintf("  %7s", fmtDuration(r.Duration))
	return widget.Fit(head+widget.Fit(what, max(8, w-widget.Width(head)-widget.Width(right)))+right, w)
}
