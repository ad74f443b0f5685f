package workbench

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dynascope/dynamo"
)

// A file of items given to --workbench is named as one, with --file to
// load it (as --file names --workbench for a model), where it said "the
// model: want an object, got an array." or "field \"ModelName\" is
// missing." — aws-dynamodb-examples publishes both beside its models. A
// model with a field missing, or a lone object, still gets the model's
// own sentence.
func TestItemFileGivenAsModel(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`[{"PK": "USER#1", "SK": "A", "n": 1}]`, "but a file of items, a JSON array of plain JSON items; load it with --file instead of --workbench."},
		{`[{"PK": {"S": "USER#1"}}]`, "but a file of items, a JSON array of DynamoDB JSON items; load it with --file"},
		{`{"App": [{"PutRequest": {"Item": {"PK": {"S": "A"}}}}]}`, "but a file of items, batch-write-item documents; load it with --file"},
		{`{"RequestItems": {"App": [{"PutRequest": {"Item": {"PK": {"S": "A"}}}}]}}`, "but a file of items, batch-write-item documents; load it with --file"},
		{`{"ModelName": "M", "ModelMetadata": {}}`, `field "DataModel" is missing`},
		{`{"PK": {"S": "A"}}`, `field "ModelName" is missing`},
		{`{"DataModel": []}`, `field "ModelName" is missing`},
		{`[1, 2]`, "want an object, got an array"},
		{`[]`, "want an object, got an array"},
	} {
		_, err := ReadWorkbench(strings.NewReader(c.in), WorkbenchReadOptions{})
		var ue *dynamo.UserError
		if !errors.As(err, &ue) || !strings.Contains(ue.Msg, c.want) {
			t.Errorf("%s: %v, want %q", c.in, err, c.want)
		}
	}

	// The two published files of items.
	const dir = "../../shared/real-models/aws-dynamodb-examples"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/real-models is not beside this clone, so the published files can not be read.")
	}
	for name, want := range map[string]string{
		"items.json":       "a JSON array of plain JSON items",
		"sample-data.json": "batch-write-item documents",
	} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		_, err = ReadWorkbench(f, WorkbenchReadOptions{Repair: true, SkipInvalid: true})
		f.Close()
		if err == nil || !strings.Contains(err.Error(), "but a file of items, "+want+"; load it with --file instead of --workbench.") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
