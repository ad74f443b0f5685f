package ui

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"dynascope/config"
	"dynascope/dynamo"
)

// connectionChoices are a settings file's two connections and three AWS
// profiles, as the command line lists them (config.Choices).
func connectionChoices() []config.Choice {
	return []config.Choice{
		{Name: "local", Where: "http://127.0.0.1:8000 · us-east-1"},
		{Name: "prod-readonly", Where: "eu-west-1 · profile prod"},
		{Name: "default", Profile: true},
		{Name: "dev", Profile: true},
		{Name: "prod", Profile: true},
	}
}

// switchHarness is the table picker on profile dev, whose Switch records
// what it was asked and answers with a store of other tables.
func switchHarness(t *testing.T, w, h int, fail error) (*harness, *[]config.Choice, *fakeStore) {
	var asked []config.Choice
	other := &fakeStore{tables: map[string]dynamo.Table{"Orders": ordersTable()}, names: []string{"Orders"}}
	o := Options{Region: "eu-west-1", Profile: "dev", Connections: connectionChoices(),
		Switch: func(_ context.Context, to config.Choice) (Switched, error) {
			asked = append(asked, to)
			if fail != nil {
				return Switched{}, fail
			}
			return Switched{Store: other, Region: "eu-west-1", Profile: "prod", Connection: to.Name}, nil
		}}
	hs := newHarness(t, o, w, h)
	return hs, &asked, other
}

// ctrl+k lists the settings' connections and the AWS profiles, the one in
// use marked and under the cursor; the screen at both usual sizes.
func TestGoldenConnections(t *testing.T) {
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs, _, _ := switchHarness(t, sz[0], sz[1], nil)
			hs.keys("ctrl+k")
			hs.contains("Switch connection", "› profile dev", "connection prod-readonly", "eu-west-1 · profile prod")
			golden.RequireEqual(t, []byte(hs.screen()))
		})
	}
}

// enter connects there through Options.Switch and re-opens the table
// picker on the new connection, whose name the header shows; a table
// list of the old connection arriving late changes nothing.
func TestSwitchConnectionReopensTheTablePicker(t *testing.T) {
	hs, asked, _ := switchHarness(t, 120, 35, nil)
	hs.contains("App", "profile dev")
	hs.keys("ctrl+k", "k", "enter") // from dev (in use) up to default
	if len(*asked) != 1 || (*asked)[0].Name != "default" || !(*asked)[0].Profile {
		t.Fatalf("asked %+v, want the profile default", *asked)
	}
	hs.contains("Tables · 1", "Orders", "connection default", "connected to profile default.")
	hs.lacks("App ")
	if hs.m.screen != screenTables || len(hs.m.overlays) != 0 {
		t.Errorf("screen %v, overlays %d: want the table picker alone", hs.m.screen, len(hs.m.overlays))
	}
	hs.send(tablesListedMsg{gen: 0, names: []string{"App", "Stale"}})
	hs.lacks("Stale")
	// The partition prompt of the new connection's table has the key too.
	hs.keys("enter")
	if hs.m.screen != screenPrompt || !hs.m.keyMap().Connections.Enabled() {
		t.Errorf("screen %v: ctrl+k is not on at the partition prompt", hs.m.screen)
	}
}

// Picking the connection in use connects nowhere; a connection that
// fails leaves the old one in place and says why; without Switch the key
// says it is not offered.
func TestSwitchConnectionRefusals(t *testing.T) {
	hs, asked, _ := switchHarness(t, 120, 35, nil)
	hs.keys("ctrl+k", "enter")
	if len(*asked) != 0 {
		t.Errorf("the connection in use was connected again: %+v", *asked)
	}
	hs.contains("already on profile dev.")

	hs, asked, _ = switchHarness(t, 120, 35, errors.New("profile prod: the SSO session has expired; run aws sso login --profile prod."))
	hs.keys("ctrl+k", "j", "enter")
	if len(*asked) != 1 {
		t.Fatalf("asked %+v", *asked)
	}
	hs.contains("aws sso login --profile prod", "App", "profile dev")

	plain := newHarness(t, Options{Region: "eu-west-1"}, 120, 35)
	plain.keys("ctrl+k")
	plain.contains("switching connection is not offered here")
}
