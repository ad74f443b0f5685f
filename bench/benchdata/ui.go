package benchdata

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// Timing the terminal UI in a pseudo-terminal made by script(1), for
// bench/startup and bench/firstscreen.

// UITimes are the moments a UI run reached, from process start.
type UITimes struct {
	Frame   time.Duration // the first text on screen: the first frame, whatever it shows
	Results time.Duration // the marker: the partition's items
}

// TimeUI starts the UI in a pseudo-terminal and returns when the marker
// appears on its screen, then kills it. The screen is the pty's output with
// escape sequences dropped and REP (repeat the last character) expanded.
func TimeUI(env []string, command, marker string) (UITimes, error) {
	c := exec.Command("script", "-qfec", command, "/dev/null")
	c.Env = env
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its own group, killed as one
	out, err := c.StdoutPipe()
	if err != nil {
		return UITimes{}, err
	}
	began := time.Now()
	if err := c.Start(); err != nil {
		return UITimes{}, err
	}
	defer func() {
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		_ = c.Wait()
	}()
	type event struct {
		t   UITimes
		err error
	}
	found := make(chan event, 1)
	go func() {
		var s screenText
		var t UITimes
		buf := make([]byte, 32<<10)
		for {
			n, err := out.Read(buf)
			s.write(buf[:n])
			text := s.text.String()
			if t.Frame == 0 && strings.TrimSpace(text) != "" {
				t.Frame = time.Since(began)
			}
			if strings.Contains(text, marker) {
				t.Results = time.Since(began)
				found <- event{t: t}
				return
			}
			if err != nil {
				if err == io.EOF {
					err = errors.New("it exited")
				}
				found <- event{err: fmt.Errorf("%w before showing %q; it printed %.300q", err, marker, text)}
				return
			}
		}
	}()
	select {
	case e := <-found:
		return e.t, e.err
	case <-time.After(30 * time.Second):
		return UITimes{}, fmt.Errorf("no %q on its screen within 30 s", marker)
	}
}

// screenText keeps the printable text of a terminal stream.
type screenText struct {
	text  strings.Builder
	state int // 0 text, 1 after ESC, 2 in CSI, 3 in OSC/DCS/APC string, 4 ESC inside one
	param []byte
	last  rune
	utf8  []byte
}

func (s *screenText) write(p []byte) {
	for _, b := range p {
		switch s.state {
		case 0:
			switch {
			case b == 0x1b:
				s.state = 1
			case b < 0x20 || b == 0x7f:
				s.text.WriteByte(' ')
			default:
				s.utf8 = append(s.utf8, b)
				if utf8.FullRune(s.utf8) {
					r, _ := utf8.DecodeRune(s.utf8)
					s.text.WriteRune(r)
					s.last, s.utf8 = r, s.utf8[:0]
				}
			}
		case 1:
			switch b {
			case '[':
				s.state, s.param = 2, s.param[:0]
			case ']', 'P', '_', '^', 'X':
				s.state = 3
			default:
				s.state = 0
			}
		case 2:
			if b >= 0x40 && b <= 0x7e {
				if b == 'b' { // REP: the last character, n more times
					n := 1
					fmt.Sscanf(string(s.param), "%d", &n)
					for range min(n, 1000) {
						s.text.WriteRune(s.last)
					}
				} else {
					s.text.WriteByte(' ') // a cursor move or style: a gap
				}
				s.state = 0
			} else {
				s.param = append(s.param, b)
			}
		case 3:
			switch b {
			case 0x07:
				s.state = 0
			case 0x1b:
				s.state = 4
			}
		case 4:
			s.state = 3
			if b == '\\' {
				s.state = 0
			}
		}
	}
}

// Median is the middle of durations d (the upper one of an even count).
func Median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
