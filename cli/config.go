package cli

// `dynascope config path|show`: where the settings file is and what it
// amounts to, defaults included.

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"

	"dynascope/config"
)

// configOptions are the options of `dynascope config path` and `config
// show`: they have no flags, only where to print.
type configOptions struct {
	Out io.Writer
}

func newConfigCmd(f *factory) *cobra.Command {
	const usage = "config needs what to do: 'dynascope config path' (where the settings file is) or 'dynascope config show' (the settings in effect)."
	cmd := &cobra.Command{
		Use:         "config",
		Short:       "where the settings file is and what it says",
		GroupID:     groupSetup,
		Annotations: map[string]string{offline: "yes"},
		Example:     "  dynascope config path\n  dynascope config show",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError{usage}
			}
			return usageError{fmt.Sprintf("unknown config command %q; %s", args[0], usage)}
		},
		RunE: func(*cobra.Command, []string) error { return nil }, // Args refuses every call
	}
	cmd.AddCommand(newConfigPathCmd(f, nil), newConfigShowCmd(f, nil))
	return cmd
}

func newConfigPathCmd(f *factory, runF func(context.Context, *configOptions) error) *cobra.Command {
	return configSubCmd(f, "path", "print where the settings file is", runF, runConfigPath)
}

func newConfigShowCmd(f *factory, runF func(context.Context, *configOptions) error) *cobra.Command {
	return configSubCmd(f, "show", "print the settings in effect, as a settings file", runF, runConfigShow)
}

// configSubCmd builds config path or config show: no flags, no arguments.
func configSubCmd(f *factory, use, short string, runF, run func(context.Context, *configOptions) error) *cobra.Command {
	if runF == nil {
		runF = run
	}
	return &cobra.Command{
		Use:         use,
		Short:       short,
		Annotations: map[string]string{offline: "yes"},
		Args:        configArgs(use),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), &configOptions{Out: f.Stdout()})
		},
	}
}

// runConfigPath prints where the settings file is, or that there is none.
func runConfigPath(_ context.Context, opts *configOptions) error {
	path, err := config.SettingsPath()
	if err != nil {
		return err
	}
	if path == "" {
		fmt.Fprintf(opts.Out, "none (%s=%s)\n", config.EnvSettings, config.NoConnection)
		return nil
	}
	fmt.Fprintln(opts.Out, path)
	return nil
}

// runConfigShow prints the settings in effect.
func runConfigShow(_ context.Context, opts *configOptions) error {
	s, err := config.LoadSettings()
	if err != nil {
		return err
	}
	return showSettings(opts.Out, s)
}

// configArgs refuses arguments to config path and config show.
func configArgs(sub string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usageError{fmt.Sprintf("config %s takes no arguments, not %q.", sub, args[0])}
		}
		return nil
	}
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
	VersionAttribute     string                    `yaml:"versionAttribute,omitempty"`
}

type connectionYAML struct {
	Endpoint string `yaml:"endpoint,omitempty"`
	Region   string `yaml:"region,omitempty"`
	Profile  string `yaml:"profile,omitempty"`
	Writes   bool   `yaml:"writes,omitempty"`
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
		VersionAttribute:     s.VersionAttribute,
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
