package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"dynascope/config"
	"dynascope/dynamo/dynamotest"
)

// extra runs a command through runExtra, as main.go routes it.
func extra(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	var out, errb bytes.Buffer
	ok, err := runExtra(context.Background(), cmd, args, &out, &errb)
	if !ok {
		t.Fatalf("runExtra did not take %s %v", cmd, args)
	}
	return out.String(), errb.String(), err
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}} {
		out, _, err := extra(t, args...)
		if err != nil || !strings.HasPrefix(out, "dynascope ") || !strings.Contains(out, "go1.") {
			t.Errorf("%v: %v %q", args, err, out)
		}
		// And through run, as main calls it: the routing itself.
		out, _, err = cli(t, args...)
		if err != nil || !strings.HasPrefix(out, "dynascope ") || !strings.Contains(out, "go1.") {
			t.Errorf("run %v: %v %q", args, err, out)
		}
	}
	if _, _, err := extra(t, "version", "x"); err == nil {
		t.Error("version takes no arguments")
	}
	info := &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2025-03-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	if got := buildVersion(info, true); !strings.HasPrefix(got, "dynascope v1.2.3 (commit 0123abcd-dirty, committed 2025-03-01T10:00:00Z, go") {
		t.Errorf("from build info: %s", got)
	}
	// The Makefile's -ldflags win over the build info.
	version = "v0.9.0-3-g0123abc-dirty"
	t.Cleanup(func() { version = "" })
	if got := buildVersion(info, true); !strings.HasPrefix(got, "dynascope v0.9.0-3-g0123abc-dirty (commit 0123abcd, ") {
		t.Errorf("from ldflags: %s", got)
	}
	if got := buildVersion(nil, false); !strings.HasPrefix(got, "dynascope v0.9.0-3-g0123abc-dirty (go") {
		t.Errorf("without build info: %s", got)
	}
}

// `make install` stamps the version from git describe into the binary.
func TestMakeInstallStampsVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("make"); err != nil {
		dynamotest.Need(t, "make", "make")
	}
	dir := t.TempDir()
	cmd := exec.Command("make", "install")
	cmd.Env = append(os.Environ(), "GOBIN="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make install: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(dir, "dynascope"), "--version").Output()
	desc, derr := exec.Command("git", "describe", "--always", "--dirty").Output()
	if err != nil || derr != nil {
		t.Fatalf("%v %v", err, derr)
	}
	if want := "dynascope " + strings.TrimSpace(string(desc)) + " (commit "; !strings.HasPrefix(string(out), want) {
		t.Errorf("got %q, want prefix %q", out, want)
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

// The scripts offer the real flags of each command; bash and fish are run
// for real, zsh is checked for syntax. A missing shell skips, and fails
// under CI=true (make test installs them).
func TestCompletion(t *testing.T) {
	scripts := map[string]string{}
	for _, sh := range []string{"bash", "zsh", "fish"} {
		out, _, err := extra(t, "completion", sh)
		if err != nil || out == "" {
			t.Fatalf("completion %s: %v", sh, err)
		}
		scripts[sh] = out
		for _, want := range []string{"query", "sk-begins-with", "ddbjson-batch", "workbench", "connection", "table-prefix"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s script lacks %q", sh, want)
			}
		}
	}
	if _, _, err := extra(t, "completion", "tcsh"); err == nil {
		t.Error("unknown shell accepted")
	}
	dir := t.TempDir()
	for _, sh := range []string{"bash", "zsh", "fish"} {
		if _, err := exec.LookPath(sh); err != nil {
			dynamotest.Need(t, sh, sh)
		}
	}
	{
		file := filepath.Join(dir, "dynascope.bash")
		if err := os.WriteFile(file, []byte(scripts["bash"]), 0o644); err != nil {
			t.Fatal(err)
		}
		complete := func(words ...string) string {
			script := "source " + file + "\nCOMP_WORDS=(" + quoteWords(words) + ")\nCOMP_CWORD=" + strconv.Itoa(len(words)-1) + "\n_dynascope\necho \"${COMPREPLY[*]}\"\n"
			out, err := exec.Command("bash", "-c", script).CombinedOutput()
			if err != nil {
				t.Fatalf("bash: %v\n%s", err, out)
			}
			return strings.TrimSpace(string(out))
		}
		cases := []struct {
			words []string
			want  string
		}{
			{[]string{"dynascope", "que"}, "query"},
			{[]string{"dynascope", "query", "--sk-b"}, "--sk-begins-with --sk-between"},
			{[]string{"dynascope", "query", "--output", "dd"}, "ddbjson-batch"},
			{[]string{"dynascope", "query", "--table", ""}, ""},
			{[]string{"dynascope", "completion", "z"}, "zsh"},
			{[]string{"dynascope", "--ta"}, "--table"},
		}
		for _, c := range cases {
			if got := complete(c.words...); got != c.want {
				t.Errorf("bash %q: got %q, want %q", c.words, got, c.want)
			}
		}
	}
	{
		file := filepath.Join(dir, "_dynascope")
		if err := os.WriteFile(file, []byte(scripts["zsh"]), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("zsh", "-n", file).CombinedOutput(); err != nil {
			t.Errorf("zsh -n: %v\n%s", err, out)
		}
	}
	{
		file := filepath.Join(dir, "dynascope.fish")
		if err := os.WriteFile(file, []byte(scripts["fish"]), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("fish", "--no-config", "-c", "source "+file+"; complete -C'dynascope query --output d'; complete -C'dynascope seed --workb'").CombinedOutput()
		if err != nil || !strings.Contains(string(out), "ddbjson-batch") || !strings.Contains(string(out), "--workbench") {
			t.Errorf("fish: %v\n%s", err, out)
		}
	}
}

func quoteWords(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}
