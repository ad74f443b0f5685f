// Command ansinorm rewrites captured terminal output (tmux capture-pane -e)
// into the small subset of ANSI that freeze renders correctly, so the
// README's screenshots show what the terminal showed.
//
// freeze v0.2.2 keeps a background until a full reset (it ignores 49, the
// default background), keeps a colour after 39, knows no 40–47 backgrounds
// or faint text, and gives a run of text only the last attribute of its
// SGR sequence. So every change of style is written as a full reset, then
// the background, then the foreground, as 24-bit colours; a style that
// continues onto the next line is written again at its start, since freeze
// starts every line unstyled. Bold, italic and underline are dropped: freeze
// cannot combine them with a colour.
//
// Usage: ansinorm < capture.ansi > clean.ansi
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// rgb is a 24-bit colour; ok is false for the terminal's default.
type rgb struct {
	r, g, b uint8
	ok      bool
}

type style struct {
	fg, bg         rgb
	faint, reverse bool
}

// The default colours a reversed or faint default must be spelled out in;
// freeze's own default text and background colours.
var (
	defaultFG = rgb{0xc5, 0xc8, 0xc6, true}
	defaultBG = rgb{0x17, 0x17, 0x17, true}
)

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	if err := normalize(in, out); err != nil {
		fmt.Fprintln(os.Stderr, "ansinorm:", err)
		os.Exit(1)
	}
}

// normalize copies text from r to w, rewriting SGR sequences and dropping
// every other escape sequence.
func normalize(r io.ByteReader, w io.Writer) error {
	var cur, shown style
	var line strings.Builder
	flush := func() error {
		_, err := io.WriteString(w, line.String())
		line.Reset()
		return err
	}
	for {
		c, err := r.ReadByte()
		if err == io.EOF {
			return flush()
		}
		if err != nil {
			return err
		}
		switch {
		case c == 0x1b:
			params, final, err := readCSI(r)
			if err != nil {
				return err
			}
			if final == 'm' {
				cur = apply(cur, params)
			}
		case c == '\n':
			if shown != (style{}) {
				line.WriteString("\x1b[0m")
			}
			line.WriteByte('\n')
			shown = style{}
			if err := flush(); err != nil {
				return err
			}
		default:
			if cur != shown {
				line.WriteString(sgr(cur))
				shown = cur
			}
			line.WriteByte(c)
		}
	}
}

// readCSI reads the rest of an escape sequence after ESC; only CSI
// sequences (ESC [ ... final) carry parameters.
func readCSI(r io.ByteReader) (params []int, final byte, err error) {
	c, err := r.ReadByte()
	if err != nil || c != '[' {
		return nil, 0, err
	}
	var num strings.Builder
	for {
		c, err := r.ReadByte()
		if err != nil {
			return nil, 0, err
		}
		switch {
		case c >= '0' && c <= '9':
			num.WriteByte(c)
		case c == ';' || c == ':':
			n, _ := strconv.Atoi(num.String())
			params = append(params, n)
			num.Reset()
		case c >= 0x40 && c <= 0x7e:
			n, _ := strconv.Atoi(num.String())
			return append(params, n), c, nil
		}
	}
}

// apply folds one SGR sequence into the style.
func apply(s style, p []int) style {
	for i := 0; i < len(p); i++ {
		switch v := p[i]; {
		case v == 0:
			s = style{}
		case v == 2:
			s.faint = true
		case v == 22:
			s.faint = false
		case v == 7:
			s.reverse = true
		case v == 27:
			s.reverse = false
		case v >= 30 && v <= 37:
			s.fg = xterm(v - 30)
		case v >= 90 && v <= 97:
			s.fg = xterm(v - 90 + 8)
		case v == 39:
			s.fg = rgb{}
		case v >= 40 && v <= 47:
			s.bg = xterm(v - 40)
		case v >= 100 && v <= 107:
			s.bg = xterm(v - 100 + 8)
		case v == 49:
			s.bg = rgb{}
		case v == 38 || v == 48:
			var c rgb
			switch {
			case i+2 < len(p) && p[i+1] == 5:
				c, i = xterm(p[i+2]), i+2
			case i+4 < len(p) && p[i+1] == 2:
				c, i = rgb{uint8(p[i+2]), uint8(p[i+3]), uint8(p[i+4]), true}, i+4
			default:
				continue
			}
			if v == 38 {
				s.fg = c
			} else {
				s.bg = c
			}
		}
	}
	return s
}

// sgr writes a style as freeze reads it: reset, background, foreground.
func sgr(s style) string {
	fg, bg := s.fg, s.bg
	if s.reverse {
		fg, bg = orDefault(bg, defaultBG), orDefault(fg, defaultFG)
	}
	if s.faint {
		fg = mix(orDefault(fg, defaultFG), orDefault(bg, defaultBG))
	}
	var b strings.Builder
	b.WriteString("\x1b[0m")
	if bg.ok {
		fmt.Fprintf(&b, "\x1b[48;2;%d;%d;%dm", bg.r, bg.g, bg.b)
	}
	if fg.ok {
		fmt.Fprintf(&b, "\x1b[38;2;%d;%d;%dm", fg.r, fg.g, fg.b)
	}
	return b.String()
}

func orDefault(c, d rgb) rgb {
	if c.ok {
		return c
	}
	return d
}

// mix is faint text: halfway to the background.
func mix(a, b rgb) rgb {
	return rgb{uint8((int(a.r) + int(b.r)) / 2), uint8((int(a.g) + int(b.g)) / 2), uint8((int(a.b) + int(b.b)) / 2), true}
}

// xterm returns colour n of the xterm 256-colour palette.
func xterm(n int) rgb {
	base := [16][3]uint8{
		{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
		{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
	}
	switch {
	case n < 0 || n > 255:
		return rgb{}
	case n < 16:
		return rgb{base[n][0], base[n][1], base[n][2], true}
	case n < 232:
		n -= 16
		level := func(v int) uint8 {
			if v == 0 {
				return 0
			}
			return uint8(55 + 40*v)
		}
		return rgb{level(n / 36), level(n / 6 % 6), level(n % 6), true}
	}
	g := uint8(8 + 10*(n-232))
	return rgb{g, g, g, true}
}
