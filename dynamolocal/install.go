package dynamolocal

// Installing DynamoDB Local as scripts/dynamodb-local.sh does: AWS's
// emulator ships inside the npm package amplify-dynamodb-simulator, whose
// one tarball `npm pack` fetches (no dependency install, npm's own cache
// and proxy settings); its sha256 is checked, and only package/emulator/ is
// unpacked. The files land in a folder beside the target and are renamed
// into place, so a stopped or failed install leaves nothing half there,
// and two installs at once leave one engine.

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"dynascope/dynamo"
)

// The pinned package, the tarball npm pack writes, and its sha256: the
// same three as in scripts/dynamodb-local.sh (a test holds them equal).
const (
	Package    = "amplify-dynamodb-simulator@2.9.30"
	Tarball    = "amplify-dynamodb-simulator-2.9.30.tgz"
	TarballSHA = "3503ffac19f183407909fecdacf4db51ab1fdad1da7b2f177016670b2d80e4b9"
	// tarballMB is its size, said before it is fetched.
	tarballMB = 57
	// emulatorPrefix is the folder of the tarball that is the engine.
	emulatorPrefix = "package/emulator/"
)

// Ensure returns the folder of an installed DynamoDB Local: found in the
// places, else installed into p.InstallDir() with npm (said on w before
// and after). Java is checked before anything is fetched: without it the
// engine cannot run, and the fetch would be wasted.
func Ensure(ctx context.Context, p Places, w io.Writer) (string, error) {
	if dir, _ := p.Find(); dir != "" {
		return dir, nil
	}
	dir := p.InstallDir()
	if dir == "" {
		return "", &dynamo.UserError{Msg: "DynamoDB Local is not installed, and there is no folder to install it into: set HOME, XDG_CACHE_HOME or " + EnvLocalDir + "."}
	}
	if err := needJava(); err != nil {
		return "", err
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", &dynamo.UserError{Msg: fmt.Sprintf("DynamoDB Local is not installed in %s, and npm, which fetches it (%s), is missing: install npm (apt-get install npm), or set %s to a folder whose dynamodb-local/ holds DynamoDBLocal.jar.", dir, Package, EnvLocalDir), Err: err}
	}
	fmt.Fprintf(w, "DynamoDB Local is not installed: fetching %s (about %d MB, once) with npm pack into %s\n", Package, tarballMB, dir)
	if err := install(ctx, dir, npmPack, TarballSHA); err != nil {
		return "", err
	}
	fmt.Fprintf(w, "installed DynamoDB Local into %s (sha256 checked)\n", dir)
	return dir, nil
}

// needJava says in one sentence that java is missing.
func needJava() error {
	if _, err := exec.LookPath("java"); err != nil {
		return &dynamo.UserError{Msg: "java is not installed; DynamoDB Local needs a Java 17+ runtime: apt-get install default-jre-headless (Debian, Ubuntu), or any JDK or JRE 17+ on the PATH.", Err: err}
	}
	return nil
}

// fetcher writes the tarball into the folder tmp and returns its path.
type fetcher func(ctx context.Context, tmp string) (string, error)

// npmPack fetches the pinned tarball with `npm pack`: npm's own registry,
// proxy and cache settings apply; --prefer-offline takes it from npm's
// cache when it is there (the checksum below is what is trusted).
func npmPack(ctx context.Context, tmp string) (string, error) {
	cmd := exec.CommandContext(ctx, "npm", "pack", "--silent", "--prefer-offline", Package)
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		why := lastLine(stderr.String())
		if why == "" {
			why = err.Error()
		}
		return "", &dynamo.UserError{Msg: fmt.Sprintf("npm pack %s failed (%s); is the npm registry reachable?", Package, why), Err: err}
	}
	return filepath.Join(tmp, Tarball), nil
}

// lastLine is the last non-blank line of s, for a tool's error in one
// sentence.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// install fetches the tarball, checks it against sha and unpacks its
// engine into dir.
func install(ctx context.Context, dir string, fetch fetcher, sha string) error {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return &dynamo.UserError{Msg: fmt.Sprintf("could not create %s for DynamoDB Local: %v.", parent, err), Err: err}
	}
	tmp, err := os.MkdirTemp(parent, ".dynamodb-local-install-")
	if err != nil {
		return &dynamo.UserError{Msg: fmt.Sprintf("could not write into %s for DynamoDB Local: %v.", parent, err), Err: err}
	}
	defer os.RemoveAll(tmp)
	tgz, err := fetch(ctx, tmp)
	if err != nil {
		return err
	}
	if got, err := fileSHA(tgz); err != nil {
		return &dynamo.UserError{Msg: fmt.Sprintf("npm pack wrote no readable %s: %v.", filepath.Base(tgz), err), Err: err}
	} else if got != sha {
		return &dynamo.UserError{Msg: fmt.Sprintf("checksum mismatch for %s: got %s, want %s; nothing was installed.", filepath.Base(tgz), got, sha)}
	}
	engine := filepath.Join(tmp, "engine")
	if err := unpack(tgz, engine); err != nil {
		return &dynamo.UserError{Msg: fmt.Sprintf("could not unpack %s: %v.", filepath.Base(tgz), err), Err: err}
	}
	if !hasEngine(engine) {
		return &dynamo.UserError{Msg: fmt.Sprintf("%s holds no %sDynamoDBLocal.jar and DynamoDBLocal_lib/; nothing was installed.", filepath.Base(tgz), emulatorPrefix)}
	}
	err = os.Rename(engine, dir)
	if err != nil && !hasEngine(dir) {
		// A folder left without an engine (by hand, or an install that
		// was stopped): replace it.
		_ = os.RemoveAll(dir)
		err = os.Rename(engine, dir)
	}
	// A rename that failed because another install got there first
	// leaves one engine, theirs.
	if err != nil && !hasEngine(dir) {
		return &dynamo.UserError{Msg: fmt.Sprintf("could not put DynamoDB Local into %s: %v.", dir, err), Err: err}
	}
	return nil
}

// fileSHA is the hex sha256 of a file.
func fileSHA(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// unpack writes the regular files under package/emulator/ of a gzipped
// tarball into dir, keeping their folders; every other entry (links,
// devices, the rest of the package) is left out.
func unpack(tgz, dir string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		// Cleaned, a name under the prefix stays under it: ../ that would
		// climb out is gone, and so is the prefix.
		name := path.Clean(h.Name)
		if !strings.HasPrefix(name, emulatorPrefix) || h.Typeflag != tar.TypeReg {
			continue
		}
		to := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(name, emulatorPrefix)))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := writeFile(to, tr); err != nil {
			return err
		}
	}
}

// writeFile copies r into a new file.
func writeFile(name string, r io.Reader) error {
	out, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, r); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
