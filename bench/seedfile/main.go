// Command seedfile compares `dynascope seed --file` with what a user would
// otherwise run: a shell loop of `aws dynamodb batch-write-item`, one
// 25-item request document after another, over the same generated file of
// DynamoDB JSON lines (bench/benchdata's BENCH#BIG items). Both are timed as
// whole processes, start-up included, each into a fresh table; both tables
// are counted afterwards, so a load that fell short cannot look fast.
//
// It writes, so it refuses any endpoint that is not on this machine.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/bench/benchdata"
	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// minRatio is the bound: dynascope's parallel writers must load at least
// this many times the items per second of the one-request-at-a-time loop,
// whose every request pays the CLI's start-up. Measured at 291x (500 items
// on a machine at load 14); 5x leaves room for any machine.
const minRatio = 5.0

func main() {
	endpoint := flag.String("endpoint", os.Getenv("DYNASCOPE_TEST_ENDPOINT"), "DynamoDB Local endpoint (loopback only)")
	bin := flag.String("bin", "dynascope", "the dynascope binary")
	awsBin := flag.String("aws", "aws", "the AWS CLI")
	items := flag.Int("items", 20000, "items in the generated file")
	flag.Parse()
	if err := run(*endpoint, *bin, *awsBin, *items); err != nil {
		fmt.Fprintln(os.Stderr, "bench/seedfile: "+err.Error())
		os.Exit(1)
	}
}

func run(endpoint, bin, awsBin string, n int) error {
	if !dynamo.IsLoopback(endpoint) {
		return fmt.Errorf("the bench writes tables: give a DynamoDB Local endpoint on this machine with -endpoint, not %q", endpoint)
	}
	ctx := context.Background()
	w, err := dynamo.ConnectWriter(ctx, dynamo.Options{Endpoint: endpoint, Region: "us-east-1", Timeout: time.Minute})
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "seedfile")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	items := benchdata.Big(n)
	stamp := time.Now().UnixNano()
	ours, theirs := fmt.Sprintf("seedfile-dynascope-%d", stamp), fmt.Sprintf("seedfile-awscli-%d", stamp)

	file := filepath.Join(dir, "items.jsonl")
	var b bytes.Buffer
	for _, it := range items {
		b.Write(itemcodec.DynamoJSON(it))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		return err
	}
	docs, err := requestDocs(dir, theirs, items)
	if err != nil {
		return err
	}
	// Both tables exist before the clock starts: table creation is no
	// part of either figure.
	for _, t := range []string{ours, theirs} {
		if _, err := dynamo.EnsureTable(ctx, w, benchdata.Spec(t)); err != nil {
			return err
		}
	}
	env := append(os.Environ(), "AWS_ACCESS_KEY_ID=local", "AWS_SECRET_ACCESS_KEY=local",
		"AWS_REGION=us-east-1", "AWS_DEFAULT_REGION=us-east-1", "AWS_EC2_METADATA_DISABLED=true", "AWS_PAGER=")

	began := time.Now()
	cmd := exec.Command(bin, "seed", "--endpoint-url", endpoint, "--file", file, "--table", ours, "--force")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	dOurs := time.Since(began)
	if err != nil {
		return fmt.Errorf("dynascope seed: %v\n%s", err, out)
	}
	fmt.Printf("dynascope: %s", out)

	began = time.Now()
	for _, doc := range docs {
		cmd := exec.Command(awsBin, "dynamodb", "batch-write-item", "--endpoint-url", endpoint, "--request-items", "file://"+doc, "--output", "json")
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("aws dynamodb batch-write-item: %v\n%s", err, out)
		}
	}
	dTheirs := time.Since(began)

	for _, t := range []string{ours, theirs} {
		got, err := count(ctx, w, t)
		if err != nil {
			return err
		}
		if got != n {
			return fmt.Errorf("table %s holds %d items after the load; want %d", t, got, n)
		}
	}
	rOurs, rTheirs := float64(n)/dOurs.Seconds(), float64(n)/dTheirs.Seconds()
	ratio := rOurs / rTheirs
	verdict := "ok"
	if ratio < minRatio {
		verdict = "FAIL"
	}
	fmt.Printf("aws loop: %d batch-write-item requests in %.1f s\n", len(docs), dTheirs.Seconds())
	fmt.Printf("= seed --file, %d items: %.0f items/s vs %.0f items/s for an aws batch-write-item loop, %.1fx (%.1f vs %.1f s; bound >= %gx) %s\n",
		n, rOurs, rTheirs, ratio, dOurs.Seconds(), dTheirs.Seconds(), minRatio, verdict)
	return nil
}

// requestDocs writes the items as the CLI's --request-items documents, 25
// puts each, as `split` and a template would make them.
func requestDocs(dir, table string, items []dynamo.Item) ([]string, error) {
	var docs []string
	for i := 0; i < len(items); i += 25 {
		var b bytes.Buffer
		fmt.Fprintf(&b, "{%q: [", table)
		for j, it := range items[i:min(i+25, len(items))] {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"PutRequest": {"Item": `)
			b.Write(itemcodec.DynamoJSON(it))
			b.WriteString("}}")
		}
		b.WriteString("]}\n")
		p := filepath.Join(dir, fmt.Sprintf("req%05d.json", len(docs)))
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			return nil, err
		}
		docs = append(docs, p)
	}
	return docs, nil
}

func count(ctx context.Context, api dynamo.WriteAPI, table string) (int, error) {
	n := 0
	var start map[string]types.AttributeValue
	for {
		out, err := api.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table), Select: types.SelectCount, ExclusiveStartKey: start})
		if err != nil {
			return 0, err
		}
		n += int(out.Count)
		if start = out.LastEvaluatedKey; len(start) == 0 {
			return n, nil
		}
	}
}
