package modelimport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// nodeTimeout bounds a JS module's loading: a module that does more than
// export its definitions (waits on a network, loops) is stopped.
var nodeTimeout = 10 * time.Second

// maxNodeOutput bounds what the loader may print.
const maxNodeOutput = 16 << 20

// loaderJS is the only code dynascope gives node: it imports the module the
// user named (its path is the one argument), takes its default export (or
// else its named exports, which ESM lists by name), and prints it as JSON. Functions become
// {"$function": name, "source": text} so that a key built by an arrow
// function over a template string can be read, and a type given as String
// or Number keeps its name; a reference back up the tree is dropped.
const loaderJS = `
const {pathToFileURL} = require('node:url');
function ser(x, up, depth) {
  if (x === null || x === undefined) return null;
  switch (typeof x) {
  case 'string': case 'boolean': return x;
  case 'number': return isFinite(x) ? x : String(x);
  case 'bigint': return String(x);
  case 'symbol': return null;
  case 'function': return {$function: x.name || '', source: Function.prototype.toString.call(x)};
  }
  if (depth > 40 || up.includes(x)) return null;
  if (x instanceof RegExp) return {$regexp: String(x)};
  if (x instanceof Date) return isNaN(x) ? null : x.toISOString();
  up.push(x);
  let out;
  if (Array.isArray(x)) {
    out = x.map(e => ser(e, up, depth + 1));
  } else {
    out = {};
    for (const k of Object.keys(x)) {
      let v;
      try { v = x[k]; } catch (e) { continue; }
      if (v === undefined) continue;
      if (v !== null && typeof v === 'object' && typeof v.send === 'function') continue; // a DynamoDB client, never a definition
      out[k] = ser(v, up, depth + 1);
    }
  }
  up.pop();
  return out;
}
import(pathToFileURL(process.argv[1]).href).then(m => {
  const names = Object.keys(m).filter(k => k !== 'default' && k !== 'module.exports');
  const v = m.default !== undefined ? m.default : Object.fromEntries(names.map(k => [k, m[k]]));
  process.stdout.write(JSON.stringify(ser(v, [], 0)));
}, e => {
  process.stderr.write(String(e && e.message || e).split('\n')[0]);
  process.exit(3);
});
`

// loadJS runs node on the module at path and returns what it exports, as
// JSON. node runs with no shell, the file as its one argument, an
// environment of nothing but a bare PATH and HOME (no credentials, no proxy,
// no NODE_OPTIONS), in the file's folder, for at most nodeTimeout.
func loadJS(ctx context.Context, path string) ([]byte, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("%s is a JavaScript module, and loading one needs node on the PATH, which has none; install Node.js, or export the definitions as JSON", path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, nodeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "-e", loaderJS, abs)
	cmd.Dir = filepath.Dir(abs)
	cmd.Env = []string{"PATH=" + filepath.Dir(node), "HOME=" + os.TempDir(), "NO_COLOR=1", "NODE_NO_WARNINGS=1"}
	cmd.Stdin = nil
	var out, errOut limitedBuffer
	out.max, errOut.max = maxNodeOutput, 4096
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return nil, fmt.Errorf("node did not finish loading %s within %s; a module that only exports its definitions loads at once", path, nodeTimeout)
	}
	if out.over {
		return nil, fmt.Errorf("node printed more than %d MiB for %s; export the definitions only", maxNodeOutput>>20, path)
	}
	if err != nil {
		msg := strings.TrimSpace(errOut.String())
		var ee *exec.ExitError
		if !errors.As(err, &ee) || msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("node could not load %s: %s", path, strings.TrimRight(msg, "."))
	}
	return out.Bytes(), nil
}

// limitedBuffer keeps at most max bytes and remembers it was given more.
type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		b.over = true
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Buffer.Write(p)
}
