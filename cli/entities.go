package cli

// The application's declared entities (the patterns file's entities:), for
// the commands that name types: groups, layout, tail and item name keys by
// them (keys.Declared) and mark the others undeclared.

import (
	"context"
	"encoding/json"
	"errors"
	"os"

	"github.com/spf13/cobra"

	"dynascope/dynamo"
	"dynascope/entities"
	"dynascope/itemcodec"
	"dynascope/keys"
	"dynascope/patterns"
	"dynascope/textfmt"
)

// entitiesFlag declares --patterns FILE on a command that names types by
// the declared entities: without it, the patterns file in the working
// directory is read when its table: is the table read; and --models FILE,
// the application's models, whose entities stand in for the file's.
func entitiesFlag(cmd *cobra.Command, file, models *string) {
	cmd.Flags().StringVar(file, "patterns", "", "name types by the entities: of this patterns `FILE` (default: "+patterns.PatternsFile+" here, when its table: is the table)")
	cmd.MarkFlagFilename("patterns", "yaml", "yml")
	modelsFlag(cmd, models)
}

// declaredEntities are the entities of the patterns file for table name:
// file when given (it must exist), else the working directory's patterns
// file when it names that table; nil when there are none. With models,
// they are the entities modelimport reads from that file (in the patterns
// file when one is given, for its keys:), whatever the table. tableKeys
// gives the table's keys, which the entities are checked against; it is
// called only when entities apply.
func declaredEntities(ctx context.Context, file, models, name string, tableKeys func() (dynamo.Table, error)) (*entities.Set, error) {
	given := file != ""
	if !given && models == "" {
		file = patterns.PatternsFile
		if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
	}
	set, err := loadPatterns(ctx, file, models)
	if err != nil {
		return nil, err
	}
	return entitiesFor(set, given || models != "", name, tableKeys)
}

// entitiesFor is the file's entities where they apply to table name: the
// file declares some, and it was named (given) or is the table's own; their
// keys are checked against the table's.
func entitiesFor(set *patterns.PatternSet, given bool, name string, tableKeys func() (dynamo.Table, error)) (*entities.Set, error) {
	if set == nil || set.Entities == nil || len(set.Entities.Entities) == 0 || (!given && set.Table != name) {
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

// tableSchema is the table's own key schema, by which the index map and
// index try name an item (each by its table key).
func tableSchema(t dynamo.Table) dynamo.KeySchema { return dynamo.KeySchema{PK: t.PK, SK: t.SK} }

// declaredFlag is what JSON says of a type's name: true when a declaration
// named it, false when declarations are in use and none did; nil (the
// field left out) without declarations.
func declaredFlag(g keys.Group) *bool {
	if !g.Declared && !g.Undeclared {
		return nil
	}
	return &g.Declared
}

// entityObject is what item says of the item's declared entity: its name
// and the parameters its keys decode to (in the order of its keys), and
// what it breaks of its index keys; declared false, with no name, when no
// declaration matches its keys.
type entityObject struct {
	Name     *string   `json:"name"`
	Declared bool      `json:"declared"`
	Params   keyObject `json:"params"`
	Drift    []string  `json:"drift"`
}

// itemEntity matches the item against the entities; nil without them.
func itemEntity(set *entities.Set, it dynamo.Item) *entityObject {
	if set == nil || it == nil {
		return nil
	}
	m, ok := set.Match(itemcodec.TextAttrs(it))
	if !ok {
		return &entityObject{Params: keyObject{}, Drift: []string{}}
	}
	o := &entityObject{Name: &m.Entity.Name, Declared: true, Params: keyObject{}, Drift: m.Drift}
	for _, v := range m.Params {
		o.Params = append(o.Params, keyField{v.Name, json.RawMessage(jsonString(v.Value))})
	}
	if o.Drift == nil {
		o.Drift = []string{}
	}
	return o
}

// entityLine is the item's entity in text: "entity Order: customerId = 42,
// orderDate = 2025-03-01" and its drift, or that no declaration matches.
func entityLine(set *entities.Set, it dynamo.Item) string {
	if set == nil || it == nil {
		return ""
	}
	m, ok := set.Match(itemcodec.TextAttrs(it))
	if !ok {
		return "entity: undeclared (its keys match no declared entity)\n"
	}
	line := "entity " + textfmt.Sanitize(m.Name())
	if d := m.Decoded(); d != "" {
		line += ": " + textfmt.Sanitize(d)
	}
	for _, d := range m.Drift {
		line += "\n  drift: " + textfmt.Sanitize(d)
	}
	return line + "\n"
}
