package keys

import (
	"fmt"
	"reflect"
	"testing"

	"dynascope/keys/keystest"
)

// describe writes groups as a practitioner reads them: "ORDER# 2" for a
// prefix type, "=PROFILE" for an exact one, "timestamp 2023-…..2023-… 3" for
// a value group.
func describe(gs []Group) []string {
	var out []string
	for _, g := range gs {
		switch {
		case g.Kind == KindValue:
			out = append(out, fmt.Sprintf("%s %s..%s %d", g.Entity, g.First, g.Last, g.Count))
		case g.Exact:
			out = append(out, fmt.Sprintf("%s =%s", g.Entity, g.Prefix))
		default:
			out = append(out, fmt.Sprintf("%s %s %d", g.Entity, g.Prefix, g.Count))
		}
	}
	return out
}

// TestRealModels groups every partition of every published model as the UI,
// `groups` and `layout` do, and checks the names a practitioner would give.
func TestRealModels(t *testing.T) {
	files, err := keystest.Files(keystest.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if files == nil {
		t.Skip("../shared/real-models is not beside this clone, so the published models can not be read.")
	}
	want := map[string]map[string][]string{
		"aws-dynamodb-examples/ChatSystemSchema.json": {
			// The first complaint: timestamps, not three types split at ':'.
			"User:UserA": {"timestamp 2023-04-01T12:00:00.001Z..2023-04-01T14:00:00.001Z 3"},
			"User:UserB": {"timestamp 2023-04-01T12:00:01.001Z..2023-04-01T12:00:01.001Z 1"},
			"User:UserC": {"timestamp 2023-04-01T12:00:05.001Z..2023-04-01T12:00:05.001Z 1"},
			"Room:Music": {"meta =meta"},
			"Room:Art":   {"meta =meta"},
			"Room:Movie": {"meta =meta"},
		},
		"aws-dynamodb-examples/ComplaintManagementSchema.json": {
			// comm#<timestamp>#commN stays under its label.
			"Complaint123":  {"comm comm# 2", "metadata =metadata"},
			"Complaint1321": {"comm comm# 1", "metadata =metadata"},
			"Complaint1444": {"comm comm# 2", "metadata =metadata"},
			"Complaint0987": {"metadata =metadata"},
		},
		"aws-dynamodb-examples/ConnectedVehiclesSchema.json": {
			// #META# is META (a leading delimiter). F#... is the model's own
			// short feature prefix, so it is a type F beside FEATURE.
			"VIN#WDDJK7DA4FF954840": {"META #META# 1", "F F# 1", "FEATURE FEATURE# 3", "ID ID# 1"},
			"ID#cbrawley0":          {"META #META# 1", "F F# 2", "PREFERENCES PREFERENCES# 2", "VIN VIN# 1"},
		},
		"aws-dynamodb-examples/GamePlayerProfilesSchema.json": {
			// #METADATA#player001 is METADATA, not a type with an empty name.
			// The typo EQUIPMENTS#001EQUIPMENTS#002 still starts with EQUIPMENTS#.
			"player001": {"METADATA #METADATA# 1", "ACTIVITY ACTIVITY# 3", "EQUIPMENTS EQUIPMENTS# 3", "FRIENDS FRIENDS# 1", "ITEMS ITEMS# 3", "TASK TASK# 3"},
		},
		"aws-dynamodb-examples/RecurringPaymentsSchema.json": {
			"ACC#123": {"REC REC# 1", "SUB SUB# 1"},
		},
		"aws-dynamodb-examples/SessionManagementSchema.json": {
			"suuid#c342etj3": {"c c# 1", "child child# 2"},
			"suuid#d0004tj2": {"c c# 1"},
			"suuid#l221et00": {"c c# 1", "child child# 1"},
		},
		"aws-dynamodb-examples/SocialNetworkSchema.json": {
			// The quotes are part of the model's keys ("info" with quotes):
			// exact types named as written.
			"u#12345":           {`"count" ="count"`, `"info" ="info"`},
			"u#12345#follower":  {"u u# 3"},
			"u#12345#following": {"u u# 3"},
			"u#12345#post":      {"p p# 2"},
			"p#12345#likelist":  {"u u# 3"},
			"p#12345#likecount": {`"count" ="count"`},
			"u#12345#timeline":  {"p p# 3"},
		},
		"aws-dynamodb-examples/sample-data.json": {
			// Zero-padded month numbers: one value group, not twelve types.
			"library": {"number 01..12 12"},
			"user100": {"AshlandValley =AshlandValley"},
		},
		"aws-dynamodb-examples/items.json": {
			"USER#4Rl17WTewD6aa1-k73cBJ": {"TASKS TASKS# 6", "USER USER# 1"},
		},
		"amazon-dynamodb-design-patterns/AnOnlineShop_14.json": {
			"c#12345": {"c c# 1"}, "c#23456": {"c c# 1"}, "c#54321": {"c c# 1"},
			"p#12345": {"p p# 1", "w w# 1"},
			"p#99887": {"p p# 1", "w w# 2"},
			"w#12345": {"w w# 1"}, "w#12376": {"w w# 1"},
			"o#12345": {"c c# 1", "i i# 1", "p p# 2", "sh sh# 2", "shp shp# 3"},
		},
		"amazon-dynamodb-design-patterns/AnOnlineShop_facets.json": {
			"c#12345": {"c c# 1"}, "c#23456": {"c c# 1"}, "c#54321": {"c c# 1"},
			"p#12345": {"p p# 1", "w w# 1"},
			"p#99887": {"p p# 1", "w w# 2"},
			"w#12345": {"w w# 1"}, "w#12376": {"w w# 1"},
			"o#12345": {"i i# 1", "p p# 2", "pmn pmn# 2", "sh sh# 2", "shp shp# 3"},
		},
		"amazon-dynamodb-design-patterns/DeviceStateLog_1.json": {
			// A time series: the whole partition is one timestamp group.
			"d#12345": {"timestamp 2020-04-24T14:40:00..2020-04-24T14:55:00 4"},
			"d#54321": {"timestamp 2020-04-11T05:50:00..2020-04-11T09:30:00 5"},
			"d#11223": {"timestamp 2020-04-27T16:10:00..2020-04-27T16:15:00 2"},
		},
		"amazon-dynamodb-design-patterns/DeviceStateLog_7.json": {
			// State#Date: the state is the label, each state a type.
			"d#12345": {"NORMAL NORMAL# 1", "WARNING1 WARNING1# 3"},
			"d#54321": {"NORMAL NORMAL# 2", "WARNING2 WARNING2# 1", "WARNING3 WARNING3# 2"},
			"d#11223": {"WARNING4 WARNING4# 2"},
		},
		"meetinger/Meetinger.json": {
			"USER#arvinje":          {"META =META"},
			"USER#johndoe":          {"META =META"},
			"wLnnMe1XFvAleTXmDPSCv": {"META =META"},
			// User names as sort keys: a judgement call. They are data, but
			// letter-led values interleave with labels in byte order, so no
			// range holds them alone: each stays a type of its own.
			"wLnnMe1XFvAleTXmDPSCv#ATTENDEES": {"arvinje =arvinje", "johndoe =johndoe"},
		},
	}
	if len(files) == 0 {
		t.Fatal("no models found in " + keystest.Dir)
	}
	for rel, f := range files {
		t.Run(rel, func(t *testing.T) {
			exp, ok := want[rel]
			if !ok {
				t.Fatalf("%s: a new model; write down its expected groups", rel)
			}
			parts, err := keystest.Partitions(f)
			if err != nil {
				t.Fatal(err)
			}
			if len(parts) != len(exp) {
				t.Errorf("%d partitions, want %d", len(parts), len(exp))
			}
			for pk, sks := range parts {
				d := InferDelimiter(sks)
				got := describe(GroupSortKeys(sks, "S", d))
				if !reflect.DeepEqual(got, exp[pk]) {
					t.Errorf("partition %q (delimiter %q):\n got %q\nwant %q", pk, d, got, exp[pk])
				}
				// The layout overview of the partition alone names the same types.
				var items []KeyItem
				for _, sk := range sks {
					items = append(items, KeyItem{PK: pk, SK: sk})
				}
				lay := AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items})
				var names []string
				for _, ty := range lay.Families[0].Types {
					names = append(names, ty.Entity+"\x00"+ty.Prefix)
				}
				// groups, the UI and the skip-scan fold ids by their partition
				// (FoldIDs: an attendee list's user names are one group).
				var groups []string
				for _, g := range FoldIDs(pk, GroupSortKeys(sks, "S", d)) {
					groups = append(groups, g.Entity+"\x00"+g.Prefix)
				}
				if !reflect.DeepEqual(names, groups) {
					t.Errorf("partition %q: layout types %q, groups %q", pk, names, groups)
				}
			}
		})
	}
}
