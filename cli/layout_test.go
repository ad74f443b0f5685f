package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/config"
	"dynascope/demodata"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

func layoutS(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func layoutN(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// layoutOutput is the documented JSON of `dynascope layout`.
type layoutOutput struct {
	Table     string  `json:"table"`
	Index     *string `json:"index"`
	KeySchema struct {
		PartitionKey struct{ Name, Type string }  `json:"partitionKey"`
		SortKey      *struct{ Name, Type string } `json:"sortKey"`
	} `json:"keySchema"`
	Sample struct {
		Segments   int     `json:"segments"`
		MaxItems   int     `json:"maxItems"`
		MaxRCU     float64 `json:"maxRCU"`
		Items      int     `json:"items"`
		Partitions int     `json:"partitions"`
		TableItems int64   `json:"tableItems"`
		Stop       string  `json:"stop"`
		ItemSizes  string  `json:"itemSizes"`
	} `json:"sample"`
	Families []struct {
		Family           string             `json:"family"`
		Entity           string             `json:"entity"`
		Prefix           string             `json:"prefix"`
		Exact            bool               `json:"exact"`
		Label            string             `json:"label"`
		Disagree         bool               `json:"disagree"`
		Partitions       int                `json:"partitions"`
		Items            int                `json:"items"`
		LargestPartition layoutPartitionOut `json:"largestPartition"`
		Delimiter        *string            `json:"delimiter"`
		EntityTypes      []layoutTypeOut    `json:"entityTypes"`
		Libraries        []layoutLibraryOut `json:"libraries"`
	} `json:"families"`
	LargestPartitions []layoutPartitionOut `json:"largestPartitions"`
	Findings          []struct {
		Rule    string         `json:"rule"`
		Family  *string        `json:"family"`
		Message string         `json:"message"`
		Example map[string]any `json:"example"`
	} `json:"findings"`
	Requests         int             `json:"requests"`
	ConsumedCapacity capacityJSONOut `json:"consumedCapacity"`
}

type layoutPartitionOut struct {
	Partition map[string]any `json:"partition"`
	Family    string         `json:"family"`
	Items     int            `json:"items"`
}

type layoutTypeOut struct {
	Entity     string             `json:"entity"`
	Prefix     string             `json:"prefix"`
	Label      string             `json:"label"`
	Disagree   bool               `json:"disagree"`
	Items      int                `json:"items"`
	Partitions int                `json:"partitions"`
	First      any                `json:"first"`
	Last       any                `json:"last"`
	Libraries  []layoutLibraryOut `json:"libraries"`
}

type layoutLibraryOut struct {
	Library   string  `json:"library"`
	Attribute string  `json:"attribute"`
	Entity    string  `json:"entity"`
	Version   *string `json:"version"`
	Items     int     `json:"items"`
}

// layoutOf runs `dynascope layout` and decodes its JSON strictly.
func layoutOf(t *testing.T, args ...string) (layoutOutput, string) {
	t.Helper()
	var out, errb bytes.Buffer
	if err := run(context.Background(), append([]string{"layout"}, args...), &out, &errb); err != nil {
		t.Fatalf("layout %v: %v\n%s", args, err, errb.String())
	}
	var got layoutOutput
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("output is not the documented JSON: %v\n%s", err, out.String())
	}
	return got, errb.String()
}

// layoutShape summarises families and their types as the overview lists them.
func layoutShape(l layoutOutput) []string {
	var out []string
	for _, f := range l.Families {
		var ts []string
		for _, t := range f.EntityTypes {
			ts = append(ts, t.Label)
		}
		out = append(out, fmt.Sprintf("%s (%d/%d): %s", f.Family, f.Partitions, f.Items, strings.Join(ts, ", ")))
	}
	return out
}

func layoutRules(l layoutOutput) []string {
	out := []string{}
	for _, f := range l.Findings {
		out = append(out, f.Rule)
	}
	return out
}

// The demo table reconstructed from its data: every family, type and the
// big customer's partition, read whole.
func TestLayoutDemo(t *testing.T) {
	t.Parallel()
	ep := dynamotest.Endpoint(t)
	api := dynamotest.SDK(t)
	table := dynamotest.UniqueName("layout-demo")
	ctx := context.Background()
	t.Cleanup(func() { deleteTables(table) })
	if _, err := dynamo.EnsureTable(ctx, api, demodata.TableSpec(table)); err != nil {
		t.Fatal(err)
	}
	demo := demodata.Items()
	if _, err := dynamo.Seed(ctx, api, table, demo, dynamo.SeedOptions{}); err != nil {
		t.Fatal(err)
	}

	got, stderr := layoutOf(t, "--endpoint-url", ep, "--table", table, "--max-items", "100000", "--max-rcu", "100000")
	// DynamoDB Local's figures are current: the caps hold the table, which
	// is more than a page, so its four segments read it whole.
	if !strings.HasPrefix(stderr, "sampling table "+table+": up to 100000 items / 100000 RCU, read whole in 4 parallel Scan segments (DynamoDB's figures: "+fmt.Sprint(len(demodata.Items()))+" items, ") ||
		!strings.HasSuffix(stderr, " MiB), keys only\n") {
		t.Errorf("announcement: %q", stderr)
	}
	// What a full read of the demo data gives, counted independently.
	parts, items := map[string]map[string]bool{}, map[string]int{}
	for _, it := range demo {
		pk := it["PK"].(*types.AttributeValueMemberS).Value
		fam := pk[:strings.Index(pk, "#")+1] + "*"
		if parts[fam] == nil {
			parts[fam] = map[string]bool{}
		}
		parts[fam][pk] = true
		items[fam]++
	}
	want := []string{
		fmt.Sprintf("ORDER#* (%d/%d): ITEM, SHIPMENT", len(parts["ORDER#*"]), items["ORDER#*"]),
		fmt.Sprintf("CUST#* (%d/%d): ADDRESS, ORDER, PROFILE", len(parts["CUST#*"]), items["CUST#*"]),
		// The version rows v0 … v3 of DynamoDB's version-history pattern
		// are one value-shaped type, not one type per version (issue 36.7).
		"PRODUCT#* (1/4): version",
	}
	if len(parts) != 3 || items["ORDER#*"] < items["CUST#*"] {
		t.Fatalf("the demo data changed shape: %v", items)
	}
	if s := layoutShape(got); !reflect.DeepEqual(s, want) {
		t.Errorf("families:\n got  %q\n want %q", s, want)
	}
	if got.Sample.Stop != "complete" || got.Sample.Items != len(demo) || got.Sample.ItemSizes != "page-capacity" || got.Table != table || got.Index != nil ||
		got.KeySchema.PartitionKey.Name != "PK" || got.KeySchema.SortKey.Name != "SK" {
		t.Errorf("sample %+v", got.Sample)
	}
	big := got.LargestPartitions[0]
	if big.Partition["PK"] != "CUST#7" || big.Items != 4001 || big.Family != "CUST#*" || len(got.LargestPartitions) != 10 {
		t.Errorf("largest %+v", got.LargestPartitions)
	}
	cust := got.Families[1]
	if cust.LargestPartition.Partition["PK"] != "CUST#7" || *cust.Delimiter != "#" || cust.EntityTypes[1].First != "ORDER#2024-01-01#B1001" || cust.EntityTypes[2].Items != len(parts["CUST#*"]) {
		t.Errorf("CUST family %+v", cust)
	}
	// The only finding: Big Corp's partition dominates.
	if r := layoutRules(got); !reflect.DeepEqual(r, []string{"hot-partition"}) || got.Findings[0].Example["PK"] != "CUST#7" || *got.Findings[0].Family != "CUST#*" {
		t.Errorf("findings %+v", got.Findings)
	}
	if got.Requests < 4 || got.ConsumedCapacity.Total <= 0 {
		t.Errorf("requests %d capacity %+v", got.Requests, got.ConsumedCapacity)
	}

	// The sparse index holds the warehouses' open orders.
	idx, _ := layoutOf(t, "--endpoint-url", ep, "--table", table, "--index", "GSI1", "--max-items", "100000", "--max-rcu", "100000")
	if s := layoutShape(idx); len(s) != 1 || !strings.HasPrefix(s[0], "WH#* (5/") || !strings.HasSuffix(s[0], "): OPEN") || *idx.Index != "GSI1" || idx.Sample.ItemSizes != "not-checked" {
		t.Errorf("index layout %q %+v", s, idx.Sample)
	}

	// The default caps stop early and say so; the RCU cap holds.
	def, stderr := layoutOf(t, "--endpoint-url", ep, "--table", table, "--max-rcu", "20")
	if def.Sample.Stop != "max-rcu" || def.ConsumedCapacity.Total > 20 || def.Sample.Items == 0 || def.Sample.MaxItems != 10000 {
		t.Errorf("capped sample: %+v, %v RCU", def.Sample, def.ConsumedCapacity.Total)
	}
	if !strings.Contains(stderr, "up to 10000 items / 20 RCU") || strings.Contains(stderr, "over the") {
		t.Errorf("announcement %q", stderr)
	}
	// The default caps: the item cap is met exactly, and the text says the
	// count the JSON says (they were 9,022 and 9,028, "stop": "max-items").
	capped, _ := layoutOf(t, "--endpoint-url", ep, "--table", table)
	if capped.Sample.Stop != "max-items" || capped.Sample.Items != 10000 || capped.ConsumedCapacity.Total > 250 {
		t.Errorf("default caps: %+v, %v RCU", capped.Sample, capped.ConsumedCapacity.Total)
	}
	var capText, capErr bytes.Buffer
	if err := run(ctx, []string{"layout", "--endpoint-url", ep, "--table", table, "--output", "table"}, &capText, &capErr); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(capText.String(), "table "+table+": 10000 items (of about ") || !strings.Contains(capText.String(), " · stopped: max-items\n") {
		t.Errorf("default caps, text:\n%s", capText.String())
	}

	var out, errb bytes.Buffer
	if err := run(ctx, []string{"layout", "--endpoint-url", ep, "--table", table, "--max-items", "100000", "--max-rcu", "100000", "--output", "table"}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, w := range []string{"FAMILY", "CUST#*", "CUST#7 (4001)", fmt.Sprintf("ADDRESS %d · ORDER %d · PROFILE %d", cust.EntityTypes[0].Items, cust.EntityTypes[1].Items, cust.EntityTypes[2].Items),
		"LARGEST PARTITIONS", "hot-partition: partition \"CUST#7\"", "inferred from each page's capacity"} {
		if !strings.Contains(text, w) {
			t.Errorf("table output lacks %q:\n%s", w, text)
		}
	}
}

// layoutCase is one key layout of the list: a table definition, its
// items, and a partition to look into.
type layoutCase struct {
	name  string
	def   dynamodb.CreateTableInput
	items []dynamo.Item
	pk    string // a partition of the case, for groups
}

// pkskNamed is PK/SK of type S or N under the given names; sk "" means no sort key.
func pkskNamed(pk, sk, skType string) dynamodb.CreateTableInput {
	in := dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String(pk), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}},
	}
	if sk != "" {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(sk), AttributeType: types.ScalarAttributeType(skType)})
		in.KeySchema = append(in.KeySchema, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange})
	}
	return in
}

// delimited is the customer layout with delimiter d: two customers with a
// profile and orders, and an order partition with its line items.
func delimited(d string) []dynamo.Item {
	var items []dynamo.Item
	for _, c := range []string{"1", "2"} {
		pk := "CUST" + d + c
		items = append(items, dynamo.Item{"PK": layoutS(pk), "SK": layoutS("PROFILE")})
		for _, o := range []string{"2025-01-09" + d + "A11", "2025-03-01" + d + "A17"} {
			items = append(items, dynamo.Item{"PK": layoutS(pk), "SK": layoutS("ORDER" + d + o)})
		}
	}
	items = append(items, dynamo.Item{"PK": layoutS("ORDER" + d + "A17"), "SK": layoutS("ITEM" + d + "1")})
	return items
}

func layoutCases() []layoutCase {
	var cases []layoutCase
	// Case names become table names, which allow no delimiters.
	for _, d := range []struct{ name, d string }{{"hash", "#"}, {"pipe", "|"}, {"colon", ":"}, {"slash", "/"}} {
		cases = append(cases, layoutCase{name: "delimiter " + d.name, def: dynamotest.PKSK(), items: delimited(d.d), pk: "CUST" + d.d + "1"})
	}
	cases = append(cases,
		layoutCase{name: "no delimiters", def: dynamotest.PKSK(), pk: "customer1", items: []dynamo.Item{
			{"PK": layoutS("customer1"), "SK": layoutS("PROFILE")},
			{"PK": layoutS("customer1"), "SK": layoutS("SETTINGS")},
			{"PK": layoutS("customer1"), "SK": layoutS("v0")},
			{"PK": layoutS("customer1"), "SK": layoutS("v1")},
			{"PK": layoutS("customer2"), "SK": layoutS("PROFILE")},
		}},
		layoutCase{name: "lower-case key names", def: pkskNamed("pk", "sk", "S"), pk: "user#1", items: []dynamo.Item{
			{"pk": layoutS("user#1"), "sk": layoutS("profile")},
			{"pk": layoutS("user#1"), "sk": layoutS("post#2025-01-01#p1")},
			{"pk": layoutS("user#1"), "sk": layoutS("post#2025-02-01#p2")},
			{"pk": layoutS("user#2"), "sk": layoutS("profile")},
		}},
		layoutCase{name: "numeric sort key", def: pkskNamed("device", "ts", "N"), pk: "SENSOR#1", items: []dynamo.Item{
			{"device": layoutS("SENSOR#1"), "ts": layoutN("1700000000")},
			{"device": layoutS("SENSOR#1"), "ts": layoutN("1700000060")},
			{"device": layoutS("SENSOR#1"), "ts": layoutN("-5.25")},
			{"device": layoutS("SENSOR#2"), "ts": layoutN("1700000000")},
		}},
		layoutCase{name: "no sort key", def: pkskNamed("id", "", ""), pk: "USER#1", items: []dynamo.Item{
			{"id": layoutS("USER#1"), "_type": layoutS("User")},
			{"id": layoutS("USER#2"), "_type": layoutS("User")},
			{"id": layoutS("SESSION#9f2c"), "_type": layoutS("Session")},
		}},
		layoutCase{name: "ElectroDB", def: pkskNamed("pk", "sk", "S"), pk: "$taskapp#team_purple", items: []dynamo.Item{
			{"pk": layoutS("$taskapp#team_purple"), "sk": layoutS("$organization#team_1"), "__edb_e__": layoutS("team"), "__edb_v__": layoutS("1")},
			{"pk": layoutS("$taskapp#team_purple"), "sk": layoutS("$organization#user_1#user_t.walch"), "__edb_e__": layoutS("user"), "__edb_v__": layoutS("1")},
			{"pk": layoutS("$taskapp#team_purple"), "sk": layoutS("$organization#user_1#user_a.lee"), "__edb_e__": layoutS("user"), "__edb_v__": layoutS("1")},
			{"pk": layoutS("$taskapp#team_green"), "sk": layoutS("$organization#team_1"), "__edb_e__": layoutS("team"), "__edb_v__": layoutS("1")},
			{"pk": layoutS("$taskapp#user_t.walch"), "sk": layoutS("$assignments#user_1"), "__edb_e__": layoutS("user"), "__edb_v__": layoutS("1")},
		}},
		layoutCase{name: "dynamodb-toolbox", def: dynamotest.PKSK(), pk: "CUST#1", items: []dynamo.Item{
			{"PK": layoutS("CUST#1"), "SK": layoutS("#META"), "_et": layoutS("Customer")},
			{"PK": layoutS("CUST#1"), "SK": layoutS("ORDER#2025-01-01"), "_et": layoutS("Order")},
			{"PK": layoutS("CUST#2"), "SK": layoutS("#META"), "_et": layoutS("Customer")},
		}},
	)
	return cases
}

// makeCase creates the case's table and loads its items.
func makeCase(t *testing.T, c layoutCase) string {
	t.Helper()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, c.def)
	for _, it := range c.items {
		if _, err := api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	return table
}

// Each layout of the list, reconstructed.
func TestLayoutCommandLayouts(t *testing.T) {
	t.Parallel()
	ep := dynamotest.Endpoint(t)
	want := map[string][]string{
		"delimiter hash":       {"CUST#* (2/6): ORDER, PROFILE", "ORDER#* (1/1): ITEM"},
		"delimiter pipe":       {"CUST|* (2/6): ORDER, PROFILE", "ORDER|* (1/1): ITEM"},
		"delimiter colon":      {"CUST:* (2/6): ORDER, PROFILE", "ORDER:* (1/1): ITEM"},
		"delimiter slash":      {"CUST/* (2/6): ORDER, PROFILE", "ORDER/* (1/1): ITEM"},
		"no delimiters":        {"customer* (2/5): PROFILE, SETTINGS, version"}, // as groups and the UI name them (v0, v1: one version group)
		"lower-case key names": {"user#* (2/4): post, profile"},
		"numeric sort key":     {"SENSOR#* (2/4): NUMBER"},
		"no sort key":          {"USER#* (2/2): USER", "SESSION#* (1/1): SESSION"},
		"ElectroDB": {
			"$taskapp#team_* (2/4): team (ElectroDB: team v1), user (ElectroDB: user v1)",
			"$taskapp#user_* (1/1): user (ElectroDB: user v1)",
		},
		"dynamodb-toolbox": {"CUST#* (2/3): META (dynamodb-toolbox: Customer), ORDER (dynamodb-toolbox: Order)"},
	}
	for _, c := range layoutCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			table := makeCase(t, c)
			got, stderr := layoutOf(t, "--endpoint-url", ep, "--table", table)
			// A table one page holds is read in one Scan, and the
			// announcement says so, not the four segments asked for.
			if !strings.Contains(stderr, fmt.Sprintf(", read whole in one Scan (DynamoDB's figures: %d items, ", len(c.items))) || got.Sample.Segments != 1 {
				t.Errorf("announcement %q, %d segments", stderr, got.Sample.Segments)
			}
			if s := layoutShape(got); !reflect.DeepEqual(s, want[c.name]) {
				t.Errorf("families:\n got  %q\n want %q", s, want[c.name])
			}
			if got.Sample.Stop != "complete" || got.Sample.Items != len(c.items) || len(got.Findings) != 0 {
				t.Errorf("sample %+v findings %+v", got.Sample, got.Findings)
			}
			switch c.name {
			case "numeric sort key":
				ty := got.Families[0].EntityTypes[0]
				if ty.First != -5.25 || ty.Last != 1700000060.0 || got.KeySchema.SortKey.Type != "N" {
					t.Errorf("numeric range %v..%v", ty.First, ty.Last)
				}
			case "no sort key":
				if got.KeySchema.SortKey != nil || got.Families[0].Label != "USER (dynamodb-onetable: User)" || got.Families[0].Libraries[0].Attribute != "_type" {
					t.Errorf("no sort key: %+v", got.Families[0])
				}
			case "dynamodb-toolbox":
				// The sort key says META, the item says Customer: both shown, flagged.
				meta, order := got.Families[0].EntityTypes[0], got.Families[0].EntityTypes[1]
				if meta.Prefix != "#META" || !meta.Disagree || order.Disagree || meta.Libraries[0].Items != 2 {
					t.Errorf("toolbox types %+v", got.Families[0].EntityTypes)
				}
			case "ElectroDB":
				user := got.Families[0].EntityTypes[1]
				if user.Prefix != "$organization#user_1" || user.Disagree || *user.Libraries[0].Version != "1" || user.Items != 2 {
					t.Errorf("ElectroDB user type %+v", user)
				}
			}
		})
	}
}

// The lint reported through the command: findings name a rule, a family and
// an example key built from the key attributes.
func TestLayoutCommandFindings(t *testing.T) {
	t.Parallel()
	ep := dynamotest.Endpoint(t)
	c := layoutCase{def: pkskNamed("pk", "sk", "S"), items: []dynamo.Item{
		{"pk": layoutS("ORDER#A1"), "sk": layoutS("ITEM#9")},
		{"pk": layoutS("ORDER#A1"), "sk": layoutS("ITEM#10")},
		{"pk": layoutS("CUST#1"), "sk": layoutS("LOGIN#03/01/2025")},
		{"pk": layoutS("CUST#1"), "sk": layoutS("ADDRESS|HOME")},
	}}
	table := makeCase(t, c)
	got, _ := layoutOf(t, "--endpoint-url", ep, "--table", table, "--segments", "1")
	if r := layoutRules(got); !reflect.DeepEqual(r, []string{"unpadded-number", "unsortable-date", "mixed-delimiters"}) {
		t.Fatalf("rules %q\n%+v", r, got.Findings)
	}
	f := got.Findings[0]
	if *f.Family != "ORDER#*" || f.Example["pk"] != "ORDER#A1" || f.Example["sk"] != "ITEM#10" || !strings.Contains(f.Message, `"ITEM#10" sorts before "ITEM#9"`) {
		t.Errorf("finding %+v", f)
	}
	if got.Sample.Segments != 1 {
		t.Errorf("segments %d", got.Sample.Segments)
	}
}

func TestLayoutUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{}, "layout needs a table: pass --table NAME (list them with 'dynascope tables')"},
		{[]string{"--table", "T", "--max-items", "0"}, "--max-items must be a positive number, not 0."},
		{[]string{"--table", "T", "--max-rcu", "0.1"}, "--max-rcu must be at least 0.5 (the cost of one page), not 0.1."},
		{[]string{"--table", "T", "--segments", "100"}, "--segments must be between 1 and 64, not 100."},
		{[]string{"--table", "T", "--output", "xml"}, `--output takes json, table, text or yaml, not "xml".`},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		err := run(context.Background(), append([]string{"layout"}, c.args...), &out, &errb)
		if _, ok := err.(usageError); !ok || err.Error() != c.want {
			t.Errorf("%v:\n got  %v\n want %s", c.args, err, c.want)
		}
	}
}

// The settings file's sampling caps apply where the command line gives none.
func TestLayoutCapsFromSettings(t *testing.T) {
	table, ep := seededDemo(t)
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("sampling: {maxItems: 50, segments: 2}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(config.EnvSettings, path)
	got, stderr := layoutOf(t, "--endpoint-url", ep, "--table", table)
	if got.Sample.MaxItems != 50 || got.Sample.Segments != 2 || got.Sample.MaxRCU != dynamo.DefaultSampleRCU || got.Sample.Items > 50 {
		t.Errorf("sample %+v, want the settings' caps", got.Sample)
	}
	if !strings.Contains(stderr, "up to 50 items") || !strings.Contains(stderr, "2 parallel Scan segments") {
		t.Errorf("announcement %q", stderr)
	}
	got, _ = layoutOf(t, "--endpoint-url", ep, "--table", table, "--max-items", "70")
	if got.Sample.MaxItems != 70 || got.Sample.Segments != 2 {
		t.Errorf("sample %+v, want --max-items over the settings", got.Sample)
	}
}
