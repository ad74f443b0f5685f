package patterns

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"dynascope/dynamo"
)

// The models' entities stand in for the file's: its own entities: are not
// read, its patterns may name the models' entities, and a mistake in the
// file keeps its line.
func TestLoadWithEntities(t *testing.T) {
	handWritten := `
entities:
  - name: Customer
    keys: {PK: "CUST#{customerId}", SK: "PROFILE"}
    params: {customerId: number}
`
	orderPattern := `
patterns:
  - name: an order
    entity: Order
    pk: "CUST#{customerId}"
    sk: {eq: "ORDER#{orderDate}#{orderId}"}
    example: {customerId: "42", orderDate: "2025-03-01", orderId: "A17"}
`
	path := writeTemp(t, headOfFile+handWritten+orderPattern)
	set, err := LoadWithEntities(path, []byte(orderSection), "models.json")
	if err != nil {
		t.Fatal(err)
	}
	if names := set.Entities.Names(); len(names) != 1 || names[0] != "Order" {
		t.Fatalf("entities %v, want the models' Order alone", names)
	}
	if len(set.Patterns) != 1 || set.Patterns[0].Entity != "Order" {
		t.Fatalf("patterns %+v", set.Patterns)
	}
	// A mistake in the file is at its own line.
	broken := writeTemp(t, headOfFile+handWritten+"patterns:\n  - name: x\n    colour: red\n")
	_, err = LoadWithEntities(broken, []byte(orderSection), "models.json")
	want := strings.Count(headOfFile+handWritten, "\n") + 3 // patterns:, - name:, then colour:
	var pe *PatternError
	if !errors.As(err, &pe) || pe.Line != want {
		t.Fatalf("err = %v, want a mistake at line %d", err, want)
	}
	// One in the section names the models file.
	wrongKey := strings.Replace(orderSection, "GSI1PK:", "GSI9PK:", 1)
	_, err = LoadWithEntities(path, []byte(wrongKey), "models.json")
	var ue *dynamo.UserError
	if !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), "the entities of models.json do not fit "+path+": ") || !strings.Contains(err.Error(), "GSI9PK is not a key attribute") {
		t.Fatalf("err = %v", err)
	}
	// No patterns file: the models alone.
	set, err = LoadWithEntities(filepath.Join(t.TempDir(), "none.yaml"), []byte(orderSection), "models.json")
	if err != nil || len(set.Entities.Entities) != 1 || len(set.Patterns) != 0 {
		t.Fatalf("%+v, %v", set, err)
	}
}
