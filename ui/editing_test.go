package ui

import (
	"strings"
	"testing"

	"dynascope/codegen"
	"dynascope/dynamo"
)

// Y in the item detail copies a get-item of that one item, not the
// partition's query: the item is what is shown.
func TestDetailCopiesAGetItemOfTheItem(t *testing.T) {
	hs := openExample(t, 120, 35)
	hs.keys("tab", "j", "enter")
	hs.contains("ORDER#2025-03-01#A17")
	hs.keys("Y")
	if len(hs.clipped) != 1 {
		t.Fatalf("clipboard got %d writes", len(hs.clipped))
	}
	want, err := codegen.GetItemCode(codegen.LangCLI, appTable(), dynamo.GetInput{Table: "App", PK: "CUST#42", SK: "ORDER#2025-03-01#A17", Consistent: true},
		codegen.CodeTarget{Region: "us-east-1", Endpoint: "http://127.0.0.1:8000"})
	if err != nil {
		t.Fatal(err)
	}
	if got := hs.clipped[0]; got != want || !strings.Contains(got, "aws dynamodb get-item") {
		t.Errorf("copied\n%s\nwant\n%s", got, want)
	}
	hs.contains("copied a get-item of this item")
}
