package keys

import (
	"slices"
	"testing"
)

// names runs UniqueNames and gives each group as "prefix=name".
func names(groups ...Group) []string {
	var out []string
	for _, g := range UniqueNames(groups) {
		out = append(out, g.Prefix+"="+g.Entity)
	}
	return out
}

// Who keeps a shared name, at each rank's edge, whatever the order: a "/"
// type before a value group; a "|" type before one led by a delimiter; of
// two exact types the smaller prefix. A third value group of one name is
// numbered on (3), not back.
func TestUniqueNamesRanks(t *testing.T) {
	slash := Group{Entity: "timestamp", Prefix: "timestamp/", Kind: KindLabel, First: "timestamp/1"}
	value := Group{Entity: "timestamp", Kind: KindValue, First: "2024-01-01T10:00:00Z"}
	pipe := Group{Entity: "ORDER", Prefix: "ORDER|", Kind: KindLabel, First: "ORDER|1"}
	led := Group{Entity: "ORDER", Prefix: "#ORDER#", Kind: KindLabel, First: "#ORDER#1"}
	exact := Group{Entity: "ORDER", Prefix: "ORDER", Kind: KindLabel, Exact: true, First: "ORDER"}
	ledExact := Group{Entity: "ORDER", Prefix: "#ORDER", Kind: KindLabel, Exact: true, First: "#ORDER"}
	for _, tc := range []struct {
		a, b Group
		want []string
	}{
		{slash, value, []string{"timestamp/=timestamp", "=timestamp (2)"}},
		{pipe, led, []string{"ORDER|=ORDER", "#ORDER#=#ORDER#"}},
		{exact, ledExact, []string{"ORDER=ORDER (exact)", "#ORDER=ORDER"}},
	} {
		if got := names(tc.a, tc.b); !slices.Equal(got, tc.want) {
			t.Errorf("names = %q, want %q", got, tc.want)
		}
		want := []string{tc.want[1], tc.want[0]}
		if got := names(tc.b, tc.a); !slices.Equal(got, want) {
			t.Errorf("the other way round: names = %q, want %q", got, want)
		}
	}
	hex := func(first string) Group { return Group{Entity: "hex id", Kind: KindValue, First: first} }
	if got, want := names(hex("0a"), hex("1b"), hex("2c")), []string{"=hex id", "=hex id (2)", "=hex id (3)"}; !slices.Equal(got, want) {
		t.Errorf("three value groups: %q, want %q", got, want)
	}
}

// Two runs of one id shape share their prefix (none): the run whose first
// key comes first keeps the name, in whichever order the groups come.
func TestUniqueNamesSamePrefixByFirstKey(t *testing.T) {
	early := Group{Entity: ShapeHex, Kind: KindValue, First: "0a1b2c3d4e5f", Last: "0fffffffffff"}
	late := Group{Entity: ShapeHex, Kind: KindValue, First: "a0b1c2d3e4f5", Last: "afffffffffff"}
	for _, in := range [][]Group{{early, late}, {late, early}} {
		for _, g := range UniqueNames(in) {
			if want := map[string]string{early.First: ShapeHex, late.First: ShapeHex + " (2)"}[g.First]; g.Entity != want {
				t.Errorf("%s named %q, want %q", g.First, g.Entity, want)
			}
		}
	}
}
