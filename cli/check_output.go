package cli

// The four outputs of `dynascope check`: text for a person, JSON for a
// script, JUnit XML for a CI's test report (encoding/xml), and GitHub
// Actions annotations on the patterns file's lines.

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"dynascope/dynamo"
	"dynascope/textfmt"
)

// sampleText says what the drift sample read: "2,345 items (the whole
// table), 61.5 RCU of the 250 announced".
func (s *checkSample) text() string {
	whole := "stopped by its caps: part of the table"
	if s.Complete {
		whole = "the whole table"
	}
	return fmt.Sprintf("%s (%s), %s of the %s announced", textfmt.Plural(s.Items, "item", "items"), whole,
		rcuText(s.Requests), jsonFloat(s.MaxRCU))
}

// writeCheckReportText prints the patterns as patterns check does, with
// their ceilings, then the drift.
func writeCheckReportText(b *bytes.Buffer, rep *checkReport) {
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PATTERN\tOPERATION\tREQUESTS\tRCU\tMAX RCU\tLARGEST ITEM\tMAX ITEM\tVERDICT")
	for _, r := range rep.Runs {
		v := checkVerdictOf(r)
		rcu, maxRCU, maxItem := "unknown", "-", "-"
		if v.RCU != nil {
			rcu = jsonFloat(*v.RCU)
		}
		if c := r.pattern.Ceilings.RCU; c != nil {
			maxRCU = jsonFloat(*c)
		}
		if c := r.pattern.Ceilings.ItemBytes; c != nil {
			maxItem = strconv.Itoa(*c)
		}
		largest := "-"
		if r.largest > 0 {
			largest = strconv.Itoa(r.largest)
		}
		mark := "ok"
		if !v.OK {
			mark = "FAIL"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s: %s\n", textfmt.Sanitize(r.pattern.Name), textfmt.Sanitize(r.operationText()),
			r.requests(), rcu, maxRCU, largest, maxItem, mark, textfmt.Sanitize(v.Verdict))
	}
	_ = tw.Flush()
	if rep.Sample == nil {
		b.WriteString("\nno drift sample: the file declares no entities:\n")
		return
	}
	fmt.Fprintf(b, "\nDRIFT from the declared entities, in a sample of %s\n", rep.Sample.text())
	if len(rep.Drift) == 0 {
		b.WriteString("  none: every key read matches a declared entity, and every declared entity was seen\n")
		return
	}
	for _, d := range rep.Drift {
		fmt.Fprintf(b, "  %s: %s\n", d.Kind, textfmt.Sanitize(d.Message()))
		if len(d.Examples) > 0 {
			fmt.Fprintf(b, "    e.g. %s\n", textfmt.Sanitize(strings.Join(d.Examples, " · ")))
		}
	}
}

// checkReportJSON is check's JSON document.
type checkReportJSON struct {
	Table    string            `json:"table"`
	File     string            `json:"file"`
	Patterns []checkPatternOut `json:"patterns"`
	Drift    []checkDriftJSON  `json:"drift"`
	Sample   *checkSampleJSON  `json:"sample"` // null when the file declares no entities
	OK       bool              `json:"ok"`     // every pattern holds and nothing drifted
	Exit     int               `json:"exitCode"`
	Capacity capacityObject    `json:"consumedCapacity"` // the whole run: the patterns and the sample
}

// checkPatternOut is one pattern under check.
type checkPatternOut struct {
	Name      string   `json:"name"`
	OK        bool     `json:"ok"`
	RCU       *float64 `json:"rcu"`     // null when DynamoDB did not say
	Ceiling   *float64 `json:"ceiling"` // maxRCU:, null for none
	Requests  int      `json:"requests"`
	Operation string   `json:"operation"`
	Index     *string  `json:"index"`
	// LargestItem is the largest item returned, in bytes (0 for none);
	// ItemCeiling its maxItemBytes:, null for none.
	LargestItem int     `json:"largestItem"`
	ItemCeiling *int    `json:"itemCeiling"`
	Verdict     string  `json:"verdict"`
	Error       *string `json:"error"`
	Line        int     `json:"line"` // the patterns file's line its finding points at
}

type checkDriftJSON struct {
	Kind     string   `json:"kind"`
	Entity   *string  `json:"entity"`
	Attr     *string  `json:"attribute"`
	Index    *string  `json:"index"`
	Shape    *string  `json:"shape"`
	Count    int      `json:"count"`
	Examples []string `json:"examples"`
	Guess    *string  `json:"guess"`
	Message  string   `json:"message"`
	Line     int      `json:"line"`
}

type checkSampleJSON struct {
	Items    int            `json:"items"`
	Requests int            `json:"requests"`
	RCU      capacityObject `json:"consumedCapacity"`
	MaxItems int            `json:"maxItems"`
	MaxRCU   float64        `json:"maxRCU"`
	Stop     string         `json:"stop"`
	Complete bool           `json:"complete"` // the whole table was read
}

// exitCode is the exit the report ends with.
func (rep *checkReport) exitCode() int {
	switch err := rep.end(); err.(type) {
	case nil:
		return 0
	case driftError:
		return exitDrift
	}
	return 1
}

func writeCheckReportJSON(b *bytes.Buffer, rep *checkReport) {
	out := checkReportJSON{Table: rep.Table, File: rep.File, Patterns: []checkPatternOut{}, Drift: []checkDriftJSON{}, Exit: rep.exitCode()}
	out.OK = out.Exit == 0
	var all []dynamo.Request
	for _, r := range rep.Runs {
		v := checkVerdictOf(r)
		var errText *string
		if r.err != nil {
			errText = nullable(r.err.Error())
		}
		out.Patterns = append(out.Patterns, checkPatternOut{Name: r.pattern.Name, OK: v.OK, RCU: v.RCU, Ceiling: r.pattern.Ceilings.RCU,
			Requests: r.requests(), Operation: r.operation, Index: nullable(r.res.Index), LargestItem: r.largest,
			ItemCeiling: r.pattern.Ceilings.ItemBytes, Verdict: v.Verdict, Error: errText, Line: v.line(r.pattern)})
		all = append(all, r.res.Requests...)
	}
	for _, d := range rep.Drift {
		ex := d.Examples
		if ex == nil {
			ex = []string{}
		}
		out.Drift = append(out.Drift, checkDriftJSON{Kind: string(d.Kind), Entity: nullable(d.Entity), Attr: nullable(d.Attr), Index: nullable(d.Index),
			Shape: nullable(d.Shape), Count: d.Count, Examples: ex, Guess: nullable(d.Guess), Message: d.Message(), Line: d.Line})
	}
	if s := rep.Sample; s != nil {
		out.Sample = &checkSampleJSON{Items: s.Items, Requests: len(s.Requests), RCU: capacityOfRequests(s.Requests),
			MaxItems: s.MaxItems, MaxRCU: s.MaxRCU, Stop: string(s.Stop), Complete: s.Complete}
		all = append(all, s.Requests...)
	}
	out.Capacity = capacityOfRequests(all)
	_ = writeIndentedJSON(b, out)
}

// The JUnit XML of a check: the de facto schema CI servers read (Jenkins'
// and GitHub's test reporters): testsuites, one testsuite per kind of
// finding, a testcase per pattern and per drift finding, failure with
// message and text.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitFailure `xml:"failure"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// xmlText keeps what XML 1.0 can hold of s: item data may carry control
// characters that no XML document may contain, even escaped.
func xmlText(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF {
			return r
		}
		return '\uFFFD'
	}, s)
}

func writeCheckJUnit(b *bytes.Buffer, rep *checkReport) error {
	pats := junitSuite{Name: "patterns of " + xmlText(rep.Table)}
	for _, r := range rep.Runs {
		v := checkVerdictOf(r)
		c := junitCase{Name: xmlText(r.pattern.Name), Classname: "dynascope.check.patterns", File: xmlText(rep.File), Line: v.line(r.pattern),
			SystemOut: xmlText(r.pattern.Summary())}
		if !v.OK {
			c.Failure = &junitFailure{Message: xmlText(v.Verdict), Type: "pattern", Text: xmlText(v.Verdict)}
			pats.Failures++
		}
		pats.Cases = append(pats.Cases, c)
	}
	pats.Tests = len(pats.Cases)
	suites := junitSuites{Name: "dynascope check", Suites: []junitSuite{pats}}
	if rep.Sample != nil {
		drift := junitSuite{Name: "drift of " + xmlText(rep.Table)}
		for _, d := range rep.Drift {
			msg := xmlText(d.Message())
			name := string(d.Kind)
			if d.Entity != "" {
				name += " " + d.Entity
			}
			if d.Shape != "" {
				name += " " + d.Shape
			}
			drift.Cases = append(drift.Cases, junitCase{Name: xmlText(name), Classname: "dynascope.check.drift", File: xmlText(rep.File), Line: d.Line,
				Failure: &junitFailure{Message: msg, Type: string(d.Kind), Text: xmlText(msg + "\n" + strings.Join(d.Examples, "\n"))}})
		}
		drift.Failures = len(drift.Cases)
		if len(drift.Cases) == 0 {
			drift.Cases = append(drift.Cases, junitCase{Name: "no drift", Classname: "dynascope.check.drift", File: xmlText(rep.File),
				SystemOut: xmlText("a sample of " + rep.Sample.text())})
		}
		drift.Tests = len(drift.Cases)
		suites.Suites = append(suites.Suites, drift)
	}
	for _, s := range suites.Suites {
		suites.Tests += s.Tests
		suites.Failures += s.Failures
	}
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(b)
	enc.Indent("", "  ")
	if err := enc.Encode(suites); err != nil {
		return err
	}
	b.WriteByte('\n')
	return nil
}

// GitHub Actions workflow commands: `::error file=F,line=N,title=T::message`.
// The message escapes %, CR and LF; a property also : and , (the runner's
// own escaping, toolkit/core's command.ts).
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

func ghAnnotation(level, file string, line int, title, msg string) string {
	props := "file=" + ghProperty(file)
	if line > 0 {
		props += ",line=" + strconv.Itoa(line)
	}
	props += ",title=" + ghProperty(title)
	// Sanitize: a workflow command's text reaches the log, and the log a
	// terminal.
	return "::" + level + " " + textfmt.Sanitize(props) + "::" + textfmt.Sanitize(ghData(msg)) + "\n"
}

// writeCheckGitHub writes an annotation per failed pattern (error) and per
// drift finding (warning), each on its line of the patterns file, then a
// line that sums them up.
func writeCheckGitHub(b *bytes.Buffer, rep *checkReport) {
	failed := 0
	for _, r := range rep.Runs {
		if v := checkVerdictOf(r); !v.OK {
			failed++
			b.WriteString(ghAnnotation("error", rep.File, v.line(r.pattern), "dynascope check: pattern "+r.pattern.Name, v.Verdict))
		}
	}
	for _, d := range rep.Drift {
		msg := d.Message()
		if len(d.Examples) > 0 {
			msg += "\ne.g. " + strings.Join(d.Examples, "\n")
		}
		b.WriteString(ghAnnotation("warning", rep.File, d.Line, "dynascope check: drift ("+string(d.Kind)+")", msg))
	}
	fmt.Fprintf(b, "dynascope check of %s: %d of %s hold", textfmt.Sanitize(rep.Table), len(rep.Runs)-failed, textfmt.Plural(len(rep.Runs), "pattern", "patterns"))
	if rep.Sample != nil {
		fmt.Fprintf(b, "; %s in a sample of %s", textfmt.Plural(len(rep.Drift), "drift finding", "drift findings"), rep.Sample.text())
	}
	b.WriteString("\n")
}
