package ui

import "dynascope/ui/widget"

// form is the form widget (ui/widget): a few one-line fields, one focused.
type form = widget.Form
