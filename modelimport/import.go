package modelimport

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"dynascope/textfmt"
)

// Import reads the model file at path: JSON as data; a JavaScript module
// (.js, .mjs, .cjs) through node, which runs it (the user named it);
// TypeScript is refused. Every mistake is one sentence naming the file.
func Import(ctx context.Context, path string) (*Result, error) {
	fail := func(err error) error {
		return &textfmt.UserError{Msg: fmt.Sprintf("cannot import %s: %s.", path, strings.TrimRight(err.Error(), ".")), Err: err}
	}
	var data []byte
	var err error
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".ts", ".tsx", ".mts", ".cts":
		return nil, &textfmt.UserError{Msg: fmt.Sprintf("cannot import %s: dynascope does not compile TypeScript; compile it to JavaScript (tsc) and import the .js file, or write the definitions as JSON.", path)}
	case ".js", ".mjs", ".cjs":
		data, err = loadJS(ctx, path)
	default:
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, fail(err)
	}
	v, err := parseJSON(data)
	if err != nil {
		return nil, fail(err)
	}
	res, err := read(v)
	if err == nil {
		err = res.settle()
	}
	if err != nil {
		return nil, fail(err)
	}
	return res, nil
}

// read tells the library by the shape of what the file holds: a OneTable
// schema; ElectroDB entity models (one, a list, or a map of them, such as a
// module's exports or a service's entities); DynamoDB-Toolbox entity
// definitions the same way.
func read(v *value) (*Result, error) {
	if isOneTable(v) {
		return readOneTable(v)
	}
	defs := candidates(v)
	var electro, toolbox, toolbox2 []*value
	for _, d := range defs {
		if isOneTable(d) {
			if len(defs) == 1 {
				return readOneTable(d)
			}
			return nil, fmt.Errorf("it holds a OneTable schema beside other definitions; import one schema at a time")
		}
		if m := electroModel(d); m != nil {
			electro = append(electro, m)
		} else if isToolbox(d) {
			toolbox = append(toolbox, d)
		} else if isToolboxSchema(d) {
			toolbox2 = append(toolbox2, d)
		}
	}
	switch {
	case len(electro) > 0 && len(toolbox)+len(toolbox2) > 0:
		return nil, fmt.Errorf("it mixes ElectroDB and DynamoDB-Toolbox entities; import one library's at a time")
	case len(toolbox) > 0 && len(toolbox2) > 0:
		return nil, fmt.Errorf("it mixes DynamoDB-Toolbox entities of v0 (attributes with partitionKey) and of v1 and later (a schema with .key()); import one kind at a time")
	case len(electro) > 0:
		return readElectroDB(electro)
	case len(toolbox) > 0:
		return readToolbox(toolbox)
	case len(toolbox2) > 0:
		return readToolboxSchemas(toolbox2)
	}
	return nil, fmt.Errorf("it is not a OneTable schema (models and indexes), an ElectroDB entity (model, attributes, indexes) or a DynamoDB-Toolbox entity (name and attributes with a partitionKey, or entityName, table and a schema)")
}

// candidates are the definitions a file may hold: the value itself, the
// items of a list, the members of a map, and a service's entities.
func candidates(v *value) []*value {
	if v == nil {
		return nil
	}
	switch v.kind {
	case 'a':
		return v.items
	case 'o':
		if isOneTable(v) || electroModel(v) != nil || isToolbox(v) || isToolboxSchema(v) {
			return []*value{v}
		}
		if ents := v.get("entities"); ents != nil && (ents.kind == 'o' || ents.kind == 'a') {
			return candidates(ents)
		}
		var out []*value
		for _, m := range v.members {
			if m.val.kind == 'o' {
				out = append(out, m.val)
			}
		}
		return out
	}
	return nil
}

// readEach reads each definition into an entity, in their order; an entity
// none of whose keys could be derived is refused with what was said of
// them.
func readEach(library string, defs []*value, build func(*value) (*Entity, error)) (*Result, error) {
	res := &Result{Library: library}
	for _, d := range defs {
		e, err := build(d)
		if err != nil {
			return nil, err
		}
		if len(e.Keys) == 0 {
			return nil, fmt.Errorf("%s entity %s: no key could be derived (%s)", library, e.Name, strings.TrimSuffix(strings.Join(e.Notes, "; "), "."))
		}
		res.Entities = append(res.Entities, *e)
	}
	return res, nil
}
