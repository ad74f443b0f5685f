package patterns

// The file's entities: section, read by package entities and checked
// against the table's keys: the file's keys: when it has them, else the
// table DynamoDB described.

import (
	"errors"

	"dynascope/dynamo"
	"dynascope/entities"
)

// entityError turns an entities error into the file's line:column form.
func entityError(file string, err error) error {
	var ee *entities.Error
	if !errors.As(err, &ee) {
		return err
	}
	msg := ee.Msg
	if ee.Entity != "" {
		msg = "entity \"" + ee.Entity + "\": " + msg
	}
	return &PatternError{File: file, Line: ee.Line, Col: ee.Col, Msg: msg}
}

// keyNames are the table's key attributes (partition key first) and its
// indexes' key attributes, each once.
func keyNames(t dynamo.Table) (table, index []string) {
	table = []string{t.PK.Name}
	if t.SK != nil {
		table = append(table, t.SK.Name)
	}
	add := func(name string) {
		for _, n := range append(table, index...) {
			if n == name {
				return
			}
		}
		index = append(index, name)
	}
	for _, ix := range t.Indexes {
		add(ix.PK.Name)
		if ix.SK != nil {
			add(ix.SK.Name)
		}
	}
	return table, index
}

// CheckEntities holds the file's entities to the table's keys (from
// DescribeTable): every key attribute an entity declares is a key of the
// table or of an index. Nil when the file declares none.
func (s *PatternSet) CheckEntities(t dynamo.Table) error {
	if s.Entities == nil || len(s.Entities.Entities) == 0 {
		return nil
	}
	table, index := keyNames(t)
	return entityError(s.Path, s.Entities.SetKeys(table, index))
}
