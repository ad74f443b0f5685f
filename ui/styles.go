package ui

import "dynascope/ui/theme"

// styles are the UI's styles: the palette and every style built from it
// live in package theme, the one place that names a colour.
type styles = theme.Styles

// newStyles builds the styles for a dark or light terminal, or NO_COLOR.
func newStyles(dark, noColor bool) styles { return theme.New(dark, noColor) }
