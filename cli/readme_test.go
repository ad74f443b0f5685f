package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The README's tutorial runs as written outside the demo too (issue
// 37.13: its step 2 said `dynascope --table App --pk 'CUST#42'`, which
// outside the demo answers "no AWS region is set"). Every dynascope command
// in its backticks is read by the command tree as it stands, and each one
// that reads a table names the endpoint the tutorial starts ($EP).
func TestReadmeTutorialCommands(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "## Tutorial")
	end := strings.Index(text[start+1:], "\n## ")
	if start < 0 || end < 0 {
		t.Fatal("README.md has no ## Tutorial section")
	}
	tutorial := strings.ReplaceAll(text[start:start+1+end], "\n", " ")
	if !strings.Contains(tutorial, "EP=$(scripts/dynamodb-local.sh start)") {
		t.Error("the tutorial does not say where $EP comes from")
	}
	// Commands that need no table: they read only local files.
	offline := map[string]bool{"patterns list": true}
	n := 0
	for _, m := range regexp.MustCompile("`(dynascope [^`]+)`").FindAllStringSubmatch(tutorial, -1) {
		line := m[1]
		const ep = "http://127.0.0.1:8000" // what $EP holds
		args := shellWords(t, strings.ReplaceAll(strings.TrimPrefix(line, "dynascope "), "$EP", ep))
		root := commandTree()
		c, rest, err := root.Find(args)
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if err := c.ParseFlags(rest); err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		n++
		if offline[cmdName(c)] {
			continue
		}
		if f := c.Flags().Lookup("endpoint-url"); f == nil || f.Value.String() != ep {
			t.Errorf("%s: reads a table but names no --endpoint-url $EP; outside the demo it says no AWS region is set", line)
		}
	}
	if n < 4 {
		t.Errorf("%d commands found in the tutorial; it has more", n)
	}
}

// shellWords splits a command as a shell would, for the README's simple
// quoting: 'single quotes' and bare words.
func shellWords(t *testing.T, s string) []string {
	t.Helper()
	var words []string
	for _, m := range regexp.MustCompile(`'([^']*)'|(\S+)`).FindAllStringSubmatch(s, -1) {
		if m[2] != "" {
			words = append(words, m[2])
		} else {
			words = append(words, m[1])
		}
	}
	return words
}
