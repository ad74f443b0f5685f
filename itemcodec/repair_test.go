package itemcodec

import (
	"strings"
	"testing"
)

func TestRepairAttributes(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     string // the item as DynamoDB JSON
		repairs  string // the repairs, one per line
	}{
		{name: "valid DynamoDB JSON is read as written, no repair",
			in:   `{"PK": {"S": "A"}, "m": {"M": {"M": {"S": "x"}}}, "n": {"N": "1.50"}}`,
			want: `{"PK":{"S":"A"},"m":{"M":{"M":{"S":"x"}}},"n":{"N":"1.50"}}`},
		{name: "a doubled M (GamePlayerProfiles)",
			in:      `{"ItemAttributes": {"M": {"M": {"HP": {"N": "50"}}}}}`,
			want:    `{"ItemAttributes":{"M":{"HP":{"N":"50"}}}}`,
			repairs: `ItemAttributes: a doubled {"M": {"M": …}} unwrapped`},
		// Written three times, a map reads as written: a map whose one
		// attribute, M, is the map. Only what does not read is repaired.
		{name: "tripled reads; doubled inside an L, and doubled over plain JSON",
			in:      `{"a": {"M": {"M": {"M": {"x": {"S": "1"}}}}}, "l": {"L": [{"S": "ok"}, {"L": {"L": [{"N": "2"}]}}]}, "d": {"M": {"M": {"on": true}}}}`,
			want:    `{"a":{"M":{"M":{"M":{"x":{"S":"1"}}}}},"d":{"M":{"on":{"BOOL":true}}},"l":{"L":[{"S":"ok"},{"L":[{"N":"2"}]}]}}`,
			repairs: "l[1]: a doubled {\"L\": {\"L\": …}} unwrapped\nd: a doubled {\"M\": {\"M\": …}} unwrapped\nd.on: plain JSON true read as BOOL"},
		{name: "plain JSON inside an M (ConnectedVehicles): numbers keep their digits",
			in:      `{"autonomous_driving": {"M": {"is_enabled": true, "version": "v0.000.1 beta", "x": 59.10, "big": 123456789012345678901234567890123456, "gone": null}}}`,
			want:    `{"autonomous_driving":{"M":{"big":{"N":"123456789012345678901234567890123456"},"gone":{"NULL":true},"is_enabled":{"BOOL":true},"version":{"S":"v0.000.1 beta"},"x":{"N":"59.10"}}}}`,
			repairs: "autonomous_driving.is_enabled: plain JSON true read as BOOL\nautonomous_driving.version: plain JSON \"v0.000.1 beta\" read as S\nautonomous_driving.x: plain JSON 59.10 read as N\nautonomous_driving.big: plain JSON 123456789012345678901234567890123456 read as N\nautonomous_driving.gone: plain JSON null read as NULL"},
		{name: "a plain object and array are one repair each, typed members stay typed",
			in:      `{"cameras": {"M": {"cameras": {"front": {"foo": "bar"}, "n": {"N": "7"}}, "tags": ["a", 1], "ok": {"S": "y"}}}}`,
			want:    `{"cameras":{"M":{"cameras":{"M":{"front":{"M":{"foo":{"S":"bar"}}},"n":{"N":"7"}}},"ok":{"S":"y"},"tags":{"L":[{"S":"a"},{"N":"1"}]}}}}`,
			repairs: "cameras.cameras: plain JSON object read as M\ncameras.tags: plain JSON array read as L"},
		{name: "plain JSON inside an L; a long string is named by its kind",
			in:      `{"l": {"L": [false, "` + strings.Repeat("x", 30) + `"]}}`,
			want:    `{"l":{"L":[{"BOOL":false},{"S":"` + strings.Repeat("x", 30) + `"}]}}`,
			repairs: "l[0]: plain JSON false read as BOOL\nl[1]: plain JSON string read as S"},
	} {
		n, err := readNodeBytes([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		it, repairs, err := RepairAttributes(n, "")
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := string(DynamoJSON(it)); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
		var lines []string
		for _, r := range repairs {
			lines = append(lines, r.String())
		}
		if got := strings.Join(lines, "\n"); got != tc.repairs {
			t.Errorf("%s: repairs\n%s\nwant\n%s", tc.name, got, tc.repairs)
		}
		if len(repairs) == 0 {
			// What needs no repair reads the same as ParseAttributes reads it.
			plain, err := ParseAttributes(n, "")
			if err != nil || string(DynamoJSON(plain)) != tc.want {
				t.Errorf("%s: ParseAttributes reads %s, %v", tc.name, DynamoJSON(plain), err)
			}
		}
	}
}

// What no repair reads is refused in ParseAttributes's words; plain JSON
// at the top of an item is not read as a document (only inside M and L),
// nor is a typed value written wrongly.
func TestRepairAttributesRefuses(t *testing.T) {
	for _, tc := range []struct{ in, err string }{
		{`{"a": "plain"}`, `attribute "a": want a typed value such as {"S": "text"}, got a string`},
		{`{"a": {"M": {"b": {"N": 5}}}}`, `attribute "a.b": N wants the number as a string ("42"), got a number`},
		{`{"a": {"M": {"M": {"b": {"N": "x"}}}}}`, `attribute "a.M": unknown type "b"`},
		{`{"a": {"M": {"b": 1e999999}}}`, `attribute "a.b": number 1e999999: `},
		{`{"a": {"L": [{"N": "1"}, {"SS": []}]}}`, `attribute "a[1]": SS cannot be empty`},
		{`{"a": {"M": {"b": [{"N": "x"}]}}}`, `attribute "a.b[0]": N "x": `},
		{`{"a": {"M": {"b": {"c": {"N": true}}}}}`, `attribute "a.b.c": N wants the number as a string`},
		{`{"a": {"S": "1"}, "a": {"S": "2"}}`, `attribute "a": appears twice`},
		{`{"a": {"M": {"b": {"x": 1, "x": 2}}}}`, `attribute "a.b.x": appears twice`},
		{`{"a": {"M": "text"}}`, `attribute "a": M wants an object, got a string`},
	} {
		n, err := readNodeBytes([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		_, repairs, err := RepairAttributes(n, "")
		if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
			t.Errorf("%s: err %v, want %s…", tc.in, err, tc.err)
		}
		if repairs != nil {
			t.Errorf("%s: repairs %v with an error", tc.in, repairs)
		}
	}
}
