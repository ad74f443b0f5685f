package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
)

// exploreOps are the only operations exploring may send: the least-privilege
// policy in the README allows exactly these. ExecuteStatement is among them
// for PartiQL SELECT only: dynamo.RunPartiQL refuses every other statement
// (TestPartiQLAgainstDynamoDBLocal, FuzzIsSelectAgreesWithProxy), and the
// recording proxy counts any other statement as a write.
var exploreOps = []string{"ListTables", "DescribeTable", "Query", "GetItem", "Scan", "ExecuteStatement"}

// streamOps are the DynamoDB Streams reads tail sends (dynamo.StreamAPI):
// the README's policy allows them on the table's stream.
var streamOps = []string{"DescribeStream", "GetShardIterator", "GetRecords"}

// commandTree is the command tree as a run executes it: with cobra's help
// command, which it adds on execution.
func commandTree() *cobra.Command {
	root := newRootCmd(Build{})
	root.InitDefaultHelpCmd()
	return root
}

// cmdName names a command by its path without the program: "" is the UI,
// "patterns run" a subcommand.
func cmdName(c *cobra.Command) string {
	return strings.TrimSpace(strings.TrimPrefix(c.CommandPath(), c.Root().Name()))
}

// commandFlags returns every command of the tree that a run can give
// (the UI, and each command without subcommands), each with the flags it
// takes: its own, and the persistent ones it inherits. A command with
// subcommands is listed only with flags of its own that it does not pass
// down (those it passes down are counted on its subcommands). Read from
// newRootCmd's tree, so that a new command or flag is listed here.
func commandFlags() map[string][]string {
	sets := map[string][]string{}
	for c := range walk(commandTree()) {
		var names []string
		add := func(f *pflag.Flag) { names = append(names, f.Name) }
		if c.HasSubCommands() && c.HasParent() {
			c.LocalNonPersistentFlags().VisitAll(add)
			if len(names) == 0 {
				continue
			}
		} else {
			c.LocalFlags().VisitAll(add)
			c.InheritedFlags().VisitAll(add)
		}
		sets[cmdName(c)] = names
	}
	return sets
}

// completions returns the shell completions the tree offers beyond fixed
// lists of its own: "--NAME" for each flag with a completion function (by
// name: a flag name completes the same way on every command), "CMD NAME"
// for each command whose positional argument is completed by a function.
func completions() []string {
	var out []string
	for c := range walk(commandTree()) {
		visit := func(f *pflag.Flag) {
			if _, ok := c.GetFlagCompletionFunc(f.Name); ok && !slices.Contains(out, "--"+f.Name) {
				out = append(out, "--"+f.Name)
			}
		}
		c.LocalFlags().VisitAll(visit)
		c.InheritedFlags().VisitAll(visit)
		if c.ValidArgsFunction != nil {
			out = append(out, cmdName(c)+" NAME")
		}
	}
	sort.Strings(out)
	return out
}

// runCoverage is what a set of runs gives: the flags of each command (as
// commandFlags names the commands), the positional arguments of each, and
// the completions asked for (as completions names them).
type runCoverage struct {
	flags       map[string]map[string]bool
	positionals map[string][]string
	completed   map[string]bool
}

// coverage finds each run's command as cobra does, connection flags before
// the command included.
func coverage(t *testing.T, runs [][]string) runCoverage {
	t.Helper()
	root := commandTree()
	cov := runCoverage{flags: map[string]map[string]bool{}, positionals: map[string][]string{}, completed: map[string]bool{}}
	for _, args := range runs {
		if len(args) > 1 && args[0] == cobra.ShellCompRequestCmd {
			toks := args[1:]
			c, _, err := root.Find(toks[:len(toks)-1])
			if err != nil {
				t.Fatalf("%v: %v", args, err)
			}
			last := toks[len(toks)-1]
			prev := ""
			if len(toks) > 1 {
				prev = toks[len(toks)-2]
			}
			if name, ok := strings.CutPrefix(last, "--"); ok && strings.Contains(name, "=") {
				name, _, _ = strings.Cut(name, "=")
				cov.completed["--"+name] = true
			} else if f := c.Flag(strings.TrimPrefix(prev, "--")); strings.HasPrefix(prev, "--") && f != nil && f.NoOptDefVal == "" {
				cov.completed["--"+f.Name] = true
			} else {
				cov.completed[cmdName(c)+" NAME"] = true
			}
			continue
		}
		c, rest, err := root.Find(args)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		name := cmdName(c)
		if cov.flags[name] == nil {
			cov.flags[name] = map[string]bool{}
		}
		cov.positionals[name] = append(cov.positionals[name], rest...)
		for _, a := range args {
			if long, ok := strings.CutPrefix(a, "--"); ok {
				long, _, _ = strings.Cut(long, "=")
				cov.flags[name][long] = true
			} else if short, ok := strings.CutPrefix(a, "-"); ok && len(short) == 1 {
				if f := c.Flags().ShorthandLookup(short); f != nil {
					cov.flags[name][f.Name] = true
				}
			}
		}
	}
	return cov
}

// Every command but seed and demo, with every flag it takes and every shell
// completion that may ask DynamoDB, through a recording proxy: nothing but
// reads reaches DynamoDB. The commands and flags are read from newRootCmd's
// tree; a command, flag or completion no run gives fails the test, so a new
// one must be added here.
func TestCLINeverWrites(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	p := dynamotest.StartProxy(t, ep)
	// A named connection and a profile of the test's own, for the flags
	// that select them.
	dir := t.TempDir()
	settings := filepath.Join(dir, "config.yaml")
	awsConfig := filepath.Join(dir, "aws-config")
	if err := os.WriteFile(settings, []byte("connections:\n  nw:\n    endpoint: "+p.URL+"\n    region: us-east-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(awsConfig, []byte("[profile nowrites]\nregion = us-east-1\naws_access_key_id = local\naws_secret_access_key = local\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(config.EnvSettings, settings)
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	writeJournalEntry(t, p.URL, table)
	t.Setenv("AWS_CONFIG_FILE", awsConfig)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "none"))
	patternsFile := "dynascope.yaml"
	conn := []string{"--endpoint-url", p.URL, "--table", table}
	streamed, _ := tailedTable(t) // the demo table has no stream: demo gives its own one
	tc := []string{"--endpoint-url", p.URL, "--table", streamed}
	// The connection flags, as one more run of each command.
	// The global flags too: --debug's middleware sees every request, and
	// must send none of its own.
	named := []string{"--connection", "nw", "--profile", "nowrites", "--region", "us-east-1", "--timeout", "20s", "--max-attempts", "2", "--table", table,
		"--debug=body", "--color", "never", "--cli-connect-timeout", "5", "--cli-read-timeout", "10"}
	keysFile := filepath.Join(dir, "keys.jsonl") // a bulk change's --keys
	if err := os.WriteFile(keysFile, []byte(`{"PK":"CUST#42","SK":"PROFILE"}`+"\n"+`{"PK":{"S":"CUST#42"},"SK":{"S":"NONE"}}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	leftKeysFile := filepath.Join(dir, "left-keys.jsonl") // delete --continues 3: the item entry 3 left
	if err := os.WriteFile(leftKeysFile, []byte(`{"PK":"CUST#42","SK":"ORDER#2025-03-01#A17"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	undoKeysFile := filepath.Join(dir, "undo-keys.jsonl") // undo --keys: one item of the bulk entry 2
	if err := os.WriteFile(undoKeysFile, []byte(`{"PK":"CUST#42","SK":"PROFILE"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	q := append([]string{"query"}, conn...)
	// A stopped PartiQL run, for --next-token to go on from.
	stoppedRun, _, err := cli(t, "partiql", `SELECT PK FROM "`+table+`"`, "--endpoint-url", p.URL, "--max-rcu", "1")
	if err != nil {
		t.Fatal(err)
	}
	runFile := filepath.Join(dir, "run.json")
	if err := os.WriteFile(runFile, []byte(stoppedRun), 0o644); err != nil {
		t.Fatal(err)
	}
	g := append([]string{"groups"}, conn...)
	// tail's table has no index: a model of its keys alone, for --models.
	tailModels := filepath.Join(dir, "orders.electrodb.json")
	orderModel := `{"model": {"entity": "Order", "version": "1", "service": "shop"},
	  "attributes": {"customerId": {"type": "number"}, "orderDate": {"type": "string"}, "orderId": {"type": "string"}},
	  "indexes": {"order": {"pk": {"field": "PK", "composite": ["customerId"], "template": "CUST#${customerId}", "casing": "none"},
	                        "sk": {"field": "SK", "composite": ["orderDate", "orderId"], "template": "ORDER#${orderDate}#${orderId}", "casing": "none"}}}}`
	if err := os.WriteFile(tailModels, []byte(orderModel), 0o644); err != nil {
		t.Fatal(err)
	}
	tailPatterns := filepath.Join(dir, "tail.yaml")
	if err := os.WriteFile(tailPatterns, []byte("entities:\n  - name: Order\n    keys: {PK: \"CUST#{customerId}\", SK: \"ORDER#{orderDate}#{orderId}\"}\n    params: {customerId: number, orderDate: date, orderId: text}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// NextTokens as the AWS CLI prints them: inside CUST#7's orders, and a
	// scan's from CUST#42's profile.
	startToken := dynamo.Position{Key: dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "CUST#7"}, "SK": &types.AttributeValueMemberS{Value: "ORDER#2024-01-01#B1001"}}}.Token()
	scanToken := dynamo.Position{Key: dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "CUST#42"}, "SK": &types.AttributeValueMemberS{Value: "PROFILE"}}}.Token()
	get := append([]string{"get"}, conn...)
	l := append([]string{"layout"}, conn...)
	runs := [][]string{
		{"help"},
		slices.Concat([]string{"help", "query"}, named, conn[:2]),
		{"--version"},
		{"version"},
		slices.Concat([]string{"version"}, named, conn[:2]),
		{"config", "path"},
		slices.Concat([]string{"config", "path"}, named, conn[:2]),
		slices.Concat([]string{"config", "show"}, named, conn[:2]),
		{"completion", "bash"},
		{"completion", "zsh"},
		{"completion", "fish"},
		slices.Concat([]string{"completion", "powershell"}, named, conn[:2]),
		{"tables", "--endpoint-url", p.URL},
		{"tables", "--endpoint-url", p.URL, "--output", "json"},
		append([]string{"tables", "--output", "json"}, conn...),
		append([]string{"tables"}, named...),
		// Connection flags before the command, as the AWS CLI takes them.
		slices.Concat(conn, []string{"query", "--pk", "CUST#42"}),
		slices.Concat(q, []string{"--pk", "CUST#42"}),
		slices.Concat([]string{"query", "--pk", "CUST#42"}, named),
		slices.Concat(q, []string{"--pk", "CUST#42", "--sk-begins-with", "ORDER#", "--reverse", "--limit", "1"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--sk-eq", "PROFILE", "--consistent"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--sk-lt", "ORDER$"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--sk-le", "ORDER$"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--sk-gt", "ORDER#"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--sk-ge", "ORDER$"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--sk-between", "ORDER#", "ORDER$"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--limit", "1", "--all-pages", "--output", "jsonl"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--output", "table", "--dynamodb-json"}),
		slices.Concat(q, []string{"--pk", "WH#1", "--index", "GSI1", "--all-pages"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--all-pages", "--output", "csv"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--all-pages", "--output", "ddbjson-batch"}),
		slices.Concat(q, []string{"--pk", "no-such-partition", "--max-attempts", "2", "--timeout", "5s"}),
		slices.Concat(q, []string{"--pk", "CUST#7", "--filter", `status = "OPEN" AND total > 1000`, "--project", "total,status"}),
		slices.Concat([]string{"scan"}, conn, []string{"--yes"}),
		slices.Concat([]string{"scan"}, named, []string{"--max-rcu", "5", "--segments", "3", "--limit", "50", "--consistent", "--filter", "total > 1000", "--project", "total", "--output", "table", "--dynamodb-json"}),
		slices.Concat([]string{"scan"}, conn, []string{"--index", "GSI1", "--yes", "--output", "jsonl"}),
		slices.Concat([]string{"partiql", `SELECT * FROM "` + table + `" WHERE PK = 'CUST#42'`}, conn),
		slices.Concat([]string{"partiql", `SELECT * FROM "` + table + `" WHERE total > 1000`}, named, []string{"--max-rcu", "5", "--consistent", "--output", "table", "--dynamodb-json"}),
		// --max-rcu above the demo's 451 RCU: under the bound it announces
		// DynamoDB Local's pages, without ConsumedCapacity, stop it short.
		slices.Concat([]string{"partiql", `SELECT PK FROM "` + table + `"`}, conn, []string{"--yes", "--max-rcu", "1000", "--output", "jsonl"}),
		slices.Concat([]string{"partiql", `SELECT PK FROM "` + table + `"`}, conn, []string{"--max-rcu", "1", "--next-token", "@" + runFile}),
		slices.Concat([]string{"scan"}, conn, []string{"--max-rcu", "2", "--segments", "2", "--resume", `{"1": {}}`}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--all-pages", "--max-rcu", "2", "--start-key", `{"PK": "CUST#42", "SK": "ORDER#"}`}),
		// The AWS CLI's paging flags (issue 38.6): a cut page, its token
		// pasted back, and the go-on line as the AWS CLI's command.
		slices.Concat(q, []string{"--pk", "CUST#7", "--max-items", "3", "--page-size", "2", "--go-on", "aws"}),
		slices.Concat(q, []string{"--pk", "CUST#7", "--max-items", "2", "--starting-token", startToken}),
		slices.Concat([]string{"scan"}, conn, []string{"--yes", "--max-items", "3", "--page-size", "2", "--go-on", "aws"}),
		slices.Concat([]string{"scan"}, conn, []string{"--yes", "--max-items", "2", "--starting-token", scanToken}),
		[]string{cobra.ShellCompRequestCmd, "query", "--go-on", ""},
		slices.Concat(get, []string{"--pk", "CUST#42", "--sk", "PROFILE"}),
		slices.Concat([]string{"get", "--pk", "CUST#42", "--sk", "PROFILE"}, named),
		slices.Concat(get, []string{"--pk", "CUST#42", "--sk", "PROFILE", "--consistent", "--output", "table", "--dynamodb-json"}),
		slices.Concat(get, []string{"--pk", "CUST#42", "--sk", "NOT-THERE"}),
		slices.Concat(g, []string{"--pk", "CUST#42"}),
		slices.Concat(g, []string{"--pk", "CUST#42", "--patterns", patternsFile}),
		slices.Concat([]string{"groups", "--pk", "CUST#42"}, named),
		slices.Concat(g, []string{"--pk", "CUST#42", "--count", "--consistent"}),
		slices.Concat(g, []string{"--pk", "CUST#42", "--count", "--max-rcu", "50"}),
		slices.Concat(g, []string{"--pk", "CUST#42", "--reverse", "--delimiter", "#", "--output", "table"}),
		slices.Concat(g, []string{"--pk", "WH#1", "--index", "GSI1", "--count"}),
		slices.Concat(g, []string{"--pk", "CUST#7", "--max-requests", "3"}),
		slices.Concat(g, []string{"--pk", "CUST#42", "--by", "attribute:status", "--consistent"}),
		slices.Concat(g, []string{"--pk", "WH#1", "--index", "GSI1", "--by", "attribute:type", "--output", "table"}),
		slices.Concat([]string{"groups", "--pk", "CUST#42", "--by", "sk"}, named),
		// The declared entities: the patterns file's, or the models'.
		slices.Concat(g, []string{"--pk", "ORDER#A17", "--patterns", patternsFile}),
		slices.Concat(g, []string{"--pk", "ORDER#A17", "--models", "modelimport/testdata/shop.electrodb.json"}),
		slices.Concat([]string{"item"}, conn, []string{"--pk", "ORDER#A17", "--sk", "ITEM#1", "--patterns", patternsFile, "--models", "modelimport/testdata/shop.onetable.json"}),
		l,
		append([]string{"layout"}, named...),
		// tail reads a table's stream.
		slices.Concat([]string{"tail"}, tc, []string{"--from", "trim-horizon", "--max-records", "3", "--output", "jsonl"}),
		slices.Concat([]string{"tail"}, named, tc[2:], []string{"--from", "trim-horizon", "--pk", "CUST#42", "--entity", "ORDER", "--delimiter", "#", "--max-records", "1", "--for", "30s", "--output", "text"}),
		slices.Concat([]string{"tail"}, tc, []string{"--from", "trim-horizon", "--max-records", "1", "--models", tailModels}),
		slices.Concat([]string{"tail"}, tc, []string{"--from", "trim-horizon", "--max-records", "1", "--patterns", tailPatterns}),
		// item and index try read, and never create or change an index.
		slices.Concat([]string{"item"}, conn, []string{"--pk", "CUST#42", "--sk", "ORDER#2025-03-01#A17"}),
		slices.Concat([]string{"item"}, conn, []string{"--pk", "CUST#42", "--sk", "ORDER#2025-03-01#A17", "--patterns", patternsFile}),
		slices.Concat([]string{"item", "--pk", "CUST#42", "--sk", "PROFILE", "--consistent", "--output", "table"}, named),
		slices.Concat([]string{"index", "try"}, conn, []string{"--pk-attr", "status", "--sk-attr", "SK", "--projection", "INCLUDE:total", "--max-items", "200", "--max-rcu", "5", "--patterns", patternsFile, "--output", "table"}),
		slices.Concat([]string{"index", "try", "--pk-attr", "GSI1PK"}, named, []string{"--max-items", "50"}),
	}
	// layout with each of its own flags: read from the tree, so that a new
	// one is run too (values by the flag's meaning).
	sets := commandFlags()
	layoutValues := map[string]string{"max-items": "50", "max-rcu": "20", "segments": "2", "output": "table", "index": "GSI1",
		"item-sizes": "true", "largest": "3", "index-map": "true", "debug": "true", "workbench-out": filepath.Join(dir, "model.json"), "query": "@",
		"patterns": patternsFile, "models": "modelimport/testdata/shop.electrodb.json"}
	for _, f := range sets["layout"] {
		if slices.Contains(named, "--"+f) || slices.Contains(conn, "--"+f) {
			continue
		}
		v, ok := layoutValues[f]
		if !ok {
			t.Errorf("layout --%s is new: give it a value in layoutValues", f)
			continue
		}
		runs = append(runs, slices.Concat(l, []string{"--" + f + "=" + v}))
	}
	// entities import reads a model file and writes only the patterns
	// file (a copy here), never the table.
	entitiesFile := filepath.Join(dir, "entities.yaml")
	if err := os.WriteFile(entitiesFile, []byte("table: App\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs = append(runs,
		slices.Concat([]string{"entities", "import", "modelimport/testdata/shop.onetable.json"}, named, conn[:2]),
		[]string{"entities", "import", "modelimport/testdata/shop.electrodb.json", "--write", "--patterns", entitiesFile},
		[]string{"patterns", "list", "--patterns", patternsFile, "--output", "json"},
		slices.Concat([]string{"patterns", "list"}, named, conn[:2]),
		slices.Concat([]string{"patterns", "run", "latest order", "--param", "customerId=42", "--patterns", patternsFile}, conn),
		slices.Concat([]string{"patterns", "run", "customer with orders", "--output", "jsonl", "--dynamodb-json"}, conn),
		slices.Concat([]string{"patterns", "run", "latest order", "--param", "customerId=42"}, named),
		slices.Concat([]string{"patterns", "run", "customer with orders", "--limit", "2", "--start-key", `{"PK": "CUST#42", "SK": "ORDER#"}`}, conn),
		slices.Concat([]string{"patterns", "check", "--output", "json", "--patterns", patternsFile}, conn),
		slices.Concat([]string{"patterns", "check"}, named),
		// --models: the entities from a model file, read as data.
		slices.Concat([]string{"patterns", "run", "latest order", "--param", "customerId=42", "--models", "modelimport/testdata/shop.onetable.json"}, conn),
		slices.Concat([]string{"patterns", "check", "--models", "modelimport/testdata/shop.electrodb.json"}, conn),
		slices.Concat([]string{"patterns", "show", "latest order", "--lang", "cli", "--models", "modelimport/testdata/shop.electrodb.json"}, conn),
		[]string{"patterns", "list", "--models", "modelimport/testdata/shop.electrodb.json"},
		slices.Concat([]string{"patterns", "show", "latest order", "--lang", "go", "--param", "customerId=42", "--patterns", patternsFile}, conn),
		slices.Concat([]string{"patterns", "show", "latest order"}, named),
		// check samples the whole demo table for drift (its file's
		// entities); explain reads the keys beside one it builds.
		slices.Concat([]string{"check", "--output", "json", "--patterns", patternsFile, "--max-items", "30000", "--max-rcu", "500"}, conn),
		slices.Concat([]string{"check", "--output", "junit"}, named),
		slices.Concat([]string{"check", "--output", "github"}, conn),
		slices.Concat([]string{"explain", "--pk", "CUST#42", "--sk", "ORDER|2025-03-01|A17", "--output", "json"}, conn),
		slices.Concat([]string{"explain", "--entity", "Order", "--param", "customerId=42", "--param", "orderDate=2025-03-01", "--param", "orderId=A17", "--patterns", patternsFile}, conn),
		slices.Concat([]string{"explain", "--pk", "WH#1", "--index", "GSI1"}, named),
		slices.Concat([]string{"explain", "--entity", "Order", "--param", "customerId=42", "--param", "orderDate=2025-03-01", "--param", "orderId=A17", "--models", "modelimport/testdata/shop.onetable.json"}, conn),
		// Shell completion: the names it asks DynamoDB for (ListTables,
		// the key schema) and those it reads from files.
		slices.Concat([]string{cobra.ShellCompRequestCmd}, conn[:2], []string{"query", "--table", ""}),
		slices.Concat([]string{cobra.ShellCompRequestCmd, "query"}, conn, []string{"--index", ""}),
		[]string{cobra.ShellCompRequestCmd, "--connection", ""},
		[]string{cobra.ShellCompRequestCmd, "--color", ""},
		[]string{cobra.ShellCompRequestCmd, "query", "--output="},
		[]string{cobra.ShellCompRequestCmd, "seed", "--format", ""},
		[]string{cobra.ShellCompRequestCmd, "patterns", "show", "--lang", ""},
		[]string{cobra.ShellCompRequestCmd, "help", "q"},
		[]string{cobra.ShellCompRequestCmd, "patterns", "run", "--patterns", patternsFile, "l"},
		[]string{cobra.ShellCompRequestCmd, "patterns", "show", "--patterns", patternsFile, "l"},
		[]string{cobra.ShellCompRequestCmd, "update", "--output", ""},
		[]string{cobra.ShellCompRequestCmd, "tail", "--from", ""},
		[]string{cobra.ShellCompRequestCmd, "index", "try", "--projection", ""},
		[]string{cobra.ShellCompRequestCmd, "groups", "--by", "attribute:"},
		// The write commands without --allow-writes: --dry-run reads the
		// item and prints the plan; journal reads a file; undo plans the
		// reverse of the entry writeJournalEntry left.
		slices.Concat([]string{"update", "--pk", "CUST#42", "--sk", "PROFILE", "--set", "name=S:Bo", "--remove", "name", "--set", "x=N:1", "--dry-run", "--output", "json"}, conn),
		slices.Concat([]string{"update", "--pk", "CUST#42", "--sk", "PROFILE", "--set", "name=S:Bo", "--dry-run"}, named),
		slices.Concat([]string{"update", "--pk", "CUST#42", "--sk", "PROFILE", "--set", "SK=S:MOVED", "--dry-run"}, conn),
		slices.Concat([]string{"put", "--pk", "CUST#42", "--sk", "NEW", "--set", "name=S:Bo", "--dry-run", "--output", "text"}, conn),
		slices.Concat([]string{"put", "--item", `{"PK":{"S":"CUST#42"},"SK":{"S":"NEW"}}`, "--dry-run"}, named),
		slices.Concat([]string{"delete", "--pk", "CUST#42", "--sk", "PROFILE", "--dry-run", "--output", "json"}, conn),
		slices.Concat([]string{"delete", "--pk", "CUST#42", "--sk", "PROFILE", "--dry-run"}, named),
		// Bulk changes without --allow-writes: the preview reads the
		// selection and plans each item; --dry-run with --yes previews too.
		slices.Concat([]string{"update", "--pk", "CUST#42", "--sk-begins-with", "ORDER#", "--set", "status=S:X", "--output", "json"}, conn),
		slices.Concat([]string{"update", "--pk", "CUST#42", "--sk-eq", "PROFILE", "--remove", "name"}, named),
		slices.Concat([]string{"update", "--pk", "CUST#42", "--sk-lt", "Z", "--set", "x=N:1", "--yes", "--dry-run"}, conn),
		slices.Concat([]string{"update", "--pk", "CUST#42", "--sk-le", "Z", "--set", "x=N:1", "--max-wcu-per-second", "50"}, conn),
		slices.Concat([]string{"update", "--pk", "CUST#42", "--sk-gt", "A", "--set", "x=N:1"}, conn),
		slices.Concat([]string{"update", "--pk", "CUST#42", "--sk-ge", "A", "--set", "x=N:1"}, conn),
		slices.Concat([]string{"update", "--pk", "CUST#42", "--sk-between", "A", "Z", "--set", "x=N:1"}, conn),
		slices.Concat([]string{"update", "--pk", "CUST#42", "--entity", "ORDER", "--set", "x=N:1"}, conn),
		slices.Concat([]string{"delete", "--pk", "CUST#42", "--entity", "ORDER", "--output", "json"}, conn),
		// --entity of a declared entity: the patterns file's, or the models'.
		slices.Concat([]string{"update", "--pk", "CUST#42", "--entity", "Order", "--set", "x=N:1", "--patterns", patternsFile}, conn),
		slices.Concat([]string{"update", "--pk", "ORDER#A17", "--entity", "Shipment", "--set", "x=N:1", "--models", "modelimport/testdata/shop.onetable.json"}, conn),
		slices.Concat([]string{"delete", "--pk", "PRODUCT#SKU-1025", "--entity", "ProductVersion", "--patterns", patternsFile, "--output", "json"}, conn),
		slices.Concat([]string{"delete", "--pk", "ORDER#A17", "--entity", "Shipment", "--models", "modelimport/testdata/shop.electrodb.json"}, conn),
		slices.Concat([]string{"delete", "--pk", "CUST#42", "--sk-begins-with", "ORDER#", "--yes", "--dry-run"}, conn),
		slices.Concat([]string{"delete", "--pk", "CUST#42", "--sk-eq", "PROFILE"}, conn),
		slices.Concat([]string{"delete", "--pk", "CUST#42", "--sk-lt", "Z"}, conn),
		slices.Concat([]string{"delete", "--pk", "CUST#42", "--sk-le", "Z", "--max-wcu-per-second", "50"}, conn),
		slices.Concat([]string{"delete", "--pk", "CUST#42", "--sk-gt", "A"}, conn),
		slices.Concat([]string{"delete", "--pk", "CUST#42", "--sk-ge", "A"}, conn),
		slices.Concat([]string{"delete", "--pk", "CUST#42", "--sk-between", "A", "Z"}, named),
		slices.Concat([]string{"update", "--index", "GSI1", "--pk", "WH#1", "--set", "x=N:1"}, conn),
		slices.Concat([]string{"update", "--pk", "CUST#42", "--filter", `status = "OPEN"`, "--rename", "note=remark", "--overwrite", "--set-default", "tier=S:basic", "--output", "json"}, conn),
		slices.Concat([]string{"update", "--keys", keysFile, "--set", "x=N:1"}, conn),
		slices.Concat([]string{"update", "--scan", "--filter", `status = "OPEN"`, "--set", "x=N:1", "--output", "json"}, conn),
		slices.Concat([]string{"delete", "--scan", "--yes", "--dry-run"}, conn),
		slices.Concat([]string{"delete", "--index", "GSI1", "--pk", "WH#1", "--filter", "attribute_exists(PK)"}, conn),
		slices.Concat([]string{"delete", "--keys", keysFile, "--output", "json"}, named),
		slices.Concat([]string{"delete", "--keys", leftKeysFile, "--continues", "3"}, conn),
		slices.Concat([]string{"update", "--keys", leftKeysFile, "--continues", "3", "--set", "x=N:1", "--output", "json"}, conn),
		slices.Concat([]string{"undo", "--entry", "3", "--chain", "--dry-run"}, conn),
		[]string{"journal", "--output", "json"},
		slices.Concat([]string{"journal"}, named, conn[:2]),
		slices.Concat([]string{"undo", "--entry", "1", "--dry-run", "--output", "json"}, conn),
		slices.Concat([]string{"undo", "--entry", "2", "--keys", undoKeysFile, "--max-wcu-per-second", "50", "--dry-run", "--output", "json"}, conn),
		slices.Concat([]string{"undo", "--dry-run"}, []string{"--connection", "nw", "--profile", "nowrites", "--region", "us-east-1", "--timeout", "20s", "--max-attempts", "2", "--table", table,
			"--debug=body", "--color", "never", "--cli-connect-timeout", "5", "--cli-read-timeout", "10"}),
	)
	for _, args := range runs {
		out, _, err := cli(t, args...)
		if err != nil || out == "" {
			t.Errorf("%v: %v, printed %q", args, err, out)
		}
	}
	// check with the application's models: the shop models declare fewer
	// entities than the demo holds, so drift (exit 3) is its right answer;
	// it reads its announced sample and writes nothing.
	checkModels := slices.Concat([]string{"check", "--models", "modelimport/testdata/shop.electrodb.json", "--max-rcu", "5"}, conn)
	if out, _, err := cli(t, checkModels...); exitCode(false, err) != 3 || out == "" {
		t.Errorf("%v: %v (exit %d), printed %q; want the drift's exit 3", checkModels, err, exitCode(false, err), out)
	}
	runs = append(runs, checkModels)
	// --query, once a command: the document layer reads what a command
	// printed as JSON and sends nothing of its own; a command without JSON
	// output refuses it before any request.
	tree := commandTree()
	var noJSON [][]string
	withQuery := map[string]bool{}
	for _, args := range slices.Clone(runs) {
		c, _, err := tree.Find(args)
		if err != nil || args[0] == cobra.ShellCompRequestCmd || withQuery[cmdName(c)] || cmdName(c) == "" {
			continue // the UI: listed as known below
		}
		if ev := outputEnum(c); ev == nil || !ev.allows("json") {
			noJSON = append(noJSON, slices.Concat(args, []string{"--query", "@"}))
			withQuery[cmdName(c)] = true
			continue
		}
		queried := slices.Concat(args, []string{"--output", "json", "--query", "@"})
		if out, _, err := cli(t, queried...); err == nil && out != "" {
			runs = append(runs, queried)
			withQuery[cmdName(c)] = true
		}
	}
	// The write commands without --allow-writes and without --dry-run:
	// refused before anything is sent.
	refused := [][]string{
		slices.Concat([]string{"update", "--pk", "CUST#42", "--sk", "PROFILE", "--set", "name=S:Bo"}, conn),
		slices.Concat([]string{"update", "--pk", "CUST#42", "--sk", "PROFILE", "--set", "name=S:Bo"}, named),
		slices.Concat([]string{"put", "--pk", "CUST#42", "--sk", "NEW", "--set", "name=S:Bo"}, conn),
		slices.Concat([]string{"delete", "--pk", "CUST#42", "--sk", "PROFILE"}, conn),
		slices.Concat([]string{"undo"}, conn),
		slices.Concat([]string{"update", "--pk", "CUST#42", "--sk-begins-with", "ORDER#", "--set", "status=S:X", "--yes"}, conn),
		slices.Concat([]string{"delete", "--pk", "CUST#42", "--entity", "ORDER", "--yes"}, named),
		slices.Concat([]string{"update", "--pk", "CUST#42", "--sk", "PROFILE", "--set", "n=N:1x", "--allow-writes"}, conn),
		slices.Concat([]string{"update", "--pk", "CUST#42", "--sk", "PROFILE", "--set", `s=SS:["a","a"]`, "--allow-writes"}, conn),
	}
	before := len(p.Calls())
	for _, args := range refused {
		if _, _, err := cli(t, args...); err == nil {
			t.Errorf("%v went through", args)
		}
	}
	for _, args := range noJSON {
		var ue usageError
		if _, _, err := cli(t, args...); !errors.As(err, &ue) {
			t.Errorf("%v: %v, want --query refused", args, err)
		}
	}
	if n := len(p.Calls()); n != before {
		t.Errorf("the refused writes sent %d requests: %v", n-before, p.Ops()[before:])
	}
	// Every flag of every command that may talk to DynamoDB was given; the
	// writing commands and the UI (ui/nowrites_test.go) are the exceptions,
	// and --allow-writes, which the write commands are given only in their
	// own tests.
	cov := coverage(t, runs)
	for cmd, flags := range sets {
		flags = slices.DeleteFunc(flags, func(f string) bool { return f == "allow-writes" })
		switch cmd {
		case "seed", "demo":
			continue // the commands that write
		case "":
			// The UI's flags become ui.Options, which ui/nowrites_test.go
			// walks; a new one must be looked at there.
			// --query: the UI prints no document and refuses it before it starts.
			known := []string{"table", "profile", "region", "endpoint-url", "timeout", "max-attempts", "connection", "pk", "index", "patterns", "max-loaded", "version",
				"debug", "color", "cli-connect-timeout", "cli-read-timeout", "query"}
			for _, f := range flags {
				if !slices.Contains(known, f) {
					t.Errorf("the UI has a new flag --%s: cover it in ui/nowrites_test.go and list it here", f)
				}
			}
			continue
		}
		if cov.flags[cmd] == nil {
			t.Errorf("no run of %q: add one", cmd)
		}
		for _, f := range flags {
			if f == "query" && withQuery[cmd] {
				continue // given above, or refused
			}
			if !cov.flags[cmd][f] {
				t.Errorf("no run of %q gives --%s: add one", cmd, f)
			}
		}
	}
	// Each fixed choice of a command's argument (completion's shells).
	for c := range walk(commandTree()) {
		for _, v := range c.ValidArgs {
			if !slices.Contains(cov.positionals[cmdName(c)], v) {
				t.Errorf("no run of %q gives %s: add one", cmdName(c), v)
			}
		}
	}
	for _, c := range completions() {
		if !cov.completed[c] {
			t.Errorf("no run completes %s: add one", c)
		}
	}
	// Failures read nothing more: a missing table and a bad index.
	for _, args := range [][]string{
		{"query", "--endpoint-url", p.URL, "--table", "no-such-table", "--pk", "x"},
		slices.Concat(q, []string{"--pk", "x", "--index", "NOPE"}),
		// Refused: a Scan without consent, statements that are not SELECT.
		slices.Concat([]string{"scan"}, conn),
		slices.Concat([]string{"partiql", `SELECT * FROM "` + table + `"`}, conn),
		slices.Concat([]string{"partiql", `UPDATE "` + table + `" SET total = 0 WHERE PK = 'CUST#42' AND SK = 'PROFILE'`}, conn),
		slices.Concat([]string{"partiql", `/* SELECT */ DELETE FROM "` + table + `" WHERE PK = 'CUST#42' AND SK = 'PROFILE'`}, conn, []string{"--yes"}),
	} {
		if _, _, err := cli(t, args...); err == nil {
			t.Errorf("%v must fail", args)
		}
	}

	seen := map[string]int{}
	for _, c := range p.Calls() {
		seen[c.Op]++
		if !slices.Contains(exploreOps, c.Op) && !slices.Contains(streamOps, c.Op) || c.Write {
			t.Errorf("exploring sent %s (call %d)", c.Op, c.Seq)
		}
	}
	if w := p.Writes(); len(w) > 0 {
		t.Errorf("writes: %+v", w)
	}
	// The test proves something only if the commands really talked to DynamoDB.
	for _, op := range slices.Concat(exploreOps, streamOps) {
		if seen[op] == 0 {
			t.Errorf("no %s went through the proxy; saw %v", op, seen)
		}
	}
}

// writeJournalEntry leaves three journal entries for undo --dry-run to
// plan, written to endpoint: 1 a change of the demo's CUST#42 PROFILE, 2
// a bulk change of it and one of CUST#42's orders, 3 a bulk delete of the
// two stopped after the first, the order left.
func writeJournalEntry(t *testing.T, endpoint, table string) {
	t.Helper()
	j, err := edit.OpenJournal("")
	if err != nil {
		t.Fatal(err)
	}
	e := edit.Entry{
		Time: time.Now().UTC(), Endpoint: endpoint, Region: "us-east-1", Table: table, Operation: edit.OpUpdate,
		PK: edit.KeyAttrJSON{Name: "PK", Type: "S"}, SK: &edit.KeyAttrJSON{Name: "SK", Type: "S"},
		Items: []edit.EntryItem{{Key: json.RawMessage(`{"PK":{"S":"CUST#42"},"SK":{"S":"PROFILE"}}`),
			Old: json.RawMessage(`{"PK":{"S":"CUST#42"},"SK":{"S":"PROFILE"},"name":{"S":"Bo"}}`),
			New: json.RawMessage(`{"PK":{"S":"CUST#42"},"SK":{"S":"PROFILE"},"name":{"S":"Ann"}}`)}},
		PredictedWCU: 1,
	}
	if err := j.Begin(&e); err != nil {
		t.Fatal(err)
	}
	wcu := 1.0
	if err := j.Mark(&e, edit.Mark{State: edit.StateDone, WCU: &wcu}); err != nil {
		t.Fatal(err)
	}
	// And a bulk change of two items, for undo --keys to pick one of.
	b := e
	b.ID, b.Items = "", append(slices.Clone(e.Items), edit.EntryItem{Key: json.RawMessage(`{"PK":{"S":"CUST#42"},"SK":{"S":"ORDER#2025-03-01#A17"}}`),
		Old: json.RawMessage(`{"PK":{"S":"CUST#42"},"SK":{"S":"ORDER#2025-03-01#A17"},"status":{"S":"OPEN"}}`),
		New: json.RawMessage(`{"PK":{"S":"CUST#42"},"SK":{"S":"ORDER#2025-03-01#A17"},"status":{"S":"ARCHIVED"}}`)})
	if err := j.Begin(&b); err != nil {
		t.Fatal(err)
	}
	wcu = 2
	if err := j.Mark(&b, edit.Mark{State: edit.StateDone, WCU: &wcu}); err != nil {
		t.Fatal(err)
	}
	// And a bulk delete of the two stopped after the first (the order
	// left), for delete --continues 3 to send the rest of and undo --chain
	// to take back.
	d := b
	d.ID, d.Operation = "", edit.OpDelete
	if err := j.Begin(&d); err != nil {
		t.Fatal(err)
	}
	wcu = 1
	if err := j.Mark(&d, edit.Mark{State: edit.StateDone, WCU: &wcu, Items: []edit.ItemMark{{State: edit.StateDone}, {State: edit.StateFailed, Note: edit.NoteLeft}}}); err != nil {
		t.Fatal(err)
	}
}

// The recorder itself tells writes from reads, PartiQL included: without
// this, an empty Writes() would prove nothing.
func TestProxyRecordsWrites(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	p := dynamotest.StartProxy(t, ep)
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	via := dynamodb.New(dynamodb.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(p.URL),
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", ""),
	})
	ctx := context.Background()
	item := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: "S"}}
	steps := []func() error{
		func() error {
			_, err := via.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item})
			return err
		},
		func() error {
			_, err := via.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "` + table + `" WHERE PK = 'P'`)})
			return err
		},
		func() error {
			_, err := via.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`UPDATE "` + table + `" SET n = 1 WHERE PK = 'P' AND SK = 'S'`)})
			return err
		},
		func() error {
			_, err := via.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
				{Statement: aws.String(`UPDATE "` + table + `" SET n = 2 WHERE PK = 'P' AND SK = 'S'`)},
				{Statement: aws.String(` delete FROM "` + table + `" WHERE PK = 'P' AND SK = 'other'`)},
			}})
			return err
		},
		func() error {
			_, err := via.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: item})
			return err
		},
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	var writes []string
	for _, c := range p.Writes() {
		writes = append(writes, c.Op)
	}
	if strings.Join(writes, ",") != "PutItem,ExecuteStatement,BatchExecuteStatement" || len(p.Calls()) != 5 {
		t.Errorf("writes %v among %v", writes, p.Ops())
	}

	// And seed, the one command that writes, is seen writing.
	seeded := dynamotest.UniqueName("cli-seed-writes")
	t.Cleanup(func() { deleteTables(seeded) })
	sp := dynamotest.StartProxy(t, ep)
	if _, _, err := cli(t, "seed", "--demo", "--table", seeded, "--endpoint-url", sp.URL); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, c := range sp.Writes() {
		kinds[c.Op] = true
	}
	if !kinds["CreateTable"] || !kinds["BatchWriteItem"] {
		t.Errorf("seed's writes went unseen: %v", sp.Ops())
	}

	for _, tc := range []struct {
		op    string
		stmts []string
		write bool
	}{
		{"Query", nil, false},
		{"Scan", nil, false},
		{"DeleteTable", nil, true},
		{"SomeFutureOperation", nil, true},
		{"ExecuteStatement", []string{"  -- comment\n/* c */ (SELECT * FROM t)"}, false},
		{"ExecuteStatement", []string{"INSERT INTO t VALUE {'PK': 'x'}"}, true},
		{"ExecuteTransaction", []string{"select * from t", "Update t SET a = 1"}, true},
		{"ExecuteStatement", nil, true},
	} {
		if got := dynamotest.IsWrite(tc.op, tc.stmts); got != tc.write {
			t.Errorf("IsWrite(%s, %q) = %v", tc.op, tc.stmts, got)
		}
	}
}

// The compile-level half of the guarantee: the client explores through
// dynamo.API, and dynamo.API has no method that writes. Adding one to API
// (or giving the client's api field another type) fails here.
func TestReadOnlyClientType(t *testing.T) {
	apiType := reflect.TypeOf((*dynamo.API)(nil)).Elem()
	var methods []string
	for i := range apiType.NumMethod() {
		methods = append(methods, apiType.Method(i).Name)
	}
	sort.Strings(methods)
	want := slices.Clone(exploreOps)
	sort.Strings(want)
	if !slices.Equal(methods, want) {
		t.Errorf("dynamo.API has %v, want exactly the reads %v", methods, want)
	}
	field, ok := reflect.TypeOf((*dynamo.Client)(nil)).Elem().FieldByName("api")
	if !ok || field.Type != apiType {
		t.Errorf("dynamo.Client explores through %v, not dynamo.API", field.Type)
	}

	// No other field may hold a way around API either: neither the SDK
	// client (as Client.SDK once handed out), nor WriteAPI, nor a function
	// returning one, nor an empty interface that could hold anything, at
	// any depth. The writes of seeding come from dynamo.ConnectWriter alone.
	beyond := beyondExploring()
	client := reflect.TypeOf(dynamo.Client{})
	for i := range client.NumField() {
		f := client.Field(i)
		if why := reachesBeyond(f.Type, beyond, map[reflect.Type]bool{}); why != "" {
			t.Errorf("dynamo.Client.%s (%v) can hold a writer: %s", f.Name, f.Type, why)
		}
	}
	// The check itself must see the ways around: otherwise the loop above
	// proves nothing.
	for _, bad := range []any{
		(*dynamodb.Client)(nil),
		(*dynamo.WriteAPI)(nil),
		struct{ sdk func() *dynamodb.Client }{},
		map[string][]struct{ x any }{},
	} {
		if reachesBeyond(reflect.TypeOf(bad), beyond, map[reflect.Type]bool{}) == "" {
			t.Errorf("the field check misses %T", bad)
		}
	}
}

// The writer of guarded editing is a writer by the same check, and the
// explore client cannot reach it: no field of dynamo.Client holds an
// edit.Writer or anything that leads to one.
func TestWriterIsApartFromTheExplorer(t *testing.T) {
	beyond := beyondExploring()
	writer := reflect.TypeOf(edit.Writer{})
	if reachesBeyond(writer, beyond, map[reflect.Type]bool{}) == "" {
		t.Fatal("the field check does not see edit.Writer as a writer")
	}
	client := reflect.TypeOf(dynamo.Client{})
	if why := reachesBeyond(client, beyond, map[reflect.Type]bool{}); why != "" {
		t.Errorf("dynamo.Client reaches a writer: %s", why)
	}
	if holds(client, writer, map[reflect.Type]bool{}) {
		t.Error("dynamo.Client holds an edit.Writer")
	}
}

// holds tells whether a value of type t can contain a value of type want.
func holds(t, want reflect.Type, seen map[reflect.Type]bool) bool {
	if t == want {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		return holds(t.Elem(), want, seen)
	case reflect.Map:
		return holds(t.Key(), want, seen) || holds(t.Elem(), want, seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if holds(t.Field(i).Type, want, seen) {
				return true
			}
		}
	case reflect.Func:
		for i := range t.NumIn() {
			if holds(t.In(i), want, seen) {
				return true
			}
		}
		for i := range t.NumOut() {
			if holds(t.Out(i), want, seen) {
				return true
			}
		}
	}
	return false
}

// beyondExploring names the SDK operations exploring must not reach: every
// method of the SDK client but the reads of exploreOps.
func beyondExploring() map[string]bool {
	ops := map[string]bool{}
	sdk := reflect.TypeOf((*dynamodb.Client)(nil))
	for i := range sdk.NumMethod() {
		if name := sdk.Method(i).Name; name != "Options" && !slices.Contains(exploreOps, name) {
			ops[name] = true
		}
	}
	return ops
}

// reachesBeyond says how a value of type t could lead to an operation
// beyond exploring, or "" when it cannot.
func reachesBeyond(t reflect.Type, beyond map[string]bool, seen map[reflect.Type]bool) string {
	if seen[t] {
		return ""
	}
	seen[t] = true
	for _, mt := range []reflect.Type{t, reflect.PointerTo(t)} {
		for i := range mt.NumMethod() {
			if beyond[mt.Method(i).Name] {
				return fmt.Sprintf("%v has %s", t, mt.Method(i).Name)
			}
		}
	}
	var inner []reflect.Type
	switch t.Kind() {
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return fmt.Sprintf("%v holds any value", t)
		}
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		inner = append(inner, t.Elem())
	case reflect.Map:
		inner = append(inner, t.Key(), t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			inner = append(inner, t.Field(i).Type)
		}
	case reflect.Func:
		for i := range t.NumIn() {
			inner = append(inner, t.In(i))
		}
		for i := range t.NumOut() {
			inner = append(inner, t.Out(i))
		}
	}
	for _, in := range inner {
		if why := reachesBeyond(in, beyond, seen); why != "" {
			return why
		}
	}
	return ""
}
