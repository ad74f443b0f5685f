package ui

import (
	"errors"

	"charm.land/bubbles/v2/spinner"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"dynascope/textfmt"
	"dynascope/ui/widget"
)

// throttled tells whether a request failed because DynamoDB throttled it.
func throttled(err error) bool {
	var pt *types.ProvisionedThroughputExceededException
	var rl *types.RequestLimitExceeded
	if errors.As(err, &pt) || errors.As(err, &rl) {
		return true
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode() {
		case "ThrottlingException", "ProvisionedThroughputExceededException", "RequestLimitExceeded":
			return true
		}
	}
	return false
}

// statusLine is the bottom line: the session's consumed capacity and request
// count, what is in flight, and the last message or error; above it, an
// error sentence or a question.
type statusLine struct {
	spinner  spinner.Model
	spinning bool    // a request has been in flight for longer than spinnerDelay
	info     string  // the last thing done, e.g. "copied …"
	infoOn   place   // the screen info was made on (statusscope.go)
	err      string  // the last error sentence, sanitised
	ask      string  // a question waiting for an answer, e.g. a count's cost
	throttle bool    // the last request was throttled
	retry    string  // the request in flight is being retried: "throttled, retrying (2/10)"
	retryID  int     // which request that is
	note     string  // a start-up notice (settings that did not apply), until the first key
	price    float64 // USD per million read request units; 0: no cost shown
}

// clearRetry forgets the retry of request id once it is done.
func (s *statusLine) clearRetry(id int) {
	if s.retryID == id {
		s.retry, s.retryID = "", 0
	}
}

func newStatusLine() statusLine {
	return statusLine{spinner: spinner.New(spinner.WithSpinner(spinner.MiniDot))}
}

// left is the status on the left: totals, then what is in flight (busy).
func (s statusLine) left(st styles, log requestLog, busy string) string {
	left := " " + st.Bold.Render("Σ "+log.totalText())
	if s.price > 0 {
		// On-demand reads are billed in read request units, the units
		// ConsumedCapacity reports: cost = RCU × price / 1e6.
		left += st.Muted.Render(" ≈ " + textfmt.Dollars(log.total.Total*s.price/1e6) + " on-demand")
	}
	left += st.Muted.Render(" · " + plural(len(log.reqs), "request", "requests"))
	if s.throttle {
		left += "  " + st.Warn.Render("⚠ throttled")
	}
	retry := ""
	if s.retry != "" {
		retry = st.Muted.Render(" · ") + st.Warn.Render(s.retry)
	}
	switch {
	case busy != "" && s.spinning:
		left += "  " + st.Accent.Render(s.spinner.View()+" "+busy) + retry + st.Muted.Render(" · esc cancels")
	case busy != "":
		left += "  " + st.Muted.Render(busy) + retry
	case s.info != "":
		left += "  " + st.OK.Render(s.info)
	}
	return left
}

// errorLines is the question or else the error sentence, wrapped to at
// most two lines.
func (s statusLine) errorLines(st styles, w int) []string {
	text, style := "✗ "+s.err, st.Err
	switch {
	case s.ask != "":
		text, style = "? "+s.ask, st.Accent
	case s.err == "" && s.note != "":
		text, style = "! "+s.note, st.Warn
	case s.err == "":
		return nil
	}
	lines := widget.WrapLines(text, w-2)
	if len(lines) > 2 {
		lines = lines[:2]
		lines[1] = widget.Trunc(lines[1]+" …", w-2)
	}
	for i := range lines {
		lines[i] = " " + style.Render(lines[i])
	}
	return lines
}
