package workbench

import (
	"strings"
	"testing"
)

// DynamoDB's table names are 3 to 255 characters: a 2-character or a
// 256-character name is refused by the model's reader, the edges accepted.
func TestCheckTableNameLengthEdges(t *testing.T) {
	for name, ok := range map[string]bool{
		"ab":                     false,
		"abc":                    true,
		strings.Repeat("a", 255): true,
		strings.Repeat("a", 256): false,
		"a b c":                  false,
		"A-z_0.9":                true,
	} {
		if err := checkTableName(name); (err == nil) != ok {
			t.Errorf("checkTableName(%d characters %.8q) = %v, want accepted %v", len(name), name, err, ok)
		}
	}
}
