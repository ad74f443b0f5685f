package workbench

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// sloppyModel is a Workbench 3.0 model with the two mistakes of AWS's own
// published examples: a doubled M, and plain JSON inside an M.
const sloppyModel = `{
  "ModelName": "Sloppy", "ModelMetadata": {}, "DataModel": [{
    "TableName": "Sloppy",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
    "NonKeyAttributes": [{"AttributeName": "stats", "AttributeType": "M"}, {"AttributeName": "flags", "AttributeType": "M"}],
    "TableData": [
      {"PK": {"S": "P#1"}, "SK": {"S": "A"}, "stats": {"M": {"HP": {"N": "50"}}}},
      {"PK": {"S": "P#1"}, "SK": {"S": "B"}, "stats": {"M": {"M": {"HP": {"N": "60"}}}}},
      {"PK": {"S": "P#1"}, "SK": {"S": "C"}, "flags": {"M": {"on": true, "level": 7.50}}}
    ]
  }]
}`

func readSloppy(t *testing.T, o WorkbenchReadOptions) (WorkbenchModel, error) {
	t.Helper()
	return ReadWorkbench(strings.NewReader(sloppyModel), o)
}

func TestRepairOffered(t *testing.T) {
	// As written, the load is refused at the first bad item, and the
	// sentence offers --repair.
	_, err := readSloppy(t, WorkbenchReadOptions{})
	want := `table Sloppy, TableData item 2: attribute "stats.M": unknown type "HP"; want one of S, N, B, BOOL, NULL, M, L, SS, NS, BS; --repair reads it (a doubled {"M": {"M": …}} unwrapped).`
	if err == nil || err.Error() != want {
		t.Errorf("refusal: %v\nwant %s", err, want)
	}
	// Skipping, each skipped item says so, and the model counts them.
	m, err := readSloppy(t, WorkbenchReadOptions{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Tables[0].Items) != 1 || len(m.Skipped) != 2 || m.Repairable != 2 || len(m.Repaired) != 0 {
		t.Fatalf("skip: %d items, %d skipped, %d repairable, %d repaired", len(m.Tables[0].Items), len(m.Skipped), m.Repairable, len(m.Repaired))
	}
	if s := m.Skipped[1].Sentence(); !strings.HasSuffix(s, "; --repair reads it (plain JSON true read as BOOL).") {
		t.Errorf("skipped sentence %q", s)
	}
	var re *repairableError
	if !errors.As(m.Skipped[0].Err, &re) {
		t.Errorf("a skipped item --repair reads is not marked so: %v", m.Skipped[0].Err)
	}
}

func TestRepairReads(t *testing.T) {
	m, err := readSloppy(t, WorkbenchReadOptions{Repair: true})
	if err != nil {
		t.Fatal(err)
	}
	items := m.Tables[0].Items
	if len(items) != 3 || len(m.Skipped) != 0 || m.Repairable != 0 {
		t.Fatalf("%d items, %d skipped, %d repairable", len(items), len(m.Skipped), m.Repairable)
	}
	got := []string{string(itemcodec.DynamoJSON(items[1])), string(itemcodec.DynamoJSON(items[2]))}
	want := []string{
		`{"PK":{"S":"P#1"},"SK":{"S":"B"},"stats":{"M":{"HP":{"N":"60"}}}}`,
		`{"PK":{"S":"P#1"},"SK":{"S":"C"},"flags":{"M":{"level":{"N":"7.50"},"on":{"BOOL":true}}}}`,
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("item %d:\n got %s\nwant %s", i+2, got[i], want[i])
		}
	}
	// One sentence per repaired item, naming each repair; the item that
	// read as written is not named.
	var lines []string
	for _, r := range m.Repaired {
		lines = append(lines, r.Sentence())
	}
	wantLines := []string{
		`repaired table Sloppy, TableData item 2: stats: a doubled {"M": {"M": …}} unwrapped.`,
		`repaired table Sloppy, TableData item 3: flags.on: plain JSON true read as BOOL; flags.level: plain JSON 7.50 read as N.`,
	}
	if strings.Join(lines, "\n") != strings.Join(wantLines, "\n") {
		t.Errorf("repairs:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(wantLines, "\n"))
	}
}

// AWS's own published models (../shared/real-models): the counts each
// loads with and without --repair. Before --repair, GamePlayerProfiles
// refused the whole load and loaded 2 of 14 with --skip-invalid;
// ConnectedVehicles loaded 4 of 12. Every other model reads as it did,
// with no repair.
func TestRepairRealModels(t *testing.T) {
	const dir = "../../shared/real-models"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/real-models is not beside this clone, so the published models can not be read.")
	}
	type counts struct{ skip, skipped, repairable, repair, repaired int }
	want := map[string]counts{
		"aws-dynamodb-examples/GamePlayerProfilesSchema.json":      {2, 12, 12, 14, 12},
		"aws-dynamodb-examples/ConnectedVehiclesSchema.json":       {4, 8, 8, 12, 8},
		"aws-dynamodb-examples/ChatSystemSchema.json":              {8, 0, 0, 8, 0},
		"aws-dynamodb-examples/ComplaintManagementSchema.json":     {9, 0, 0, 9, 0},
		"aws-dynamodb-examples/RecurringPaymentsSchema.json":       {2, 0, 0, 2, 0},
		"aws-dynamodb-examples/SessionManagementSchema.json":       {6, 0, 0, 6, 0},
		"aws-dynamodb-examples/SocialNetworkSchema.json":           {17, 0, 0, 17, 0},
		"amazon-dynamodb-design-patterns/AnOnlineShop_14.json":     {19, 0, 0, 19, 0},
		"amazon-dynamodb-design-patterns/AnOnlineShop_facets.json": {20, 0, 0, 20, 0},
		"amazon-dynamodb-design-patterns/DeviceStateLog_1.json":    {11, 0, 0, 11, 0},
		"amazon-dynamodb-design-patterns/DeviceStateLog_7.json":    {11, 0, 0, 11, 0},
		"meetinger/Meetinger.json":                                 {5, 0, 0, 5, 0},
	}
	read := func(name string, o WorkbenchReadOptions) (WorkbenchModel, int) {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		m, err := ReadWorkbench(f, o)
		if err != nil {
			t.Fatalf("%s %+v: %v", name, o, err)
		}
		n := 0
		for _, tb := range m.Tables {
			n += len(tb.Items)
		}
		return m, n
	}
	for name, w := range want {
		skip, n := read(name, WorkbenchReadOptions{SkipInvalid: true})
		rep, m := read(name, WorkbenchReadOptions{SkipInvalid: true, Repair: true})
		got := counts{n, len(skip.Skipped), skip.Repairable, m, len(rep.Repaired)}
		if got != w || len(rep.Skipped) != 0 {
			t.Errorf("%s: got %+v (%d skipped with --repair), want %+v", name, got, len(rep.Skipped), w)
		}
	}
	// The repaired values are what the model meant: the doubled map's
	// attributes, the plain JSON's numbers with their digits.
	rep, _ := read("aws-dynamodb-examples/GamePlayerProfilesSchema.json", WorkbenchReadOptions{Repair: true})
	item := findItem(t, rep, "ITEMS#001")
	if got := string(itemcodec.DynamoJSON(dynamo.Item{"ItemAttributes": item["ItemAttributes"]})); got != `{"ItemAttributes":{"M":{"HP":{"N":"50"}}}}` {
		t.Errorf("GamePlayerProfiles ITEMS#001: %s", got)
	}
	cv, _ := read("aws-dynamodb-examples/ConnectedVehiclesSchema.json", WorkbenchReadOptions{Repair: true})
	for _, tb := range cv.Tables {
		for _, it := range tb.Items {
			if seats, ok := it["seats"]; ok {
				if got := string(itemcodec.DynamoJSON(dynamo.Item{"seats": seats})); !strings.Contains(got, `"temperature":{"N":"-99"}`) {
					t.Errorf("ConnectedVehicles seats: %s", got)
				}
				return
			}
		}
	}
	t.Error("ConnectedVehicles: no item with seats")
}

func findItem(t *testing.T, m WorkbenchModel, sk string) dynamo.Item {
	t.Helper()
	for _, tb := range m.Tables {
		for _, it := range tb.Items {
			if itemcodec.KeyString(it[tb.Spec.SK.Name]) == sk {
				return it
			}
		}
	}
	t.Fatalf("no item with sort key %s", sk)
	return nil
}
