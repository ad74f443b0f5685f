package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"dynascope/config"
	"dynascope/dynamo/dynamotest"
)

// TestScripts runs the CLI scripts of testdata/script: the command line as
// a user types it — help, usage mistakes, and outputs against DynamoDB
// Local — one readable file per topic. In a script:
//
//   - dynascope is this program (TestMain makes the test binary play it);
//   - $DYNASCOPE_TEST_ENDPOINT is DynamoDB Local, and $TABLE a table name of
//     the script's own, removed after it, as is ${PREFIX}Shop, the Shop
//     model of $TESTDATA/workbench/shop.json seeded with --table-prefix;
//   - [dynamodb] says DynamoDB Local is there; without it a script skips,
//     except under CI=true, where it fails;
//   - $BIN is the folder of the dynascope command alone (for a PATH without
//     the machine's tools);
//   - `exits N command args...` runs a command and checks its exit status.
func TestScripts(t *testing.T) {
	t.Parallel()
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv(config.EnvSettings, config.NoConnection)
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".cache"))
			env.Setenv("XDG_STATE_HOME", filepath.Join(env.WorkDir, ".state")) // the journal
			env.Setenv(dynamotest.EnvEndpoint, os.Getenv(dynamotest.EnvEndpoint))
			env.Setenv("CI", os.Getenv("CI"))
			table := dynamotest.UniqueName("script")
			env.Setenv("TABLE", table)
			// A model seeded with --table-prefix $PREFIX lands in $PREFIX<name>.
			env.Setenv("PREFIX", table+"-")
			env.Setenv("TESTDATA", testdata)
			// $BIN is the folder of the dynascope command alone, for a
			// script that runs it with a PATH of its own.
			if p, err := exec.LookPath("dynascope"); err == nil {
				env.Setenv("BIN", filepath.Dir(p))
			}
			env.Defer(func() { deleteTables(table, table+"-Shop") })
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond != "dynamodb" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			if os.Getenv(dynamotest.EnvEndpoint) != "" {
				return true, nil
			}
			if os.Getenv("CI") == "true" {
				return false, fmt.Errorf("%s is not set and CI=true: the CLI scripts need DynamoDB Local (run 'make test')", dynamotest.EnvEndpoint)
			}
			return false, nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits": exits,
		},
	})
}

// exits runs a command and checks its exit status: 0 done, 1 a failure at
// run time, 2 a mistake in the command line (130, stopped by a signal, is
// tested in cli_signal_test.go).
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits STATUS command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %q is not a status", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}
