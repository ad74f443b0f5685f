package main

// `dynascope config path|show`: where the settings file is and what it
// amounts to, defaults included.

import (
	"bytes"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"

	"dynascope/config"
)

func cmdConfig(args []string, stdout, stderr io.Writer) error {
	const usage = "config needs what to do: 'dynascope config path' (where the settings file is) or 'dynascope config show' (the settings in effect)."
	if len(args) == 0 {
		return usageError{usage}
	}
	if args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stderr, usage)
		return nil
	}
	if len(args) > 1 {
		return usageError{fmt.Sprintf("config %s takes no arguments, not %q.", args[0], args[1])}
	}
	switch args[0] {
	case "path":
		path, err := config.SettingsPath()
		if err != nil {
			return err
		}
		if path == "" {
			fmt.Fprintf(stdout, "none (%s=%s)\n", config.EnvSettings, config.NoConnection)
			return nil
		}
		fmt.Fprintln(stdout, path)
		return nil
	case "show":
		s, err := config.LoadSettings()
		if err != nil {
			return err
		}
		return showSettings(stdout, s)
	}
	return usageError{fmt.Sprintf("unknown config command %q; %s", args[0], usage)}
}

// settingsYAML is the settings file's shape, in the order the file is
// documented, for `config show`.
type settingsYAML struct {
	Connection           string                    `yaml:"connection"`
	Connections          map[string]connectionYAML `yaml:"connections"`
	Keys                 map[string][]string       `yaml:"keys"`
	Theme                string                    `yaml:"theme"`
	DefaultLimit         int                       `yaml:"defaultLimit"`
	Sampling             samplingYAML              `yaml:"sampling"`
	PricePerMillionReads float64                   `yaml:"pricePerMillionReads"`
	MaxLoadedItems       int                       `yaml:"maxLoadedItems"`
	SchemaCache          bool                      `yaml:"schemaCache"`
	SkipScanMaxRequests  int                       `yaml:"skipScanMaxRequests,omitempty"`
}

type connectionYAML struct {
	Endpoint string `yaml:"endpoint,omitempty"`
	Region   string `yaml:"region,omitempty"`
	Profile  string `yaml:"profile,omitempty"`
}

// samplingYAML leaves out the caps that are 0, the command's own default,
// since the file takes no 0 for them.
type samplingYAML struct {
	MaxItems int     `yaml:"maxItems,omitempty"`
	MaxRCU   float64 `yaml:"maxRCU,omitempty"`
	Segments int     `yaml:"segments,omitempty"`
}

// showSettings prints the settings in effect as a settings file would hold
// them, so the output can be copied into one.
func showSettings(w io.Writer, s config.Settings) error {
	out := settingsYAML{
		Connection:           s.Connection,
		Connections:          map[string]connectionYAML{},
		Keys:                 s.Keys,
		Theme:                s.Theme,
		DefaultLimit:         s.DefaultLimit,
		Sampling:             samplingYAML(s.Sampling),
		PricePerMillionReads: s.PricePerMillionReads,
		MaxLoadedItems:       s.MaxLoadedItems,
		SchemaCache:          s.SchemaCache,
		SkipScanMaxRequests:  s.SkipScanMaxRequests,
	}
	for name, c := range s.Connections {
		out.Connections[name] = connectionYAML(c)
	}
	var b bytes.Buffer
	switch {
	case s.Path == "":
		fmt.Fprintf(&b, "# no settings file (%s=%s): the defaults\n", config.EnvSettings, config.NoConnection)
	case !s.Exists:
		fmt.Fprintf(&b, "# %s does not exist: the defaults\n", s.Path)
	default:
		fmt.Fprintf(&b, "# %s\n", s.Path)
	}
	b.WriteString("# sampling: a cap left out is the layout command's own default; defaultLimit: 0 means no Limit; maxLoadedItems: 0 means no cap\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(out); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}
