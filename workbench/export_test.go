package workbench

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// The "done when", second half: the fixture imported into DynamoDB
// Local, sampled, exported as a model, and read back with the importer is
// the same table (keys, GSI) with the same entity types as facets, each
// with real example items.
func TestWorkbenchExportRoundTrip(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	ctx := testCtx(t)
	src := readShop(t).Tables[0]
	name := seedTable(t, api, src.Spec)
	if _, err := dynamo.Seed(ctx, api, name, src.Items, dynamo.SeedOptions{}); err != nil {
		t.Fatal(err)
	}
	c, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: dynamotest.Endpoint(t), Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	smp, err := c.Sample(ctx, dynamo.SampleInput{Table: name})
	if err != nil {
		t.Fatal(err)
	}
	exp, err := WorkbenchFromSample(ctx, c, smp, smp.Layout(0), 0, time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteWorkbench(&b, exp.Model); err != nil {
		t.Fatal(err)
	}
	back, err := ParseWorkbench(&b)
	if err != nil {
		t.Fatalf("the export does not read back: %v\n%s", err, b.String())
	}
	if !reflect.DeepEqual(back, exp.Model) {
		t.Errorf("read back differs from what was written:\n got  %+v\n want %+v", back, exp.Model)
	}
	if back.Created != "Mar 1, 2025, 09:00 AM" || len(back.Tables) != 1 {
		t.Fatalf("model: %+v", back)
	}
	got := back.Tables[0]
	want := src.Spec
	want.Name = name
	if !reflect.DeepEqual(got.Spec, want) {
		t.Errorf("spec:\n got  %+v\n want %+v", got.Spec, want)
	}
	// One facet per family and entity type, named after both, with the
	// entity prefixes the hand-written model's facets had.
	var facets []string
	for _, f := range got.Facets {
		facets = append(facets, f.Name+"="+strings.Join(f.Prefixes, ",")+"/"+f.PKAlias+"/"+f.SKAlias)
		if len(f.Items) == 0 || len(f.Items) > WorkbenchSampleItems {
			t.Errorf("facet %s has %d items", f.Name, len(f.Items))
		}
	}
	wantFacets := []string{"CUST_ORDER=ORDER#/CUST#*/ORDER#*", "CUST_PROFILE=PROFILE/CUST#*/PROFILE", "ORDER_ITEM=ITEM#/ORDER#*/ITEM#*"}
	slices.Sort(facets)
	if !slices.Equal(facets, wantFacets) {
		t.Errorf("facets:\n got  %q\n want %q", facets, wantFacets)
	}
	// Every example is an item of the source, attribute for attribute.
	srcItems := map[string]bool{}
	for _, it := range src.Items {
		srcItems[string(itemcodec.DynamoJSON(it))] = true
	}
	for _, it := range got.Items {
		if !srcItems[string(itemcodec.DynamoJSON(it))] {
			t.Errorf("example not in the source: %s", itemcodec.DynamoJSON(it))
		}
	}
	// One Query per entity type, each reading at most 3 items.
	if len(exp.Requests) != 3 || exp.Dropped != 0 {
		t.Errorf("%d requests, %d dropped", len(exp.Requests), exp.Dropped)
	}
	for _, r := range exp.Requests {
		if r.Operation != "Query" || r.Limit != WorkbenchSampleItems {
			t.Errorf("request: %+v", r)
		}
	}

	// An index sample is refused.
	if _, err := WorkbenchFromSample(ctx, c, dynamo.Sample{Table: name, Index: "GSI1"}, smp.Layout(0), 0, time.Now()); err == nil {
		t.Error("an index sample was exported")
	}
}

// Items whose attribute types clash with earlier ones are left out, since a
// Workbench attribute has one type.
func TestTypesAgree(t *testing.T) {
	seen := map[string]string{"G": "S"}
	a := dynamo.Item{"PK": demoS("1"), "x": &types.AttributeValueMemberNULL{Value: true}, "y": demoN("1")}
	b := dynamo.Item{"PK": demoS("2"), "x": demoS("s"), "y": demoS("one")}
	c := dynamo.Item{"PK": demoS("3"), "x": demoS("t"), "G": demoN("5")}
	if !typesAgree(a, seen) || typesAgree(b, seen) || typesAgree(c, seen) {
		t.Errorf("agreement wrong: %v", seen)
	}
	if !reflect.DeepEqual(seen, map[string]string{"G": "S", "PK": "S", "x": "NULL", "y": "N"}) {
		t.Errorf("types: %v", seen)
	}
}
