package dynamolocal

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fakeEngine makes dir look like an installed engine.
func fakeEngine(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "DynamoDBLocal_lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "DynamoDBLocal.jar"), []byte("jar"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// env is a fake environment for placesFrom.
func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// placeCase is one arrangement of folders and variables: the engine found
// (or "" for none) and where an install goes, relative to the test's root.
type placeCase struct {
	name      string
	vars      map[string]string // values relative to root when they start with "/"
	engines   []string          // folders made to hold an engine
	wd        string            // the working folder (the checkout for the script)
	found     string
	installTo string
}

var placeCases = []placeCase{
	{name: "fresh machine: nothing found, install into ~/.cache",
		vars: map[string]string{"HOME": "/home"}, wd: "/work",
		found: "", installTo: "/home/.cache/dynascope/dynamodb-local"},
	{name: "an absolute XDG_CACHE_HOME is the cache folder",
		vars: map[string]string{"HOME": "/home", "XDG_CACHE_HOME": "/xdg"}, wd: "/work",
		engines: []string{"/xdg/dynascope/dynamodb-local"},
		found:   "/xdg/dynascope/dynamodb-local", installTo: "/xdg/dynascope/dynamodb-local"},
	{name: "a relative XDG_CACHE_HOME is ignored, as the XDG rules say",
		vars: map[string]string{"HOME": "/home", "XDG_CACHE_HOME": "rel"}, wd: "/work",
		found: "", installTo: "/home/.cache/dynascope/dynamodb-local"},
	{name: "the cache folder before a checkout's .local",
		vars: map[string]string{"HOME": "/home"}, wd: "/work",
		engines: []string{"/home/.cache/dynascope/dynamodb-local", "/work/.local/dynamodb-local"},
		found:   "/home/.cache/dynascope/dynamodb-local", installTo: "/home/.cache/dynascope/dynamodb-local"},
	{name: "a checkout's .local when the cache folder has none",
		vars: map[string]string{"HOME": "/home"}, wd: "/work",
		engines: []string{"/work/.local/dynamodb-local"},
		found:   "/work/.local/dynamodb-local", installTo: "/home/.cache/dynascope/dynamodb-local"},
	{name: "a .local above the working folder",
		vars: map[string]string{"HOME": "/home"}, wd: "/work/checkout",
		engines: []string{"/work/.local/dynamodb-local"},
		found:   "/work/.local/dynamodb-local", installTo: "/home/.cache/dynascope/dynamodb-local"},
	{name: "DYNASCOPE_LOCAL_DIR is the only place",
		vars: map[string]string{"HOME": "/home", EnvLocalDir: "/mine"}, wd: "/work",
		engines: []string{"/home/.cache/dynascope/dynamodb-local", "/work/.local/dynamodb-local"},
		found:   "", installTo: "/mine/dynamodb-local"},
	{name: "DYNASCOPE_LOCAL_DIR holding one",
		vars: map[string]string{"HOME": "/home", EnvLocalDir: "/mine"}, wd: "/work",
		engines: []string{"/mine/dynamodb-local"},
		found:   "/mine/dynamodb-local", installTo: "/mine/dynamodb-local"},
}

// lay makes the case's folders under a new root and returns the root and
// the variables with their paths under it.
func (c placeCase) lay(t *testing.T) (string, map[string]string) {
	root := t.TempDir()
	vars := map[string]string{}
	for k, v := range c.vars {
		if strings.HasPrefix(v, "/") {
			v = root + v
		}
		vars[k] = v
	}
	for _, e := range c.engines {
		fakeEngine(t, root+e)
	}
	if err := os.MkdirAll(root+c.wd, 0o755); err != nil {
		t.Fatal(err)
	}
	return root, vars
}

func under(root, p string) string {
	if p == "" {
		return ""
	}
	return root + p
}

func TestPlaces(t *testing.T) {
	for _, c := range placeCases {
		root, vars := c.lay(t)
		p := placesFrom(env(vars), root+c.wd)
		found, tried := p.Find()
		if found != under(root, c.found) {
			t.Errorf("%s: found %q, want %q", c.name, found, under(root, c.found))
		}
		if found == "" && !slices.Contains(tried, p.InstallDir()) {
			t.Errorf("%s: the install folder %s is not among those looked in %v", c.name, p.InstallDir(), tried)
		}
		if got := p.InstallDir(); got != under(root, c.installTo) {
			t.Errorf("%s: installs into %q, want %q", c.name, got, under(root, c.installTo))
		}
	}
	// A half-installed folder (a jar without its libraries) is no engine.
	root := t.TempDir()
	dir := filepath.Join(root, "dynascope", "dynamodb-local")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "DynamoDBLocal.jar"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if found, _ := placesFrom(env(map[string]string{"XDG_CACHE_HOME": root}), "/").Find(); found != "" {
		t.Errorf("a jar without DynamoDBLocal_lib/ was taken for an engine: %s", found)
	}
	if p := placesFrom(env(nil), "/"); p.InstallDir() != "" {
		t.Errorf("with no HOME, XDG_CACHE_HOME or %s: installs into %q", EnvLocalDir, p.InstallDir())
	}
}

// The checkout's script answers as the binary does: for each case, `dir`
// (the engine found, else where install puts it) is the binary's Find,
// else its InstallDir. The script runs from a copy placed in the case's
// working folder, which is its checkout.
func TestScriptAgreesOnPlaces(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "scripts", "dynamodb-local.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range placeCases {
		root, vars := c.lay(t)
		checkout := root + c.wd
		if err := os.MkdirAll(filepath.Join(checkout, "scripts"), 0o755); err != nil {
			t.Fatal(err)
		}
		copyTo := filepath.Join(checkout, "scripts", "dynamodb-local.sh")
		if err := os.WriteFile(copyTo, script, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", copyTo, "dir")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		for k, v := range vars {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: the script's dir: %v", c.name, err)
		}
		p := placesFrom(env(vars), checkout)
		want, _ := p.Find()
		if want == "" {
			want = p.InstallDir()
		}
		if got := strings.TrimSpace(string(out)); got != want {
			t.Errorf("%s: the script says %s, the binary %s", c.name, got, want)
		}
	}
}

// The script pins the same package, tarball and checksum as the binary.
func TestScriptPinsTheSamePackage(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "scripts", "dynamodb-local.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"pkg": Package, "tarball": Tarball, "sha": TarballSHA} {
		m := regexp.MustCompile(`(?m)^` + name + `="([^"]*)"$`).FindSubmatch(script)
		if m == nil || string(m[1]) != want {
			t.Errorf("scripts/dynamodb-local.sh's %s is %q, the binary's %q", name, m, want)
		}
	}
}
