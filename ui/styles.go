package ui

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
)

// palette is the handful of colours the whole UI is drawn with. It is the only
// place in ui that names a colour.
type palette struct {
	text, muted, faint color.Color
	border, focus      color.Color
	accent             color.Color
	selBg, selBlurBg   color.Color
	ok, warn, err      color.Color
	badgeFg, badgeBg   color.Color
	entity             []color.Color
}

func darkPalette() palette {
	c := lipgloss.Color
	return palette{
		text: c("#C8CCD8"), muted: c("#7F859C"), faint: c("#4E5368"),
		border: c("#3A3F52"), focus: c("#6C86C9"),
		accent: c("#8FB0F0"),
		selBg:  c("#2B3350"), selBlurBg: c("#23273A"),
		ok: c("#94C98B"), warn: c("#E3B56A"), err: c("#F08A8A"),
		badgeFg: c("#1B1E2B"), badgeBg: c("#E3B56A"),
		entity: []color.Color{
			c("#8FB0F0"), c("#94C98B"), c("#E3B56A"), c("#C3A1F0"),
			c("#7FD4E8"), c("#F08A8A"), c("#7FD1B9"), c("#F2A878"),
		},
	}
}

func lightPalette() palette {
	c := lipgloss.Color
	return palette{
		text: c("#2B2F3A"), muted: c("#6A7080"), faint: c("#A2A7B5"),
		border: c("#CDD1DB"), focus: c("#4A68B8"),
		accent: c("#2F58C0"),
		selBg:  c("#DCE5F8"), selBlurBg: c("#ECEFF5"),
		ok: c("#2F7D32"), warn: c("#9A6700"), err: c("#C0392B"),
		badgeFg: c("#FFFFFF"), badgeBg: c("#9A6700"),
		entity: []color.Color{
			c("#2F58C0"), c("#2F7D32"), c("#9A6700"), c("#7B3FBF"),
			c("#00788A"), c("#C0392B"), c("#00806B"), c("#C2571A"),
		},
	}
}

// noColorPalette honours NO_COLOR: every colour is the terminal's own, and the
// styles fall back on bold, faint and reverse video to show state.
func noColorPalette() palette {
	n := lipgloss.NoColor{}
	p := palette{text: n, muted: n, faint: n, border: n, focus: n, accent: n, selBg: n, selBlurBg: n, ok: n, warn: n, err: n, badgeFg: n, badgeBg: n}
	p.entity = []color.Color{n}
	return p
}

// styles are every style the UI renders with, built from one palette.
type styles struct {
	noColor bool

	text, muted, faint, accent lipgloss.Style
	ok, warn, err              lipgloss.Style
	bold                       lipgloss.Style

	appName, badge      lipgloss.Style
	writesOn            lipgloss.Style // the header's WRITES ON: white on red, never missed
	border, borderFocus lipgloss.Style
	title, titleFocus   lipgloss.Style
	colHeader           lipgloss.Style
	sel, selBlur        lipgloss.Style // the cursor row, focused or not
	active              lipgloss.Style // the entity type the current query selects
	inputCursor         lipgloss.Style
	ghost               lipgloss.Style // completion text not yet accepted
	queryKey            lipgloss.Style // the key condition in the query line
	typeName            lipgloss.Style // DynamoDB type names in the detail view

	entity []lipgloss.Style
	help   help.Styles
}

func newStyles(dark, noColor bool) styles {
	p := lightPalette()
	if dark {
		p = darkPalette()
	}
	if noColor {
		p = noColorPalette()
	}
	fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	s := styles{
		noColor: noColor,
		text:    fg(p.text),
		muted:   fg(p.muted),
		faint:   fg(p.faint),
		accent:  fg(p.accent),
		ok:      fg(p.ok),
		warn:    fg(p.warn),
		err:     fg(p.err).Bold(true),
		bold:    fg(p.text).Bold(true),

		appName:     fg(p.accent).Bold(true),
		badge:       lipgloss.NewStyle().Foreground(p.badgeFg).Background(p.badgeBg).Bold(true),
		writesOn:    lipgloss.NewStyle().Foreground(p.badgeFg).Background(p.err).Bold(true),
		border:      fg(p.border),
		borderFocus: fg(p.focus),
		title:       fg(p.muted),
		titleFocus:  fg(p.accent).Bold(true),
		colHeader:   fg(p.muted),
		sel:         lipgloss.NewStyle().Foreground(p.text).Background(p.selBg),
		selBlur:     lipgloss.NewStyle().Foreground(p.text).Background(p.selBlurBg),
		active:      fg(p.accent).Bold(true),
		inputCursor: lipgloss.NewStyle().Reverse(true),
		ghost:       fg(p.faint),
		queryKey:    fg(p.text).Bold(true),
		typeName:    fg(p.muted),
	}
	if noColor {
		s.faint = lipgloss.NewStyle().Faint(true)
		s.muted = lipgloss.NewStyle().Faint(true)
		s.colHeader = lipgloss.NewStyle().Faint(true)
		s.title = lipgloss.NewStyle()
		s.titleFocus = lipgloss.NewStyle().Bold(true).Underline(true)
		s.badge = lipgloss.NewStyle().Reverse(true).Bold(true)
		s.writesOn = lipgloss.NewStyle().Reverse(true).Bold(true).Blink(true)
		s.sel = lipgloss.NewStyle().Reverse(true)
		s.selBlur = lipgloss.NewStyle().Underline(true)
		s.ghost = lipgloss.NewStyle().Faint(true)
		s.typeName = lipgloss.NewStyle().Faint(true)
	}
	for _, c := range p.entity {
		s.entity = append(s.entity, fg(c))
	}
	s.help = help.Styles{
		ShortKey:       s.accent,
		ShortDesc:      s.muted,
		ShortSeparator: s.faint,
		Ellipsis:       s.faint,
		FullKey:        s.accent,
		FullDesc:       s.text,
		FullSeparator:  s.faint,
	}
	if noColor {
		s.help.ShortKey = lipgloss.NewStyle().Bold(true)
		s.help.FullKey = lipgloss.NewStyle().Bold(true)
		s.help.FullDesc = lipgloss.NewStyle()
	}
	return s
}

// entityStyle is the colour of the n-th entity type seen in this session.
func (s styles) entityStyle(n int) lipgloss.Style {
	if n < 0 || len(s.entity) == 0 {
		return s.muted
	}
	return s.entity[n%len(s.entity)]
}
