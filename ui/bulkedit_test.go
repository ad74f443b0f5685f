package ui

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"dynascope/config"
	"dynascope/edit"
)

// The UI's pace without a setting is the command line's.
func TestBulkPaceDefault(t *testing.T) {
	if config.DefaultMaxWCUPerSecond != edit.DefaultBulkWCU || config.DefaultSettings().MaxWCUPerSecond != edit.DefaultBulkWCU {
		t.Errorf("config's default pace %v, edit's %v", config.DefaultMaxWCUPerSecond, edit.DefaultBulkWCU)
	}
}

// shownEditor is an Editor for what is drawn before anything is sent:
// each of its writes fails the test.
type shownEditor struct{ t *testing.T }

func (e shownEditor) Apply(context.Context, *edit.Plan) (edit.Result, error) {
	e.t.Error("a write was sent")
	return edit.Result{}, errors.New("not sent")
}

func (e shownEditor) Undo(context.Context, *edit.Plan, edit.Entry) (edit.Result, error) {
	e.t.Error("an undo was sent")
	return edit.Result{}, errors.New("not sent")
}

func (e shownEditor) ApplyBulk(context.Context, []*edit.Plan, edit.Pace, func(edit.BulkOutcome)) (edit.BulkResult, error) {
	e.t.Error("a bulk change was sent")
	return edit.BulkResult{}, errors.New("not sent")
}

func (e shownEditor) UndoBulk(context.Context, []*edit.Plan, []edit.EntryItem, edit.Entry, edit.Pace, func(edit.BulkOutcome)) (edit.BulkResult, error) {
	e.t.Error("a bulk undo was sent")
	return edit.BulkResult{}, errors.New("not sent")
}

func (shownEditor) Target() edit.Target { return edit.Target{Region: "us-east-1"} }

// The bulk change of marked items at the two usual sizes: the change
// typed, then its preview; esc twice closes it, having sent nothing.
func TestGoldenBulkChange(t *testing.T) {
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("preview/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := newHarnessDisc(t, Options{Table: "App", PK: "CUST#7", Editor: shownEditor{t}}, sz[0], sz[1],
				map[string]cannedDiscovery{"CUST#7": {d: bigDiscovery()}}, bigPartition())
			hs.keys("j", "j", "space", "B")
			hs.typeText("set status=S:CHECKED")
			hs.keys("enter")
			golden.RequireEqual(t, []byte(hs.screen()))
			hs.keys("esc", "esc")
			if len(hs.m.overlays) != 0 {
				t.Errorf("esc twice left %d overlays", len(hs.m.overlays))
			}
		})
	}
}
