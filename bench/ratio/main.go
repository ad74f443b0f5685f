// Command ratio reads the output of the UI benchmarks (`go test -bench
// 'View|Keys|KeyToFrame' ./ui/`, any -count) on stdin and prints the figures
// issue 7 bounds: each cost at 100,000 loaded items over the same at 100
// (at most -max-ratio), and the median key-to-frame latency with 50,000
// items loaded and around a page load (under -max-latency-ms). With several
// runs of a benchmark it keeps the one with the lowest ns/op, the run least
// disturbed by the rest of the machine. It exits non-zero when a bound fails.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// benchLine is one result line: name, iterations, then value-unit pairs.
var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

func main() {
	maxRatio := flag.Float64("max-ratio", 1.5, "bound on a cost at 100,000 items over the same at 100")
	maxLatency := flag.Float64("max-latency-ms", 16, "bound on the median key-to-frame latency")
	flag.Parse()
	best := map[string]map[string]float64{} // benchmark -> unit -> value, of its fastest run
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		name := m[1]
		run := map[string]float64{}
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				run[f[i+1]] = v
			}
		}
		if old, ok := best[name]; !ok || run["ns/op"] < old["ns/op"] {
			best[name] = run
		}
	}
	if len(best) == 0 {
		fmt.Fprintln(os.Stderr, "bench/ratio: no benchmark results on stdin")
		os.Exit(1)
	}
	ok := true
	verdict := func(pass bool) string {
		if pass {
			return "ok"
		}
		ok = false
		return "FAIL"
	}
	for _, f := range []struct{ label, small, large string }{
		{"view", "BenchmarkView/100", "BenchmarkView/100000"},
		{"key down", "BenchmarkKeys/down/100", "BenchmarkKeys/down/100000"},
		{"key pgdown", "BenchmarkKeys/pgdown/100", "BenchmarkKeys/pgdown/100000"},
		{"filter keystroke", "BenchmarkKeys/filter/100", "BenchmarkKeys/filter/100000"},
	} {
		s, l := best[f.small]["ns/op"], best[f.large]["ns/op"]
		if s == 0 || l == 0 {
			fmt.Printf("= %s 100k/100: missing (%s or %s did not run) FAIL\n", f.label, f.small, f.large)
			ok = false
			continue
		}
		r := l / s
		fmt.Printf("= %s 100k/100: %.2fx (%.3f vs %.3f ms; bound %gx) %s\n", f.label, r, l/1e6, s/1e6, *maxRatio, verdict(r <= *maxRatio))
	}
	for _, f := range []struct{ label, name string }{
		{"key-to-frame, 50k loaded", "BenchmarkKeyToFrame/loaded-50k"},
		{"key-to-frame, 50k loaded, page in flight", "BenchmarkKeyToFrame/page-pending-50k"},
		{"page arrival (1 MB) to frame, 50k loaded", "BenchmarkKeyToFrame/page-arrival-50k"},
	} {
		p50, has := best[f.name]["p50-ms"]
		if !has {
			fmt.Printf("= %s: missing (%s did not run) FAIL\n", f.label, f.name)
			ok = false
			continue
		}
		fmt.Printf("= %s: median %.2f ms, worst %.2f ms (bound median < %g ms) %s\n", f.label, p50, best[f.name]["max-ms"], *maxLatency, verdict(p50 < *maxLatency))
	}
	if !ok {
		os.Exit(1)
	}
}
