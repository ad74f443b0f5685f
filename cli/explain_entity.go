package cli

// explain's entity: the patterns file's entities: section, read before
// anything connects; package explain fills its templates with the
// parameters given, each checked against its declared type as the
// application's code would have to.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"dynascope/dynamo"
	"dynascope/entities"
	"dynascope/textfmt"
)

// loadExplainEntity reads the patterns file and finds the entity, before
// anything connects: the entity and the table (--table, else the file's).
func loadExplainEntity(ctx context.Context, opts *explainOptions) (*entities.Entity, string, error) {
	set, table, err := patternSet(ctx, opts.Table, opts.File, opts.Models)
	if err != nil {
		return nil, "", err
	}
	if !set.HasEntities() {
		return nil, "", &dynamo.UserError{Msg: fmt.Sprintf("%s declares no entities:, so there is no entity %q; declare it, or give the key as typed with --pk and --sk.", opts.File, opts.Entity)}
	}
	e := set.Entities.Find(opts.Entity)
	if e == nil {
		names := set.Entities.Names()
		return nil, "", &dynamo.UserError{Msg: fmt.Sprintf("%s declares no entity %q%s; its entities are %s.", opts.File, opts.Entity,
			textfmt.Suggest(opts.Entity, names), strings.Join(names, ", "))}
	}
	for _, k := range slices.Sorted(maps.Keys(opts.Params)) {
		if _, ok := e.Params[k]; !ok {
			return nil, "", &dynamo.UserError{Msg: fmt.Sprintf("%s has no parameter %s%s; its parameters are %s.", e.Name, k,
				textfmt.Suggest(k, e.ParamOrder()), strings.Join(e.ParamOrder(), ", "))}
		}
	}
	return e, table, nil
}
