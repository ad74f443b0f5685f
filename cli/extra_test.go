package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"dynascope/config"
	"dynascope/dynamo/dynamotest"
)

// extra runs a command that needs no connection.
func extra(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return cli(t, args...)
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-v"}, {"version"}} {
		out, _, err := extra(t, args...)
		if err != nil || !strings.HasPrefix(out, "dynascope ") || !strings.Contains(out, "go1.") {
			t.Errorf("%v: %v %q", args, err, out)
		}
	}
	if _, _, err := extra(t, "version", "x"); err == nil {
		t.Error("version takes no arguments")
	}
	// Go's one-dash long flags are told apart from a row of short ones.
	if _, _, err := extra(t, "-version"); err == nil || err.Error() != "unknown flag -version; long flags take two dashes: --version." {
		t.Errorf("-version: %v", err)
	}
	info := &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2025-03-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	if got := buildVersion(Build{}, info, true); !strings.HasPrefix(got, "dynascope v1.2.3 (commit 0123abcd-dirty, committed 2025-03-01T10:00:00Z, go") {
		t.Errorf("from build info: %s", got)
	}
	// The Makefile's -ldflags win over the build info.
	stamped := Build{Version: "v0.9.0-3-g0123abc-dirty"}
	if got := buildVersion(stamped, info, true); !strings.HasPrefix(got, "dynascope v0.9.0-3-g0123abc-dirty (commit 0123abcd, ") {
		t.Errorf("from ldflags: %s", got)
	}
	if got := buildVersion(stamped, nil, false); !strings.HasPrefix(got, "dynascope v0.9.0-3-g0123abc-dirty (go") {
		t.Errorf("without build info: %s", got)
	}
}

// `make install` and `make build` (which `make demo` runs) stamp the
// version from git describe into the binary, also where the environment
// turned Go's own stamping off.
func TestMakeInstallStampsVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("make"); err != nil {
		dynamotest.Need(t, "make", "make")
	}
	// The tree may change while make builds (a developer saving or
	// committing): the stamp must be git describe's answer from just before
	// or just after the build, nothing else.
	describe := func() string {
		desc, err := exec.Command("git", "describe", "--always", "--dirty").Output()
		if err != nil {
			t.Fatalf("git describe: %v", err)
		}
		return "dynascope " + strings.TrimSpace(string(desc)) + " (commit "
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		env  []string
		bin  string
	}{
		{"install", []string{"install"}, []string{"GOBIN=" + dir}, filepath.Join(dir, "dynascope")},
		{"build", []string{"build", "BIN=" + filepath.Join(dir, "built")}, nil, filepath.Join(dir, "built")},
		{"build without buildvcs", []string{"build", "BIN=" + filepath.Join(dir, "novcs")}, []string{"GOFLAGS=-buildvcs=false"}, filepath.Join(dir, "novcs")},
	} {
		before := describe()
		cmd := exec.Command("make", c.args...)
		cmd.Dir = ".." // the Makefile is at the top
		cmd.Env = append(os.Environ(), c.env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("make %s: %v\n%s", c.name, err, out)
		}
		after := describe()
		out, err := exec.Command(c.bin, "--version").Output()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(out), before) && !strings.HasPrefix(string(out), after) {
			t.Errorf("make %s: got %q, want prefix %q (or %q)", c.name, out, before, after)
		}
	}
}

func TestConfigCommand(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	t.Setenv(config.EnvSettings, path)
	out, _, err := extra(t, "config", "path")
	if err != nil || out != path+"\n" {
		t.Errorf("path: %v %q", err, out)
	}
	out, _, err = extra(t, "config", "show")
	if err != nil || !strings.HasPrefix(out, "# "+path+" does not exist: the defaults\n") || !strings.Contains(out, "\ntheme: auto\n") || !strings.Contains(out, "pricePerMillionReads: 0.125\n") {
		t.Errorf("show without file: %v\n%s", err, out)
	}
	if err := os.WriteFile(path, []byte("connection: local\nconnections:\n  local:\n    endpoint: http://127.0.0.1:8000\ntheme: light\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, err = extra(t, "config", "show")
	want := "# " + path + "\n" +
		"# sampling: a cap left out is the layout command's own default; defaultLimit: 0 means no Limit; maxLoadedItems: 0 means no cap\n" +
		"connection: local\nconnections:\n  local:\n    endpoint: http://127.0.0.1:8000\nkeys: {}\ntheme: light\ndefaultLimit: 0\n" +
		"sampling: {}\npricePerMillionReads: 0.125\nmaxLoadedItems: 50000\nschemaCache: true\n"
	if err != nil || out != want {
		t.Errorf("show:\n got\n%s\n want\n%s", out, want)
	}
	// What show prints is a settings file that reads back the same.
	s1, _ := config.LoadSettingsFile(path)
	s2, err := config.ParseSettings(path, []byte(out))
	if err != nil || !slices.Equal([]string{s1.Connection, s1.Theme}, []string{s2.Connection, s2.Theme}) || s2.Connections["local"] != s1.Connections["local"] ||
		s2.MaxLoadedItems != s1.MaxLoadedItems || s2.SchemaCache != s1.SchemaCache {
		t.Errorf("show does not read back: %v", err)
	}
	if err := os.WriteFile(path, []byte("theme: blue\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := extra(t, "config", "show"); err == nil || err.Error() != path+`:1: theme must be one of auto, dark, light, none, not "blue".` {
		t.Errorf("bad file: %v", err)
	}
	for _, args := range [][]string{{"config"}, {"config", "edit"}, {"config", "show", "x"}} {
		if _, _, err := extra(t, args...); err == nil {
			t.Errorf("%v must fail", args)
		} else if _, ok := err.(usageError); !ok {
			t.Errorf("%v: %T is not a usage error", args, err)
		}
	}
}

// complete asks the program what a shell would offer for the last word,
// as the completion scripts do, and returns the offers without their
// descriptions.
func complete(t *testing.T, words ...string) []string {
	t.Helper()
	out, _, err := cli(t, append([]string{"__complete"}, words...)...)
	if err != nil {
		t.Fatalf("__complete %q: %v", words, err)
	}
	var offers []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l != "" && !strings.HasPrefix(l, ":") && !strings.HasPrefix(l, "Completion ended") {
			name, _, _ := strings.Cut(l, "\t")
			offers = append(offers, name)
		}
	}
	return offers
}

// Completion follows the command tree: commands, each command's flags
// (persistent ones included), fixed choices, and pattern names from the
// file; the scripts for every shell are valid in that shell (fish runs one
// for real in testdata/script/completion.txtar). A missing shell skips, and
// fails under CI=true (make test installs them).
func TestCompletion(t *testing.T) {
	cases := []struct {
		words []string
		want  string
	}{
		{[]string{"que"}, "query"},
		{[]string{"query", "--sk-b"}, "--sk-begins-with --sk-between"},
		{[]string{"query", "--output", "dd"}, "ddbjson-batch"},
		{[]string{"completion", "z"}, "zsh"},
		{[]string{"--ta"}, "--table"},
		{[]string{"groups", "--endpoint-u"}, "--endpoint-url"},
		{[]string{"seed", "--workb"}, "--workbench"},
		{[]string{"patterns", "show", "--lang", ""}, "cli python go"},
		{[]string{"patterns", "run", "--patterns", "testdata/patterns-big-customer.yaml", "latest"}, "latest order"},
		// Without an endpoint that answers, table names are silently none.
		{[]string{"query", "--endpoint-url", "http://127.0.0.1:1", "--table", ""}, ""},
	}
	for _, c := range cases {
		if got := strings.Join(complete(t, c.words...), " "); got != c.want {
			t.Errorf("%q: got %q, want %q", c.words, got, c.want)
		}
	}
	if _, _, err := extra(t, "completion", "tcsh"); err == nil {
		t.Error("unknown shell accepted")
	}
	dir := t.TempDir()
	for _, sh := range []struct{ name, check string }{{"bash", "bash -n"}, {"zsh", "zsh -n"}, {"fish", "fish --no-config -n"}, {"powershell", ""}} {
		out, _, err := extra(t, "completion", sh.name)
		if err != nil || !strings.Contains(out, "__complete") {
			t.Fatalf("completion %s: %v\n%s", sh.name, err, out)
		}
		args := strings.Fields(sh.check)
		if len(args) == 0 {
			continue
		}
		if _, err := exec.LookPath(args[0]); err != nil {
			dynamotest.Need(t, args[0], args[0]) // skips, or fails under CI=true
		}
		file := filepath.Join(dir, "dynascope."+sh.name)
		if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		if msg, err := exec.Command(args[0], append(args[1:], file)...).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", sh.check, err, msg)
		}
	}
}
