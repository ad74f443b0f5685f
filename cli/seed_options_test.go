package cli

import (
	"testing"

	"dynascope/config"
	"dynascope/demodata"
	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// Arguments become seed's options through runF, with no network: the one
// source, the flags that go with --file, and the usage errors.
func TestNewSeedCmd(t *testing.T) {
	format := itemcodec.InputFormats[0]
	checkOptions(t, newSeedCmd, func(o *seedOptions) bool {
		set := o.ConnectSeeder != nil && o.Out != nil && o.Err != nil && o.Stdin != nil
		o.ConnectSeeder, o.Out, o.Err, o.Stdin = nil, nil, nil, nil
		return set
	}, []optionsCase[seedOptions]{
		{args: []string{"--demo"}, want: seedOptions{Table: demodata.Table, Demo: true}},
		{args: []string{"--demo", "--table", "Mine", "--force"}, want: seedOptions{Table: "Mine", Demo: true, Force: true}},
		{args: []string{"--file", "items.jsonl", "--table", "App"}, want: seedOptions{Table: "App", File: "items.jsonl"}},
		{args: []string{"--file", "-", "--format", string(format), "--pk-name", "id", "--sk-name", "sort", "--skip-invalid"},
			want: seedOptions{File: "-", Format: format, PKName: "id", SKName: "sort", SkipInvalid: true}},
		{args: []string{"--workbench", "model.json", "--table-prefix", "test-"}, want: seedOptions{Workbench: "model.json", Prefix: "test-"}},
		{args: nil, usage: "seed needs exactly one source"},
		{args: []string{"--demo", "--file", "items.jsonl"}, usage: "seed needs exactly one source"},
		{args: []string{"--file", "a.jsonl", "--workbench", "m.json"}, usage: "seed needs exactly one source"},
		{args: []string{"--demo", "--table-prefix", "x-"}, usage: "--table-prefix goes with --workbench or --file"},
		{args: []string{"--workbench", "m.json", "--pk-name", "id"}, usage: "--format, --pk-name and --sk-name go with --file."},
		{args: []string{"--demo", "--format", "jsonl"}, usage: "--format, --pk-name and --sk-name go with --file."},
		{args: []string{"--file", "a.jsonl", "--sk-name", "sort"}, usage: "--sk-name needs --pk-name."},
		{args: []string{"--file", "a.jsonl", "--format", "xml"}, usage: "xml"},
		{args: []string{"--demo", "App"}, usage: "unexpected argument"},
		{args: []string{"--demo", "--force=perhaps"}, usage: "force"},
	})
}

// Arguments become demo's options through runF, with no network and no
// engine: a connection flag or --traffic with a model is refused.
func TestNewDemoCmd(t *testing.T) {
	conn := func(table string) config.Connection {
		return config.Connection{Table: table, Timeout: dynamo.DefaultTimeout}
	}
	checkOptions(t, newDemoCmd, func(o *demoOptions) bool {
		set := o.Err != nil
		o.Err = nil
		return set
	}, []optionsCase[demoOptions]{
		{args: nil, want: demoOptions{Conn: conn(""), Color: "auto"}},
		{args: []string{"--allow-writes", "--traffic"}, want: demoOptions{Conn: conn(""), AllowWrites: true, Traffic: true, Color: "auto"}},
		{args: []string{"--workbench", "model.json", "--skip-invalid", "--table", "Orders"},
			want: demoOptions{Conn: conn("Orders"), Workbench: "model.json", SkipInvalid: true, Color: "auto"}},
		{args: []string{"--endpoint-url", "http://127.0.0.1:8000"}, usage: "demo runs its own DynamoDB Local; it takes no --endpoint-url"},
		{args: []string{"--region", "eu-west-1"}, usage: "it takes no --endpoint-url, --profile or --region."},
		{args: []string{"--profile", "prod"}, usage: "it takes no --endpoint-url, --profile or --region."},
		{args: []string{"--connection", "none"}, usage: "it takes no --connection."},
		{args: []string{"--traffic", "--workbench", "m.json"}, usage: "--traffic plays the demo data's writes; it does not go with --workbench."},
		{args: []string{"now"}, usage: "unexpected argument"},
	})
}
