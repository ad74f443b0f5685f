package widget

import tea "charm.land/bubbletea/v2"

// For a view that scrolls without a List (a help page, an item, the code
// of a request) and keeps its own cursor or offset.

// Clamp bounds v to [lo, hi]; when hi < lo it returns lo.
func Clamp(v, lo, hi int) int { return clampInt(v, lo, hi) }

// WheelDelta is how many lines a wheel message scrolls: 3 up or down, 0
// for a sideways one.
func WheelDelta(msg tea.MouseWheelMsg) int {
	switch msg.Mouse().Button {
	case tea.MouseWheelUp:
		return -3
	case tea.MouseWheelDown:
		return 3
	}
	return 0
}
