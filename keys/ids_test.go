package keys

import "testing"

func TestIDShape(t *testing.T) {
	for k, want := range map[string]string{
		"a5f0c3d2e1b4":                         ShapeHex,
		"f966c0d2e1b4":                         ShapeHex,
		"f47ac10b-58cc-4372-a567-0e02b2c3d479": ShapeUUID,
		"wLnnMe1XFvAleTXmDPSCv":                ShapeNanoID,
		"abcdefghijklmnopqrstu":                "", // a word, not an id
		"3fa9c0d2e1b4":                         "", // digit-led: a value already
		"PROFILE":                              "",
		"address":                              "",
	} {
		if got := IDShape(k); got != want {
			t.Errorf("IDShape(%q) = %q, want %q", k, got, want)
		}
	}
	const list = "wLnnMe1XFvAleTXmDPSCv#ATTENDEES"
	if !ListOfNames(list, []string{"arvinje", "johndoe"}) || !ListOfNames("p#12345#likelist", []string{"ann", "bo"}) ||
		ListOfNames(list, []string{"arvinje"}) || ListOfNames(list, []string{"arvinje", "PROFILE"}) || ListOfNames(list, []string{"alice", "order#1"}) ||
		ListOfNames("user1", []string{"profile", "v0"}) || ListOfNames("ORG#acme", []string{"settings", "billing"}) {
		t.Error("ListOfNames")
	}
}

// Ids of one shape, digit-led and letter-led, are one value group; a list
// of names is one group; labels between them keep them apart, and the
// second run of one shape is numbered (no two groups share a name).
func TestFoldIDs(t *testing.T) {
	ids := GroupSortKeys([]string{"0a1b2c3d4e5f", "3fa9c0d2e1b4", "PROFILE", "a5f0c3d2e1b4", "c0ffee123456", "f966c0d2e1b4"}, "S", "#")
	got := FoldIDs("TAGS#1", ids)
	want := []Group{
		{Entity: ShapeHex, Kind: KindValue, Count: 2, First: "0a1b2c3d4e5f", Last: "3fa9c0d2e1b4"},
		{Entity: "PROFILE", Prefix: "PROFILE", Kind: KindLabel, Exact: true, Count: 1, First: "PROFILE", Last: "PROFILE"},
		{Entity: ShapeHex + " (2)", Kind: KindValue, Count: 3, First: "a5f0c3d2e1b4", Last: "f966c0d2e1b4"},
	}
	if len(got) != len(want) {
		t.Fatalf("FoldIDs = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("group %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	all := FoldIDs("TAGS#1", GroupSortKeys([]string{"0a1b2c3d4e5f", "a5f0c3d2e1b4", "f966c0d2e1b4"}, "S", "#"))
	if len(all) != 1 || all[0].Entity != ShapeHex || all[0].Count != 3 {
		t.Errorf("hex ids only: %+v", all)
	}
	names := FoldIDs("MEET#1#ATTENDEES", GroupSortKeys([]string{"arvinje", "johndoe"}, "S", "#"))
	if len(names) != 1 || names[0].Entity != ShapeName || names[0].Count != 2 || names[0].First != "arvinje" {
		t.Errorf("names: %+v", names)
	}
}
