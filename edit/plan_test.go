package edit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
)

func TestParseAssignment(t *testing.T) {
	for _, tc := range []struct {
		in, name, want string // want: the value as ValueText shows it, or the error's start
		bad            bool
	}{
		{in: "status=S:SHIPPED", name: "status", want: `S "SHIPPED"`},
		{in: "note=S:", name: "note", want: `S ""`},
		{in: "url=S:a=b:c", name: "url", want: `S "a=b:c"`},
		{in: "total=N:35.50", name: "total", want: "N 35.50"},
		{in: "paid=BOOL:true", name: "paid", want: "BOOL true"},
		{in: "gone=NULL", name: "gone", want: "NULL"},
		{in: "tags=SS:[\"a\",\"b\"]", name: "tags", want: `SS ["a","b"]`},
		{in: "nums=NS:[1,\"2.5\"]", name: "nums", want: "NS [1,2.5]"},
		{in: "bins=BS:[\"AAE=\"]", name: "bins", want: `BS ["AAE="]`},
		{in: "lines=L:[{\"S\":\"x\"},{\"N\":\"1\"}]", name: "lines", want: `L ["x",1]`},
		{in: "addr=M:{\"city\":{\"S\":\"Oslo\"}}", name: "addr", want: `M {"city":"Oslo"}`},
		{in: "total=N:12x", bad: true, want: `total: "12x" is not a DynamoDB number`},
		{in: "total=N:1e200", bad: true, want: `total: "1e200" is not a DynamoDB number`},
		{in: "tags=SS:[\"a\",\"a\"]", bad: true, want: `tags: the SS has "a" twice`},
		{in: "nums=NS:[1,\"1.0\"]", bad: true, want: `nums: the NS has "1.0" twice`},
		{in: "tags=SS:[]", bad: true, want: "tags: a SS cannot be empty"},
		{in: "lines=L:[{\"N\":\"x\"}]", bad: true, want: "lines: L takes DynamoDB JSON"},
		{in: "paid=BOOL:yes", bad: true, want: "paid: BOOL is true or false"},
		{in: "status=SHIPPED", bad: true, want: "status: \"SHIPPED\" has no type"},
		{in: "status=X:1", bad: true, want: `status: unknown type "X"`},
		{in: "=S:x", bad: true, want: `"=S:x" is not NAME=TYPE:VALUE`},
	} {
		name, av, err := edit.ParseAssignment(tc.in)
		if tc.bad {
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("%s: %v, want an error starting %q", tc.in, err, tc.want)
			}
			continue
		}
		if err != nil || name != tc.name || edit.ValueText(av) != tc.want {
			t.Errorf("%s: %q %v %v, want %s", tc.in, name, edit.ValueText(av), err, tc.want)
		}
		// What a form starts from reads back as the same value.
		typ, text := edit.ValueInput(av)
		back, err := edit.ParseValue(name, typ, text)
		if err != nil || !edit.Equal(back, av) {
			t.Errorf("%s: ValueInput gives %s %q, read back as %v, %v", tc.in, typ, text, back, err)
		}
	}
}

func TestPlanShowsDiffCommandAndUnits(t *testing.T) {
	old := dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17"), "status": s("OPEN"), "total": n("35")}
	new := dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17"), "status": s("SHIPPED"), "total": n("35.0"), "it's": s("quoted")}
	keys := pksk
	keys.Name = "App"
	p, err := edit.NewPlan(edit.Change{Table: "App", Keys: keys, Old: old, New: new})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Join(edit.DiffLines(keys, p.Diff), "\n")
	if lines != "+ it's: S \"quoted\"\n~ status: S \"OPEN\" → S \"SHIPPED\"" {
		t.Errorf("diff:\n%s", lines) // total: 35 and 35.0 are the same number
	}
	cmd := p.Command(edit.Target{Endpoint: "http://127.0.0.1:8000", Region: "us-east-1"})
	for _, want := range []string{
		"AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local aws dynamodb update-item \\\n  --table-name App",
		`--key '{"PK":{"S":"CUST#42"},"SK":{"S":"ORDER#2025-03-01#A17"}}'`,
		"--update-expression 'SET #1 = :2, #2 = :3' \\\n",
		"--condition-expression '(attribute_exists (#0)) AND (attribute_not_exists (#1)) AND (#2 = :0) AND (#3 = :1)'",
		`"#1":"it'\''s"`,
		"--return-consumed-capacity TOTAL",
		"--endpoint-url http://127.0.0.1:8000",
	} {
		if !strings.Contains(cmd, want) {
			t.Errorf("the command lacks %s:\n%s", want, cmd)
		}
	}
	if p.Condition != `(attribute_exists (PK)) AND (attribute_not_exists (it's)) AND (status = S "OPEN") AND (total = N 35)` || p.PredictedWCU != 1 {
		t.Errorf("condition %q, %v WCU", p.Condition, p.PredictedWCU)
	}

	// Sizes: 1 KB is 1 WCU, a byte over is 2, a key change twice each.
	big := func(sk string, bytes int) dynamo.Item {
		it := dynamo.Item{"PK": s("P"), "SK": s(sk)}
		pad := bytes - itemcodec.ItemSize(it) - len("pad")
		it["pad"] = s(strings.Repeat("x", pad))
		return it
	}
	for _, tc := range []struct {
		old, new dynamo.Item
		op       edit.Op
		wcu      float64
	}{
		{nil, big("A", 1024), edit.OpPut, 1},
		{nil, big("A", 1025), edit.OpPut, 2},
		{big("A", 1025), nil, edit.OpDelete, 2},
		{big("A", 100), big("A", 3000), edit.OpUpdate, 3},
		{big("A", 3000), big("A", 100), edit.OpUpdate, 3},
		{big("A", 1025), big("B", 1024), edit.OpTransact, 2*1 + 2*2},
	} {
		p, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: tc.old, New: tc.new})
		if err != nil || p.Op != tc.op || p.PredictedWCU != tc.wcu {
			t.Errorf("%s: %v WCU, %v; want %s %v", p.Op, p.PredictedWCU, err, tc.op, tc.wcu)
		}
	}
}

func TestPlanRefusesBadChanges(t *testing.T) {
	it := dynamo.Item{"PK": s("P"), "SK": s("S"), "a": n("1")}
	for _, tc := range []struct {
		old, new dynamo.Item
		want     string
	}{
		{it, it, "nothing to write"},
		{nil, nil, "nothing to write"},
		{nil, dynamo.Item{"PK": s("P")}, "the item has no SK"},
		{nil, dynamo.Item{"PK": n("1"), "SK": s("S")}, "the key attribute PK must be of type S, not N"},
		{nil, dynamo.Item{"PK": s(""), "SK": s("S")}, "the key attribute PK cannot be empty"},
		{nil, dynamo.Item{"PK": s("P"), "SK": s("S"), "n": n("1.2.3")}, `n: "1.2.3" is not a DynamoDB number`},
		{nil, dynamo.Item{"PK": s("P"), "SK": s("S"), "ss": &types.AttributeValueMemberSS{Value: []string{"x", "x"}}}, `ss: the SS has "x" twice`},
		{nil, dynamo.Item{"PK": s("P"), "SK": s("S"), "big": s(strings.Repeat("x", 400*1024))}, "the item would be"},
	} {
		_, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: tc.old, New: tc.new})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%v → %v: %v, want %q", edit.ItemText(tc.old), edit.ItemText(tc.new), err, tc.want)
		}
	}
	if _, err := edit.NewPlan(edit.Change{Table: "T", Keys: pksk, Old: it, New: it}); !errors.Is(err, edit.ErrNoChange) {
		t.Errorf("no change: %v", err)
	}
}
