// Package theme is the UI's look: the palette (the only place that names a
// colour) and the Styles built from it for a dark or light terminal or for
// NO_COLOR, as charmbracelet/crush's internal/ui/styles. Every package that
// draws takes its styles from here.
//
// It imports nothing of dynascope's and no terminal I/O: it is values only
// (lipgloss styles and bubbles' help styles), so ui, ui/widget and their
// tests can build the same styles. imports_test.go holds it to that.
package theme

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
)

// palette is the handful of colours the whole UI is drawn with. It is the only
// place in dynascope that names a colour.
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

// Styles are every style the UI renders with, built from one palette.
type Styles struct {
	NoColor bool // built for NO_COLOR: state shows as bold, faint and reverse video

	Text, Muted, Faint, Accent lipgloss.Style
	OK, Warn, Err              lipgloss.Style
	Bold                       lipgloss.Style

	AppName, Badge      lipgloss.Style
	WritesOn            lipgloss.Style // the header's WRITES ON: white on red, never missed
	Border, BorderFocus lipgloss.Style
	Title, TitleFocus   lipgloss.Style
	ColHeader           lipgloss.Style
	Sel, SelBlur        lipgloss.Style // the cursor row, focused or not
	Active              lipgloss.Style // the entity type the current query selects
	InputCursor         lipgloss.Style
	Ghost               lipgloss.Style // completion text not yet accepted
	QueryKey            lipgloss.Style // the key condition in the query line
	TypeName            lipgloss.Style // DynamoDB type names in the detail view

	entity []lipgloss.Style
	Help   help.Styles // for bubbles' help.Model
}

// New builds the styles for a dark or light terminal, or for NO_COLOR.
func New(dark, noColor bool) Styles {
	p := lightPalette()
	if dark {
		p = darkPalette()
	}
	if noColor {
		p = noColorPalette()
	}
	fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	s := Styles{
		NoColor: noColor,
		Text:    fg(p.text),
		Muted:   fg(p.muted),
		Faint:   fg(p.faint),
		Accent:  fg(p.accent),
		OK:      fg(p.ok),
		Warn:    fg(p.warn),
		Err:     fg(p.err).Bold(true),
		Bold:    fg(p.text).Bold(true),

		AppName:     fg(p.accent).Bold(true),
		Badge:       lipgloss.NewStyle().Foreground(p.badgeFg).Background(p.badgeBg).Bold(true),
		WritesOn:    lipgloss.NewStyle().Foreground(p.badgeFg).Background(p.err).Bold(true),
		Border:      fg(p.border),
		BorderFocus: fg(p.focus),
		Title:       fg(p.muted),
		TitleFocus:  fg(p.accent).Bold(true),
		ColHeader:   fg(p.muted),
		Sel:         lipgloss.NewStyle().Foreground(p.text).Background(p.selBg),
		SelBlur:     lipgloss.NewStyle().Foreground(p.text).Background(p.selBlurBg),
		Active:      fg(p.accent).Bold(true),
		InputCursor: lipgloss.NewStyle().Reverse(true),
		Ghost:       fg(p.faint),
		QueryKey:    fg(p.text).Bold(true),
		TypeName:    fg(p.muted),
	}
	if noColor {
		s.Faint = lipgloss.NewStyle().Faint(true)
		s.Muted = lipgloss.NewStyle().Faint(true)
		s.ColHeader = lipgloss.NewStyle().Faint(true)
		s.Title = lipgloss.NewStyle()
		s.TitleFocus = lipgloss.NewStyle().Bold(true).Underline(true)
		s.Badge = lipgloss.NewStyle().Reverse(true).Bold(true)
		s.WritesOn = lipgloss.NewStyle().Reverse(true).Bold(true).Blink(true)
		s.Sel = lipgloss.NewStyle().Reverse(true)
		s.SelBlur = lipgloss.NewStyle().Underline(true)
		s.Ghost = lipgloss.NewStyle().Faint(true)
		s.TypeName = lipgloss.NewStyle().Faint(true)
	}
	for _, c := range p.entity {
		s.entity = append(s.entity, fg(c))
	}
	s.Help = help.Styles{
		ShortKey:       s.Accent,
		ShortDesc:      s.Muted,
		ShortSeparator: s.Faint,
		Ellipsis:       s.Faint,
		FullKey:        s.Accent,
		FullDesc:       s.Text,
		FullSeparator:  s.Faint,
	}
	if noColor {
		s.Help.ShortKey = lipgloss.NewStyle().Bold(true)
		s.Help.FullKey = lipgloss.NewStyle().Bold(true)
		s.Help.FullDesc = lipgloss.NewStyle()
	}
	return s
}

// Entity is the colour of the n-th entity type seen in this session.
func (s Styles) Entity(n int) lipgloss.Style {
	if n < 0 || len(s.entity) == 0 {
		return s.Muted
	}
	return s.entity[n%len(s.entity)]
}
