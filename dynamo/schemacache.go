package dynamo

// The schema cache: the key schemas of tables (key names and types, index
// keys), kept on disk between runs so that `dynascope query` can send its
// Query without a DescribeTable first. DynamoDB Local counts a table's items
// on every DescribeTable, and on AWS it is one more round trip; either way it
// is most of a short command's time. Counts and sizes are never cached: they
// are what DescribeTable is still asked for.
//
// A cached schema is a guess, not a fact. keys.go re-reads it from DynamoDB
// when a request built from it fails or its answer does not fit it, so a
// table re-created with other keys costs one DescribeTable and one retry.
// Every file is written atomically (a temporary file renamed into place),
// and one that cannot be read or makes no sense is a miss, never an error.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// schemaCacheTTL is how long a cached schema is used without asking
// DynamoDB. Requests built from a wrong one fail and are repaired, so this
// only bounds the changes no request notices (a GSI's projection, say).
const schemaCacheTTL = 24 * time.Hour

// schemaCacheVersion changes when the file format does; other versions are misses.
const schemaCacheVersion = 1

// DefaultSchemaCacheDir is where Connect keeps key schemas unless
// Options.SchemaCacheDir says otherwise: the user's cache directory, which
// may be deleted at any time without loss.
func DefaultSchemaCacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "dynascope", "schemas"), nil
}

// schemaCache is the cache of one client: one directory, and the endpoint
// (or region) and profile that every key of this client shares.
type schemaCache struct {
	dir     string
	where   string // the endpoint, or "region NAME" for AWS
	profile string
	now     func() time.Time // tests move the clock
	prune   sync.Once
}

// newSchemaCache returns the cache the options ask for, or nil when it is
// off or there is no cache directory (no HOME, say): then every run asks.
func newSchemaCache(o Options, region string) *schemaCache {
	if o.NoSchemaCache {
		return nil
	}
	dir := o.SchemaCacheDir
	if dir == "" {
		d, err := DefaultSchemaCacheDir()
		if err != nil {
			return nil
		}
		dir = d
	}
	where := PublicEndpoint(o.Endpoint) // a password never reaches a file
	if where == "" {
		where = "region " + region
	}
	profile := o.Profile
	if profile == "" {
		// The SDK reads it too: two profiles are two accounts, whose
		// tables of the same name have nothing in common.
		profile = os.Getenv("AWS_PROFILE")
	}
	return &schemaCache{dir: dir, where: where, profile: profile, now: time.Now}
}

// schemaEntry is one cached file.
type schemaEntry struct {
	Version int          `json:"version"`
	Where   string       `json:"where"`
	Profile string       `json:"profile"`
	Table   string       `json:"table"`
	Saved   time.Time    `json:"saved"`
	PK      KeyAttr      `json:"pk"`
	SK      *KeyAttr     `json:"sk,omitempty"`
	Indexes []indexEntry `json:"indexes,omitempty"`
}

type indexEntry struct {
	Name       string    `json:"name"`
	Kind       IndexKind `json:"kind"`
	PK         KeyAttr   `json:"pk"`
	SK         *KeyAttr  `json:"sk,omitempty"`
	Projection string    `json:"projection,omitempty"`
	NonKeyAttr []string  `json:"nonKeyAttributes,omitempty"`
}

// path is the file of a table: the table's name for whoever looks into the
// directory, and a hash of the whole key because endpoints hold characters
// no file name may and table names can be long.
func (s *schemaCache) path(table string) string {
	sum := sha256.Sum256([]byte(strings.Join([]string{s.where, s.profile, table}, "\x00")))
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, table)
	if len(name) > 64 {
		name = name[:64]
	}
	return filepath.Join(s.dir, name+"-"+hex.EncodeToString(sum[:10])+".json")
}

// load returns the cached key schema of a table when there is a fresh one
// that makes sense. Counts, sizes and status are zero in what it returns.
func (s *schemaCache) load(table string) (Table, bool) {
	if s == nil {
		return Table{}, false
	}
	b, err := os.ReadFile(s.path(table))
	if err != nil {
		return Table{}, false
	}
	var e schemaEntry
	if json.Unmarshal(b, &e) != nil || e.Version != schemaCacheVersion ||
		e.Where != s.where || e.Profile != s.profile || e.Table != table {
		return Table{}, false
	}
	age := s.now().Sub(e.Saved)
	if age > schemaCacheTTL || age < -time.Minute { // a clock set back makes any age a guess
		return Table{}, false
	}
	t := Table{Name: table, PK: e.PK, SK: e.SK}
	if !validKey(&t.PK) || (t.SK != nil && !validKey(t.SK)) {
		return Table{}, false
	}
	for _, ix := range e.Indexes {
		if ix.Name == "" || (ix.Kind != GSI && ix.Kind != LSI) || !validKey(&ix.PK) || (ix.SK != nil && !validKey(ix.SK)) {
			return Table{}, false
		}
		t.Indexes = append(t.Indexes, Index{Name: ix.Name, Kind: ix.Kind, PK: ix.PK, SK: ix.SK, Projection: ix.Projection, NonKeyAttr: ix.NonKeyAttr})
	}
	return t, true
}

func validKey(k *KeyAttr) bool {
	return k.Name != "" && (k.Type == "S" || k.Type == "N" || k.Type == "B")
}

// save keeps a table's key schema. Failing to is no error: the next run asks
// DynamoDB, as it would without a cache.
func (s *schemaCache) save(t Table) {
	if s == nil || t.Name == "" {
		return
	}
	e := schemaEntry{
		Version: schemaCacheVersion, Where: s.where, Profile: s.profile,
		Table: t.Name, Saved: s.now().UTC(), PK: t.PK, SK: t.SK,
	}
	for _, ix := range t.Indexes {
		e.Indexes = append(e.Indexes, indexEntry{Name: ix.Name, Kind: ix.Kind, PK: ix.PK, SK: ix.SK, Projection: ix.Projection, NonKeyAttr: ix.NonKeyAttr})
	}
	b, err := json.Marshal(e)
	if err != nil {
		return
	}
	if os.MkdirAll(s.dir, 0o700) != nil {
		return
	}
	s.prune.Do(s.removeExpired)
	// Written aside and renamed into place, so that a reader (another
	// dynascope at the same moment) sees the old file or the new one,
	// never half of one.
	f, err := os.CreateTemp(s.dir, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if werr != nil || cerr != nil || os.Rename(f.Name(), s.path(t.Name)) != nil {
		os.Remove(f.Name())
	}
}

// forget removes a table's entry, once DynamoDB has shown it to be wrong.
func (s *schemaCache) forget(table string) {
	if s == nil {
		return
	}
	os.Remove(s.path(table))
}

// removeExpired deletes the entries no load would use any more, and
// temporary files a killed run left behind, so that tables seen once do not
// pile up. It runs at most once per client, on its first save.
func (s *schemaCache) removeExpired() {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	now := s.now()
	for _, de := range entries {
		name := de.Name()
		limit := schemaCacheTTL
		switch {
		case strings.HasPrefix(name, ".tmp-"):
			limit = time.Hour
		case !strings.HasSuffix(name, ".json"):
			continue
		}
		if info, err := de.Info(); err == nil && info.Mode().IsRegular() && now.Sub(info.ModTime()) > limit {
			os.Remove(filepath.Join(s.dir, name))
		}
	}
}
