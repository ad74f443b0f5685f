package ui

// The application's declared entities (the patterns file's entities:, for
// the file's own table): the types pane, the live pane and the item detail
// name keys by them, as groups, layout and tail do (keys.Declared).

import (
	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/keys"
	"dynascope/ui/overlay"
)

// declaring tells whether declared entities name this table's types: the
// patterns file declares some, and its table: is the table open.
func (m Model) declaring() bool {
	return m.patterns != nil && m.patterns.Entities != nil && len(m.patterns.Entities.Entities) > 0 && m.patterns.Table == m.table.Name
}

// declared names keys of the table or index open by the declarations; nil
// when none apply.
func (m Model) declared() keys.Declared { return m.namer(m.schema.PK, m.schema.SK) }

// declaredOnTable names the table's own keys by the declarations (the
// index map names each item by its table key, whatever is open); nil when
// none apply.
func (m Model) declaredOnTable() keys.Declared { return m.namer(m.table.PK, m.table.SK) }

func (m Model) namer(pk dynamo.KeyAttr, sk *dynamo.KeyAttr) keys.Declared {
	if !m.declaring() {
		return nil
	}
	skName := ""
	if sk != nil {
		skName = sk.Name
	}
	return m.patterns.Entities.Namer(pk.Name, skName)
}

// detailEntity is what the item detail says of the item's declared entity
// and its keys decoded; nil when no declarations apply.
func (m Model) detailEntity(it dynamo.Item) *overlay.DetailEntity {
	if !m.declaring() {
		return nil
	}
	match, ok := m.patterns.Entities.Match(itemcodec.TextAttrs(it))
	if !ok {
		return &overlay.DetailEntity{}
	}
	e := &overlay.DetailEntity{Declared: true, Name: match.Name(), Drift: match.Drift}
	for _, v := range match.Params {
		e.Params = append(e.Params, v.Name+" = "+v.Value)
	}
	return e
}
