package cli

// `dynascope entities import FILE [--write]`: the application's own models
// (OneTable, ElectroDB, DynamoDB-Toolbox) read into the patterns file's
// entities: section.

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"dynascope/modelimport"
	"dynascope/patterns"
	"dynascope/textfmt"
)

func newEntitiesCmd(f *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "entities",
		Short:   "the entities the application declares: import them from its models",
		GroupID: groupSetup,
		Long: `The entities: section of the patterns file declares each entity's key
templates and the types of their parameters. import reads them from the
models the application already has: a OneTable schema, ElectroDB entities,
DynamoDB-Toolbox entities.`,
		Example:     "  dynascope entities import models/schema.json\n  dynascope entities import src/entities.js --write",
		Annotations: map[string]string{offline: "yes"},
		Args:        needsSubcommand("entities", "import FILE"),
		RunE:        func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newEntitiesImportCmd(f, nil))
	return cmd
}

// entitiesImportOptions are the flag values of `dynascope entities import`.
type entitiesImportOptions struct {
	Out, Err io.Writer
	Model    string // the model file
	Write    bool   // --write: into the patterns file, not stdout
	File     string // --patterns
}

// modelsHelp is what --models and import say about running a JS module.
const modelsHelp = `A JSON file is read as data. A JavaScript module (.js, .mjs, .cjs) is
loaded by the machine's node, and that runs the module's code: name only a
file you would run yourself. dynascope runs nothing else, and only the file
named on the command line: node runs a loader of dynascope's that imports
the file (its one argument, no shell), with an environment of nothing but
PATH and HOME, for at most 10 seconds; what the module exports is read as
JSON. TypeScript is refused: compile it to JavaScript, or write the
definitions as JSON.`

func newEntitiesImportCmd(f *factory, runF func(context.Context, *entitiesImportOptions) error) *cobra.Command {
	opts := &entitiesImportOptions{}
	cmd := &cobra.Command{
		Use:   "import FILE",
		Short: "read the application's models into the entities: section",
		Long: `Read the entities an application's DynamoDB library declares and print them
as the patterns file's entities: section, or with --write put the section
into the patterns file (replacing its entities:, keeping every other line
and comment).

FILE is one of:
  a OneTable schema (indexes and models; value templates such as
    'CUST#${customerId}', ${name:6} padded; a date is a date-time with
    params.isoDates, else a number, as OneTable stores it; the type field,
    _type unless params.typeField, names the entity);
  ElectroDB entities (one model, a list, or a module's exports): templates
    as written, and ElectroDB's own key format where none is given
    ($service#label_value for the partition key, $entity_version#… for the
    sort key, lower-cased unless casing says otherwise); __edb_e__ names the
    entity;
  DynamoDB-Toolbox entities (v0 definitions, or v1+ entities and their
    EntityDTO JSON): the keys that are derivable — a value default, a
    default or link that is a plain template string, prefix and suffix — and
    one sentence, as a comment in the section, for each that is not.

` + modelsHelp,
		Example: `  dynascope entities import models/schema.json
  dynascope entities import src/entities.js --write
  dynascope entities import src/entities.js --write --patterns app.yaml`,
		Args:        exactlyOneFile("entities import", "the model file"),
		Annotations: map[string]string{offline: "yes"},
	}
	cmd.Flags().BoolVar(&opts.Write, "write", false, "put the section into the patterns file instead of printing it")
	patternsFileFlag(cmd, &opts.File)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		opts.Model, opts.Out, opts.Err = args[0], f.Stdout(), f.Stderr()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runEntitiesImport(cmd.Context(), opts)
	}
	return cmd
}

// exactlyOneFile takes one positional argument, a file.
func exactlyOneFile(command, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return usageError{fmt.Sprintf("%s needs %s: dynascope %s FILE.", command, what, command)}
		case len(args) > 1:
			return usageError{fmt.Sprintf("%s takes one file, not %d (%q is extra).", command, len(args), args[1])}
		}
		return nil
	}
}

// runEntitiesImport reads the model file and prints the section, or writes
// it into the patterns file. It sends no request.
func runEntitiesImport(ctx context.Context, opts *entitiesImportOptions) error {
	res, err := modelimport.Import(ctx, opts.Model)
	if err != nil {
		return err
	}
	section := res.Section()
	notes := 0
	for _, e := range res.Entities {
		notes += len(e.Notes)
	}
	said := ""
	if notes > 0 {
		said = fmt.Sprintf("; %s (what could not be derived, or how the library writes a key) as comments in the section", textfmt.Plural(notes, "note", "notes"))
	}
	if !opts.Write {
		if _, err := opts.Out.Write(section); err != nil {
			return err
		}
		fmt.Fprintf(opts.Err, "%s from %s (%s)%s.\n", textfmt.Plural(len(res.Entities), "entity", "entities"), opts.Model, res.Library, said)
		return nil
	}
	if err := patterns.SaveEntities(opts.File, section); err != nil {
		return err
	}
	fmt.Fprintf(opts.Out, "Wrote the entities: section to %s: %s from %s (%s)%s.\n", opts.File, textfmt.Plural(len(res.Entities), "entity", "entities"), opts.Model, res.Library, said)
	return nil
}

// needsSubcommand is the Args of a command that only groups others: run
// alone or with an unknown subcommand, it is one sentence naming them
// (list), not the help.
func needsSubcommand(name, list string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) == 0 {
			return usageError{fmt.Sprintf("%s needs a subcommand: %s.", name, list)}
		}
		if args[0] == "help" {
			return nil
		}
		return usageError{fmt.Sprintf("unknown %s subcommand %q; use %s.", name, args[0], list)}
	}
}
