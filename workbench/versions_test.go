package workbench

import (
	"slices"
	"strings"
	"testing"
)

// A model of one table whose facet holds two items, the second with a value
// that is not DynamoDB JSON, in the given format version ("" for the 2019
// preview, which wrote no Version).
func versionedModel(version string) string {
	meta := `"ModelMetadata": {"Author": "a", "Version": "` + version + `", "AWSService": "Amazon DynamoDB"},`
	if version == "" {
		meta = `"ModelMetadata": {"Author": "a"},`
	}
	return `{
  "ModelName": "M", ` + meta + `
  "ModelSchema": {"x": 1},
  "DataModel": [{
    "TableName": "App",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
    "NonKeyAttributes": [{"AttributeName": "total", "AttributeType": "N"}, {"AttributeName": "info", "AttributeType": "M"}],
    "TableData": [{"PK": {"S": "CUST#1"}, "SK": {"S": "PROFILE"}}],
    "DataAccess": {"MySql": {}},
    "SavedQuery": [],
    "TableFacets": [{"FacetName": "Order", "KeyAttributeAlias": {"PartitionKeyAlias": "CUST#id", "SortKeyAlias": "ORDER#id"},
      "NonKeyAttributes": ["total", "info"], "DataAccess": {"MySql": {}},
      "TableData": [{"PK": {"S": "CUST#1"}, "SK": {"S": "ORDER#1"}, "total": {"N": "5"}},
                    {"PK": {"S": "CUST#1"}, "SK": {"S": "ORDER#2"}, "info": {"M": {"paid": true}}}]}]
  }]
}`
}

// Every format version reads; unknown fields are named, not refused; an
// invalid item refuses the model, or is skipped with a sentence under
// SkipInvalid; CRLF line ends and a byte-order mark change nothing.
func TestReadWorkbenchVersions(t *testing.T) {
	for _, v := range []string{"3.0", "2.0", "1.0", ""} {
		for _, crlf := range []bool{false, true} {
			src := versionedModel(v)
			if crlf {
				src = "\ufeff" + strings.ReplaceAll(src, "\n", "\r\n")
			}
			_, err := ParseWorkbench(strings.NewReader(src))
			want := `table App, facet Order, TableData item 2: attribute "info.paid": want a typed value`
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("version %q: %v; want %s", v, err, want)
			}
			m, err := ReadWorkbench(strings.NewReader(src), WorkbenchReadOptions{SkipInvalid: true})
			if err != nil {
				t.Fatalf("version %q, skipping: %v", v, err)
			}
			if m.Version != v || !slices.Equal(m.Ignored, []string{"ModelSchema", "SavedQuery"}) {
				t.Errorf("version %q: read version %q, ignored %v", v, m.Version, m.Ignored)
			}
			tb := m.Tables[0]
			if len(tb.Items) != 2 || len(tb.Facets[0].Items) != 1 || len(m.Skipped) != 1 {
				t.Fatalf("version %q: %d items, %d in the facet, %d skipped; want 2, 1, 1", v, len(tb.Items), len(tb.Facets[0].Items), len(m.Skipped))
			}
			wantSkip := `skipped table App, facet Order, TableData item 2: attribute "info.paid": want a typed value such as {"S": "text"}, got a boolean; --repair reads it (plain JSON true read as BOOL).`
			if got := m.Skipped[0].Sentence(); got != wantSkip {
				t.Errorf("skip sentence:\n got  %s\n want %s", got, wantSkip)
			}
		}
	}
}
