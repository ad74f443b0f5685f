// Command read measures what a big read costs dynascope on the client,
// against the floor (bench/floor: the bare SDK paginator writing the same
// bytes), from a replay (bench/replay) of DynamoDB Local's own answers on
// loopback, so the engine's time is in neither:
//
//   - CPU per item of `query --all-pages` over the 100,000 items of
//     BENCH#BIG in each of --output jsonl, json and table, dynascope's
//     over the floor's: the medians of -runs runs each, interleaved, with
//     the outputs checked to be the same bytes (but for durations);
//   - peak RSS of reads of about 1,000,000 items (the recording served
//     -laps times over, each lap's sort keys made new) in every format:
//     query --all-pages in jsonl, json, table, csv and ddbjson-batch, scan
//     in json and table, partiql in json, and patterns run in json (which
//     follows at most 100 pages, so it reads fewer).
//
// Figures a bound applies to are printed as "= ..." lines with ok or FAIL;
// the exit status is 1 when one fails.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"dynascope/bench/benchdata"
	"dynascope/bench/replay"
)

func main() {
	if len(os.Args) > 2 && os.Args[1] == measureArg {
		os.Exit(measureChild(os.Args[2:]))
	}
	endpoint := flag.String("endpoint", os.Getenv("DYNASCOPE_TEST_ENDPOINT"), "DynamoDB Local endpoint holding the bench table (bench/load)")
	table := flag.String("table", "bench", "the bench table")
	bin := flag.String("bin", "bin/dynascope", "the dynascope binary")
	floor := flag.String("floor", "", "the floor binary (bench/floor)")
	runs := flag.Int("runs", 5, "runs of each program in each format")
	laps := flag.Int("laps", 10, "laps of the recording for the memory figures (10: 1,000,000 items)")
	maxRatio := flag.Float64("max-ratio", 1.5, "fail when dynascope's CPU per item is more than this many times the floor's")
	maxRSS := flag.Float64("max-rss", 64, "fail when a read of -laps laps peaks above this many MB")
	formats := flag.String("formats", "jsonl,json,table", "the formats whose CPU is measured (\"\": none)")
	reads := flag.String("reads", "", "a regular expression: only the memory reads whose name it matches (\"\": all)")
	flag.Parse()
	ok, err := run(config{*endpoint, *table, *bin, *floor, *runs, *laps, *maxRatio, *maxRSS, strings.FieldsFunc(*formats, func(r rune) bool { return r == ',' }), regexp.MustCompile(*reads)})
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/read: "+err.Error())
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

type config struct {
	endpoint, table, bin, floor string
	runs, laps                  int
	maxRatio, maxRSS            float64
	formats                     []string
	reads                       *regexp.Regexp
}

// measured is one run of a program: its CPU, peak RSS and output.
type measured struct {
	cpu, wall time.Duration
	rssMB     float64
	out       string // the file holding its stdout
	lines     int
}

func run(c config) (bool, error) {
	if c.endpoint == "" || c.floor == "" {
		return false, errors.New("give -endpoint (DynamoDB Local with the bench table) and -floor (the bench/floor binary)")
	}
	ctx := context.Background()
	work, err := os.MkdirTemp("", "bench-read-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(work)
	env := append(os.Environ(), "AWS_ACCESS_KEY_ID=local", "AWS_SECRET_ACCESS_KEY=local", "AWS_REGION=us-east-1",
		"XDG_CONFIG_HOME="+filepath.Join(work, "config"), "XDG_CACHE_HOME="+filepath.Join(work, "cache"))
	began := time.Now()
	rec, err := replay.Record(ctx, c.endpoint, c.table, "Query", benchdata.BigPK, "")
	if err != nil {
		return false, fmt.Errorf("recording %s: %w", benchdata.BigPK, err)
	}
	fmt.Printf("recorded %s of %s from %s: %d items in %d pages (%.1f s)\n", benchdata.BigPK, c.table, c.endpoint, rec.Items, len(rec.Pages), time.Since(began).Seconds())
	ok := true
	srv, err := replay.Serve(rec, 1)
	if err != nil {
		return false, err
	}
	for _, format := range c.formats {
		fine, err := cpuRatio(c, env, work, srv, format)
		if err != nil {
			srv.Close()
			return false, err
		}
		ok = ok && fine
	}
	srv.Close()
	fine, err := memory(ctx, c, env, work, rec)
	return ok && fine, err
}

// measureArg makes this program the measuring parent of another:
// `read -measure-child PROG ARGS...` runs PROG and prints its CPU and
// peak RSS on its own last stderr line. A child's peak RSS is only its
// own when its parent is small: Linux carries the hiwater mark of the
// memory a process was started from across exec, and Go starts a child
// from its parent's memory (CLONE_VM), so a child of this bench, which
// holds the recordings (hundreds of MB), would report the bench's peak.
// Started from a fresh copy of this program, which holds nothing, it
// reports its own.
const measureArg = "-measure-child"

// measured is what measureChild prints: CPU in ns and peak RSS in kB.
var measuredLine = regexp.MustCompile(`(?m)^measured: cpu-ns ([0-9]+) rss-kb ([0-9]+)\n?$`)

func measureChild(args []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var kb int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		kb = ru.Maxrss
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	fmt.Fprintf(os.Stderr, "measured: cpu-ns %d rss-kb %d\n", cpu.Nanoseconds(), kb)
	return cmd.ProcessState.ExitCode()
}

// runProgram runs one program with its stdout in a file of work, through
// measureChild.
func runProgram(env []string, work, name string, args ...string) (measured, error) {
	out := filepath.Join(work, filepath.Base(name)+".out")
	f, err := os.Create(out)
	if err != nil {
		return measured{}, err
	}
	defer f.Close()
	var stderr bytes.Buffer
	self, err := os.Executable()
	if err != nil {
		return measured{}, err
	}
	cmd := exec.Command(self, append([]string{measureArg, name}, args...)...)
	cmd.Env, cmd.Stdout, cmd.Stderr = env, f, &stderr
	began := time.Now()
	if err := cmd.Run(); err != nil {
		return measured{}, fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, lastLines(stderr.String()))
	}
	m := measured{wall: time.Since(began), out: out}
	mm := measuredLine.FindStringSubmatch(stderr.String())
	if mm == nil {
		return measured{}, fmt.Errorf("%s %s: no measure line on stderr: %s", name, strings.Join(args, " "), lastLines(stderr.String()))
	}
	var ns, kb int64
	fmt.Sscan(mm[1], &ns)
	fmt.Sscan(mm[2], &kb)
	m.cpu, m.rssMB = time.Duration(ns), float64(kb)/1024
	m.lines, err = countLines(out)
	return m, err
}

func lastLines(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(len(lines)-3, 0):], " | ")
}

func countLines(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n := 0
	buf := make([]byte, 1<<20)
	for {
		k, err := f.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// durations are the only bytes two runs of the same read do not share.
var durations = regexp.MustCompile(`("durationMs": )[0-9.]+|, [0-9.]+ ms`)

// sameOutput tells whether two outputs are the same but for durations.
func sameOutput(a, b string) (bool, error) {
	x, err := os.ReadFile(a)
	if err != nil {
		return false, err
	}
	y, err := os.ReadFile(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(durations.ReplaceAll(x, []byte("${1}0")), durations.ReplaceAll(y, []byte("${1}0"))), nil
}

// cpuRatio measures one format: dynascope's and the floor's runs
// interleaved, the medians of their CPU per item and the ratio.
func cpuRatio(c config, env []string, work string, srv *replay.Server, format string) (bool, error) {
	dynArgs := []string{"query", "--endpoint-url", srv.URL, "--table", c.table, "--pk", benchdata.BigPK, "--all-pages", "--output", format}
	floorArgs := []string{"-endpoint", srv.URL, "-table", c.table, "-pk", benchdata.BigPK, "-output", format}
	// One untimed run of each fills the schema cache and the file cache,
	// and proves the two write the same bytes.
	d, err := runProgram(env, work, c.bin, dynArgs...)
	if err != nil {
		return false, err
	}
	f, err := runProgram(env, work, c.floor, floorArgs...)
	if err != nil {
		return false, err
	}
	same, err := sameOutput(d.out, f.out)
	if err != nil {
		return false, err
	}
	if !same {
		return false, fmt.Errorf("--output %s: dynascope and the floor wrote different bytes (%s, %s)", format, d.out, f.out)
	}
	var dyn, flr []measured
	for range c.runs {
		d, err := runProgram(env, work, c.bin, dynArgs...)
		if err != nil {
			return false, err
		}
		f, err := runProgram(env, work, c.floor, floorArgs...)
		if err != nil {
			return false, err
		}
		dyn, flr = append(dyn, d), append(flr, f)
	}
	items := float64(srv.Items())
	dc, fc := median(dyn, func(m measured) float64 { return m.cpu.Seconds() }), median(flr, func(m measured) float64 { return m.cpu.Seconds() })
	dw, fw := median(dyn, func(m measured) float64 { return m.wall.Seconds() }), median(flr, func(m measured) float64 { return m.wall.Seconds() })
	ratio := dc / fc
	fmt.Printf("--output %-5s %d items, medians of %d runs: dynascope %.2f s CPU (%.2f s), %.1f MB; floor %.2f s CPU (%.2f s), %.1f MB\n",
		format, int(items), c.runs, dc, dw, median(dyn, rss), fc, fw, median(flr, rss))
	fine := ratio <= c.maxRatio
	fmt.Printf("= CPU per item, query --all-pages --output %s: dynascope %.1f µs, floor %.1f µs, %.2fx the floor (bound %.1fx): %s\n",
		format, dc/items*1e6, fc/items*1e6, ratio, c.maxRatio, verdict(fine))
	return fine, nil
}

func rss(m measured) float64 { return m.rssMB }

func median(ms []measured, f func(measured) float64) float64 {
	v := make([]float64, len(ms))
	for i, m := range ms {
		v[i] = f(m)
	}
	slices.Sort(v)
	return v[len(v)/2]
}

func verdict(ok bool) string {
	if ok {
		return "ok"
	}
	return "FAIL"
}

// memory measures the peak RSS of reads of about a million items.
func memory(ctx context.Context, c config, env []string, work string, query *replay.Recording) (bool, error) {
	scan, err := replay.Record(ctx, c.endpoint, c.table, "Scan", "", "")
	if err != nil {
		return false, fmt.Errorf("recording a scan of %s: %w", c.table, err)
	}
	stmt := fmt.Sprintf(`SELECT * FROM "%s" WHERE PK = '%s'`, c.table, benchdata.BigPK)
	partiql, err := replay.Record(ctx, c.endpoint, c.table, "ExecuteStatement", "", stmt)
	if err != nil {
		return false, fmt.Errorf("recording %s: %w", stmt, err)
	}
	patterns := filepath.Join(work, "patterns.yaml")
	if err := os.WriteFile(patterns, []byte("table: "+c.table+"\npatterns:\n  - name: big\n    pk: \""+benchdata.BigPK+"\"\n"), 0o644); err != nil {
		return false, err
	}
	type read struct {
		rec  *replay.Recording
		name string
		args []string
	}
	var reads []read
	for _, f := range []string{"jsonl", "json", "table", "csv", "ddbjson-batch"} {
		reads = append(reads, read{query, "query --all-pages --output " + f, []string{"query", "--table", c.table, "--pk", benchdata.BigPK, "--all-pages", "--output", f}})
	}
	for _, f := range []string{"json", "table"} {
		reads = append(reads, read{scan, "scan --yes --output " + f, []string{"scan", "--table", c.table, "--yes", "--output", f}})
	}
	reads = append(reads, read{partiql, "partiql --output json", []string{"partiql", stmt, "--output", "json"}})
	reads = append(reads, read{query, "patterns run --output json", []string{"patterns", "run", "big", "--patterns", patterns, "--table", c.table, "--output", "json"}})
	ok := true
	for _, r := range reads {
		if !c.reads.MatchString(r.name) {
			continue
		}
		laps := max(1, (c.laps*query.Items+r.rec.Items-1)/r.rec.Items)
		srv, err := replay.Serve(r.rec, laps)
		if err != nil {
			return false, err
		}
		args := append([]string{"--endpoint-url", srv.URL}, r.args...)
		m, err := runProgram(env, work, c.bin, args...)
		reqs := srv.Requests
		srv.Close()
		if err != nil {
			return false, err
		}
		items := itemsOf(r.name, m)
		fine := m.rssMB <= c.maxRSS
		ok = ok && fine
		fmt.Printf("%s: %s items read in %d requests (%.1f s, %.1f s CPU), output %d lines\n", r.name, thousands(items), reqs[r.rec.Op], m.wall.Seconds(), m.cpu.Seconds(), m.lines)
		fmt.Printf("= peak RSS, %s, %s items: %.1f MB (bound %.0f MB): %s\n", r.name, thousands(items), m.rssMB, c.maxRSS, verdict(fine))
	}
	return ok, nil
}

// itemsOf is how many items a read's output holds, from its summary:
// the "count" of a JSON document, the count line of a table, else lines
// (csv's less its header, ddbjson-batch's times 25 at most).
func itemsOf(name string, m measured) int {
	f, err := os.Open(m.out)
	if err != nil {
		return 0
	}
	defer f.Close()
	count := regexp.MustCompile(`^  "count": ([0-9]+),$|^([0-9]+) items? `)
	n := -1
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if mm := count.FindSubmatch(sc.Bytes()); mm != nil {
			fmt.Sscan(string(append(mm[1], mm[2]...)), &n)
		}
	}
	switch {
	case n >= 0:
		return n
	case strings.HasSuffix(name, "csv"):
		return m.lines - 1
	case strings.HasSuffix(name, "batch"):
		return -m.lines // lines of 25, not items: shown as such
	}
	return m.lines
}

func thousands(n int) string {
	if n < 0 {
		return fmt.Sprintf("%s batch lines of", thousands(-n))
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
