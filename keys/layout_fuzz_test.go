package keys

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// layoutTokens are what fuzzed keys are made of: labels, delimiters, digits of
// different widths, date pieces, ElectroDB shapes and multi-byte text.
var layoutTokens = []string{
	"CUST", "ORDER", "user", "v", "$", "$app", "_1", "_", "#", "|", ":", "/", "-", ".",
	"1", "9", "10", "007", "2025", "03", "Mar", "T10:00", "PROFILE", "é", "日", " ",
}

// layoutItems turns fuzz bytes into items: 0xFF ends a partition key, 0xFE a
// sort key (and the item), other bytes pick tokens.
func layoutItems(data []byte) []KeyItem {
	var items []KeyItem
	var pk, b strings.Builder
	libs := []LibraryEntity{{}, {Library: ElectroDB, Entity: "user", Version: "1"}, {Library: DynamoDBToolbox, Entity: "Order"}}
	for _, c := range data {
		switch c {
		case 0xFF:
			pk.Reset()
			pk.WriteString(b.String())
			b.Reset()
		case 0xFE:
			if pk.Len() > 0 {
				items = append(items, KeyItem{PK: pk.String(), SK: b.String(), Library: libs[len(items)%len(libs)], Size: int(c) * len(items) * 97})
			}
			b.Reset()
		default:
			b.WriteString(layoutTokens[int(c)%len(layoutTokens)])
		}
	}
	return items
}

// FuzzAnalyzeLayout checks the layout's invariants on arbitrary keys: every
// item is counted once in its family and once in a type, examples are real
// sampled keys, and the result does not depend on the order of the sample.
func FuzzAnalyzeLayout(f *testing.F) {
	f.Add([]byte("\x00\xff\x01\x0e\xfe\x10\xfe\x11\x0e\x0f\xfe"))
	f.Add([]byte("\x05\x06\x07\xff\x05\x0a\x0e\x0d\x0f\xfe\x05\x0a\x0e\x0e\xfe\x05\x0a\x10\xfe"))
	f.Add([]byte("\x02\x0c\x0e\xff\x14\x0e\x13\x0e\x12\xfe\x02\x0c\x0f\xff\x13\xfe"))
	f.Fuzz(func(t *testing.T, data []byte) {
		items := layoutItems(data)
		for _, skType := range []string{"S", ""} {
			in := LayoutInput{PKType: "S", SKType: skType, Items: items}
			l := AnalyzeLayout(in)
			checkLayout(t, in, l)
			rev := slices.Clone(items)
			slices.Reverse(rev)
			if l2 := AnalyzeLayout(LayoutInput{PKType: "S", SKType: skType, Items: rev}); !reflect.DeepEqual(l, l2) {
				t.Fatalf("order matters:\n%+v\n%+v", l, l2)
			}
		}
	})
}

func checkLayout(t *testing.T, in LayoutInput, l Layout) {
	t.Helper()
	keys := map[KeyRef]bool{}
	parts := map[string]bool{}
	for _, it := range in.Items {
		keys[KeyRef{PK: it.PK, SK: it.SK, HasSK: in.SKType != ""}] = true
		keys[KeyRef{PK: it.PK}] = true
		parts[it.PK] = true
	}
	items, partitions := 0, 0
	for _, f := range l.Families {
		items += f.Items
		partitions += f.Partitions
		if f.Largest.Items == 0 || f.Largest.Family != f.Pattern || f.Partitions == 0 {
			t.Errorf("family %+v", f)
		}
		typed := 0
		for _, ty := range f.Types {
			typed += ty.Items
			if ty.Partitions > f.Partitions || ty.Partitions == 0 || CompareKeys(ty.First, ty.Last, in.SKType) > 0 {
				t.Errorf("type %+v in %s", ty, f.Pattern)
			}
			// A prefix type that folded its bare label in (METADATA beside
			// METADATA#v1, foldBareTypes) starts at that label.
			bare := slices.ContainsFunc(Delimiters, func(d string) bool { return ty.First+d == ty.Prefix })
			if ty.Prefix != "" && utf8.ValidString(ty.First) && !strings.HasPrefix(ty.First, ty.Prefix) && !bare {
				t.Errorf("type %+v: first key lacks the prefix", ty)
			}
		}
		if in.SKType != "" && typed != f.Items {
			t.Errorf("family %s: %d items, %d typed", f.Pattern, f.Items, typed)
		}
	}
	if items != len(in.Items) || partitions != len(parts) || l.Partitions != len(parts) {
		t.Errorf("items %d/%d partitions %d/%d/%d", items, len(in.Items), partitions, l.Partitions, len(parts))
	}
	for i := 1; i < len(l.Largest); i++ {
		if l.Largest[i].Items > l.Largest[i-1].Items {
			t.Errorf("largest not in order: %+v", l.Largest)
		}
	}
	rules := map[string]bool{}
	for _, r := range Rules {
		rules[r.ID] = true
	}
	for _, f := range l.Findings {
		if !rules[f.Rule] || f.Message == "" || !keys[f.Example] {
			t.Errorf("finding %+v", f)
		}
	}
}
