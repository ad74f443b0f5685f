package ui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/keys"
	"dynascope/keys/keystest"
)

// The CLI and the UI name a partition's entity types from one entity table
// (keys.EntityTable), by different paths: `groups` fills it from dynamo's
// skip-scan or whole read (Discover), the layout, tail and index try from
// the keys they sampled (keys.NamesOfKeys), and the types pane from the
// pages it loads a few at a time, forward or backward, with the skip-scan's
// groups arriving from both ends and then all at once. These tests feed the
// same keys down each path and require the same types: names, counts and
// ends, in the same order.

// typeLines are a pane's types as a reader sees them: name, count (when
// counts, else "-"), first and last key, in sort-key order.
func typeLines(g groupsPane, counts bool) []string {
	var out []string
	for i, r := range g.types() {
		n := "-"
		if counts {
			n = g.countText(i + 1)
		}
		out = append(out, fmt.Sprintf("%s %s %q..%q", r.Entity, n, r.First, r.Last))
	}
	return out
}

// groupLines are groups (in DynamoDB's order, reverse when read so) as the
// same lines, in sort-key order; a count groups did not give is "?".
func groupLines(gs []keys.Group, reverse, counts bool) []string {
	var out []string
	for _, g := range gs {
		n, lo, hi := "-", g.First, g.Last
		if counts {
			n = "?"
			if g.Count >= 0 {
				n = strconv.Itoa(g.Count)
			}
		}
		if reverse {
			lo, hi = hi, lo
		}
		out = append(out, fmt.Sprintf("%s %s %q..%q", g.Entity, n, lo, hi))
	}
	if reverse {
		slices.Reverse(out)
	}
	return out
}

// loadPane loads the whole partition into a types pane in pages of size
// items (all at once for 0), forward or backward, as the UI's whole-
// partition query and its n keys do.
func loadPane(pk string, sks []string, size int, reverse bool) groupsPane {
	ks := slices.Clone(sks)
	if reverse {
		slices.Reverse(ks)
	}
	if size <= 0 {
		size = len(ks) + 1
	}
	delim := ""
	g := newGroupsPane("S", true)
	for at := 0; at == 0 || at < len(ks); at += size {
		page := ks[at:min(at+size, len(ks))]
		items := make([]dynamo.Item, len(page))
		for i, k := range page {
			items[i] = dynamo.Item{"PK": s(pk), "SK": s(k)}
		}
		more := at+size < len(ks)
		if at == 0 {
			delim = keys.InferDelimiter(page) // as the UI infers it from its first page
			g = g.reset(pk, items, "SK", delim, more, reverse)
		} else {
			g = g.add(items, "SK", delim, more)
		}
	}
	return g
}

// sortKeysOf are a partition's sort keys as DynamoDB holds them:
// distinct, valid UTF-8, not empty, in byte order.
func sortKeysOf(sks []string) []string {
	var out []string
	for _, k := range sks {
		if k != "" && utf8.ValidString(k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// checkPanePaths holds the types pane, loaded in pages of every size from
// one to the partition and in both directions, and the pane that saw one
// page and then the skip-scan's groups (one by one, from both ends, then
// all), to the types keys names by when it has every key (the layout's,
// tail's and index try's path, keys.NamesOfKeys), and to the groups of all
// the keys at once (GroupSortKeys, ids folded), which the skip-scan finds.
func checkPanePaths(t *testing.T, pk string, sks []string, sizes []int) {
	t.Helper()
	sks = sortKeysOf(sks)
	if len(sks) == 0 {
		return
	}
	delim := keys.InferDelimiter(sks)
	names := keys.NamesOfKeys(pk, sks, "S", "")
	want := groupLines(names.Groups(), false, true)
	wantNames := groupLines(names.Groups(), false, false)
	all := keys.FoldIDs(pk, keys.GroupSortKeys(sks, "S", delim))
	if got := groupLines(all, false, true); !slices.Equal(got, want) {
		t.Fatalf("partition %q, keys %q: the groups of every key\n%q\nthe names' groups\n%q", pk, sks, got, want)
	}
	for _, size := range sizes {
		for _, reverse := range []bool{false, true} {
			g := loadPane(pk, sks, size, reverse)
			if got := typeLines(g, true); !slices.Equal(got, want) {
				t.Fatalf("partition %q, keys %q, pages of %d, reverse %v: the pane\n%q\nthe groups\n%q", pk, sks, size, reverse, got, want)
			}
			for _, k := range sks {
				if a, b := g.keyNames(delim).Name(k), names.Name(k); a != b {
					t.Fatalf("partition %q, keys %q, pages of %d: the live pane names %q %q, the groups %q", pk, sks, size, k, a, b)
				}
			}
			if size <= 0 || size >= len(sks) {
				continue
			}
			// One page, then the skip-scan (always forward in the UI): its
			// groups arrive one by one, the halves' out of order, then all
			// at once. Counts are known only as far as loaded, so the names
			// and ends are compared.
			g = firstPage(pk, sks, size, reverse, delim)
			walked := slices.Clone(all)
			for i := range walked {
				walked[i].Count = -1
			}
			for i := range walked {
				j := i / 2 // the halves: one from each end in turn
				if i%2 == 1 {
					j = len(walked) - 1 - i/2
				}
				g = g.arrived(walked[j], delim)
			}
			g = g.discovered(dynamo.Discovery{KeyType: "S", Delimiter: delim, Groups: walked}, delim)
			if got := typeLines(g, false); !agreeUpToUnread(got, wantNames) {
				t.Fatalf("partition %q, keys %q, a page of %d (reverse %v) and the skip-scan: the pane\n%q\nthe groups\n%q", pk, sks, size, reverse, got, wantNames)
			}
		}
	}
}

// firstPage loads the first page of size keys (the last ones, backward)
// into a fresh pane as the partition's first page, more to come.
func firstPage(pk string, sks []string, size int, reverse bool, delim string) groupsPane {
	page := sks[:size]
	if reverse {
		page = slices.Clone(sks[len(sks)-size:])
		slices.Reverse(page)
	}
	items := make([]dynamo.Item, len(page))
	for i, k := range page {
		items[i] = dynamo.Item{"PK": s(pk), "SK": s(k)}
	}
	return newGroupsPane("S", true).reset(pk, items, "SK", delim, true, reverse)
}

// hardShapes are partitions of the key shapes that took naming work: a
// migration's delimiters, bare labels beside their suffixed forms, runs of
// ids around a label, a list of names, compact timestamps, doubled
// delimiters, leading delimiters, a version history.
var hardShapes = []struct {
	pk  string
	sks []string
}{
	{"CUST#42", []string{"ORDER#2023-01-02#a1", "ORDER#2023-02-03#b2", "ORDER|2023-05-01|18c1", "order/2023/7", "PROFILE"}},
	{"TENANT#1", []string{"METADATA", "METADATA#v1", "METADATA#v2", "TYPES", "TYPES#v2"}},
	{"BUCKET#7", []string{"18c1a2b3c4d5", "6a1b2c3d4e5f", "a5f0c3d2e1b4", "f966e1d2c3b4"}},
	{"BUCKET#8", []string{"18c1a2b3c4d5", "6a1b2c3d4e5f", "PROFILE", "a5f0c3d2e1b4", "f966e1d2c3b4"}},
	{"USER#1", []string{"PROFILE", "a5f0c3d2e1b4"}},
	{"MEET#1#ATTENDEES", []string{"arvinje", "john.doe", "mary_k"}},
	{"DEVICE#9", []string{"2019-09-24T010101", "2019-09-25T020202", "META"}},
	{"USER#2", []string{"pass::0007", "pass::0008", "profile"}},
	{"CUST#43", []string{"#META#x", "2024-03-01T10:00:00Z", "META#y", "ORDER", "ORDER#1", "ORDER|2"}},
	{"DOC#1", []string{"v0", "v1", "v2", "v3_2024", "v10"}},
	{"EV#1", []string{"2024-03-01T10:00:00Z", "2024-03-02T10:00:00Z", "JOB#1", "JOB#2", "META", "USER#0001", "USER#0002"}},
	{"IDS#1", []string{"0a1b2c3d4e5f", "3fa9c0d2e1b4", "a5f0c3d2e1b4", "c0ffee123456", "f966c0d2e1b4", "f47ac10b-58cc-4372-a567-0e02b2c3d479"}},
}

func TestTypesPanePathsAgree(t *testing.T) {
	for _, p := range hardShapes {
		t.Run(p.pk, func(t *testing.T) {
			checkPanePaths(t, p.pk, p.sks, []int{0, 1, 2, 3})
		})
	}
}

// FuzzTypesPanePaths: for any partition (its sort keys one a line), every
// path into the types pane lists the types keys names by, and the groups of
// every key at once.
func FuzzTypesPanePaths(f *testing.F) {
	for _, p := range hardShapes {
		f.Add(strings.Join(p.sks, "\n"), p.pk, uint8(2))
	}
	f.Fuzz(func(t *testing.T, text, pk string, size uint8) {
		if len(text) > 2000 {
			return
		}
		checkPanePaths(t, pk, strings.Split(text, "\n"), []int{0, 1 + int(size)%7})
	})
}

// TestTypesCLIAndUIAgreeOnLocal puts the hard shapes, the CLI's key-shape
// fixtures and every published model of ../shared/real-models into
// DynamoDB Local, and for each partition holds `groups` (Discover: the
// skip-scan and --count, forward and --reverse) and the types pane (the
// whole partition read in pages; its first page and the skip-scan that
// walks on from it, its groups arriving as they are found) to the same
// types: names, counts and order.
func TestTypesCLIAndUIAgreeOnLocal(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	sources := map[string]map[string][]string{"hard shapes": {}, "key shapes": {}}
	for _, p := range hardShapes {
		sources["hard shapes"][p.pk] = sortKeysOf(p.sks)
	}
	shapes, err := keystest.Keys(keystest.KeyShapes)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range shapes {
		sources["key shapes"][k.PK] = append(sources["key shapes"][k.PK], k.SK)
	}
	files, err := keystest.Files(keystest.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if files == nil {
		t.Log("../shared/real-models is not beside this clone: the published models are left out.")
	}
	for rel, path := range files {
		parts, err := keystest.Partitions(path)
		if err != nil {
			t.Fatal(err)
		}
		sources[rel] = parts
	}
	api := dynamotest.SDK(t)
	client, _, _ := localClient(t, ep)
	n := 0
	for _, parts := range sources {
		n += len(parts)
	}
	t.Logf("%d partitions of %d sources", n, len(sources))
	var wg sync.WaitGroup
	for name, parts := range sources {
		wg.Go(func() {
			table := dynamotest.Table(t, api, dynamotest.PKSK())
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			var items []dynamo.Item
			for pk, sks := range parts {
				parts[pk] = sortKeysOf(sks)
				for _, sk := range parts[pk] {
					items = append(items, dynamo.Item{"PK": s(pk), "SK": s(sk)})
				}
			}
			if _, err := dynamo.Seed(ctx, api, table, items, dynamo.SeedOptions{}); err != nil {
				t.Errorf("%s: %v", name, err)
				return
			}
			for pk, sks := range parts {
				if err := checkLocalPaths(ctx, client, table, pk, sks); err != nil {
					t.Errorf("%s, partition %q: %v", name, pk, err)
				}
			}
		})
	}
	wg.Wait()
}

// checkLocalPaths runs the CLI's and the UI's paths over partition pk of
// table (its sort keys sks) and says where they part.
func checkLocalPaths(ctx context.Context, c *dynamo.Client, table, pk string, sks []string) error {
	discover := func(in dynamo.DiscoverInput) ([]keys.Group, []keys.Group, string, error) {
		in.Table, in.PK = table, pk
		var arrived []keys.Group
		var mu sync.Mutex
		in.OnGroup = func(g keys.Group) { mu.Lock(); arrived = append(arrived, g); mu.Unlock() }
		d, err := c.Discover(ctx, in)
		return d.Groups, arrived, d.Delimiter, err
	}
	counted, _, _, err := discover(dynamo.DiscoverInput{Count: true})
	if err != nil {
		return err
	}
	want, wantNames := groupLines(counted, false, true), groupLines(counted, false, false)
	for _, reverse := range []bool{false, true} {
		gs, _, _, err := discover(dynamo.DiscoverInput{Count: true, Reverse: reverse})
		if err != nil {
			return err
		}
		if got := groupLines(gs, reverse, true); !slices.Equal(got, want) {
			return fmt.Errorf("groups --count (reverse %v)\n%q\ngroups --count\n%q", reverse, got, want)
		}
		gs, _, _, err = discover(dynamo.DiscoverInput{Reverse: reverse, Budget: dynamo.Budget{MaxRequests: -1}})
		if err != nil {
			return err
		}
		if got := groupLines(gs, reverse, false); !agreeUpToUnread(got, wantNames) {
			return fmt.Errorf("groups (skip-scan, reverse %v)\n%q\ngroups --count\n%q", reverse, got, wantNames)
		}
		for _, limit := range []int32{1, 2, 3} {
			// The whole partition in pages, as the UI's query and n load it.
			g := newGroupsPane("S", true)
			delim := ""
			q := dynamo.QueryInput{Table: table, PK: pk, Reverse: reverse, Limit: limit}
			for page := 0; ; page++ {
				p, err := c.Query(ctx, q)
				if err != nil {
					return err
				}
				more := p.LastEvaluatedKey != nil
				if page == 0 {
					delim = keys.InferDelimiter(keysOfItems(p.Items))
					g = g.reset(pk, p.Items, "SK", delim, more, reverse)
				} else {
					g = g.add(p.Items, "SK", delim, more)
				}
				if !more {
					break
				}
				q.StartKey = p.LastEvaluatedKey
			}
			if got := typeLines(g, true); !slices.Equal(got, want) {
				return fmt.Errorf("the pane read in pages of %d (reverse %v)\n%q\ngroups --count\n%q", limit, reverse, got, want)
			}
			if reverse {
				continue // the UI's skip-scan walks forward only
			}
			// Its first page, then the skip-scan from it.
			p, err := c.Query(ctx, dynamo.QueryInput{Table: table, PK: pk, Limit: limit})
			if err != nil {
				return err
			}
			delim = keys.InferDelimiter(keysOfItems(p.Items))
			g = newGroupsPane("S", true).reset(pk, p.Items, "SK", delim, p.LastEvaluatedKey != nil, false)
			if p.LastEvaluatedKey == nil {
				continue
			}
			found, arrived, walked, err := discover(dynamo.DiscoverInput{Delimiter: delim, First: &p, Budget: dynamo.Budget{MaxRequests: -1}})
			if err != nil {
				return err
			}
			for _, a := range arrived {
				g = g.arrived(a, delim)
			}
			if delim == "" {
				delim = walked
			}
			g = g.discovered(dynamo.Discovery{KeyType: "S", Delimiter: walked, Groups: found}, delim)
			if got := typeLines(g, false); !agreeUpToUnread(got, wantNames) {
				return fmt.Errorf("the pane's first page of %d and its skip-scan\n%q\ngroups --count\n%q", limit, got, wantNames)
			}
		}
	}
	return nil
}

// agreeUpToUnread tells whether a skip-scan's lines are a whole read's:
// the same names and counts in the same order, and the same ends except
// one the skip-scan did not read (""), which it reads of a prefix type
// only where that is free (dynamo's Discover); never both.
func agreeUpToUnread(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		gHead, gLast, ok1 := strings.Cut(g, `".."`)
		wHead, wLast, ok2 := strings.Cut(w, `".."`)
		gName, gFirst, ok3 := strings.Cut(gHead, ` "`)
		wName, wFirst, ok4 := strings.Cut(wHead, ` "`)
		switch {
		case !ok1 || !ok2 || !ok3 || !ok4 || gName != wName,
			gFirst == "" && gLast == `"`,
			gFirst != "" && gFirst != wFirst,
			gLast != `"` && gLast != wLast:
			return false
		}
	}
	return true
}

// keysOfItems are the sort keys of items.
func keysOfItems(items []dynamo.Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = keyOf(it, "SK")
	}
	return out
}
