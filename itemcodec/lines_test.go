package itemcodec

import (
	"errors"
	"strings"
	"testing"

	"dynascope/textfmt"
)

func TestReadJSONL(t *testing.T) {
	t.Parallel()
	in := "\ufeff" + `{"PK":{"S":"CUST#42"},"SK":{"S":"PROFILE"},"name":{"S":"Ann"}}` + "\n\n  \r\n" +
		`{"PK":{"S":"CUST#42"},"SK":{"S":"ORDER#2025-03-01#A17"},"total":{"N":"35"}}` + "\r\n"
	items, err := ReadJSONL(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || KeyString(items[0]["name"]) != "Ann" || KeyString(items[1]["total"]) != "35" {
		t.Fatalf("ReadJSONL gave %v; want Ann's profile and order A17", items)
	}

	for _, tc := range []struct{ in, prefix string }{
		{`{"PK":{"S":"a"}}` + "\n\n" + `{"PK":{"S":"b"}` + "\n", "line 3: "},
		{`{"PK":{"S":"a"}}` + "\n" + `{"PK":{"X":"b"}}`, "line 2: "},
		{"not json", "line 1: "},
	} {
		_, err := ReadJSONL(strings.NewReader(tc.in))
		var ue *textfmt.UserError
		if !errors.As(err, &ue) || !strings.HasPrefix(ue.Msg, tc.prefix) || len(ue.Msg) <= len(tc.prefix) {
			t.Errorf("ReadJSONL(%q): %v; want an error starting %q", tc.in, err, tc.prefix)
		}
	}

	long := strings.Repeat(" ", maxJSONLLine+1)
	_, err = ReadJSONL(strings.NewReader("{}\n" + long))
	if err == nil || !strings.HasPrefix(err.Error(), "line 2: longer than 16 MB") {
		t.Errorf("ReadJSONL of an overlong line: %v; want it named as line 2", err)
	}
}
