package patterns

// The patterns file read with the entities of the application's models
// (--models FILE) in place of its own entities: section.

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"dynascope/dynamo"
)

// LoadWithEntities is LoadPatterns with section, an entities: section read
// from the models file from, in place of the file's own entities:. The
// file's lines keep their numbers (its entities: block is read as blank
// lines and the section after its last line), so a mistake in the file is
// at its line and one in the section names from. A patterns file that does
// not exist is one with no patterns: the models alone.
func LoadWithEntities(path string, section []byte, from string) (*PatternSet, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, &dynamo.UserError{Msg: fmt.Sprintf("cannot read the patterns file %s: %v.", path, err), Err: err}
	}
	merged, fileLines, err := withEntities(data, section)
	if err != nil {
		return nil, &dynamo.UserError{Msg: fmt.Sprintf("cannot use the entities of %s with %s: %v.", from, path, err)}
	}
	set, err := ParsePatterns(path, merged)
	var pe *PatternError
	if errors.As(err, &pe) && pe.Line > fileLines {
		return nil, &dynamo.UserError{Msg: fmt.Sprintf("the entities of %s do not fit %s: %s.", from, path, strings.TrimRight(pe.Msg, ".")), Err: err}
	}
	if err != nil {
		return nil, err
	}
	return set, nil
}

// withEntities returns data with its entities: block's lines emptied and
// section after its end, and how many lines of data come first.
func withEntities(data, section []byte) ([]byte, int, error) {
	lines := splitLines(data)
	if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") {
		lines[n-1] += "\n"
	}
	if root, at, err := topLevel(data, "entities"); err != nil {
		return nil, 0, err
	} else if at >= 0 {
		key := root.Content[at]
		end := blockEnd(lines, root, at, max(key.Line, lastLine(root.Content[at+1])))
		for i := key.Line - 1; i < end; i++ {
			lines[i] = "\n"
		}
	}
	return []byte(strings.Join(lines, "") + string(section)), len(lines), nil
}
