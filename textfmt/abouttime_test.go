package textfmt

import (
	"testing"
	"time"
)

// A duration as the preview says it.
func TestAboutTime(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{300 * time.Millisecond, "under 1 s"},
		{time.Second, "about 1 s"},
		{40720 * time.Millisecond, "about 41 s"},
		{81440 * time.Millisecond, "about 1 min 21 s"},
		{time.Hour + 5*time.Minute + 20*time.Second, "about 1 h 5 min"},
		{time.Hour + 59*time.Minute + 40*time.Second, "about 2 h 0 min"},
	} {
		if got := AboutTime(c.d); got != c.want {
			t.Errorf("AboutTime(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
