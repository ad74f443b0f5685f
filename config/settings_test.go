package config

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const fullSettings = `# dynascope settings
connection: local
connections:
  local:
    endpoint: http://127.0.0.1:8000
    region: us-east-1
  prod-readonly:
    profile: prod-readonly
    region: eu-west-1
keys:
  reverse: R
  quit: [q, ctrl+c]
theme: dark
defaultLimit: 50
sampling:
  maxItems: 5000
  maxRCU: 25.5
  segments: 4
pricePerMillionReads: 0.1425
maxLoadedItems: 20000
schemaCache: false
maxWCUPerSecond: 250
`

func TestParseSettings(t *testing.T) {
	s, err := ParseSettings("config.yaml", []byte(fullSettings))
	if err != nil {
		t.Fatal(err)
	}
	want := Settings{
		Path: "config.yaml", Exists: true,
		Connection: "local",
		Connections: map[string]ConnectionSettings{
			"local":         {Endpoint: "http://127.0.0.1:8000", Region: "us-east-1"},
			"prod-readonly": {Profile: "prod-readonly", Region: "eu-west-1"},
		},
		Keys:                 map[string][]string{"reverse": {"R"}, "quit": {"q", "ctrl+c"}},
		Theme:                "dark",
		DefaultLimit:         50,
		Sampling:             Sampling{MaxItems: 5000, MaxRCU: 25.5, Segments: 4},
		PricePerMillionReads: 0.1425,
		MaxLoadedItems:       20000,
		SchemaCache:          false,
		MaxWCUPerSecond:      250,
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("got  %+v\nwant %+v", s, want)
	}
	for _, empty := range []string{"", "# nothing yet\n", "---\n"} {
		s, err := ParseSettings("c.yaml", []byte(empty))
		d := DefaultSettings()
		d.Path, d.Exists = "c.yaml", true
		if err != nil || !reflect.DeepEqual(s, d) {
			t.Errorf("%q: %v %+v", empty, err, s)
		}
	}
}

// Every mistake names the file and the line it is on.
func TestParseSettingsErrors(t *testing.T) {
	cases := []struct{ old, new, want string }{
		{"theme: dark", "theme: blue", `c.yaml:13: theme must be one of auto, dark, light, none, not "blue".`},
		{"theme: dark", "thme: dark", `c.yaml:13: the settings: unknown field "thme" (did you mean "theme"?); known are connection, connections, keys, theme, defaultLimit, sampling, pricePerMillionReads, maxLoadedItems, schemaCache, skipScanMaxRequests, versionAttribute, maxWCUPerSecond.`},
		{"connection: local", "connection: staging", `c.yaml:2: connection "staging" is not defined under connections: (there are local, prod-readonly).`},
		{"    region: us-east-1", "    regoin: us-east-1", `c.yaml:6: connection local: unknown field "regoin" (did you mean "region"?); known are endpoint, region, profile, writes.`},
		{"endpoint: http://127.0.0.1:8000", "endpoint: 127.0.0.1:8000", `c.yaml:5: connection local: endpoint must be an http:// or https:// URL such as http://127.0.0.1:8000, not "127.0.0.1:8000".`},
		{"  prod-readonly:", "  none:", `c.yaml:7: "none" cannot name a connection; use letters, digits, '_', '-' and '.' (and not "none").`},
		{"maxWCUPerSecond: 250", "maxWCUPerSecond: 0", `c.yaml:22: maxWCUPerSecond must be a number of WCU above 0.`},
		{"defaultLimit: 50", "defaultLimit: -1", `c.yaml:14: defaultLimit must be a whole number from 0 to 2147483647, not "-1".`},
		{"defaultLimit: 50", "defaultLimit: 5.5", `c.yaml:14: defaultLimit must be a whole number from 0 to 2147483647, not "5.5".`},
		{"  segments: 4", "  segments: 0", `c.yaml:18: sampling: segments must be a whole number from 1 to 1000000, not "0".`},
		{"  maxRCU: 25.5", "  maxRCU: 0", `c.yaml:17: sampling: maxRCU must be more than 0.`},
		{"pricePerMillionReads: 0.1425", "pricePerMillionReads: cheap", `c.yaml:19: pricePerMillionReads must be a number of 0 or more, not "cheap".`},
		{"maxLoadedItems: 20000", "maxLoadedItems: -5", `c.yaml:20: maxLoadedItems must be a whole number from 0 to 2147483647, not "-5".`},
		{"schemaCache: false", "schemaCache: off please", `c.yaml:21: schemaCache must be true or false, not "off please".`},
		{"  reverse: R", "  reverse: []", `c.yaml:11: keys: reverse needs at least one key, and no empty one.`},
		{"  reverse: R", "  reverse: {a: b}", `c.yaml:11: keys: reverse must be a key such as "R" or a list of keys.`},
		{"theme: dark", "theme: dark\ntheme: light", `c.yaml:14: the settings: theme is given twice (first at line 13).`},
		{"theme: dark", "theme: [dark", `c.yaml:`},
		{"# dynascope settings", "---\na: 1\n---\nb: 2", `c.yaml:3: the file holds a second YAML document; keep everything in one.`},
	}
	for _, c := range cases {
		src := strings.Replace(fullSettings, c.old, c.new, 1)
		if src == fullSettings {
			t.Fatalf("%q is not in the settings", c.old)
		}
		_, err := ParseSettings("c.yaml", []byte(src))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s -> %s:\n got  %v\n want %s", c.old, c.new, err, c.want)
		}
	}
}

func writeSettings(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvSettings, path)
	return path
}

// The file lives in the user's config directory; a missing one is the defaults.
func TestSettingsPathAndMissingFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvSettings, "")
	t.Setenv("XDG_CONFIG_HOME", dir)
	path, err := SettingsPath()
	if err != nil || path != filepath.Join(dir, "dynascope", "config.yaml") {
		t.Errorf("path %q, %v", path, err)
	}
	s, err := LoadSettings()
	if err != nil || s.Exists || s.Path != path || s.Theme != "auto" || s.PricePerMillionReads != 0.125 ||
		s.MaxLoadedItems != 50_000 || !s.SchemaCache {
		t.Errorf("missing file: %v %+v", err, s)
	}
	if o, err := (Connection{}).Options(); err != nil || o.NoSchemaCache {
		t.Errorf("missing file: the schema cache should be on: %v %+v", err, o)
	}
	t.Setenv(EnvSettings, "none")
	if p, err := SettingsPath(); p != "" || err != nil {
		t.Errorf("none: %q %v", p, err)
	}
}

// Flags beat the named connection, which beats the environment: an
// endpoint neither names is left to the SDK ("" here), where the
// environment's apply.
func TestConnectionPrecedence(t *testing.T) {
	writeSettings(t, fullSettings)
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", "http://env:1")
	t.Setenv("AWS_ENDPOINT_URL", "")
	cases := []struct {
		args []string
		want [3]string // endpoint, region, profile
	}{
		{nil, [3]string{"http://127.0.0.1:8000", "us-east-1", ""}},
		{[]string{"--region", "ap-south-1"}, [3]string{"http://127.0.0.1:8000", "ap-south-1", ""}},
		{[]string{"--connection", "prod-readonly"}, [3]string{"", "eu-west-1", "prod-readonly"}},
		{[]string{"--connection", "prod-readonly", "--profile", "me", "--endpoint-url", "http://flag:2"}, [3]string{"http://flag:2", "eu-west-1", "me"}},
		{[]string{"--connection", "none"}, [3]string{"", "", ""}},
	}
	for _, c := range cases {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		var conn Connection
		conn.Register(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		o, err := conn.Options()
		if err != nil {
			t.Fatal(err)
		}
		if got := [3]string{o.Endpoint, o.Region, o.Profile}; got != c.want {
			t.Errorf("%v: got %q, want %q", c.args, got, c.want)
		}
		if !o.NoSchemaCache {
			t.Errorf("%v: schemaCache: false in the settings, but the schema cache is on", c.args)
		}
		if !reflect.DeepEqual(conn.DynamoOptions(), o) {
			t.Errorf("%v: DynamoOptions differs from Options", c.args)
		}
	}
}

// A wrong --connection fails while the flags are parsed, before any request.
func TestConnectionFlagErrors(t *testing.T) {
	path := writeSettings(t, fullSettings)
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(&strings.Builder{})
	var conn Connection
	conn.Register(fs)
	err := fs.Parse([]string{"--connection", "prod"})
	want := `invalid value "prod" for flag -connection: there is no connection "prod" in ` + path + ` (there are local, prod-readonly)`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	// A broken file is reported by Options, with its line.
	writeSettings(t, "theme: [")
	var c2 Connection
	if _, err := c2.Options(); err == nil || !strings.Contains(err.Error(), "config.yaml:1: ") {
		t.Errorf("broken file: %v", err)
	}
}
