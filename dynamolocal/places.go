package dynamolocal

// Where DynamoDB Local is installed. The binary and the checkout's script
// (scripts/dynamodb-local.sh) look in the same places in the same order,
// and install into the same one, so an engine fetched by either serves
// both, and `go install` + `dynascope demo` works from any folder:
//
//  1. $DYNASCOPE_LOCAL_DIR/dynamodb-local, when the variable is set: then
//     the only place, found there or installed there;
//  2. the user's cache folder: $XDG_CACHE_HOME/dynascope/dynamodb-local
//     ($XDG_CACHE_HOME when it is an absolute path), else
//     ~/.cache/dynascope/dynamodb-local; installs go here;
//  3. a checkout's .local/dynamodb-local, in the working directory or a
//     folder above it (where the script installed before it used the
//     cache folder).

import (
	"os"
	"path/filepath"
)

// EnvLocalDir names the folder whose dynamodb-local/ holds DynamoDB Local,
// in place of the user's cache folder.
const EnvLocalDir = "DYNASCOPE_LOCAL_DIR"

// Places are the folders DynamoDB Local is looked for in, by the rules
// above; Env reads them from the environment.
type Places struct {
	// Override is $DYNASCOPE_LOCAL_DIR; "" when unset.
	Override string
	// Cache is the user's cache folder for dynascope; "" when there is none
	// (no HOME).
	Cache string
	// WorkDir is where a checkout's .local is looked for, and up from it.
	WorkDir string
}

// Env reads the places from the process's environment and working folder.
func Env() Places {
	wd, _ := os.Getwd()
	return placesFrom(os.Getenv, wd)
}

// placesFrom reads the places through getenv, for tests.
func placesFrom(getenv func(string) string, wd string) Places {
	p := Places{Override: getenv(EnvLocalDir), WorkDir: wd}
	if x := getenv("XDG_CACHE_HOME"); filepath.IsAbs(x) {
		p.Cache = filepath.Join(x, "dynascope")
	} else if h := getenv("HOME"); h != "" {
		p.Cache = filepath.Join(h, ".cache", "dynascope")
	}
	return p
}

// engineDir is the folder of the engine's files under a place.
func engineDir(place string) string { return filepath.Join(place, "dynamodb-local") }

// Find returns the folder that holds DynamoDBLocal.jar, and the folders
// looked in when there is none.
func (p Places) Find() (string, []string) {
	var tried []string
	look := func(dir string) bool {
		tried = append(tried, dir)
		return hasEngine(dir)
	}
	if p.Override != "" {
		if dir := engineDir(p.Override); look(dir) {
			return dir, nil
		}
		return "", tried
	}
	if p.Cache != "" {
		if dir := engineDir(p.Cache); look(dir) {
			return dir, nil
		}
	}
	for wd := p.WorkDir; wd != ""; {
		if dir := engineDir(filepath.Join(wd, ".local")); look(dir) {
			return dir, nil
		}
		parent := filepath.Dir(wd)
		if parent == wd {
			break
		}
		wd = parent
	}
	return "", tried
}

// InstallDir is where an install goes: under $DYNASCOPE_LOCAL_DIR when it
// is set, else under the user's cache folder; "" when there is neither.
func (p Places) InstallDir() string {
	switch {
	case p.Override != "":
		return engineDir(p.Override)
	case p.Cache != "":
		return engineDir(p.Cache)
	}
	return ""
}

// hasEngine tells whether dir holds an installed engine: the jar and the
// folder of its libraries.
func hasEngine(dir string) bool {
	jar, err := os.Stat(filepath.Join(dir, "DynamoDBLocal.jar"))
	if err != nil || !jar.Mode().IsRegular() {
		return false
	}
	lib, err := os.Stat(filepath.Join(dir, "DynamoDBLocal_lib"))
	return err == nil && lib.IsDir()
}
