package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"dynascope/dynamo/dynamotest"
)

// interrupt runs dynascope (the test binary, on the PATH under that name by
// testscript.Main) until proxy has seen queries Query requests, sends it
// SIGINT, and returns its output and exit status.
func interrupt(t *testing.T, proxy *dynamotest.Proxy, queries int, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	return signalAfter(t, proxy, "Query", queries, os.Interrupt, args...)
}

// signalAfter is interrupt for any operation and signal.
func signalAfter(t *testing.T, proxy *dynamotest.Proxy, op string, queries int, sig os.Signal, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	cmd := exec.Command("dynascope", args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for proxy.Count(op) < queries {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("%d %s arrived, want %d; stderr:\n%s", proxy.Count(op), op, queries, errb.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return out.String(), errb.String(), cmd.ProcessState.ExitCode()
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("still running 10 s after %v; stderr:\n%s", sig, errb.String())
	}
	return "", "", 0
}

// Ctrl-C while page 3 of query --all-pages hangs: the two pages read are
// written, marked incomplete by the key to go on from, the error says it
// was stopped by Ctrl-C (never "cancelled." alone), the last line how to go on, and the exit status is 130,
// not a plain failure.
func TestCLISignalQueryAllPages(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	proxy.Inject(dynamotest.Rule{Op: "Query", From: 3, Fault: dynamotest.Hang})
	out, stderr, status := interrupt(t, proxy, 3, "query", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#42", "--limit", "1", "--all-pages")
	// The error's line, then the line that reads the rest (--start-key).
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if status != exitInterrupted || len(lines) < 2 || !strings.HasSuffix(lines[len(lines)-2], ": stopped by Ctrl-C.") ||
		!strings.Contains(lines[len(lines)-1], "reading only the rest, run: dynascope query ") || !strings.Contains(lines[len(lines)-1], `--start-key '{"PK":"CUST#42","SK":"ORDER#2025-03-01#A17"}'`) {
		t.Errorf("status %d, stderr:\n%s", status, stderr)
	}
	q := decodeQuery(t, out)
	if q.Count != 2 || q.Pages != 2 || !strings.Contains(string(q.LastEvaluatedKey), "ORDER#2025-03-01#A17") {
		t.Errorf("partial result: count=%d pages=%d lek=%s", q.Count, q.Pages, q.LastEvaluatedKey)
	}
}

// Ctrl-C while groups --count reads its last page: the types read are
// printed, those read to their end with their count and the one cut short
// with none, the result says it is not complete, and the exit status is
// 130. Before, a cancelled count printed "complete": true.
func TestCLISignalGroupsCount(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	args := []string{"groups", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#7", "--count"}
	if _, _, err := cli(t, args...); err != nil {
		t.Fatal(err)
	}
	all := proxy.Count("Query") // the pages of the whole read
	proxy.Inject(dynamotest.Rule{Op: "Query", From: all, Fault: dynamotest.Hang})
	out, stderr, status := interrupt(t, proxy, 2*all, args...)
	if status != exitInterrupted || !strings.Contains(stderr, "stopped by Ctrl-C") || strings.Contains(stderr, "cancel") {
		t.Errorf("status %d, stderr:\n%s", status, stderr)
	}
	var got struct {
		Groups []struct {
			Entity string `json:"entity"`
			Count  *int   `json:"count"`
		} `json:"groups"`
		Complete bool `json:"complete"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Complete || len(got.Groups) < 1 {
		t.Fatalf("printed (%v):\n%s", err, out)
	}
	last := len(got.Groups) - 1
	for i, g := range got.Groups {
		if (i < last) != (g.Count != nil) {
			t.Errorf("group %s: count %v; want one for each type read to its end before the signal, none for the last", g.Entity, g.Count)
		}
	}
}

// SIGTERM while a scan's second page hangs: it says SIGTERM stopped it,
// not Ctrl-C, keeps the page read, and exits 130.
func TestCLISignalTermScanSaysSIGTERM(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	proxy.Inject(dynamotest.Rule{Op: "Scan", From: 2, Fault: dynamotest.Hang})
	out, stderr, status := signalAfter(t, proxy, "Scan", 2, syscall.SIGTERM, "scan", "--endpoint-url", proxy.URL, "--table", table, "--yes")
	if status != 130 || !strings.Contains(stderr, "stopped by SIGTERM after ") || !strings.Contains(stderr, "dynascope: stopped by SIGTERM: the output holds the ") || strings.Contains(stderr, "Ctrl-C after") {
		t.Errorf("exit %d, stderr:\n%s", status, stderr)
	}
	var b struct{ Count int }
	if err := json.Unmarshal([]byte(out), &b); err != nil || b.Count == 0 {
		t.Errorf("printed %v %.300s", err, out)
	}
}
