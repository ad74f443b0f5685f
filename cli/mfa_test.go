package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"dynascope/dynamo/dynamotest"
)

// The MFA profile of these tests: role Reader assumed with the keys of
// profile base and the code of Ann's virtual device.
const (
	ptySourceKey = "AKIASOURCEPROFILE002"
	ptyRole      = "arn:aws:iam::123456789012:role/Reader"
	ptyDevice    = "arn:aws:iam::123456789012:mfa/ann"
	ptyCode      = "314159"
)

// mfaHome writes the AWS config of the MFA profile "dev" into a home of its
// own, the STS stand-in behind AWS_ENDPOINT_URL_STS; it returns the home.
func mfaHome(t *testing.T, sts *dynamotest.STS) string {
	t.Helper()
	home := isolateAWS(t)
	if err := os.WriteFile(filepath.Join(home, "config"), []byte("[profile base]\nregion = us-east-1\n\n[profile dev]\nrole_arn = "+ptyRole+
		"\nsource_profile = base\nmfa_serial = "+ptyDevice+"\nregion = us-east-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "credentials"), []byte("[base]\naws_access_key_id = "+ptySourceKey+
		"\naws_secret_access_key = sourceSecret/0123456789abcdefghijklmnop\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ENDPOINT_URL_STS", sts.URL)
	return home
}

// onTerminal runs a command on a pseudo-terminal of its own (its
// controlling terminal, /dev/tty, and its standard input), stdout and
// stderr apart; the n-th answer is typed once the terminal has shown
// prompt n times. It returns what the terminal showed, stdout, stderr and
// the exit status.
func onTerminal(t *testing.T, prompt string, answers []string, name string, args ...string) (screen, stdout, stderr string, status int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	// The AWS CLI reads an empty AWS_MAX_ATTEMPTS as a number: the tests'
	// empty variables are left out, as unset.
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "AWS_") && strings.HasSuffix(kv, "=") })
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	tty, err := pty.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	var mu sync.Mutex
	var shown bytes.Buffer
	read := make(chan struct{})
	go func() {
		defer close(read)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			mu.Lock()
			shown.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	screenNow := func() string {
		mu.Lock()
		defer mu.Unlock()
		return shown.String()
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for i, answer := range answers {
		deadline := time.Now().Add(30 * time.Second)
		for strings.Count(screenNow(), prompt) <= i {
			if time.Now().After(deadline) {
				_ = cmd.Process.Kill()
				t.Fatalf("no %q on the terminal after 30 s; it shows %q; stderr:\n%s", prompt, screenNow(), errb.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
		if _, err := io.WriteString(tty, answer+"\r"); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("still running after 60 s; the terminal shows %q", screenNow())
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // what the terminal still holds
	return screenNow(), out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

// An MFA profile reaches DynamoDB Local through the STS stand-in after one
// prompt on the terminal, which names the device and the profile and does
// not echo the code; the second run finds the session in the AWS CLI's
// cache and asks nothing.
func TestMFAPromptOnTheTerminal(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	sts := dynamotest.StartSTS(t, ptySourceKey, ptyRole, ptyDevice, ptyCode)
	home := mfaHome(t, sts)
	proxy := dynamotest.StartProxy(t, ep)
	table := dynamotest.Table(t, dynamotest.SDK(t), dynamotest.PKSK())
	args := []string{"--profile", "dev", "--endpoint-url", proxy.URL, "tables", "--table", table, "--output", "json"}
	prompt := "Enter MFA code for " + ptyDevice + " (profile dev assumes " + ptyRole + "): "

	screen, stdout, stderr, status := onTerminal(t, prompt, []string{ptyCode}, "dynascope", args...)
	if status != 0 || !strings.Contains(stdout, `"name": "`+table+`"`) {
		t.Fatalf("first run: status %d, stdout %q, stderr %q, terminal %q", status, stdout, stderr, screen)
	}
	if strings.Count(screen, "Enter MFA code") != 1 || strings.Contains(screen, ptyCode) {
		t.Errorf("the terminal showed %q: want one prompt and no echo of the code", screen)
	}
	calls := sts.Calls()
	if len(calls) != 1 || calls[0].Code != ptyCode || calls[0].Serial != ptyDevice || calls[0].SignedBy != ptySourceKey || calls[0].Granted[0] == "" {
		t.Fatalf("STS got %+v, want one AssumeRole with the code typed, signed by the source profile", calls)
	}
	granted := calls[0].Granted
	lastSigned := func() string {
		c := proxy.Calls()
		if len(c) == 0 {
			return ""
		}
		return c[len(c)-1].Header.Get("Authorization")
	}
	if !strings.Contains(lastSigned(), "Credential="+granted[0]+"/") {
		t.Errorf("DynamoDB Local's requests were not signed with the role's session: %q", lastSigned())
	}
	if _, err := os.Stat(filepath.Join(home, ".aws", "cli", "cache", "131a642f71c3f6c59a6784c38b07b85e80590196.json")); err != nil {
		t.Errorf("the session is not in the AWS CLI's cache: %v", err)
	}

	// The second run: no prompt, no AssumeRole, the same session.
	screen, stdout, stderr, status = onTerminal(t, "", nil, "dynascope", args...)
	if status != 0 || strings.Contains(screen, "MFA") || len(sts.Calls()) != 1 {
		t.Errorf("second run: status %d, terminal %q, %d AssumeRole, stderr %q", status, screen, len(sts.Calls()), stderr)
	}
	if !strings.Contains(lastSigned(), "Credential="+granted[0]+"/") {
		t.Errorf("the second run did not sign with the cached session: %q", lastSigned())
	}
	checkNoSecrets(t, "the MFA runs", screen+stdout+stderr)
}

// A code that is not six digits is asked for again (and not sent);
// without a terminal the
// profile is refused in one sentence naming it, the device and what to do.
func TestMFAPromptRefusals(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	sts := dynamotest.StartSTS(t, ptySourceKey, ptyRole, ptyDevice, ptyCode)
	mfaHome(t, sts)
	table := dynamotest.Table(t, dynamotest.SDK(t), dynamotest.PKSK())
	args := []string{"--profile", "dev", "--endpoint-url", ep, "tables", "--table", table, "--output", "json"}

	// No terminal: setsid gives the command none.
	cmd := exec.Command("setsid", append([]string{"dynascope"}, args...)...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	want := "dynascope: sign in: profile dev assumes role " + ptyRole + " with the MFA device " + ptyDevice +
		", and there is no terminal to ask for its code; run dynascope in a terminal, or any aws command with --profile dev first (its cached session is used).\n"
	if err == nil || errb.String() != want {
		t.Errorf("no terminal: %v\n got %q\nwant %q", err, errb.String(), want)
	}

	screen, stdout, stderr, status := onTerminal(t, "Enter MFA code", []string{"12ab", ptyCode}, "dynascope", args...)
	if status != 0 || !strings.Contains(screen, "An MFA code is the 6 digits the device shows.") || strings.Count(screen, "Enter MFA code") != 2 || stdout == "" {
		t.Errorf("a code of letters, then the code: status %d, terminal %q, stderr %q", status, screen, stderr)
	}
	if calls := sts.Calls(); len(calls) != 1 || calls[0].Code != ptyCode {
		t.Errorf("STS got %+v, want only the six digits", calls)
	}
}

// awsCLI is the AWS CLI's program, found as a user's shell finds it (a
// pyenv shim resolved to the script it runs, which needs no home of
// pyenv's); "" when it is not installed.
func awsCLI(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("aws")
	if err != nil {
		return ""
	}
	if strings.Contains(path, "/shims/") {
		out, err := exec.Command("pyenv", "which", "aws").Output()
		if err != nil {
			return ""
		}
		path = strings.TrimSpace(string(out))
	}
	return path
}

// The session cache is the AWS CLI's own, both ways: a session the CLI
// cached after its prompt is used by dynascope without one, and a session
// dynascope cached is used by the CLI without one.
func TestMFASessionSharedWithTheAWSCLI(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	aws := awsCLI(t)
	if aws == "" {
		t.Skip("the AWS CLI is not installed: the cache shared with it is not checked here (TestMFAPromptOnTheTerminal checks the file's name and content)")
	}
	sts := dynamotest.StartSTS(t, ptySourceKey, ptyRole, ptyDevice, ptyCode)
	home := mfaHome(t, sts)
	cache := filepath.Join(home, ".aws", "cli", "cache", "131a642f71c3f6c59a6784c38b07b85e80590196.json")
	table := dynamotest.Table(t, dynamotest.SDK(t), dynamotest.PKSK())
	cliArgs := []string{"--profile", "dev", "--endpoint-url", ep, "dynamodb", "describe-table", "--table-name", table}
	ours := []string{"--profile", "dev", "--endpoint-url", ep, "tables", "--table", table, "--output", "json"}

	screen, _, stderr, status := onTerminal(t, "Enter MFA code for "+ptyDevice, []string{ptyCode}, aws, cliArgs...)
	if status != 0 || len(sts.Calls()) != 1 {
		t.Fatalf("the AWS CLI: status %d, %d AssumeRole, terminal %q, stderr %q", status, len(sts.Calls()), screen, stderr)
	}
	if _, err := os.Stat(cache); err != nil {
		t.Fatalf("the AWS CLI cached its session elsewhere than dynascope looks: %v", err)
	}
	screen, _, stderr, status = onTerminal(t, "", nil, "dynascope", ours...)
	if status != 0 || strings.Contains(screen, "MFA") || len(sts.Calls()) != 1 {
		t.Errorf("dynascope after the AWS CLI: status %d, %d AssumeRole, terminal %q, stderr %q", status, len(sts.Calls()), screen, stderr)
	}

	if err := os.Remove(cache); err != nil {
		t.Fatal(err)
	}
	if _, _, stderr, status := onTerminal(t, "Enter MFA code", []string{ptyCode}, "dynascope", ours...); status != 0 || len(sts.Calls()) != 2 {
		t.Fatalf("dynascope: status %d, %d AssumeRole, stderr %q", status, len(sts.Calls()), stderr)
	}
	screen, _, stderr, status = onTerminal(t, "", nil, aws, cliArgs...)
	if status != 0 || strings.Contains(screen, "MFA") || len(sts.Calls()) != 2 {
		t.Errorf("the AWS CLI after dynascope: status %d, %d AssumeRole, terminal %q, stderr %q", status, len(sts.Calls()), screen, stderr)
	}
}
