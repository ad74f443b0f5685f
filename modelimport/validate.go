package modelimport

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"dynascope/entities"
)

// Set reads the section back through entities.Parse, with the table's and
// the indexes' key attributes the models named: what the patterns file
// will hold.
func (r *Result) Set() (*entities.Set, error) {
	set, err := parseSection(r.Section())
	if err != nil {
		return nil, err
	}
	table, index := r.KeyAttrs()
	if err := set.SetKeys(table, index); err != nil {
		return nil, err
	}
	return set, nil
}

// KeyAttrs are the key attributes the entities use, the table's and the
// indexes', each once, in the order first used.
func (r *Result) KeyAttrs() (table, index []string) {
	for _, e := range r.Entities {
		for _, k := range e.Keys {
			switch {
			case k.Index && !slices.Contains(index, k.Attr):
				index = append(index, k.Attr)
			case !k.Index && !slices.Contains(table, k.Attr):
				table = append(table, k.Attr)
			}
		}
	}
	return table, index
}

func parseSection(section []byte) (*entities.Set, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(section, &doc); err != nil {
		return nil, err
	}
	return entities.Parse(doc.Content[0].Content[1])
}

// settle holds each entity to what entities.Parse accepts: a key it
// refuses (two placeholders touching, say) is left out with its sentence
// as a note, and an entity it refuses for another reason, or whose table
// keys would go, fails the import. Then the whole set must load.
func (r *Result) settle() error {
	for i := range r.Entities {
		e := &r.Entities[i]
		for range len(e.Keys) + 1 {
			one := &Result{Entities: []Entity{*e}}
			_, err := parseSection(one.Section())
			var ee *entities.Error
			if err == nil {
				break
			}
			k := -1
			if errors.As(err, &ee) {
				k = keyAtLine(one.Section(), ee.Line)
			}
			if k < 0 || !e.Keys[k].Index && k == 0 {
				return fmt.Errorf("the entity %s it declares does not load: %s", e.Name, strings.TrimRight(messageOf(err), "."))
			}
			e.note("%s is left out: %s", e.Keys[k].Attr, strings.TrimRight(messageOf(err), "."))
			e.dropKey(k)
		}
	}
	if _, err := r.Set(); err != nil {
		return fmt.Errorf("its entities do not load together: %s", strings.TrimRight(messageOf(err), "."))
	}
	return nil
}

func messageOf(err error) string {
	var ee *entities.Error
	if errors.As(err, &ee) {
		return ee.Msg
	}
	return err.Error()
}

// keyAtLine is the index of the key written on line of a one-entity
// section, -1 when none is.
func keyAtLine(section []byte, line int) int {
	var doc yaml.Node
	if yaml.Unmarshal(section, &doc) != nil {
		return -1
	}
	m := doc.Content[0].Content[1].Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value != "keys" {
			continue
		}
		keys := m.Content[i+1]
		for j := 0; j+1 < len(keys.Content); j += 2 {
			if keys.Content[j].Line == line || keys.Content[j+1].Line == line {
				return j / 2
			}
		}
	}
	return -1
}

// dropKey removes key k and the parameters no other key uses.
func (e *Entity) dropKey(k int) {
	e.Keys = slices.Delete(e.Keys, k, k+1)
	used := map[string]bool{}
	for _, key := range e.Keys {
		for _, s := range key.Template {
			used[s.Param] = true
		}
	}
	e.Params = slices.DeleteFunc(e.Params, func(p Param) bool { return !used[p.Name] })
}
