package keys

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkOneName holds the surfaces that name an item's type in keys to the
// groups of its partition: for every key of partition pk, the name Names
// gives it is the name of the group whose run holds it, the layout of the
// partition alone lists the groups' types with the groups' names and ends,
// and a stream's SeenNames, once it has seen every key (in any order),
// names each key so too. No two groups share a name.
func checkOneName(t *testing.T, pk string, sks []string, keyType string, seed uint64) {
	t.Helper()
	var valid []string // a partition's sort keys: distinct, and strings valid UTF-8
	for _, k := range sks {
		if (keyType != "S" || utf8.ValidString(k)) && !slices.Contains(valid, k) {
			valid = append(valid, k)
		}
	}
	names := NamesOfKeys(pk, valid, keyType, "")
	groups := names.Groups()
	seen := map[string]bool{}
	for _, g := range groups {
		if seen[g.Entity] {
			t.Fatalf("partition %q, keys %q: two groups named %q: %+v", pk, valid, g.Entity, groups)
		}
		seen[g.Entity] = true
	}
	holder := func(k string) (Group, bool) {
		for _, g := range groups {
			lo, hi := g.First, g.Last
			if CompareKeys(lo, hi, keyType) > 0 {
				lo, hi = hi, lo
			}
			if CompareKeys(k, lo, keyType) >= 0 && CompareKeys(k, hi, keyType) <= 0 {
				return g, true
			}
		}
		return Group{}, false
	}
	for _, k := range valid {
		g, ok := holder(k)
		if !ok {
			t.Fatalf("partition %q: no group's run holds %q: %+v", pk, k, groups)
		}
		if got := names.Name(k); got != g.Entity {
			t.Fatalf("partition %q, keys %q: Name(%q) = %q; its group is %q (%+v)", pk, valid, k, got, g.Entity, groups)
		}
	}

	// The layout of this one partition.
	in := LayoutInput{PKType: "S", SKType: keyType}
	for _, k := range valid {
		in.Items = append(in.Items, KeyItem{PK: pk, SK: k})
	}
	if len(valid) > 0 {
		lay := AnalyzeLayout(in)
		if len(lay.Families) != 1 {
			t.Fatalf("partition %q: %d families", pk, len(lay.Families))
		}
		var got, want []string
		for _, ty := range lay.Families[0].Types {
			got = append(got, ty.Entity+" "+ty.First+".."+ty.Last)
		}
		for _, g := range groups {
			want = append(want, g.Entity+" "+g.First+".."+g.Last)
		}
		if !slices.Equal(got, want) && !layoutFoldsNames(groups) {
			t.Fatalf("partition %q, keys %q: the layout's types\n%q\nare not the groups'\n%q", pk, valid, got, want)
		}
	}

	// A stream: every key seen once in some order, then each named again.
	s := NewSeenNames(keyType, "")
	order := slices.Clone(valid)
	rand.New(rand.NewPCG(seed, 7)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	for _, k := range order {
		s.Name(pk, k)
	}
	for _, k := range valid {
		if got, want := s.Name(pk, k), names.Name(k); got != want {
			t.Fatalf("partition %q, keys %q: the stream names %q %q after seeing every key; the groups %q", pk, valid, k, got, want)
		}
	}
}

// layoutFoldsNames tells the one case where the layout departs from the
// groups on purpose (see layout.go): more than maxExactTypes exact types.
func layoutFoldsNames(groups []Group) bool {
	n := 0
	for _, g := range groups {
		if g.Kind == KindLabel && g.Exact {
			n++
		}
	}
	return n > maxExactTypes
}

func TestOneNameHardShapes(t *testing.T) {
	tests := []struct {
		name, pk, keyType string
		keys              []string
		want              map[string]string // some keys' names, checked too
	}{
		{
			name: "mixed delimiters", pk: "CUST#42", keyType: "S",
			keys: []string{"ORDER#2023-01-02#a1", "ORDER#2023-02-03#b2", "ORDER|2023-05-01|18c1", "ORDER|2023-05-02|19d2", "order/2023/7", "PROFILE"},
			want: map[string]string{"ORDER|2023-05-01|18c1": "ORDER|", "ORDER#2023-01-02#a1": "ORDER", "order/2023/7": "order"},
		},
		{
			name: "one delimiter that is not #", pk: "CUST#43", keyType: "S",
			keys: []string{"ORDER|2023-05-01|18c1", "ORDER|2023-05-02|19d2", "PROFILE"},
			want: map[string]string{"ORDER|2023-05-01|18c1": "ORDER"},
		},
		{
			name: "a bare label and its versions", pk: "TENANT#1", keyType: "S",
			keys: []string{"METADATA", "METADATA#v1", "METADATA#v2", "TYPES", "TYPES#v2"},
			want: map[string]string{"METADATA": "METADATA", "METADATA#v1": "METADATA", "TYPES": "TYPES"},
		},
		{
			name: "letter-led hex ids", pk: "BUCKET#7", keyType: "S",
			keys: []string{"18c1a2b3c4d5", "6a1b2c3d4e5f", "a5f0c3d2e1b4", "f966e1d2c3b4"},
			want: map[string]string{"a5f0c3d2e1b4": ShapeHex, "18c1a2b3c4d5": ShapeHex},
		},
		{
			name: "user names under a list", pk: "wLnnMe1XFvAleTXmDPSCv#ATTENDEES", keyType: "S",
			keys: []string{"arvinje", "john.doe", "mary_k"},
			want: map[string]string{"arvinje": ShapeName},
		},
		{
			name: "compact timestamps and a label", pk: "DEVICE#9", keyType: "S",
			keys: []string{"2019-09-24T010101", "2019-09-25T020202", "20190926T030303", "META"},
			want: map[string]string{"2019-09-24T010101": ShapeTimestamp, "META": "META"},
		},
		{
			name: "a two-character delimiter", pk: "USER#1", keyType: "S",
			keys: []string{"pass::0007", "pass::0008", "pass:x", "profile"},
			want: map[string]string{"pass::0007": "pass"},
		},
		{
			name: "number sort keys", pk: "SENSOR#1", keyType: "N",
			keys: []string{"-3", "7", "42", "1700000000000"},
			want: map[string]string{"42": NumberEntity},
		},
		{
			// The exact key f47… clashes with the prefix type :f47…: until
			// FoldIDs makes it an id: the prefix type gets its label back.
			name: "a prefix type and an id of its label", pk: "CUST#44", keyType: "S",
			keys: []string{":f47ac10b-58cc-4372-a567-0e02b2c3d479:", "f47ac10b-58cc-4372-a567-0e02b2c3d479"},
			want: map[string]string{":f47ac10b-58cc-4372-a567-0e02b2c3d479:": "f47ac10b-58cc-4372-a567-0e02b2c3d479", "f47ac10b-58cc-4372-a567-0e02b2c3d479": ShapeUUID},
		},
		{
			name: "labels and values together", pk: "CUST#42", keyType: "S",
			keys: []string{"#META#x", "META#y", "2024-03-01T10:00:00Z", "ORDER", "ORDER#1", "ORDER|2"},
		},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkOneName(t, tt.pk, tt.keys, tt.keyType, uint64(i))
			n := NamesOfKeys(tt.pk, tt.keys, tt.keyType, "")
			s := NewSeenNames(tt.keyType, "")
			for _, k := range tt.keys {
				s.Name(tt.pk, k)
			}
			for k, want := range tt.want {
				if got := n.Name(k); got != want {
					t.Errorf("Name(%q) = %q, want %q (groups %+v)", k, got, want, n.Groups())
				}
				if got := s.Name(tt.pk, k); got != want {
					t.Errorf("the stream names %q %q, want %q", k, got, want)
				}
			}
		})
	}
}

// A stream names a key by what it has seen of its partition: a name can
// change once, when a type that takes it first shows up.
func TestSeenNamesFirstSightAndUnknownKeys(t *testing.T) {
	s := NewSeenNames("S", "")
	// Before ORDER#… is seen, ORDER|… is the partition's only ORDER.
	if got := s.Name("CUST#42", "ORDER|2023-05-01|18c1"); got != "ORDER" {
		t.Errorf("first ORDER|: %q, want ORDER", got)
	}
	if got := s.Name("CUST#42", "ORDER#2023-01-02#a1"); got != "ORDER" {
		t.Errorf("ORDER#: %q, want ORDER", got)
	}
	if got := s.Name("CUST#42", "ORDER|2023-05-02|19d2"); got != "ORDER|" {
		t.Errorf("ORDER| once ORDER# was seen: %q, want ORDER|", got)
	}
	// Another partition has its own names.
	if got := s.Name("CUST#43", "ORDER|2023-05-01|18c1"); got != "ORDER" {
		t.Errorf("ORDER| in another partition: %q, want ORDER", got)
	}
	// A key the groups do not hold never takes a name they have.
	n := NamesOfKeys("CUST#42", []string{"ORDER#1", "PROFILE"}, "S", "")
	if got := n.Name("ORDER|9"); got != "ORDER|" {
		t.Errorf("an ORDER| key beside the groups' ORDER: %q, want ORDER|", got)
	}
	if got := n.Name("ORDER#77"); got != "ORDER" {
		t.Errorf("a further ORDER# key: %q, want ORDER", got)
	}
	if got := n.Name("2024-03-01"); got != ShapeDate {
		t.Errorf("a date the groups have not seen: %q, want %q", got, ShapeDate)
	}
}

// oneNameTokens are the pieces FuzzOneName builds keys from: the labels,
// delimiters and values of the hard shapes above.
var oneNameTokens = []string{
	"ORDER", "order", "METADATA", "TYPES", "PROFILE", "pass", "v1", "#", "|", "/", "::", ":",
	"2019-09-24T010101", "20190925T010101", "2024-03-01", "0007", "42", "a5f0c3d2e1b4", "f966e1d2c3b4",
	"18c1a2b3c4d5", "f47ac10b-58cc-4372-a567-0e02b2c3d479", "arvinje", "mary_k", "x", "é",
}

var oneNamePartitions = []string{"CUST#42", "EVENT#7#ATTENDEES", "user42", "wLnnMe1XFvAleTXmDPSCv", "ORDER|9"}

// oneNameKeys turns fuzz bytes into sort keys: each byte picks a token, one
// value more ends the key.
func oneNameKeys(data []byte) []string {
	var out []string
	var b strings.Builder
	for _, c := range data {
		i := int(c) % (len(oneNameTokens) + 1)
		if i == len(oneNameTokens) {
			out = append(out, b.String())
			b.Reset()
			continue
		}
		b.WriteString(oneNameTokens[i])
	}
	return append(out, b.String())
}

// FuzzOneName: for a generated partition, every surface in keys names each
// item as the groups name its type (checkOneName).
func FuzzOneName(f *testing.F) {
	f.Add([]byte{0, 7, 12, 25, 0, 8, 13, 25, 1, 9, 16, 25, 4}, byte(0))
	f.Add([]byte{2, 25, 2, 7, 6, 25, 3, 25, 3, 7, 6}, byte(0))
	f.Add([]byte{17, 25, 18, 25, 19, 25, 20}, byte(4))
	f.Add([]byte{21, 25, 22, 25, 23}, byte(1))
	f.Add([]byte{12, 25, 13, 25, 2}, byte(3))
	f.Add([]byte{5, 10, 15, 25, 5, 10, 15, 25, 5, 11, 23}, byte(2))
	f.Fuzz(func(t *testing.T, data []byte, part byte) {
		if len(data) > 400 {
			return
		}
		pk := oneNamePartitions[int(part)%len(oneNamePartitions)]
		checkOneName(t, pk, oneNameKeys(data), "S", uint64(len(data)))
	})
}

// Past SeenPartitions a new partition's keys are named by their own class
// alone and nothing of it is kept; the partitions seen keep their names.
func TestSeenNamesBounded(t *testing.T) {
	s := NewSeenNames("S", "")
	for i := range SeenPartitions {
		s.Name(fmt.Sprintf("P#%d", i), "ORDER#1")
	}
	if got := s.Name("P#new", "ORDER|2"); got != "ORDER" {
		t.Errorf("a partition past the bound: %q, want ORDER (its key alone)", got)
	}
	if len(s.keys) != SeenPartitions || len(s.names) > SeenPartitions {
		t.Errorf("kept %d partitions' keys and %d names, want at most %d", len(s.keys), len(s.names), SeenPartitions)
	}
	if got := s.Name("P#0", "ORDER|2"); got != "ORDER|" {
		t.Errorf("a partition seen before: %q, want ORDER| beside its ORDER#", got)
	}
}

// BenchmarkSeenNames is tail's cost a record: a key seen before in a
// partition holding SeenKeys keys of mixed shapes (its names cached), a
// key that makes them again from every key kept (a value run's), and a
// new key of a prefix type already named (cached still).
func BenchmarkSeenNames(b *testing.B) {
	s := NewSeenNames("S", "")
	for i := range SeenKeys - 1 {
		switch i % 3 {
		case 0:
			s.Name("CUST#42", fmt.Sprintf("ORDER#2025-%05d", i))
		case 1:
			s.Name("CUST#42", fmt.Sprintf("ORDER|2023|%05d", i))
		default:
			s.Name("CUST#42", fmt.Sprintf("2024-03-01T10:%05d", i))
		}
	}
	b.Run("seen", func(b *testing.B) {
		for b.Loop() {
			s.Name("CUST#42", "ORDER#2025-00000")
		}
	})
	b.Run("new value", func(b *testing.B) {
		for b.Loop() {
			delete(s.names, "CUST#42") // as a key not seen of a value run does
			s.Name("CUST#42", "ORDER#2025-00000")
		}
	})
	b.Run("new order", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			s.Name(fmt.Sprintf("CUST#%d", 43+i/(SeenKeys-2)), fmt.Sprintf("ORDER#2026-%05d", i)) // a new key of a type named
		}
	})
}

// UniqueNames undoes only its own renaming: a key that reads "X (2)" or
// "X (exact)" is a name of its own, and a renamed group alone again has
// its label back.
func TestUniqueNamesUndoesItsOwnNames(t *testing.T) {
	lone := []Group{
		{Entity: "foo (2)", Prefix: "foo (2)", Kind: KindLabel, Exact: true, First: "foo (2)", Last: "foo (2)"},
		{Entity: "bar (exact)", Prefix: "bar (exact)", Kind: KindLabel, Exact: true, First: "bar (exact)", Last: "bar (exact)"},
		{Entity: "ORDER|", Prefix: "ORDER|", Kind: KindLabel, First: "ORDER|1", Last: "ORDER|2"},
		{Entity: "hex id (2)", Kind: KindValue, First: "a5f0c3d2e1b4", Last: "a5f0c3d2e1b4"},
		{Entity: "META (exact)", Prefix: "META", Kind: KindLabel, Exact: true, First: "META", Last: "META"},
	}
	var got []string
	for _, g := range UniqueNames(lone) {
		got = append(got, g.Entity)
	}
	if want := []string{"foo (2)", "bar (exact)", "ORDER", ShapeHex, "META"}; !slices.Equal(got, want) {
		t.Errorf("UniqueNames = %q, want %q", got, want)
	}
}
