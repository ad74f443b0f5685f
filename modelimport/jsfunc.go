package modelimport

import (
	"regexp"
	"strings"
)

// A key's value given as a function is derivable only when the function is
// a plain template string over its argument's fields:
//
//	(data) => `USER#${data.id}`      ({ id }) => `USER#${id}`
//	function (d) { return `USER#${d.id}` }
//
// Anything else (a call, a condition, arithmetic) is the application's
// code, and is said to be so rather than guessed at.
var (
	arrowOne   = regexp.MustCompile(`^\s*(?:async\s+)?\(?\s*([A-Za-z_$][\w$]*)\s*\)?\s*=>\s*(.*?)\s*;?\s*$`)
	arrowDestr = regexp.MustCompile(`^\s*(?:async\s+)?\(\s*\{([^{}]*)\}\s*\)\s*=>\s*(.*?)\s*;?\s*$`)
	funcOne    = regexp.MustCompile(`^\s*(?:async\s+)?function\s*[\w$]*\s*\(\s*([A-Za-z_$][\w$]*)\s*\)\s*\{\s*return\s+(.*?)\s*;?\s*\}\s*$`)
	funcDestr  = regexp.MustCompile(`^\s*(?:async\s+)?function\s*[\w$]*\s*\(\s*\{([^{}]*)\}\s*\)\s*\{\s*return\s+(.*?)\s*;?\s*\}\s*$`)
	identRE    = regexp.MustCompile(`^[A-Za-z_$][\w$]*$`)
	subst      = regexp.MustCompile(`\$\{([^{}]*)\}`)
)

// templateOfFunc reads a function's source into template segments, or
// returns ok false when it is not a plain template string.
func templateOfFunc(src string) (segs []Segment, ok bool) {
	src = strings.TrimSpace(src)
	var arg string
	var names map[string]bool
	var body string
	if m := arrowDestr.FindStringSubmatch(src); m != nil {
		names, body = destructured(m[1]), m[2]
	} else if m := funcDestr.FindStringSubmatch(src); m != nil {
		names, body = destructured(m[1]), m[2]
	} else if m := arrowOne.FindStringSubmatch(src); m != nil {
		arg, body = m[1], m[2]
	} else if m := funcOne.FindStringSubmatch(src); m != nil {
		arg, body = m[1], m[2]
	} else {
		return nil, false
	}
	if names == nil && arg == "" {
		return nil, false
	}
	for strings.HasPrefix(body, "(") && strings.HasSuffix(body, ")") {
		body = strings.TrimSpace(body[1 : len(body)-1])
	}
	if len(body) < 2 || body[0] != '`' || body[len(body)-1] != '`' || strings.Count(body, "`") != 2 || strings.Contains(body, `\`) {
		return nil, false
	}
	body = body[1 : len(body)-1]
	last := 0
	for _, loc := range subst.FindAllStringSubmatchIndex(body, -1) {
		expr := strings.TrimSpace(body[loc[2]:loc[3]])
		var name string
		switch {
		case names != nil && names[expr]:
			name = expr
		case arg != "" && strings.HasPrefix(expr, arg+"."):
			name = strings.TrimPrefix(expr, arg+".")
		case arg != "" && strings.HasPrefix(expr, arg+"['") && strings.HasSuffix(expr, "']"):
			name = expr[len(arg)+2 : len(expr)-2]
		case arg != "" && strings.HasPrefix(expr, arg+`["`) && strings.HasSuffix(expr, `"]`):
			name = expr[len(arg)+2 : len(expr)-2]
		}
		if !identRE.MatchString(name) {
			return nil, false
		}
		segs = append(segs, lit(body[last:loc[0]]), param(name))
		last = loc[1]
	}
	if strings.Contains(body[last:], "${") {
		return nil, false
	}
	return append(segs, lit(body[last:])), true
}

// destructured reads the names of `{ a, b }`; a renaming or a default
// (`a: x`, `b = 1`) is not a plain field and makes it nil.
func destructured(list string) map[string]bool {
	names := map[string]bool{}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !identRE.MatchString(n) {
			return nil
		}
		names[n] = true
	}
	return names
}
