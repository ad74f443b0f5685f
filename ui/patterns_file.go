package ui

import (
	"errors"
	"os"

	"dynascope/patterns"
)

// LoadPatterns reads the patterns file the UI lists and saves to, and
// returns it with the path S saves to. A file named on the command line
// (given) that does not exist yet is an empty list, created by the first
// save; the default file, when missing, is no file at all (nil, ""). A file
// that does not read is an error sentence naming its line.
func LoadPatterns(path string, given bool) (*patterns.PatternSet, string, error) {
	set, err := patterns.LoadPatterns(path)
	switch {
	case err == nil:
		return set, path, nil
	case !errors.Is(err, os.ErrNotExist):
		return nil, "", err
	case given:
		return &patterns.PatternSet{Path: path}, path, nil
	}
	return nil, "", nil
}
