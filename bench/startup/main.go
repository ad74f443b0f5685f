// Command startup times dynascope from process start to first results
// against the AWS CLI sending the same Query, in the same run, on a small
// partition of the bench table in DynamoDB Local:
//
//   - `dynascope query --table T --pk P` until it exits with its JSON, with
//     the table's key schema in dynascope's schema cache (the run before
//     left it there), and once more with the cache emptied first;
//   - `aws dynamodb query` (the command codegen.QueryCode writes for the same
//     key condition) until it exits with its JSON;
//   - the terminal UI with --pk, in a pseudo-terminal made by script(1),
//     until its screen shows the partition's items.
//
// Each runs -runs times, interleaved so that drift in the machine's load
// hits all three alike; the medians and their ratios are printed. Every
// command goes through `sh -c`, so each pays the same shell start.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"dynascope/bench/benchdata"
	"dynascope/codegen"
	"dynascope/dynamo"
)

func main() {
	endpoint := flag.String("endpoint", os.Getenv("DYNASCOPE_TEST_ENDPOINT"), "DynamoDB Local endpoint holding the bench table")
	table := flag.String("table", "bench", "the bench table (bench/load)")
	pk := flag.String("pk", benchdata.SmallPK, "the small partition to query")
	marker := flag.String("marker", "Startup", "text of the partition's items that proves the UI painted them")
	bin := flag.String("bin", "bin/dynascope", "the dynascope binary")
	awsBin := flag.String("aws", "aws", "the AWS CLI executable")
	runs := flag.Int("runs", 10, "runs of each command")
	minRatio := flag.Float64("min-ratio", 20, "fail when dynascope is less than this many times faster than the AWS CLI")
	flag.Parse()
	ok, err := run(*endpoint, *table, *pk, *marker, *bin, *awsBin, *runs, *minRatio)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/startup: "+err.Error())
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

func run(endpoint, table, pk, marker, bin, awsBin string, runs int, minRatio float64) (bool, error) {
	if endpoint == "" {
		return false, errors.New("give the DynamoDB Local endpoint with -endpoint")
	}
	awsPath, err := exec.LookPath(awsBin)
	if err != nil {
		return false, fmt.Errorf("the AWS CLI (%s) is not on the PATH; install Debian's awscli", awsBin)
	}
	if _, err := exec.LookPath("script"); err != nil {
		return false, errors.New("script(1) is not on the PATH; install util-linux")
	}
	abs, err := filepath.Abs(bin)
	if err != nil {
		return false, err
	}
	cfg, err := os.MkdirTemp("", "bench-startup-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(cfg)
	cache := filepath.Join(cfg, "cache")
	// The same fake credentials and region for every tool, and config and
	// cache directories of our own so the UI's history does not land in the
	// user's and the schema cache starts empty.
	env := append(os.Environ(),
		"AWS_ACCESS_KEY_ID=local", "AWS_SECRET_ACCESS_KEY=local",
		"AWS_REGION=us-east-1", "AWS_DEFAULT_REGION=us-east-1",
		"AWS_EC2_METADATA_DISABLED=true", "XDG_CONFIG_HOME="+cfg, "XDG_CACHE_HOME="+cache, "TERM=xterm-256color")

	ks := dynamo.KeySchema{PK: benchdata.Spec(table).PK, SK: benchdata.Spec(table).SK}
	awsCmd, err := codegen.QueryCode(codegen.LangCLI, ks, dynamo.QueryInput{Table: table, PK: pk}, codegen.CodeTarget{Region: "us-east-1", Endpoint: endpoint})
	if err != nil {
		return false, err
	}
	// QueryCode puts the credentials in front for a user to paste; they are
	// in env here, for every tool alike.
	awsCmd = strings.TrimPrefix(awsCmd, "AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local ")
	awsCmd = "exec " + awsPath + strings.TrimPrefix(awsCmd, "aws")
	version, _ := exec.Command(awsPath, "--version").CombinedOutput()
	queryCmd := fmt.Sprintf("exec %s query --endpoint-url %s --table %s --pk '%s'", abs, endpoint, table, pk)
	uiCmd := fmt.Sprintf("stty rows 35 cols 120; exec %s --endpoint-url %s --table %s --pk '%s'", abs, endpoint, table, pk)
	// The pty harness alone: script, the shell and stty, then a program
	// that prints the marker at once. Its median is taken off the UI's.
	harnessCmd := "stty rows 35 cols 120; exec echo " + marker

	// One untimed round warms DynamoDB Local's JIT and the file cache.
	if _, err := timeCLI(env, queryCmd, pk); err != nil {
		return false, fmt.Errorf("dynascope query: %w", err)
	}
	if _, err := timeCLI(env, awsCmd, pk); err != nil {
		return false, fmt.Errorf("aws dynamodb query: %w", err)
	}
	if _, err := benchdata.TimeUI(env, uiCmd, marker); err != nil {
		return false, fmt.Errorf("dynascope UI: %w", err)
	}
	var q, qc, a, u, f, h []time.Duration
	for range runs {
		ht, err := benchdata.TimeUI(env, harnessCmd, marker)
		if err != nil {
			return false, fmt.Errorf("pty harness: %w", err)
		}
		h = append(h, ht.Results)
		// A first run, with nothing cached: it describes the table, and
		// leaves its key schema for the run after it.
		if err := os.RemoveAll(cache); err != nil {
			return false, err
		}
		var d time.Duration
		if d, err = timeCLI(env, queryCmd, pk); err != nil {
			return false, fmt.Errorf("dynascope query, first run: %w", err)
		}
		qc = append(qc, d)
		if d, err = timeCLI(env, queryCmd, pk); err != nil {
			return false, fmt.Errorf("dynascope query: %w", err)
		}
		q = append(q, d)
		if d, err = timeCLI(env, awsCmd, pk); err != nil {
			return false, fmt.Errorf("aws dynamodb query: %w", err)
		}
		a = append(a, d)
		ut, err := benchdata.TimeUI(env, uiCmd, marker)
		if err != nil {
			return false, fmt.Errorf("dynascope UI: %w", err)
		}
		u, f = append(u, ut.Results), append(f, ut.Frame)
	}
	mq, ma, mh := benchdata.Median(q), benchdata.Median(a), benchdata.Median(h)
	mu := benchdata.Median(u) - mh
	describe, err := describeTime(endpoint, table)
	if err != nil {
		return false, err
	}
	fmt.Printf("start to first results on %s (%d runs each, medians; min–max):\n", pk, runs)
	fmt.Printf("  dynascope query            %7.1f ms  (%.1f–%.1f; the key schema from its cache)\n", ms(mq), ms(slices.Min(q)), ms(slices.Max(q)))
	fmt.Printf("  dynascope query, first run %7.1f ms  (%.1f–%.1f; nothing cached, so DescribeTable first)\n", ms(benchdata.Median(qc)), ms(slices.Min(qc)), ms(slices.Max(qc)))
	fmt.Printf("  dynascope UI, first screen %7.1f ms  (%.1f–%.1f, less the pty harness's %.1f ms; its first frame, before any result: %.1f ms)\n",
		ms(mu), ms(slices.Min(u)-mh), ms(slices.Max(u)-mh), ms(mh), ms(benchdata.Median(f)-mh))
	fmt.Printf("  aws dynamodb query         %7.1f ms  (%.1f–%.1f; %s, %s)\n", ms(ma), ms(slices.Min(a)), ms(slices.Max(a)), awsPath, strings.TrimSpace(string(version)))
	fmt.Printf("  a DescribeTable of %s takes %.1f ms (DynamoDB Local counts the table's items on every call): a first run and the UI send one\n", table, ms(describe))
	ok := true
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"dynascope query", mq}, {"dynascope UI first screen", mu}} {
		r := float64(ma) / float64(f.d)
		verdict := "ok"
		if r < minRatio {
			verdict, ok = "FAIL", false
		}
		fmt.Printf("= start-up, %s vs aws dynamodb query: %.1fx faster (%.0f vs %.0f ms; bound >= %gx) %s\n", f.name, r, ms(f.d), ms(ma), minRatio, verdict)
	}
	return ok, nil
}

// timeCLI runs a command to its exit and checks that it printed the
// partition's items.
func timeCLI(env []string, command, pk string) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, "sh", "-c", command)
	c.Env = env
	var out, errOut bytes.Buffer
	c.Stdout, c.Stderr = &out, &errOut
	began := time.Now()
	err := c.Run()
	took := time.Since(began)
	if err != nil {
		return 0, fmt.Errorf("%v: %s", err, strings.TrimSpace(errOut.String()))
	}
	if !strings.Contains(out.String(), pk) {
		return 0, fmt.Errorf("its output lacks %s: %.200s", pk, out.String())
	}
	return took, nil
}

// describeTime is the median time of a DescribeTable of the table, which
// dynascope sends before its first Query when no key schema is cached.
func describeTime(endpoint, table string) (time.Duration, error) {
	ctx := context.Background()
	var ds []time.Duration
	for range 5 {
		// A client of its own each time: a client asks DynamoDB only once.
		c, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: endpoint, Region: "us-east-1", NoSchemaCache: true})
		if err != nil {
			return 0, err
		}
		began := time.Now()
		if _, err := c.DescribeTable(ctx, table); err != nil {
			return 0, err
		}
		ds = append(ds, time.Since(began))
	}
	return benchdata.Median(ds), nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
