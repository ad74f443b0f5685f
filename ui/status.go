package ui

import (
	"errors"

	"charm.land/bubbles/v2/spinner"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
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
// count, what is in flight, and the last message or error.
type statusLine struct {
	spinner  spinner.Model
	spinning bool   // a request has been in flight for longer than spinnerDelay
	busy     string // what is in flight, e.g. "Query, page 3"
	info     string // the last thing done, e.g. "copied …"
	err      string // the last error sentence, sanitised
	throttle bool   // the last request was throttled
}

func newStatusLine() statusLine {
	return statusLine{spinner: spinner.New(spinner.WithSpinner(spinner.MiniDot))}
}

// left is the status on the left: totals, then what is happening.
func (s statusLine) left(st styles, log requestLog) string {
	left := " " + st.bold.Render("Σ "+fmtRCU(log.total.Total)+" RCU") + st.muted.Render(" · "+plural(len(log.reqs), "request", "requests"))
	if s.throttle {
		left += "  " + st.warn.Render("⚠ throttled")
	}
	switch {
	case s.busy != "" && s.spinning:
		left += "  " + st.accent.Render(s.spinner.View()+" "+s.busy) + st.muted.Render(" · esc cancels")
	case s.busy != "":
		left += "  " + st.muted.Render(s.busy)
	case s.info != "":
		left += "  " + st.ok.Render(s.info)
	}
	return left
}

// errorLines is the error sentence, wrapped to at most two lines.
func (s statusLine) errorLines(st styles, w int) []string {
	if s.err == "" {
		return nil
	}
	lines := wrapText("✗ "+s.err, w-2)
	if len(lines) > 2 {
		lines = lines[:2]
		lines[1] = trunc(lines[1]+" …", w-2)
	}
	for i := range lines {
		lines[i] = " " + st.err.Render(lines[i])
	}
	return lines
}
