package patterns

import (
	"errors"
	"io/fs"
)

// Open reads the patterns file the UI lists and saves to, and returns it
// with the path a save goes to. A file named on the command line (given)
// that does not exist yet is an empty list, created by the first save; the
// default file, when missing, is no file at all (nil, ""). A file that does
// not read is an error sentence naming its line.
func Open(path string, given bool) (*PatternSet, string, error) {
	set, err := LoadPatterns(path)
	switch {
	case err == nil:
		return set, path, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, "", err
	case given:
		return &PatternSet{Path: path}, path, nil
	}
	return nil, "", nil
}
