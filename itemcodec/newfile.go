package itemcodec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// NewFile is a file being written under a name that says it is incomplete
// (NAME.*.partial); only Finish with no error gives it the name asked for,
// and never over a file that exists. A process killed on the way leaves
// "NAME.*.partial", never a NAME that looks whole.
type NewFile struct {
	*os.File
	path string
}

// CreateNew starts a new file at path, refusing one that exists.
func CreateNew(path string) (*NewFile, error) {
	if _, err := os.Lstat(path); err == nil {
		return nil, existsError(path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.partial")
	if err != nil {
		return nil, fmt.Errorf("export to %s: %w", path, err)
	}
	return &NewFile{File: f, path: path}, nil
}

// Finish closes the file and, when failed is nil, names it as asked; the
// partial file is removed either way. It returns failed, or the error of
// closing or naming it.
func (f *NewFile) Finish(failed error) error {
	err := failed
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("export to %s: %w", f.path, cerr)
	}
	if err == nil {
		// Link, unlike Rename, refuses to replace a file made meanwhile.
		if lerr := os.Link(f.Name(), f.path); lerr != nil {
			if errors.Is(lerr, os.ErrExist) {
				err = existsError(f.path)
			} else if rerr := os.Rename(f.Name(), f.path); rerr != nil { // a file system without links
				err = fmt.Errorf("export to %s: %w", f.path, rerr)
			}
		}
	}
	os.Remove(f.Name())
	return err
}

// existsError is one sentence: the file system's own "file already
// exists" would only repeat it.
func existsError(path string) error {
	return fmt.Errorf("export to %s: the file exists; choose another name (nothing is overwritten)", path)
}
