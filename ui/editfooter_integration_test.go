package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"dynascope/config"
)

// At 120 columns the edit form's status bar keeps the keys that act on the
// item — write, discard, remove, add — beside the session's cost, instead of
// stopping after "enter edit value • a add attribute".
func TestEditFormFooterFitsAt120(t *testing.T) {
	table, ep := demoTable(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client, w, _ := writerOn(t, ep)
	hs := newHarnessOn(t, Options{Store: newPrefetchStore(ctx, client, table, "", "CUST#42", config.Settings{}, 35), Editor: w,
		Table: table, PK: "CUST#42", Region: "us-east-1", Endpoint: ep}, 120, 35)
	hs.m.status.Price = 0.125 // the priced status line is the longest
	hs.keys("tab", "j", "E")
	hs.contains("Edit · ORDER#2025-03-01#A17")
	lines := strings.Split(hs.screen(), "\n")
	bar := lines[len(lines)-1]
	for _, k := range []string{"enter edit", "w show write", "esc discard", "x remove/keep", "a add"} {
		if !strings.Contains(bar, k) {
			t.Errorf("the status bar lacks %q: %q", k, bar)
		}
	}
}
