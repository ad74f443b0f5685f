package main

import (
	"bytes"
	"strings"
	"testing"
)

func norm(t *testing.T, in string) string {
	t.Helper()
	var b bytes.Buffer
	if err := normalize(strings.NewReader(in), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestNormalize(t *testing.T) {
	cases := []struct{ in, want string }{
		// 49 ends a background; freeze only knows a full reset.
		{"\x1b[38;2;1;2;3m\x1b[48;2;4;5;6mab\x1b[49mc\n",
			"\x1b[0m\x1b[48;2;4;5;6m\x1b[38;2;1;2;3mab\x1b[0m\x1b[38;2;1;2;3mc\x1b[0m\n"},
		// 39 returns to the default colour; bold is dropped.
		{"\x1b[1;31mx\x1b[39my\n", "\x1b[0m\x1b[38;2;205;0;0mx\x1b[0my\n"},
		// A style that runs onto the next line is written again there.
		{"\x1b[44ma\nb\x1b[0m\n", "\x1b[0m\x1b[48;2;0;0;238ma\x1b[0m\n\x1b[0m\x1b[48;2;0;0;238mb\x1b[0m\n"},
		// 256 colours, reverse video, faint; other escapes go.
		{"\x1b[38;5;196mr\x1b[7mv\x1b[0m\x1b[2mf\x1b[K\n",
			"\x1b[0m\x1b[38;2;255;0;0mr\x1b[0m\x1b[48;2;255;0;0m\x1b[38;2;23;23;23mv\x1b[0m\x1b[38;2;110;111;110mf\x1b[0m\n"},
		{"plain ü text\n", "plain ü text\n"},
	}
	for _, c := range cases {
		if got := norm(t, c.in); got != c.want {
			t.Errorf("%q:\n got  %q\n want %q", c.in, got, c.want)
		}
	}
}
