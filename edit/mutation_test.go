package edit_test

import (
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
)

// With a version attribute, an item read without one may only be written
// while it still has none: the condition must say attribute_not_exists of
// it, or a second writer's first versioned write would be overwritten.
func TestPlanVersionConditionOnItemWithoutVersion(t *testing.T) {
	old := dynamo.Item{"PK": s("P"), "SK": s("S"), "status": s("OPEN")}
	new := dynamo.Item{"PK": s("P"), "SK": s("S"), "status": s("SHIPPED")}
	p, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: old, New: new, Version: "version"})
	if err != nil {
		t.Fatal(err)
	}
	want := `(attribute_exists (PK)) AND (status = S "OPEN") AND (attribute_not_exists (version))`
	if p.Condition != want {
		t.Errorf("condition %q, want %q", p.Condition, want)
	}
	if v := edit.ValueText(p.New["version"]); v != "N 1" {
		t.Errorf("the first version written is %s, want N 1", v)
	}
	// An item read with its version is guarded by it and by what the write
	// touches (issue 23: every attribute a write sets is in its condition).
	old["version"], new["version"] = n("7"), n("7")
	p, err = edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: old, New: new, Version: "version"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `(attribute_exists (PK)) AND (version = N 7) AND (status = S "OPEN")`; p.Condition != want {
		t.Errorf("condition %q, want %q", p.Condition, want)
	}
	if v := edit.ValueText(p.New["version"]); v != "N 8" {
		t.Errorf("the next version is %s, want N 8", v)
	}
}

// DynamoDB stores an item of exactly 400 KB (409,600 bytes) and refuses
// one byte more; the plan draws the line at the same byte.
func TestPlanItemSizeBoundary(t *testing.T) {
	sized := func(bytes int) dynamo.Item {
		it := dynamo.Item{"PK": s("P"), "SK": s("S")}
		it["pad"] = s(strings.Repeat("x", bytes-itemcodec.ItemSize(it)-len("pad")))
		if got := itemcodec.ItemSize(it); got != bytes {
			t.Fatalf("made an item of %d bytes, want %d", got, bytes)
		}
		return it
	}
	p, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, New: sized(409600)})
	if err != nil {
		t.Fatalf("an item of 409600 bytes: %v", err)
	}
	if p.PredictedWCU != 400 {
		t.Errorf("an item of 400 KB: %v WCU, want 400", p.PredictedWCU)
	}
	_, err = edit.NewPlan(edit.Change{Table: "T", Keys: pksk, New: sized(409601)})
	if err == nil || err.Error() != "the item would be 409601 bytes; DynamoDB stores at most 400 KB (409600 bytes) an item" {
		t.Errorf("an item of 409601 bytes: %v", err)
	}
}

// A command carries the names and values its expressions use, and no empty
// flag for what they do not: a new item's condition has names but no
// values, and the names are one JSON object in order.
func TestCommandFlagsOnlyWhatTheExpressionsUse(t *testing.T) {
	p, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, New: dynamo.Item{"PK": s("P"), "SK": s("S")}})
	if err != nil {
		t.Fatal(err)
	}
	cmd := p.Command(edit.Target{Endpoint: "http://127.0.0.1:8000", Region: "us-east-1"})
	if strings.Contains(cmd, "--expression-attribute-values") || !strings.Contains(cmd, `--expression-attribute-names '{"#0":"PK"}'`) {
		t.Errorf("put command:\n%s", cmd)
	}
	old := dynamo.Item{"PK": s("P"), "SK": s("S"), "a": n("1"), "b": n("2")}
	new := dynamo.Item{"PK": s("P"), "SK": s("S"), "a": n("3"), "b": n("2")}
	p, err = edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: old, New: new})
	if err != nil {
		t.Fatal(err)
	}
	cmd = p.Command(edit.Target{Endpoint: "http://127.0.0.1:8000", Region: "us-east-1"})
	if !strings.Contains(cmd, `--expression-attribute-names '{"#0":"PK","#1":"a","#2":"b"}'`) || !strings.Contains(cmd, "--expression-attribute-values '{") {
		t.Errorf("update command:\n%s", cmd)
	}
}
