package pane

import (
	"errors"
	"fmt"

	"charm.land/bubbles/v2/spinner"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"dynascope/textfmt"
	"dynascope/ui/theme"
	"dynascope/ui/widget"
)

// Throttled tells whether a request failed because DynamoDB throttled it.
func Throttled(err error) bool {
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

// Status is the bottom line: the session's consumed capacity and request
// count, what is in flight, and the last message or error; above it, an
// error sentence or a question.
type Status struct {
	Spinner  spinner.Model
	Spinning bool    // a request has been in flight for longer than spinnerDelay
	Info     string  // the last thing done, e.g. "copied …"
	Err      string  // the last error sentence, sanitised
	Ask      string  // a question waiting for an answer, e.g. a count's cost
	Throttle bool    // the last request was throttled
	Retry    string  // the request in flight is being retried: "throttled, retrying (2/10)"
	RetryID  int     // which request that is
	Note     string  // a start-up notice (settings that did not apply), until the first key
	Tip      string  // a line of advice shown when nothing else is said (the first steps)
	Price    float64 // USD per million read request units; 0: no cost shown
}

// ClearRetry forgets the retry of request id once it is done.
func (s *Status) ClearRetry(id int) {
	if s.RetryID == id {
		s.Retry, s.RetryID = "", 0
	}
}

// NewStatus is the status line at the start, its spinner ready.
func NewStatus() Status {
	return Status{Spinner: spinner.New(spinner.WithSpinner(spinner.MiniDot))}
}

// Left is the status on the left: totals, the items marked (when any),
// then what is in flight (busy).
func (s Status) Left(st theme.Styles, log RequestLog, busy string, marked int) string {
	left := " " + st.Bold.Render("Σ "+log.TotalText())
	if s.Price > 0 {
		// On-demand reads are billed in read request units, the units
		// ConsumedCapacity reports: cost = RCU × price / 1e6.
		left += st.Muted.Render(" ≈ " + textfmt.Dollars(log.Total.Total*s.Price/1e6) + " on-demand")
	}
	left += st.Muted.Render(" · " + textfmt.Plural(len(log.Reqs), "request", "requests"))
	if marked > 0 {
		left += st.Muted.Render(" · ") + st.Accent.Bold(true).Render(fmt.Sprintf("%d marked", marked))
	}
	if s.Throttle {
		left += "  " + st.Warn.Render("⚠ throttled")
	}
	retry := ""
	if s.Retry != "" {
		retry = st.Muted.Render(" · ") + st.Warn.Render(s.Retry)
	}
	switch {
	case busy != "" && s.Spinning:
		left += "  " + st.Accent.Render(s.Spinner.View()+" "+busy) + retry + st.Muted.Render(" · esc cancels")
	case busy != "":
		left += "  " + st.Muted.Render(busy) + retry
	case s.Info != "":
		left += "  " + st.OK.Render(s.Info)
	}
	return left
}

// ErrorLines is the question or else the error sentence, wrapped to at
// most two lines.
func (s Status) ErrorLines(st theme.Styles, w int) []string {
	text, style := "✗ "+s.Err, st.Err
	switch {
	case s.Ask != "":
		text, style = "? "+s.Ask, st.Accent
	case s.Err == "" && s.Note != "":
		text, style = "! "+s.Note, st.Warn
	case s.Err == "" && s.Tip != "":
		// One line: advice must not push the panes about.
		return []string{" " + st.Accent.Render(widget.Trunc("› "+s.Tip, w-2))}
	case s.Err == "":
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
