package cli

// explain's key from an entity: the patterns file's entities: section, its
// templates filled with the parameters given, each checked against its
// declared type as the application's code would have to.

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

// explainEntity is the entity whose key explain builds.
type explainEntity = *entities.Entity

// loadExplainEntity reads the patterns file and finds the entity, before
// anything connects: the entity and the table (--table, else the file's).
func loadExplainEntity(ctx context.Context, opts *explainOptions) (explainEntity, string, error) {
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

// explainBuild is the key the application would build for e on ks from
// params: the partition key, and the sort key when every parameter of its
// template is given (none given: the partition alone is explained). An
// entity that declares no key on ks is a difference in itself (the
// index), said without a request.
func explainBuild(e explainEntity, t dynamo.Table, ks dynamo.KeySchema, params map[string]string) (explainKey, *explainDiff, error) {
	if _, ok := e.Keys[ks.PK.Name]; !ok {
		return explainKey{}, &explainDiff{Kind: "index", Attr: ks.PK.Name,
			Message: fmt.Sprintf("%s declares no %s, the partition key of %s: its keys are %s, so no query on %s finds it",
				e.Name, ks.PK.Name, where(t.Name, ks.Index), entityKeysText(e, t), indexName(ks.Index))}, nil
	}
	pk, err := e.Build(params, ks.PK.Name)
	if err != nil {
		return explainKey{}, nil, &dynamo.UserError{Msg: sentence(err)}
	}
	k := explainKey{Attrs: []string{ks.PK.Name}, Values: []string{pk}}
	if ks.SK == nil {
		return k, nil, nil
	}
	tpl, ok := e.Keys[ks.SK.Name]
	if !ok {
		return k, nil, nil
	}
	given := 0
	for _, p := range tpl.Params() {
		if _, ok := params[p]; ok {
			given++
		}
	}
	if given == 0 && len(tpl.Params()) > 0 {
		return k, nil, nil
	}
	sk, err := e.Build(params, ks.SK.Name)
	if err != nil {
		return explainKey{}, nil, &dynamo.UserError{Msg: sentence(err)}
	}
	k.Attrs, k.Values = append(k.Attrs, ks.SK.Name), append(k.Values, sk)
	return k, nil, nil
}

// entityKeysText names where an entity's keys are: "PK, SK (the table) and
// GSI1PK, GSI1SK (GSI1)".
func entityKeysText(e explainEntity, t dynamo.Table) string {
	var parts []string
	for _, name := range append([]string{""}, indexNames(t)...) {
		ks, err := t.Schema(name)
		if err != nil {
			continue
		}
		if _, ok := e.Keys[ks.PK.Name]; !ok {
			continue
		}
		attrs := ks.PK.Name
		if ks.SK != nil {
			if _, ok := e.Keys[ks.SK.Name]; ok {
				attrs += ", " + ks.SK.Name
			}
		}
		parts = append(parts, attrs+" ("+indexName(name)+")")
	}
	if len(parts) == 0 {
		return strings.Join(e.KeyOrder, ", ")
	}
	return strings.Join(parts, " and ")
}

func indexNames(t dynamo.Table) []string {
	names := make([]string, len(t.Indexes))
	for i, ix := range t.Indexes {
		names[i] = ix.Name
	}
	return names
}

// sentence is an error as one sentence: its text with a full stop.
func sentence(err error) string {
	return strings.TrimRight(err.Error(), ".") + "."
}

// explainParams are the parameters as given, for the output.
func explainParams(params map[string]string) map[string]string {
	out := map[string]string{}
	maps.Copy(out, params)
	return out
}
