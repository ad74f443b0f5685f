package itemcodec

// Input that can be read only once: standard input ("-"), a pipe, a FIFO,
// /dev/stdin, a shell's <(...). A load reads its file twice (validate every
// item, then write), so such input is copied once, as it streams in, into a
// private temporary file that both passes read; memory holds a buffer, not
// the input, and the format is told from that file's first bytes like any
// other's. Reopening the stream instead would find it empty (a pipe) or
// block (a FIFO).

import (
	"fmt"
	"io"
	"os"

	"dynascope/textfmt"
)

// StdinName is the --file argument that means standard input.
const StdinName = "-"

// IsStream tells whether p names input that cannot be read twice:
// standard input, or a path that is neither a regular file nor a
// directory (a pipe, a FIFO, a character device, a socket).
func IsStream(p string) bool {
	if p == StdinName {
		return true
	}
	st, err := os.Stat(p)
	return err == nil && !st.Mode().IsRegular() && !st.IsDir()
}

// ShownName is how messages name p: "standard input" for "-".
func ShownName(p string) string {
	if p == StdinName {
		return "standard input"
	}
	return p
}

// SpoolInput reads the stream p names (stdin for "-") to its end into a
// temporary file and returns the files to read, naming p in their
// messages; remove deletes the copy. A read error stops it with a sentence.
func SpoolInput(p string, stdin io.Reader) (in InputFiles, remove func(), err error) {
	in = InputFiles{Items: -1, Shown: ShownName(p)}
	src := stdin
	if p != StdinName {
		f, err := os.Open(p)
		if err != nil {
			return in, func() {}, &textfmt.UserError{Msg: fmt.Sprintf("cannot read %s: %v.", p, err), Err: err}
		}
		defer f.Close()
		src = f
	}
	tmp, err := os.CreateTemp("", "dynascope-input-*")
	if err != nil {
		return in, func() {}, &textfmt.UserError{Msg: fmt.Sprintf("cannot keep a copy of %s to validate it before writing: %v; save it to a file and pass that.", in.Shown, err), Err: err}
	}
	remove = func() { os.Remove(tmp.Name()) }
	_, err = io.Copy(tmp, src)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		remove()
		return in, func() {}, &textfmt.UserError{Msg: fmt.Sprintf("cannot read %s: %v; nothing was written.", in.Shown, err), Err: err}
	}
	in.Paths = []string{tmp.Name()}
	return in, remove, nil
}
