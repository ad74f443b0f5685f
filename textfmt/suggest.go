package textfmt

import "fmt"

// Suggest proposes the known word closest to a misspelt one (Nearest), as
// the phrase ` (did you mean "word"?)`, or "" when there is none.
func Suggest(word string, known []string) string {
	best := Nearest(word, known)
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// Nearest is the known word closest to a misspelt one, the first of equals;
// "" when none is within two edits, or when the edits are more than half
// the word (sk- is two edits from pk: a guess, not a suggestion).
func Nearest(word string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := editDistance(word, k); d < bestD && 2*d <= len(word) {
			best, bestD = k, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
