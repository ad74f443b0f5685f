package keys

import "testing"

func TestInferDelimiter(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		want string
	}{
		{"no keys", nil, "#"},
		{"no delimiter anywhere", []string{"PROFILE", "SETTINGS"}, "#"},
		{"hash", []string{"ORDER#2025-03-01#A17", "PROFILE"}, "#"},
		{"pipe", []string{"ORDER|A17", "PROFILE"}, "|"},
		{"colon", []string{"PROFILE", "ORDER:A17"}, ":"},
		{"slash", []string{"docs/readme"}, "/"},
		{"hash beats colon in a timestamp", []string{"ORDER#2025-03-01T10:00:00"}, "#"},
		{"hash in a later key still wins", []string{"a:b", "c/d", "e|f", "g#h"}, "#"},
		{"pipe beats colon and slash", []string{"a:b/c", "d|e"}, "|"},
		{"colon beats slash", []string{"a/b", "c:d"}, ":"},
		{"empty key", []string{""}, "#"},
		{"delimiter alone is no delimiter", []string{"/"}, "#"},
		{"the colons of timestamps are not a delimiter", []string{"2023-04-01T12:00:00.001Z", "meta"}, "#"},
		{"a leading delimiter counts once", []string{"#META#", "FEATURE:x"}, "#"},
		{"a leading delimiter alone does not count", []string{"#META", "a:b"}, ":"},
		{"double colon", []string{"ORDER::A17", "PROFILE"}, "::"},
		{"double pipe", []string{"ORDER||A17"}, "||"},
		{"double underscore", []string{"ORDER__A17"}, "__"},
		{"value-led keys never choose", []string{"2025-03-01|x", "a/b"}, "/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := InferDelimiter(tt.keys); got != tt.want {
				t.Errorf("InferDelimiter(%q) = %q, want %q", tt.keys, got, tt.want)
			}
		})
	}
}

func TestEntityType(t *testing.T) {
	tests := []struct {
		key, delim         string
		wantEntity, wantPx string
	}{
		{"ORDER#2025-03-01#A17", "#", "ORDER", "ORDER#"},
		{"PROFILE", "#", "PROFILE", "PROFILE"},
		{"PROFILE#1", "#", "PROFILE", "PROFILE#"},
		{"ORDER#", "#", "ORDER", "ORDER#"},
		{"#x", "#", "x", "#x"},
		{"#", "#", "#", "#"},
		{"#METADATA#player001", "#", "METADATA", "#METADATA#"},
		{"#META#", "#", "META", "#META#"},
		{"##x", "#", "", "##"},
		{"::ROOT::1", "::", "ROOT", "::ROOT::"},
		{"2023-04-01T12:00:00.001Z", "#", ShapeTimestamp, ""},
		{"2023-04-01T12:00:00.001Z", ":", ShapeTimestamp, ""},
		{"01", "#", ShapeNumber, ""},
		{"comm#2023-04-30T12:00:24#comm1", "#", "comm", "comm#"},
		{"", "#", "", ""},
		{"ORDER|A17", "|", "ORDER", "ORDER|"},
		{"ORDER|A17", "#", "ORDER", "ORDER|"}, // each key's own delimiter: a migration mixes them
		{"ORDER|2023-05-01|18c1", "#", "ORDER", "ORDER|"},
		{"order/2023/7", "#", "order", "order/"},
		{"user:7#x", "#", "user", "user:"}, // the first delimiter after the label
		{"pass::0007", "::", "pass", "pass::"},
		{"pass::0007", "#", "pass", "pass:"}, // a tie goes to the shorter: "pass:" selects both
		{"a:b", "::", "a:b", "a:b"},          // under "::" a lone ":" is no delimiter
		{"ORDER#A17", "", "ORDER#A17", "ORDER#A17"},
		{"", "", "", ""},
		{"a::b::c", "::", "a", "a::"},
		{"a:::b", "::", "a", "a::"},
		{"ZEIT→2025→x", "→", "ZEIT", "ZEIT→"},
		{"日本#東京", "#", "日本", "日本#"},
		{"A\U0010FFFFB", "\U0010FFFF", "A", "A\U0010FFFF"},
		{"\U0010FFFF\U0010FFFF", "\U0010FFFF", "", "\U0010FFFF\U0010FFFF"},
	}
	for _, tt := range tests {
		entity, prefix := EntityType(tt.key, tt.delim)
		if entity != tt.wantEntity || prefix != tt.wantPx {
			t.Errorf("EntityType(%q, %q) = %q, %q; want %q, %q", tt.key, tt.delim, entity, prefix, tt.wantEntity, tt.wantPx)
		}
	}
}
