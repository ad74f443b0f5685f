package cli

// The MFA code of a profile that assumes a role with MFA, asked on the
// terminal as the AWS CLI asks it: on /dev/tty (so that a command whose
// standard input is a file or a pipe still asks), without echo, naming the
// device and the profile. The UI asks before it starts (runUI); once it
// runs, the terminal is the UI's, and a session that expires then is a
// sentence, not a prompt over the screen.

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/charmbracelet/x/term"

	"dynascope/dynamo"
)

// mfaTries is how often a code that is not six digits is asked for again.
const mfaTries = 3

// mfaPrompter asks for MFA codes, one question at a time.
type mfaPrompter struct {
	mu sync.Mutex
	// uiRunning is set while the UI has the terminal.
	uiRunning atomic.Bool
	// openTTY opens the terminal; os.OpenFile("/dev/tty") but in tests.
	openTTY func() (*os.File, error)
}

func newMFAPrompter() *mfaPrompter {
	return &mfaPrompter{openTTY: func() (*os.File, error) { return os.OpenFile("/dev/tty", os.O_RDWR, 0) }}
}

// uiStarts says the terminal is the UI's from now on.
func (p *mfaPrompter) uiStarts() { p.uiRunning.Store(true) }

// ask is the client's MFAToken.
func (p *mfaPrompter) ask(ctx context.Context, r dynamo.MFARequest) (string, error) {
	if p.uiRunning.Load() {
		return "", &dynamo.CredentialsError{Msg: fmt.Sprintf("profile %s needs a code of the MFA device %s, and the terminal is the UI's; quit and start dynascope with --profile %s to enter it", r.Profile, r.Serial, r.Profile)}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	tty, err := p.openTTY()
	if err != nil {
		return "", dynamo.NoMFAPrompt(r, err)
	}
	defer tty.Close()
	for range mfaTries {
		fmt.Fprintf(tty, "Enter MFA code for %s (profile %s assumes %s): ", r.Serial, r.Profile, r.RoleARN)
		line, err := readHidden(ctx, tty)
		fmt.Fprintln(tty)
		if err != nil {
			return "", err
		}
		if code := strings.TrimSpace(line); isMFACode(code) {
			return code, nil
		}
		fmt.Fprintln(tty, "An MFA code is the 6 digits the device shows.")
	}
	return "", &dynamo.CredentialsError{Msg: fmt.Sprintf("no MFA code of device %s was entered for profile %s", r.Serial, r.Profile)}
}

// isMFACode tells a code STS can take: six digits.
func isMFACode(s string) bool {
	if len(s) != 6 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// readHidden reads a line from the terminal without echo. Ctrl-C cancels
// ctx (the signal context), which ends the wait and gives the terminal its
// echo back.
func readHidden(ctx context.Context, tty *os.File) (string, error) {
	fd := tty.Fd()
	state, err := term.GetState(fd)
	if err != nil {
		return "", &dynamo.CredentialsError{Msg: "cannot read an MFA code from this terminal", Err: err}
	}
	type read struct {
		line []byte
		err  error
	}
	done := make(chan read, 1)
	go func() {
		line, err := term.ReadPassword(fd)
		done <- read{line, err}
	}()
	select {
	case r := <-done:
		if r.err != nil && r.err != io.EOF {
			return "", &dynamo.CredentialsError{Msg: "cannot read an MFA code from this terminal", Err: r.err}
		}
		return string(r.line), nil
	case <-ctx.Done():
		_ = term.Restore(fd, state)
		return "", ctx.Err()
	}
}
