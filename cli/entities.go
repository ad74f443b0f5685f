package cli

// The application's declared entities (the patterns file's entities:), for
// the commands that name types: groups, layout, tail and item name keys by
// them (keys.Declared) and mark the others undeclared.

import (
	"errors"
	"os"

	"github.com/spf13/cobra"

	"dynascope/dynamo"
	"dynascope/entities"
	"dynascope/keys"
	"dynascope/patterns"
)

// entitiesFlag declares --patterns FILE on a command that names types by
// the declared entities: without it, the patterns file in the working
// directory is read when its table: is the table read.
func entitiesFlag(cmd *cobra.Command, file *string) {
	cmd.Flags().StringVar(file, "patterns", "", "name types by the entities: of this patterns `FILE` (default: "+patterns.PatternsFile+" here, when its table: is the table)")
	cmd.MarkFlagFilename("patterns", "yaml", "yml")
}

// declaredEntities are the entities of the patterns file for table name:
// file when given (it must exist), else the working directory's patterns
// file when it names that table; nil when there are none. tableKeys gives
// the table's keys, which the entities are checked against; it is called
// only when entities apply.
func declaredEntities(file, name string, tableKeys func() (dynamo.Table, error)) (*entities.Set, error) {
	given := file != ""
	if !given {
		file = patterns.PatternsFile
		if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
	}
	set, err := patterns.LoadPatterns(file)
	if err != nil {
		return nil, err
	}
	if len(set.Entities.Entities) == 0 || (!given && set.Table != name) {
		return nil, nil
	}
	t, err := tableKeys()
	if err != nil {
		return nil, err
	}
	if err := set.CheckKeys(t); err != nil {
		return nil, err
	}
	return set.Entities, nil
}

// declaredNamer names keys of the table or index ks by the entities; nil
// without them.
func declaredNamer(set *entities.Set, ks dynamo.KeySchema) keys.Declared {
	if set == nil {
		return nil
	}
	sk := ""
	if ks.SK != nil {
		sk = ks.SK.Name
	}
	return set.Namer(ks.PK.Name, sk)
}

// declaredFlag is what JSON says of a type's name: true when a declaration
// named it, false when declarations are in use and none did; nil (the
// field left out) without declarations.
func declaredFlag(g keys.Group) *bool {
	if !g.Declared && !g.Undeclared {
		return nil
	}
	return &g.Declared
}
