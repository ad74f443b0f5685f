package dynamolocal

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"dynascope/dynamo"
)

// Engine is a DynamoDB Local process this program started and owns.
type Engine struct {
	Endpoint string
	cmd      *exec.Cmd
	done     chan struct{}
}

// Start starts DynamoDB Local from dir on a free loopback port,
// in memory and with -sharedDb (without it, tables are kept apart per access
// key and region), and waits until it answers ListTables.
func Start(ctx context.Context, dir string) (*Engine, error) {
	if err := needJava(); err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, &dynamo.UserError{Msg: "could not find a free loopback port for DynamoDB Local.", Err: err}
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	cmd := exec.Command("java", "-Djava.library.path="+filepath.Join(dir, "DynamoDBLocal_lib"),
		"-jar", filepath.Join(dir, "DynamoDBLocal.jar"), "-inMemory", "-sharedDb", "-port", strconv.Itoa(port))
	// Its own process group: the terminal's signals belong to the UI, and
	// Stop ends the whole group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// It writes a metadata file into its working directory; keep it out of
	// the user's.
	cmd.Dir = os.TempDir()
	if err := cmd.Start(); err != nil {
		return nil, &dynamo.UserError{Msg: "could not start DynamoDB Local: " + err.Error(), Err: err}
	}
	e := &Engine{Endpoint: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(e.done) }()

	client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: e.Endpoint, Region: "us-east-1", Timeout: 2 * time.Second, MaxAttempts: 1})
	if err != nil {
		e.Stop()
		return nil, err
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := client.ListTables(ctx); err == nil {
			return e, nil
		}
		select {
		case <-e.done:
			return nil, &dynamo.UserError{Msg: "DynamoDB Local exited during start-up; is Java 17 or newer installed?"}
		case <-ctx.Done():
			e.Stop()
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			e.Stop()
			return nil, &dynamo.UserError{Msg: fmt.Sprintf("DynamoDB Local did not answer on port %d within 60 s.", port)}
		}
	}
}

// Stop ends the engine and waits for it to exit.
func (e *Engine) Stop() {
	if e == nil || e.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-e.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-e.done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)
		<-e.done
	}
}
