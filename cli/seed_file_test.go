package cli

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/dynamotest"
)

const realModels = "../../shared/real-models"

// countItems counts a table's items with a Scan of COUNT pages.
func countItems(t *testing.T, table string) int {
	t.Helper()
	api := dynamotest.SDK(t)
	n := 0
	var start map[string]types.AttributeValue
	for {
		out, err := api.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(table), Select: types.SelectCount, ExclusiveStartKey: start})
		if err != nil {
			t.Fatalf("count %s: %v", table, err)
		}
		n += int(out.Count)
		if start = out.LastEvaluatedKey; len(start) == 0 {
			return n
		}
	}
}

// Every published model and item file of ../shared/real-models loads, with
// --skip-invalid where it holds invalid values, with the item counts
// SOURCES.md gives (less the invalid items, which are named).
func TestSeedRealModels(t *testing.T) {
	if _, err := os.Stat(realModels); err != nil {
		t.Skip("../shared/real-models is not beside this clone (from cli/, ../../shared); the published models are not tested.")
	}
	ep := dynamotest.Endpoint(t)
	cases := []struct {
		file, flag, table string
		items, skipped    int
	}{
		{"aws-dynamodb-examples/ChatSystemSchema.json", "--workbench", "Chat", 8, 0},
		{"aws-dynamodb-examples/ComplaintManagementSchema.json", "--workbench", "Complaint_management_system", 9, 0},
		{"aws-dynamodb-examples/ConnectedVehiclesSchema.json", "--workbench", "Connected_Vehicle", 4, 8},
		{"aws-dynamodb-examples/GamePlayerProfilesSchema.json", "--workbench", "game-player-profiles", 2, 12},
		{"aws-dynamodb-examples/RecurringPaymentsSchema.json", "--workbench", "ReoccuringPayments", 2, 0},
		{"aws-dynamodb-examples/SessionManagementSchema.json", "--workbench", "session_store", 6, 0},
		{"aws-dynamodb-examples/SocialNetworkSchema.json", "--workbench", "SNS", 17, 0},
		{"amazon-dynamodb-design-patterns/AnOnlineShop_14.json", "--workbench", "OnlineShop", 19, 0},
		{"amazon-dynamodb-design-patterns/AnOnlineShop_facets.json", "--workbench", "OnlineShop", 20, 0},
		{"amazon-dynamodb-design-patterns/DeviceStateLog_1.json", "--workbench", "DeviceStateLog", 11, 0},
		{"amazon-dynamodb-design-patterns/DeviceStateLog_7.json", "--workbench", "DeviceStateLog", 11, 0},
		{"meetinger/Meetinger.json", "--workbench", "Main", 5, 0},
		{"aws-dynamodb-examples/sample-data.json", "--file", "global-serverless", 13, 0},
		{"aws-dynamodb-examples/items.json", "--file", "", 7, 0},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			prefix := dynamotest.UniqueName("real") + "-"
			table := prefix + c.table
			args := []string{"seed", "--endpoint-url", ep, c.flag, filepath.Join(realModels, c.file), "--table-prefix", prefix}
			if c.table == "" {
				table = dynamotest.UniqueName("real-items")
				args = []string{"seed", "--endpoint-url", ep, c.flag, filepath.Join(realModels, c.file), "--table", table}
			}
			t.Cleanup(func() { deleteTables(table) })
			if c.skipped > 0 {
				// Without the flag the first invalid item refuses the model.
				if _, _, err := cli(t, args...); err == nil {
					t.Fatalf("%s loaded without --skip-invalid; want the first invalid item named", c.file)
				}
				args = append(args, "--skip-invalid")
			}
			out, errOut, err := cli(t, args...)
			if err != nil {
				t.Fatalf("%v: %v\n%s", args, err, errOut)
			}
			if got := countItems(t, table); got != c.items {
				t.Errorf("table %s holds %d items; want %d\n%s", table, got, c.items, out)
			}
			if c.file == "aws-dynamodb-examples/sample-data.json" && !strings.Contains(out, ": 13 items in 1 batches") {
				// 13 items fit one request; the key-sharded writers pool
				// their partial batches rather than sending one each.
				t.Errorf("sample-data.json took more than 1 request:\n%s", out)
			}
			if n := strings.Count(errOut, "skipped table "); n != c.skipped {
				t.Errorf("%d skip sentences; want %d:\n%s", n, c.skipped, errOut)
			}
			if c.skipped > 0 && !strings.Contains(out, fmt.Sprintf("loaded %d of %d items; %d skipped", c.items, c.items+c.skipped, c.skipped)) {
				t.Errorf("no summary:\n%s", out)
			}
		})
	}
}

// writeGzip writes lines as a gzipped file.
func writeGzip(t *testing.T, path string, lines []string) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(strings.Join(lines, "\n") + "\n"))
	zw.Close()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// exportFixture lays out a DynamoDB export to S3 as a download of it looks:
// manifest-summary.json, manifest-files.json and gzipped DynamoDB JSON data
// files, {"Item": {...}} per line. Keys are pk (S) / sk (N).
func exportFixture(t *testing.T, files, perFile int) string {
	dir := filepath.Join(t.TempDir(), "AWSDynamoDB", "01700000000000-abcdef12")
	var manifest []string
	for f := range files {
		var lines []string
		for i := range perFile {
			lines = append(lines, fmt.Sprintf(`{"Item":{"pk":{"S":"USER#%d"},"sk":{"N":"%d"},"n":{"N":"1234567890123456789012345678901234567%d"},"tags":{"SS":["a","b"]}}}`, f, i, i%10))
		}
		name := fmt.Sprintf("file%02d.json.gz", f)
		writeGzip(t, filepath.Join(dir, "data", name), lines)
		manifest = append(manifest, fmt.Sprintf(`{"itemCount":%d,"md5Checksum":"x","etag":"y","dataFileS3Key":"AWSDynamoDB/01700000000000-abcdef12/data/%s"}`, perFile, name))
	}
	os.WriteFile(filepath.Join(dir, "manifest-files.json"), []byte(strings.Join(manifest, "\n")+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "manifest-summary.json"), []byte(`{"version":"2020-06-30","tableArn":"arn:aws:dynamodb:us-east-1:111122223333:table/Orders","itemCount":`+fmt.Sprint(files*perFile)+`,"outputFormat":"DYNAMODB_JSON"}`), 0o644)
	return dir
}

// An export to S3 loads from its manifest, its directory or one data file;
// a missing table is created with the key the data shows.
func TestSeedS3Export(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	dir := exportFixture(t, 3, 40)
	for _, c := range []struct {
		name, path string
		want       int
	}{
		{"manifest", filepath.Join(dir, "manifest-files.json"), 120},
		{"directory", dir, 120},
		{"one file", filepath.Join(dir, "data", "file01.json.gz"), 40},
	} {
		t.Run(c.name, func(t *testing.T) {
			table := dynamotest.UniqueName("s3export")
			t.Cleanup(func() { deleteTables(table) })
			out, errOut, err := cli(t, "seed", "--endpoint-url", ep, "--file", c.path, "--table", table)
			if err != nil {
				t.Fatalf("%v\n%s", err, errOut)
			}
			if !strings.Contains(out, "created it with partition key pk (S) and sort key sk (N)") {
				t.Errorf("key sentence missing:\n%s", out)
			}
			if got := countItems(t, table); got != c.want {
				t.Errorf("%d items; want %d\n%s", got, c.want, out)
			}
		})
	}
	// Without --table, the manifest's table name is used (with the prefix).
	prefix := dynamotest.UniqueName("s3") + "-"
	t.Cleanup(func() { deleteTables(prefix + "Orders") })
	if _, errOut, err := cli(t, "seed", "--endpoint-url", ep, "--file", dir, "--table-prefix", prefix); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if got := countItems(t, prefix+"Orders"); got != 120 {
		t.Errorf("%d items in %sOrders; want 120", got, prefix)
	}
}

// Bad input is one sentence and writes nothing; --skip-invalid loads the
// rest of a line file.
func TestSeedFileBadInput(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	dir := t.TempDir()
	good := `{"PK":"a","SK":"1","n":12345678901234567890123456789012345678}`
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	// A truncated gzip stream.
	gz := filepath.Join(dir, "cut.json.gz")
	writeGzip(t, gz, []string{`{"Item":{"PK":{"S":"a"},"SK":{"S":"1"}}}`, `{"Item":{"PK":{"S":"b"},"SK":{"S":"2"}}}`})
	b, _ := os.ReadFile(gz)
	os.WriteFile(gz, b[:len(b)-12], 0o644)

	cases := []struct{ name, path, want string }{
		{"truncated gzip", gz, "the file is cut short or corrupt"},
		{"line not JSON", write("bad.jsonl", good+"\n{nope\n"), "line 2: not JSON"},
		{"delete request", write("batch.json", "{\n \"T\": [\n  {\"DeleteRequest\": {\"Key\": {\"PK\": {\"S\": \"a\"}}}}\n ]\n}\n"), "a DeleteRequest; seed only puts items"},
		{"not a format", write("x.csv", "PK,SK\na,1\n"), "is in none of the formats seed reads"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			table := dynamotest.UniqueName("bad")
			t.Cleanup(func() { deleteTables(table) })
			_, _, err := cli(t, "seed", "--endpoint-url", ep, "--file", c.path, "--table", table)
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Count(strings.TrimSpace(err.Error()), "\n") > 0 {
				t.Fatalf("got %v; want one sentence with %q", err, c.want)
			}
		})
	}
	table := dynamotest.UniqueName("skip")
	t.Cleanup(func() { deleteTables(table) })
	src := write("mixed.jsonl", good+"\n{nope\n"+`{"PK":"b","SK":"2","v":true}`+"\n"+`{"SK":"3"}`+"\n")
	out, errOut, err := cli(t, "seed", "--endpoint-url", ep, "--file", src, "--table", table, "--skip-invalid")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "loaded 2 of 4 items; 2 skipped") || !strings.Contains(errOut, "skipped line 2: not JSON") || !strings.Contains(errOut, "skipped line 4: the key attribute PK is missing") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out, errOut)
	}
	if got := countItems(t, table); got != 2 {
		t.Errorf("%d items; want 2", got)
	}
}

// A key repeated in a file ends with its last value, whether the earlier
// one was still waiting in its batch or already sent.
func TestSeedFileRepeatedKey(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	var lines []string
	for i := range 60 {
		lines = append(lines, fmt.Sprintf(`{"PK":"A","SK":"%02d","v":"first"}`, i))
	}
	for i := range 60 {
		lines = append(lines, fmt.Sprintf(`{"PK":"A","SK":"%02d","v":"last"}`, i%30))
	}
	file := filepath.Join(t.TempDir(), "repeats.jsonl")
	os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	table := dynamotest.UniqueName("repeat")
	t.Cleanup(func() { deleteTables(table) })
	if _, errOut, err := cli(t, "seed", "--endpoint-url", ep, "--file", file, "--table", table); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	out, _, err := cli(t, "query", "--endpoint-url", ep, "--table", table, "--pk", "A", "--all-pages", "--output", "jsonl")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(out), "\n")
	if len(got) != 60 {
		t.Fatalf("%d items; want 60:\n%s", len(got), out)
	}
	for i, line := range got {
		want := "first"
		if i < 30 {
			want = "last"
		}
		if !strings.Contains(line, `"v":"`+want+`"`) {
			t.Errorf("item %d is %s; want v %s", i, line, want)
		}
	}
}

// With --skip-invalid, an item DynamoDB would refuse with its whole batch
// (an empty key, an item over 400 KB) is named by the first pass and not
// written, the valid items of its batch are, and the summary counts every
// record once, a repeated key included.
func TestSeedFileSkipInvalidWritesNothingInvalid(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	lines := []string{
		`{"PK":"a","SK":"1","v":"first"}`,
		`{"PK":"","SK":"2"}`,
		`{"PK":"b","SK":"3","big":"` + strings.Repeat("x", 410<<10) + `"}`,
		`{"PK":"a","SK":"1","v":"last"}`,
		`{"PK":"c","SK":"` + strings.Repeat("k", 1025) + `"}`,
		`{"PK":"c","SK":"4"}`,
	}
	file := filepath.Join(t.TempDir(), "mixed.jsonl")
	os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	table := dynamotest.UniqueName("skipw")
	t.Cleanup(func() { deleteTables(table) })
	args := []string{"seed", "--endpoint-url", ep, "--file", file, "--table", table}
	if _, _, err := cli(t, args...); err == nil || !strings.Contains(err.Error(), "line 2: its key attribute PK is empty") {
		t.Fatalf("without --skip-invalid: %v; want line 2 named", err)
	}
	out, errOut, err := cli(t, append(args, "--skip-invalid")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	for _, want := range []string{
		"skipped line 2: its key attribute PK is empty",
		"skipped line 3: it is 419",
		"skipped line 5: its key attribute SK is 1025 bytes, beyond DynamoDB's limit of 1024",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("no %q in:\n%s", want, errOut)
		}
	}
	if !strings.Contains(out, "loaded 3 of 6 items; 3 skipped") {
		t.Errorf("summary:\n%s", out)
	}
	got, _, err := cli(t, "query", "--endpoint-url", ep, "--table", table, "--pk", "a", "--output", "jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if n := countItems(t, table); n != 2 || !strings.Contains(got, `"v":"last"`) {
		t.Errorf("%d items, a is %s; want 2 items, a with its last value", n, got)
	}
}

// What dynascope writes reads back to equal items: the demo's CUST#7 and the
// hostile corpus, through --output jsonl (compared as plain JSON, the types
// it keeps), jsonl --dynamodb-json and ddbjson-batch (compared exactly).
func TestSeedRoundTrips(t *testing.T) {
	demo, ep := seededDemo(t)
	hostile, _, hostilePK, _ := loadHostile(t, false)
	for _, src := range []struct{ table, pk string }{{demo, "CUST#7"}, {hostile, hostilePK}} {
		query := func(table string, format ...string) string {
			args := append([]string{"query", "--endpoint-url", ep, "--table", table, "--pk", src.pk, "--all-pages", "--output"}, format...)
			out, _, err := cli(t, args...)
			if err != nil {
				t.Fatalf("%v: %v", args, err)
			}
			return out
		}
		typed := query(src.table, "jsonl", "--dynamodb-json")
		plain := query(src.table, "jsonl")
		for _, format := range [][]string{{"jsonl"}, {"jsonl", "--dynamodb-json"}, {"ddbjson-batch"}} {
			file := filepath.Join(t.TempDir(), "export")
			os.WriteFile(file, []byte(query(src.table, format...)), 0o644)
			copyTable := dynamotest.UniqueName("roundtrip")
			t.Cleanup(func() { deleteTables(copyTable) })
			if _, errOut, err := cli(t, "seed", "--endpoint-url", ep, "--file", file, "--table", copyTable); err != nil {
				t.Fatalf("%s %v: %v\n%s", src.pk, format, err, errOut)
			}
			want, got := typed, query(copyTable, "jsonl", "--dynamodb-json")
			if format[0] == "jsonl" && len(format) == 1 {
				want, got = plain, query(copyTable, "jsonl")
			}
			if got != want {
				t.Errorf("%s through %v differs:\n got  %.400s\n want %.400s", src.pk, format, got, want)
			}
		}
	}
}
