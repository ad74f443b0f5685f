package textfmt

import "unicode/utf8"

// MaxSentence is the longest error sentence dynascope shows, on a line
// of the CLI or the UI: details go behind --debug or into the error
// chain, never onto the line.
const MaxSentence = 300

// FitSentence is head, quote and tail as one sentence of at most
// MaxSentence bytes: the quote (another's words: the endpoint's, or an
// error's sentence inside this one) is cut, with an ellipsis, where the
// whole would not fit. head and tail are kept whole.
func FitSentence(head, quote, tail string) string {
	room := MaxSentence - len(head) - len(tail)
	if len(quote) > room {
		cut := max(room-len("…"), 0)
		for cut > 0 && !utf8.RuneStart(quote[cut]) {
			cut--
		}
		quote = quote[:cut] + "…"
	}
	return head + quote + tail
}
