// Command ratio reads the output of the UI benchmarks (`go test -bench
// 'View|Keys|KeyToFrame|FilterChunk|FirstFrame' ./ui/`, any -count) on stdin and prints the figures
// issue 7 bounds: each cost at 100,000 loaded items over the same at 100
// (at most -max-ratio), and the median key-to-frame latency with 50,000
// items loaded and around a page load (under -max-latency-ms), and the UI's
// own work to its first frame of a partition (issue 41.3, under
// -max-first-frame-ms). With several
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
	maxP99 := flag.Float64("max-p99-ms", 50, "bound on the 99th percentile key-to-frame latency (three frames)")
	maxChunkMS := flag.Float64("max-chunk-ms", 16, "bound on one chunk of the filter's scan (BenchmarkFilterChunk), which runs between frames")
	maxFirstMS := flag.Float64("max-first-frame-ms", 50, "bound on the UI's own work before its first frame of a partition with an instant server (BenchmarkFirstFrame/screen, issue 41.3)")
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
		{"filter keystroke, needle in every item", "BenchmarkKeys/filter-all/100", "BenchmarkKeys/filter-all/100000"},
		{"filter keystroke, needle in 1% of items", "BenchmarkKeys/filter-1pct/100", "BenchmarkKeys/filter-1pct/100000"},
		{"filter keystroke, needle in no item", "BenchmarkKeys/filter-none/100", "BenchmarkKeys/filter-none/100000"},
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
		p99, has99 := best[f.name]["p99-ms"]
		if !has || !has99 {
			fmt.Printf("= %s: missing (%s did not run) FAIL\n", f.label, f.name)
			ok = false
			continue
		}
		fmt.Printf("= %s: median %.2f ms (bound < %g ms) %s; p99 %.2f ms (bound < %g ms) %s; worst %.2f ms\n", f.label,
			p50, *maxLatency, verdict(p50 < *maxLatency), p99, *maxP99, verdict(p99 < *maxP99), best[f.name]["max-ms"])
	}
	if c, has := best["BenchmarkFilterChunk"]["ns/op"]; !has {
		fmt.Println("= filter chunk at 100k: missing (BenchmarkFilterChunk did not run) FAIL")
		ok = false
	} else {
		fmt.Printf("= filter chunk at 100k: %.3f ms (bound < %g ms) %s\n", c/1e6, *maxChunkMS, verdict(c/1e6 < *maxChunkMS))
	}
	if f, has := best["BenchmarkFirstFrame/screen"]["ms-to-frame"]; !has {
		fmt.Println("= UI's work to its first frame: missing (BenchmarkFirstFrame did not run) FAIL")
		ok = false
	} else {
		fmt.Printf("= UI's work to its first frame, instant server: %.1f ms (bound < %g ms; a 1 MB first page: %.1f ms) %s\n", f, *maxFirstMS,
			best["BenchmarkFirstFrame/1MB"]["ms-to-frame"], verdict(f < *maxFirstMS))
	}
	if !ok {
		os.Exit(1)
	}
}
