package ui

import "testing"

// A status message stays on the screen it was made on: moving between the
// panes keeps it, the overview does not show it, and coming back does not
// bring it back.
func TestStatusMessageBelongsToItsScreen(t *testing.T) {
	hs := openOverviewHarness(t, 120, 35, Options{})
	hs.keys("esc")
	hs.keys("Y")
	hs.contains("copied the request as an aws dynamodb query command")
	hs.keys("tab")
	hs.contains("copied the request as an aws dynamodb query command")
	hs.keys("o")
	hs.contains("Table overview · App")
	hs.lacks("copied the request")
	hs.keys("esc")
	hs.contains("Entity types")
	hs.lacks("copied the request")
}
