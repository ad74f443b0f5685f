package dynamo

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func testCache(t *testing.T, dir, endpoint, profile string) *schemaCache {
	t.Helper()
	c := newSchemaCache(Options{Endpoint: endpoint, Profile: profile, SchemaCacheDir: dir}, "us-east-1")
	if c == nil {
		t.Fatal("no cache for a directory given")
	}
	return c
}

func cacheTable() Table {
	return Table{
		Name: "App", PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "SK", Type: "S"},
		ItemCount: 21067, SizeBytes: 4 << 20, Status: "ACTIVE", BillingMode: "PAY_PER_REQUEST",
		Indexes: []Index{
			{Name: "GSI1", Kind: GSI, PK: KeyAttr{Name: "GSI1PK", Type: "S"}, SK: &KeyAttr{Name: "GSI1SK", Type: "N"}, Projection: "INCLUDE", NonKeyAttr: []string{"total"}, ItemCount: 5},
			{Name: "LSI1", Kind: LSI, PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "created", Type: "B"}, Projection: "KEYS_ONLY"},
		},
	}
}

// What comes back is the key schema and nothing that goes stale by the
// hour: counts, sizes and status stay with DescribeTable.
func TestSchemaCacheRoundTrip(t *testing.T) {
	dir := t.TempDir()
	c := testCache(t, dir, "http://127.0.0.1:8000", "")
	if _, ok := c.load("App"); ok {
		t.Fatal("an empty cache has no entries")
	}
	c.save(cacheTable())
	got, ok := c.load("App")
	if !ok {
		t.Fatal("the saved entry is not found")
	}
	want := cacheTable()
	want.ItemCount, want.SizeBytes, want.Status, want.BillingMode = 0, 0, "", ""
	want.Indexes[0].ItemCount = 0
	if !reflect.DeepEqual(got, want) {
		t.Errorf("loaded %+v\nwant   %+v", got, want)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || !strings.HasPrefix(entries[0].Name(), "App-") || !strings.HasSuffix(entries[0].Name(), ".json") {
		t.Fatalf("files: %v", entries)
	}
	if info, _ := entries[0].Info(); info.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", info.Mode().Perm())
	}
	raw, _ := os.ReadFile(filepath.Join(dir, entries[0].Name()))
	for _, stale := range []string{"21067", "ACTIVE", "PAY_PER_REQUEST"} {
		if strings.Contains(string(raw), stale) {
			t.Errorf("the file holds %s: %s", stale, raw)
		}
	}

	c.forget("App")
	if _, ok := c.load("App"); ok {
		t.Error("a forgotten entry is still found")
	}
}

// The key is endpoint-or-region, profile and table: another endpoint,
// region or profile never sees this one's entry.
func TestSchemaCacheKey(t *testing.T) {
	dir := t.TempDir()
	testCache(t, dir, "http://127.0.0.1:8000", "").save(cacheTable())
	for _, other := range []*schemaCache{
		testCache(t, dir, "http://127.0.0.1:8001", ""),
		testCache(t, dir, "http://127.0.0.1:8000", "prod"),
		testCache(t, dir, "", ""),
		newSchemaCache(Options{SchemaCacheDir: dir}, "eu-west-1"),
	} {
		if _, ok := other.load("App"); ok {
			t.Errorf("%s / %q sees the entry of http://127.0.0.1:8000", other.where, other.profile)
		}
	}
	if _, ok := testCache(t, dir, "http://127.0.0.1:8000", "").load("App"); !ok {
		t.Error("the same endpoint and profile do not see it")
	}

	t.Setenv("AWS_PROFILE", "dev")
	if c := testCache(t, dir, "", ""); c.profile != "dev" {
		t.Errorf("AWS_PROFILE ignored: profile %q", c.profile)
	}
	if c := newSchemaCache(Options{SchemaCacheDir: dir, NoSchemaCache: true}, "us-east-1"); c != nil {
		t.Error("NoSchemaCache still gives a cache")
	}
	if c := NewWithAPI(nil, Options{}); c.schemas != nil {
		t.Error("NewWithAPI keeps a cache nobody asked for")
	}
}

// Entries older than a day are not used, and a clock set back makes an
// entry as doubtful as an old one.
func TestSchemaCacheExpiry(t *testing.T) {
	c := testCache(t, t.TempDir(), "http://127.0.0.1:8000", "")
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return now }
	c.save(cacheTable())
	for _, tc := range []struct {
		later time.Duration
		ok    bool
	}{{0, true}, {23 * time.Hour, true}, {25 * time.Hour, false}, {-30 * time.Second, true}, {-2 * time.Hour, false}} {
		c.now = func() time.Time { return now.Add(tc.later) }
		if _, ok := c.load("App"); ok != tc.ok {
			t.Errorf("%v after saving: found = %v, want %v", tc.later, ok, tc.ok)
		}
	}
}

// A file that cannot be read, or that makes no sense, is a miss and never
// an error; the next save replaces it.
func TestSchemaCacheCorruption(t *testing.T) {
	c := testCache(t, t.TempDir(), "http://127.0.0.1:8000", "")
	c.save(cacheTable())
	path := c.path("App")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"empty":         "",
		"truncated":     string(good[:len(good)/2]),
		"not JSON":      "\x00\x01garbage",
		"other version": strings.Replace(string(good), `"version":1`, `"version":99`, 1),
		"other table":   strings.Replace(string(good), `"table":"App"`, `"table":"Other"`, 1),
		"bad key type":  strings.Replace(string(good), `"Type":"S"`, `"Type":"X"`, 1),
		"no key name":   strings.Replace(string(good), `"Name":"PK"`, `"Name":""`, 1),
		"bad kind":      strings.Replace(string(good), `"kind":"GSI"`, `"kind":"???"`, 1),
		"JSON null":     "null",
	} {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if tbl, ok := c.load("App"); ok {
			t.Errorf("%s: loaded %+v", name, tbl)
		}
	}
	// A directory where the file should be: the save fails quietly and
	// leaves no temporary file behind.
	os.Remove(path)
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	c.save(cacheTable())
	os.Remove(path)
	entries, _ := os.ReadDir(c.dir)
	if len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
	c.save(cacheTable())
	if _, ok := c.load("App"); !ok {
		t.Error("a save after the damage is not found")
	}
}

// The first save of a client removes what no load would use: expired
// entries and temporary files of runs that died.
func TestSchemaCachePrune(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-48 * time.Hour)
	for _, name := range []string{"Old-00.json", ".tmp-123", "Recent-00.json", "notes.txt"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
		if name != "Recent-00.json" {
			os.Chtimes(p, old, old)
		}
	}
	testCache(t, dir, "http://127.0.0.1:8000", "").save(cacheTable())
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 3 || !strings.HasPrefix(names[0], "App-") || names[1] != "Recent-00.json" || names[2] != "notes.txt" {
		t.Errorf("after pruning: %v", names)
	}
}

// Every table name becomes a safe file name, long ones included.
func TestSchemaCachePath(t *testing.T) {
	c := testCache(t, "/cache", "http://127.0.0.1:8000", "")
	for _, table := range []string{"App", "../../etc/passwd", strings.Repeat("x", 255), "a b\x00c"} {
		p := c.path(table)
		if filepath.Dir(p) != "/cache" || len(filepath.Base(p)) > 100 {
			t.Errorf("%q -> %s", table, p)
		}
	}
	if c.path("App") == c.path("app") {
		t.Error("table names differing in case share a file")
	}
}
