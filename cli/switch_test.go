package cli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dynascope/config"
	"dynascope/dynamo/dynamotest"
)

// The UI's ctrl+k lands here: from a command line on one endpoint, a
// profile whose endpoint_url is DynamoDB Local and a settings connection
// there each give a client that lists the tables there, named as the
// header names it, read-only unless writes are allowed on it; the
// choices list both.
func TestSwitchConnectionReachesDynamoDBLocal(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	table := dynamotest.Table(t, dynamotest.SDK(t), dynamotest.PKSK())
	home := isolateAWS(t)
	if err := os.WriteFile(filepath.Join(home, "config"), []byte("[profile loc]\nregion = us-east-1\nendpoint_url = "+ep+"\n[profile dead]\nendpoint_url = http://127.0.0.1:9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(home, "settings.yaml")
	if err := os.WriteFile(settings, []byte("connections:\n  there:\n    endpoint: "+ep+"\n    region: us-east-1\n    writes: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(config.EnvSettings, settings)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state")) // the writer's journal
	s, err := config.LoadSettings()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range config.Choices(s) {
		names = append(names, c.Label())
	}
	if want := []string{"connection there", "profile dead", "profile loc"}; !slices.Equal(names, want) {
		t.Errorf("choices %q, want %q", names, want)
	}
	// The command line named another endpoint and profile: the switch
	// leaves them behind.
	base := &config.Connection{Endpoint: "http://127.0.0.1:9", Profile: "dead", Table: "Old", MaxAttempts: 1}
	ctx := context.Background()
	sw, err := switchConnection(base, false)(ctx, config.Choice{Name: "loc", Profile: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := sw.Store.ListTables(ctx)
	if err != nil || !slices.Contains(got, table) {
		t.Fatalf("profile loc lists %d tables (%v), without %s", len(got), err, table)
	}
	if sw.Profile != "loc" || sw.Endpoint != ep || sw.Connection != "" || sw.Editor != nil {
		t.Errorf("profile loc: profile %q endpoint %q connection %q editor %v", sw.Profile, sw.Endpoint, sw.Connection, sw.Editor != nil)
	}
	sw, err = switchConnection(base, false)(ctx, config.Choice{Name: "there"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := sw.Store.ListTables(ctx); err != nil || !slices.Contains(got, table) {
		t.Fatalf("connection there: %v", err)
	}
	if sw.Connection != "there" || sw.Endpoint != ep || sw.Editor == nil {
		t.Errorf("connection there: connection %q endpoint %q, writer %v (writes: true)", sw.Connection, sw.Endpoint, sw.Editor != nil)
	}
	// A profile that cannot connect is an error the UI shows, not a client.
	if _, err := switchConnection(base, false)(ctx, config.Choice{Name: "nosuch", Profile: true}); err == nil {
		t.Error("an unknown profile connected")
	}
}

// Switching to a profile that asks for an MFA code while the UI has the
// terminal is refused in a sentence that says how, and asks STS nothing.
func TestSwitchToAnMFAProfileWhileTheUIRuns(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	sts := dynamotest.StartSTS(t, ptySourceKey, ptyRole, ptyDevice, ptyCode)
	mfaHome(t, sts)
	t.Setenv(config.EnvSettings, filepath.Join(t.TempDir(), "none.yaml"))
	mfa := newMFAPrompter()
	mfa.uiStarts()
	base := &config.Connection{Endpoint: ep, MFAToken: mfa.ask}
	_, err := switchConnection(base, false)(context.Background(), config.Choice{Name: "dev", Profile: true})
	want := "profile dev needs a code of the MFA device " + ptyDevice + ", and the terminal is the UI's; quit and start dynascope with --profile dev to enter it"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	if calls := sts.Calls(); len(calls) != 0 {
		t.Errorf("STS was asked %+v", calls)
	}
}
