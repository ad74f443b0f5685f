package cli

// explain's two outputs: text for a person, JSON (built, nearest[],
// differences[]) for a script.

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"dynascope/explain"
	"dynascope/textfmt"
)

type explainKeyJSON map[string]string

func explainKeyJSONOf(k explain.Key) explainKeyJSON {
	m := explainKeyJSON{}
	for i, a := range k.Attrs {
		if i < len(k.Values) {
			m[a] = k.Values[i]
		}
	}
	return m
}

type explainNearJSON struct {
	Side        string         `json:"side"` // before | after | at | variant | other index
	Index       *string        `json:"index"`
	Key         explainKeyJSON `json:"key"`
	Differences []string       `json:"differences"`
}

type explainDiffJSON struct {
	Kind      string  `json:"kind"`
	Attribute *string `json:"attribute"`
	Built     string  `json:"built"`
	Existing  *string `json:"existing"`
	Message   string  `json:"message"`
}

type explainJSON struct {
	Table       string            `json:"table"`
	Index       *string           `json:"index"`
	Entity      *string           `json:"entity"`
	Params      map[string]string `json:"params"`
	Built       explainKeyJSON    `json:"built"`
	Found       bool              `json:"found"`
	Nearest     []explainNearJSON `json:"nearest"`
	Differences []explainDiffJSON `json:"differences"`
	Requests    int               `json:"requests"`
	Capacity    capacityObject    `json:"consumedCapacity"`
}

func writeExplanation(opts *explainOptions, ex *explain.Explanation) error {
	var b bytes.Buffer
	if opts.Output == "json" {
		out := explainJSON{Table: ex.Table, Index: nullable(ex.Index), Entity: nullable(ex.Entity), Params: ex.Params,
			Built: explainKeyJSONOf(ex.Built), Found: ex.Found, Nearest: []explainNearJSON{}, Differences: []explainDiffJSON{},
			Requests: len(ex.Requests), Capacity: capacityOfRequests(ex.Requests)}
		for _, n := range ex.Nearest {
			out.Nearest = append(out.Nearest, explainNearJSON{Side: n.Side, Index: nullable(n.Index), Key: explainKeyJSONOf(n.Key), Differences: append([]string{}, explain.DiffNames(n.Diff)...)})
		}
		for _, d := range ex.Differences {
			out.Differences = append(out.Differences, explainDiffJSON{Kind: d.Kind, Attribute: nullable(d.Attr), Built: d.Built, Existing: nullable(d.Existing), Message: d.Message})
		}
		if err := writeIndentedJSON(&b, out); err != nil {
			return err
		}
	} else {
		writeExplanationText(&b, ex)
	}
	_, err := opts.Out.Write(b.Bytes())
	return err
}

func writeExplanationText(b *bytes.Buffer, ex *explain.Explanation) {
	built := make([]string, len(ex.Built.Attrs))
	for i, a := range ex.Built.Attrs {
		if i < len(ex.Built.Values) {
			built[i] = a + " = " + ex.Built.Values[i]
		}
	}
	fmt.Fprintf(b, "built  %s", textfmt.Sanitize(strings.Join(built, ", ")))
	if ex.Entity != "" {
		var ps []string
		for _, k := range slices.Sorted(maps.Keys(ex.Params)) {
			ps = append(ps, k+"="+ex.Params[k])
		}
		fmt.Fprintf(b, "  (%s: %s)", textfmt.Sanitize(ex.Entity), textfmt.Sanitize(strings.Join(ps, ", ")))
	}
	fmt.Fprintf(b, "\non     %s\n", textfmt.Sanitize(explain.Where(ex.Table, ex.Index)))
	if len(ex.Built.Values) == 0 {
		b.WriteString("\n")
		for _, d := range ex.Differences {
			fmt.Fprintf(b, "%s: %s\n", d.Kind, textfmt.Sanitize(d.Message))
		}
		return
	}
	if ex.Found {
		b.WriteString("\nthe key exists: a query with it finds the item\n")
	} else {
		b.WriteString("\nthe key does not exist\n")
	}
	if len(ex.Nearest) > 0 {
		b.WriteString("\nnearest keys that exist:\n")
		rows := ex.InOrder()
		for _, n := range rows {
			if n.Side == explain.SideBuilt {
				fmt.Fprintf(b, "  %-12s %s   (the built key would be here)\n", "→", textfmt.Sanitize(ex.Built.Text()))
				continue
			}
			fmt.Fprintf(b, "  %-12s %s%s\n", n.SideIn(ex.Index), textfmt.Sanitize(n.Key.Text()), n.ShapeNote())
		}
	}
	if len(ex.Differences) > 0 {
		b.WriteString("\nwhat differs:\n")
		for _, d := range ex.Differences {
			fmt.Fprintf(b, "  %s: %s\n", d.Kind, textfmt.Sanitize(d.Message))
		}
	}
	fmt.Fprintf(b, "\n%s · %s\n", textfmt.Plural(len(ex.Requests), "request", "requests"), rcuText(ex.Requests))
}
