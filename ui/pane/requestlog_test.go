package pane

import (
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/ui/request"
	"dynascope/ui/theme"
)

// A GetItem is logged as the item it read, 1/1 (or 0/0 for no item), also
// when its recorder left ScannedCount 0, as editing's read after a failed
// condition does.
func TestRequestLogCountsAGetItemAsRead(t *testing.T) {
	var l RequestLog
	l = l.AddWrite(dynamo.Request{Operation: "GetItem", Table: "App", KeyCondition: `PK = "CUST#42" AND SK = "PROFILE"`, Consistent: true, Count: 1, Note: "read again: the write's condition failed"})
	l = l.Add(dynamo.Request{Operation: "GetItem", Table: "App", KeyCondition: `PK = "CUST#9"`, Forward: true}, "", 1, request.Input{})
	l = l.Add(dynamo.Request{Operation: "Query", Table: "App", KeyCondition: `PK = "CUST#42"`, Forward: true, Count: 3, ScannedCount: 5}, "", 1, request.Input{})
	lines := l.Tail(theme.New(true, true), "App", 3, 120)
	for i, want := range []string{" 1/1 ", " 0/0 ", " 3/5 "} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("line %d lacks %q: %q", i+1, want, lines[i])
		}
	}
	if strings.Contains(strings.Join(lines, "\n"), "1/0") {
		t.Errorf("a GetItem shows 1/0:\n%s", strings.Join(lines, "\n"))
	}
}

// At 120 columns a long index name gives way to the key condition (it keeps
// what the condition leaves, at least 12 cells), which
// keeps its whole text instead of about 30 cells ("passStatus = "c…").
func TestRequestLogKeepsTheConditionOverALongIndexName(t *testing.T) {
	var l RequestLog
	cond := `passStatus = "completed" AND n > 1`
	l = l.Add(dynamo.Request{Operation: "Query", Table: "Passes", Index: "GSI-passStatus-updatedAt-by-customer-region", KeyCondition: cond, Forward: true, Count: 12, ScannedCount: 12}, "", 1, request.Input{})
	line := l.Tail(theme.New(true, true), "Passes", 1, 120)[0]
	if !strings.Contains(line, cond) {
		t.Errorf("the condition is cut: %q", line)
	}
	if !strings.Contains(line, "GSI-passStatus-upd… ") {
		t.Errorf("the index name is gone: %q", line)
	}
}
