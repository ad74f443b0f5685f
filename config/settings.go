package config

// The settings file: named connections, key overrides, theme, default
// limit, sampling caps and the read price, in
// $XDG_CONFIG_HOME/dynascope/config.yaml (os.UserConfigDir). A missing file
// means the defaults. A mistake in it is named by file and line, like the
// patterns file's.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"dynascope/dynamo"
	"dynascope/yamlfile"
)

// EnvSettings names the variable that points at another settings file;
// "none" means no settings file at all (tests, scripts that want only flags).
const EnvSettings = "DYNASCOPE_CONFIG"

// NoConnection is the --connection value that uses no named connection,
// not even the file's default.
const NoConnection = "none"

// DefaultPricePerMillionReads is the on-demand price of one million read
// request units in us-east-1, in US dollars.
const DefaultPricePerMillionReads = 0.125

// DefaultMaxWCUPerSecond is a bulk change's pace without a setting:
// edit.DefaultBulkWCU, the command line's --max-wcu-per-second default
// (config does not import edit; a ui test holds the two equal).
const DefaultMaxWCUPerSecond = 100

// DefaultMaxLoadedItems is how many items the UI keeps in memory when the
// settings say nothing: beyond it, the pages farthest from the cursor are
// released and read again when scrolled back to.
const DefaultMaxLoadedItems = 50_000

// Themes lists the values theme: takes.
var Themes = []string{"auto", "dark", "light", "none"}

// Settings are the user's settings, with defaults where the file says nothing.
type Settings struct {
	Path   string // the file read; "" when there was none
	Exists bool   // whether Path existed

	Connection  string                        // the default connection's name; "" for none
	Connections map[string]ConnectionSettings // by name
	// Keys override key bindings: action name -> keys, as the UI names them
	// ("reverse": ["R"]). The UI checks the action names.
	Keys                 map[string][]string
	Theme                string // one of Themes
	DefaultLimit         int    // Limit of interactive queries; 0 for none
	Sampling             Sampling
	PricePerMillionReads float64 // USD per million read request units
	// MaxLoadedItems caps the items the UI keeps in memory; 0 for no cap.
	MaxLoadedItems int
	// SchemaCache keeps tables' key schemas between runs (24 hours), so a
	// first query needs no DescribeTable.
	SchemaCache bool
	// SkipScanMaxRequests caps the requests of one partition's skip-scan;
	// 0 for dynamo.DefaultSkipScanRequests.
	SkipScanMaxRequests int
	// VersionAttribute names a number attribute that every writer of the
	// tables increments: editing's conditions are then on it alone, and
	// each write increments it. "" for conditions over the whole item read.
	VersionAttribute string
	// MaxWCUPerSecond is the pace of a bulk change, in predicted WCU per
	// second (above 0): the UI's, and the command line's without
	// --max-wcu-per-second.
	MaxWCUPerSecond float64
}

// ConnectionSettings are one named connection's defaults; "" leaves a value
// to the environment and the SDK.
type ConnectionSettings struct {
	Endpoint string
	Region   string
	Profile  string
	// Writes allows editing on this connection, as --allow-writes does.
	Writes bool
}

// Sampling caps what `layout` and the UI's table overview may read; 0
// means dynamo's default.
type Sampling struct {
	MaxItems int
	MaxRCU   float64
	Segments int
}

// Caps are the caps a sample takes: these, else dynamo's defaults.
func (s Sampling) Caps() (items int, rcu float64, segments int) {
	items, rcu, segments = dynamo.DefaultSampleItems, float64(dynamo.DefaultSampleRCU), dynamo.DefaultSampleSegments
	if s.MaxItems > 0 {
		items = s.MaxItems
	}
	if s.MaxRCU > 0 {
		rcu = s.MaxRCU
	}
	if s.Segments > 0 {
		segments = min(s.Segments, dynamo.MaxSampleSegments)
	}
	return items, rcu, segments
}

// SettingsError is a mistake in the settings file: "config.yaml:7: theme
// must be one of auto, dark, light, none, not "blue"."
type SettingsError struct {
	File string
	Line int // 0 when unknown
	Msg  string
}

// Error prints "file:line: message."; the line is left out when unknown.
func (e *SettingsError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
	}
	return loc + ": " + strings.TrimRight(e.Msg, ".") + "."
}

// DefaultSettings are the settings without a file.
func DefaultSettings() Settings {
	return Settings{
		Connections:          map[string]ConnectionSettings{},
		Keys:                 map[string][]string{},
		Theme:                "auto",
		PricePerMillionReads: DefaultPricePerMillionReads,
		MaxLoadedItems:       DefaultMaxLoadedItems,
		SchemaCache:          true,
		MaxWCUPerSecond:      DefaultMaxWCUPerSecond,
	}
}

// SettingsPath returns where the settings file is looked for: $DYNASCOPE_CONFIG
// when set ("" for "none"), else dynascope/config.yaml in os.UserConfigDir
// ($XDG_CONFIG_HOME, else ~/.config, on Linux).
func SettingsPath() (string, error) {
	if p, ok := os.LookupEnv(EnvSettings); ok && p != "" {
		if p == NoConnection {
			return "", nil
		}
		return p, nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("cannot find the user's config directory for the settings file: %w", err)
	}
	return filepath.Join(dir, "dynascope", "config.yaml"), nil
}

// LoadSettings reads the settings file at SettingsPath; a missing file
// gives the defaults and no error.
func LoadSettings() (Settings, error) {
	path, err := SettingsPath()
	if err != nil || path == "" {
		return DefaultSettings(), err
	}
	return LoadSettingsFile(path)
}

// LoadSettingsFile reads one settings file; a missing file gives the defaults.
func LoadSettingsFile(path string) (Settings, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		s := DefaultSettings()
		s.Path = path
		return s, nil
	}
	if err != nil {
		return DefaultSettings(), &SettingsError{File: path, Msg: fmt.Sprintf("cannot read the settings file: %v", err)}
	}
	return ParseSettings(path, data)
}

var settingsFields = []string{"connection", "connections", "keys", "theme", "defaultLimit", "sampling", "pricePerMillionReads", "maxLoadedItems", "schemaCache", "skipScanMaxRequests", "versionAttribute", "maxWCUPerSecond"}

// connectionNameRE is what a connection or key action may be called.
var connectionNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// ParseSettings reads settings from memory; path names the file in errors.
// A mistake gives the defaults beside the error.
func ParseSettings(path string, data []byte) (Settings, error) {
	s := DefaultSettings()
	s.Path, s.Exists = path, true
	root, err := settingsRoot(path, data)
	if err != nil || root == nil {
		return s, err // an empty file: the defaults
	}
	fields, err := mapping(path, root, "the settings", settingsFields)
	if err != nil {
		return DefaultSettings(), err
	}
	var connLine int
	for _, f := range fields {
		if f.key.Value == "connection" && !isNull(f.value) {
			connLine = f.value.Line
		}
		if err := parseSettingsField(path, f.key.Value, f.value, &s); err != nil {
			return DefaultSettings(), err
		}
	}
	if s.Connection != "" && s.Connection != NoConnection {
		if _, ok := s.Connections[s.Connection]; !ok {
			return DefaultSettings(), &SettingsError{File: path, Line: connLine, Msg: fmt.Sprintf("connection %q is not defined under connections:%s", s.Connection, known(s.Connections))}
		}
	}
	if s.Connection == NoConnection {
		s.Connection = ""
	}
	return s, nil
}

// settingsRoot is the one YAML document of the file, nil when it holds
// none or null.
func settingsRoot(path string, data []byte) (*yaml.Node, error) {
	fail := func(line int, format string, a ...any) error {
		return &SettingsError{File: path, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		line, msg := yamlfile.Syntax(err)
		return nil, fail(line, "the file is not valid YAML: %s", msg)
	}
	if extra := (yaml.Node{}); dec.Decode(&extra) == nil {
		return nil, fail(extra.Line, "the file holds a second YAML document; keep everything in one")
	}
	root := yamlfile.Deref(&doc)
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = yamlfile.Deref(root.Content[0])
	}
	if isNull(root) {
		return nil, nil
	}
	return root, nil
}

// parseSettingsField reads the top-level field name: v into s.
func parseSettingsField(path, name string, v *yaml.Node, s *Settings) (err error) {
	switch name {
	case "connection":
		if !isNull(v) {
			s.Connection, err = text(path, v, "connection")
		}
	case "connections":
		err = parseConnections(path, v, s)
	case "keys":
		err = parseKeys(path, v, s)
	case "theme":
		if s.Theme, err = text(path, v, "theme"); err == nil && !slices.Contains(Themes, s.Theme) {
			err = &SettingsError{File: path, Line: v.Line, Msg: fmt.Sprintf("theme must be one of %s, not %q", strings.Join(Themes, ", "), s.Theme)}
		}
	case "defaultLimit":
		s.DefaultLimit, err = integer(path, v, "defaultLimit", 0, 1<<31-1)
	case "sampling":
		err = parseSampling(path, v, s)
	case "pricePerMillionReads":
		s.PricePerMillionReads, err = number(path, v, "pricePerMillionReads")
	case "maxLoadedItems":
		s.MaxLoadedItems, err = integer(path, v, "maxLoadedItems", 0, 1<<31-1)
	case "schemaCache":
		s.SchemaCache, err = boolean(path, v, "schemaCache")
	case "skipScanMaxRequests":
		s.SkipScanMaxRequests, err = integer(path, v, "skipScanMaxRequests", 1, 100_000)
	case "maxWCUPerSecond":
		if s.MaxWCUPerSecond, err = number(path, v, "maxWCUPerSecond"); err == nil && !(s.MaxWCUPerSecond > 0) {
			err = &SettingsError{File: path, Line: v.Line, Msg: "maxWCUPerSecond must be a number of WCU above 0"}
		}
	case "versionAttribute":
		if s.VersionAttribute, err = text(path, v, "versionAttribute"); err == nil && s.VersionAttribute == "" {
			err = &SettingsError{File: path, Line: v.Line, Msg: "versionAttribute must name an attribute; leave it out for none"}
		}
	}
	return err
}

func parseConnections(path string, n *yaml.Node, s *Settings) error {
	if isNull(n) {
		return nil
	}
	fields, err := mapping(path, n, "connections", nil)
	if err != nil {
		return err
	}
	for _, f := range fields {
		name := f.key.Value
		if !connectionNameRE.MatchString(name) || name == NoConnection {
			return &SettingsError{File: path, Line: f.key.Line, Msg: fmt.Sprintf("%q cannot name a connection; use letters, digits, '_', '-' and '.' (and not %q)", name, NoConnection)}
		}
		what := "connection " + name
		cf, err := mapping(path, f.value, what, []string{"endpoint", "region", "profile", "writes"})
		if err != nil {
			return err
		}
		var c ConnectionSettings
		for _, g := range cf {
			if g.key.Value == "writes" {
				if c.Writes, err = boolean(path, g.value, what+": writes"); err != nil {
					return err
				}
				continue
			}
			v, err := text(path, g.value, what+": "+g.key.Value)
			if err != nil {
				return err
			}
			switch g.key.Value {
			case "endpoint":
				if err := CheckEndpoint(v); err != nil {
					return &SettingsError{File: path, Line: g.value.Line, Msg: fmt.Sprintf("%s: %v", what, err)}
				}
				c.Endpoint = v
			case "region":
				if err := CheckRegion(v); err != nil {
					return &SettingsError{File: path, Line: g.value.Line, Msg: fmt.Sprintf("%s: %v", what, err)}
				}
				c.Region = v
			case "profile":
				c.Profile = v
			}
		}
		s.Connections[name] = c
	}
	return nil
}

func parseKeys(path string, n *yaml.Node, s *Settings) error {
	if isNull(n) {
		return nil
	}
	fields, err := mapping(path, n, "keys", nil)
	if err != nil {
		return err
	}
	for _, f := range fields {
		action := f.key.Value
		if !connectionNameRE.MatchString(action) {
			return &SettingsError{File: path, Line: f.key.Line, Msg: fmt.Sprintf("%q cannot name a key action", action)}
		}
		var ks []string
		switch v := f.value; v.Kind {
		case yaml.ScalarNode:
			k, err := text(path, v, "keys: "+action)
			if err != nil {
				return err
			}
			ks = []string{k}
		case yaml.SequenceNode:
			for _, e := range v.Content {
				k, err := text(path, yamlfile.Deref(e), "keys: "+action)
				if err != nil {
					return err
				}
				ks = append(ks, k)
			}
		default:
			return &SettingsError{File: path, Line: v.Line, Msg: fmt.Sprintf("keys: %s must be a key such as \"R\" or a list of keys", action)}
		}
		if len(ks) == 0 || slices.Contains(ks, "") {
			return &SettingsError{File: path, Line: f.value.Line, Msg: fmt.Sprintf("keys: %s needs at least one key, and no empty one", action)}
		}
		s.Keys[action] = ks
	}
	return nil
}

func parseSampling(path string, n *yaml.Node, s *Settings) error {
	if isNull(n) {
		return nil
	}
	fields, err := mapping(path, n, "sampling", []string{"maxItems", "maxRCU", "segments"})
	if err != nil {
		return err
	}
	for _, f := range fields {
		what := "sampling: " + f.key.Value
		switch f.key.Value {
		case "maxItems":
			s.Sampling.MaxItems, err = integer(path, f.value, what, 1, 1<<31-1)
		case "maxRCU":
			s.Sampling.MaxRCU, err = number(path, f.value, what)
			if err == nil && s.Sampling.MaxRCU == 0 {
				err = &SettingsError{File: path, Line: f.value.Line, Msg: what + " must be more than 0"}
			}
		case "segments":
			// DynamoDB takes up to 1,000,000 parallel scan segments.
			s.Sampling.Segments, err = integer(path, f.value, what, 1, 1000000)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func known(m map[string]ConnectionSettings) string {
	if len(m) == 0 {
		return " (there are none)"
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return " (there are " + strings.Join(names, ", ") + ")"
}

// ConnectionNamed returns the named connection; "" or NoConnection give
// none. An unknown name is an error that lists the defined ones.
func (s Settings) ConnectionNamed(name string) (ConnectionSettings, error) {
	if name == "" || name == NoConnection {
		return ConnectionSettings{}, nil
	}
	c, ok := s.Connections[name]
	if !ok {
		where := s.Path
		if where == "" {
			where = "the settings (no settings file)"
		}
		return c, fmt.Errorf("there is no connection %q in %s%s", name, where, known(s.Connections))
	}
	return c, nil
}

// setName takes --connection, checking the name against the settings file
// at once, so a typo fails before anything connects somewhere else.
func (c *Connection) setName(name string) error {
	if name == "" {
		return errors.New("--connection needs a name (or 'none')")
	}
	s, err := LoadSettings()
	if err != nil {
		return err
	}
	if _, err := s.ConnectionNamed(name); err != nil {
		return err
	}
	c.Name = name
	return nil
}

// Options resolves the connection: each of endpoint, region and profile
// comes from its flag, else from the named connection (--connection, else
// the settings file's connection:), else from the SDK's environment and
// shared config. A connection beats the environment because naming one,
// or making one the default, is the more deliberate choice.
func (c Connection) Options() (dynamo.Options, error) {
	o, _, err := c.Resolve()
	return o, err
}

// Resolve is Options that also returns the settings it read, so a command
// that needs them too reads the file once.
func (c Connection) Resolve() (dynamo.Options, Settings, error) {
	s, err := LoadSettings()
	if err != nil {
		return c.withConnection(ConnectionSettings{}), s, err
	}
	name := c.Name
	if name == "" {
		name = s.Connection
	}
	cs, err := s.ConnectionNamed(name)
	if err != nil {
		return c.withConnection(ConnectionSettings{}), s, err
	}
	o := c.withConnection(cs)
	o.NoSchemaCache = !s.SchemaCache
	return o, s, nil
}

// WritesAllowed tells whether the named connection in effect (--connection,
// else the file's connection:) allows writes (writes: true).
func (c Connection) WritesAllowed(s Settings) bool {
	name := c.Name
	if name == "" {
		name = s.Connection
	}
	cs, err := s.ConnectionNamed(name)
	return err == nil && cs.Writes
}

func (c Connection) withConnection(cs ConnectionSettings) dynamo.Options {
	if c.Endpoint == "" {
		c.Endpoint = cs.Endpoint
	}
	if c.Region == "" {
		c.Region = cs.Region
	}
	if c.Profile == "" {
		c.Profile = cs.Profile
	}
	return c.flagsAndEnv()
}
