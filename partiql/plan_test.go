package partiql

import (
	"strings"
	"testing"
)

func TestPlan(t *testing.T) {
	for _, tc := range []struct {
		stmt         string
		table, index string
		query        bool
		pk           string
	}{
		{`SELECT * FROM "App" WHERE PK = 'CUST#7'`, "App", "", true, `'CUST#7'`},
		{`select * from App where "PK" = 'CUST#7' and begins_with(SK, 'ORDER#')`, "App", "", true, `'CUST#7'`},
		{`SELECT total FROM "App" WHERE status = 'OPEN' AND 'CUST#7' = PK AND total > 1000`, "App", "", true, `'CUST#7'`},
		{`SELECT * FROM "App" WHERE (PK = 'a') AND (SK BETWEEN 'A' AND 'B')`, "App", "", true, `'a'`},
		{`SELECT * FROM "App" WHERE SK BETWEEN 'A' AND 'B' AND PK = 'a'`, "App", "", true, `'a'`},
		{`SELECT * FROM "App"."GSI1" WHERE GSI1PK = 'WH#1'`, "App", "GSI1", true, `'WH#1'`},
		{`/* latest */ SELECT * FROM "App" WHERE PK = 'x' ORDER BY SK DESC`, "App", "", true, `'x'`},
		{`SELECT * FROM "App"`, "App", "", false, ""},
		{`SELECT * FROM "App" WHERE PK = 'a' OR PK = 'b'`, "App", "", false, ""},
		{`SELECT * FROM "App" WHERE PK <> 'a'`, "App", "", false, ""},
		{`SELECT * FROM "App" WHERE begins_with(PK, 'CUST#')`, "App", "", false, ""},
		{`SELECT * FROM "App" WHERE SK = 'PROFILE'`, "App", "", false, ""},
		{`SELECT * FROM "App" WHERE NOT PK = 'a'`, "App", "", false, ""},
		{`SELECT * FROM "App" WHERE pk = 'a'`, "App", "", false, ""}, // names are case-sensitive
		{`SELECT * FROM "App"."GSI1" WHERE PK = 'a'`, "App", "GSI1", false, ""},
		{`SELECT * FROM "App" WHERE PK IN ['a', 'b']`, "App", "", false, ""},
	} {
		sel, err := Parse(tc.stmt)
		if err != nil {
			t.Errorf("%s: %v", tc.stmt, err)
			continue
		}
		pk := "PK" // the table's partition key; GSI1's is GSI1PK
		if sel.Index == "GSI1" {
			pk = "GSI1PK"
		}
		p := sel.Plan(pk)
		if p.Statement != tc.stmt || p.PKName != pk || p.Table != tc.table || p.Index != tc.index || p.Query != tc.query || p.PK != tc.pk || p.Why == "" {
			t.Errorf("%s: plan %+v", tc.stmt, p)
		}
	}
}

func TestRefusals(t *testing.T) {
	for _, stmt := range []string{
		`UPDATE "App" SET a = 1 WHERE PK = 'a' AND SK = 'b'`,
		`delete from "App" where PK = 'a' and SK = 'b'`,
		`INSERT INTO "App" VALUE {'PK': 'a', 'SK': 'b'}`,
		`/* SELECT */ UPDATE "App" SET a = 1 WHERE PK = 'a' AND SK = 'b'`,
		"-- SELECT\nEXISTS(SELECT * FROM \"App\" WHERE PK = 'a')",
		`"SELECT" FROM x`,
		"\fSELECT * FROM \"App\"",
		`SELECT * FROM "App"; DELETE FROM "App" WHERE PK = 'a' AND SK = 'b'`,
		`SELECT * FROM "App" WHERE PK = 'a`,
		`/* unclosed SELECT`,
		``,
		`SELECT 1`,
	} {
		if _, err := Parse(stmt); err == nil || strings.Count(err.Error(), ".") < 1 || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v", stmt, err)
		}
	}
	for _, ok := range []string{"SELECT * FROM \"App\"", "  (SELECT * FROM App)", "-- c\n/* d */ select * from App"} {
		if !IsSelect(ok) {
			t.Errorf("%q is a SELECT", ok)
		}
	}
}

// A Query that fixes the table's whole primary key reads one item at most;
// on an index, whose keys need not be unique, it does not.
func TestPlanOneItem(t *testing.T) {
	for _, tc := range []struct {
		stmt, pk, sk string
		one          bool
	}{
		{`SELECT * FROM "App" WHERE PK = 'CUST#7' AND SK = 'PROFILE'`, "PK", "SK", true},
		{`SELECT * FROM "App" WHERE 'PROFILE' = SK AND (PK = 'CUST#7')`, "PK", "SK", true},
		{`SELECT * FROM "App" WHERE PK = 'CUST#7' AND SK >= 'PROFILE'`, "PK", "SK", false},
		{`SELECT * FROM "App" WHERE PK = 'CUST#7'`, "PK", "SK", false},
		{`SELECT * FROM "App" WHERE PK = 'CUST#7'`, "PK", "", true}, // no sort key
		{`SELECT * FROM "App" WHERE SK = 'PROFILE'`, "PK", "SK", false},
		{`SELECT * FROM "App"."GSI1" WHERE GSI1PK = 'WH#1' AND GSI1SK = 'x'`, "GSI1PK", "GSI1SK", false},
	} {
		sel, err := Parse(tc.stmt)
		if err != nil {
			t.Fatal(err)
		}
		p := sel.Item(sel.Plan(tc.pk), tc.sk)
		if p.OneItem != tc.one || tc.one && tc.sk != "" && !strings.HasSuffix(p.Why, " and the sort key SK = 'PROFILE'") {
			t.Errorf("%s: plan %+v", tc.stmt, p)
		}
	}
}
