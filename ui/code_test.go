package ui

import (
	"strings"
	"testing"

	"dynascope/codegen"
	"dynascope/dynamo"
	"dynascope/ui/overlay"
)

// C shows the current request as the aws CLI, boto3 and Go would send it;
// y copies the language shown, exactly as generated.
func TestCodeViewOfTheCurrentRequest(t *testing.T) {
	orders := example()[:2]
	hs := openExample(t, 120, 35,
		canned{items: orders, cap: halfRCU()},
		canned{items: orders[1:], last: orders[1], cap: halfRCU()})
	hs.keys("j", "enter", "l", "1", "enter", "C")
	hs.contains("Code · the current request", "aws CLI │ Python (boto3) │ Go (SDK v2)",
		`sends the one request: Query PK = "CUST#42" AND begins_with(SK, "ORDER#") · fwd · Limit 1 · eventual`,
		"aws dynamodb query", "--limit 1", "--no-paginate", "--endpoint-url http://127.0.0.1:8000")
	hs.lacks("--max-items", "--page-size")
	ks, _ := appTable().Schema("")
	to := codegen.CodeTarget{Region: "us-east-1", Endpoint: "http://127.0.0.1:8000"}
	q := dynamo.QueryInput{Table: "App", PK: "CUST#42", SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}}, Limit: 1}
	for i, lang := range codegen.CodeLangs {
		want, err := codegen.QueryCode(lang, ks, q, to)
		if err != nil {
			t.Fatal(err)
		}
		hs.keys("y")
		if got := hs.clipped[len(hs.clipped)-1]; got != want {
			t.Errorf("%s: copied\n%s\nwant\n%s", lang, got, want)
		}
		hs.contains("copied the " + overlay.LangName(lang) + " code")
		if i < len(codegen.CodeLangs)-1 {
			hs.keys("tab")
		}
	}
	hs.contains("package main", "Go (SDK v2)")
	hs.keys("tab")
	hs.contains("aws dynamodb query")
	hs.keys("shift+tab")
	hs.contains("package main")
	hs.keys("left")
	hs.contains(`Key("PK").eq("CUST#42")`)
	// Scrolling: the Go code is longer than the screen at 80x24.
	hs.keys("right")
	hs.send(keyPress("G"))
	hs.keys("esc")
	hs.contains("Entity types")
	if n := len(hs.store.queries()); n != 3 {
		t.Errorf("%d queries: showing code sent a request", n)
	}
}

// In the request log, C shows the code of the selected request: a further
// page with its ExclusiveStartKey; esc goes back to the log. (A skip-scan
// step's code: TestCodeOfASkipScanStep, against DynamoDB Local.)
func TestCodeViewFromTheLog(t *testing.T) {
	hs := openBig(t, 120, 35, canned{items: pageOf("CUST#7", 98, 5), cap: halfRCU()})
	hs.keys("n", "L")
	hs.keys("G", "C")
	hs.contains("Code · request 10 of the log", "· from its ExclusiveStartKey", "--exclusive-start-key", `"ORDER#00097"`)
	hs.keys("esc")
	hs.contains("Requests · 10 requests · 133 RCU — key condition") // the figures before the legend, which the title cuts
	hs.keys("g", "C")
	hs.contains("Code · request 1 of the log", "--no-paginate")
	hs.lacks("--exclusive-start-key")
}

// The code of a pattern, with its example values, from the patterns list.
func TestCodeViewOfAPattern(t *testing.T) {
	hs, _ := openWithPatterns(t, 120, 35)
	choosePattern(hs, "customer profile")
	hs.keys("C")
	hs.contains("Code · pattern customer profile", `sends the one request: GetItem PK = "CUST#42" AND SK = "PROFILE"`,
		"aws dynamodb get-item", `--key '{"PK":{"S":"CUST#42"},"SK":{"S":"PROFILE"}}'`)
	// Help comes back to the view it was asked in.
	hs.keys("?")
	hs.contains("Keys for code", "copy code", "next language")
	hs.keys("esc")
	hs.contains("aws dynamodb get-item")
	hs.keys("esc")
	hs.contains("Access patterns · dynascope.yaml")
	if len(hs.store.getItems()) != 0 {
		t.Error("showing a pattern's code sent it")
	}
}

// A pattern's code names its parameters and the values it holds, in a
// comment of each language, as patterns show prints it; the copy has it.
func TestCodeViewOfAPatternNamesItsParameters(t *testing.T) {
	hs, _ := openWithPatterns(t, 120, 35)
	choosePattern(hs, "orders in a month")
	hs.keys("C")
	note := `parameters: customerId="7", month="2025-06", nextMonth="2025-07"`
	hs.contains("# "+note, "aws dynamodb query")
	hs.keys("y")
	if c := hs.clipped[len(hs.clipped)-1]; !strings.HasPrefix(c, "# "+note+"\n") {
		t.Errorf("the copied command does not begin with the parameters' comment:\n%s", c)
	}
	hs.keys("tab", "tab")
	hs.contains("// "+note, "package main")
}

// Code holds key values from the table: drawn sanitised, copied as generated.
func TestCodeViewIsSanitised(t *testing.T) {
	evil := "CUST#\x1b]52;c;aGk=\x07"
	hs := newHarness(t, Options{Table: "App", PK: evil}, 120, 35, canned{items: example(), cap: halfRCU()})
	hs.keys("C")
	hs.contains(`CUST#\x1b]52;c;aGk=\x07`)
	if strings.Contains(hs.m.View().Content, "\x1b]52;c;aGk") {
		t.Fatal("a key value reached the terminal as an escape sequence")
	}
	hs.keys("y")
	if c := hs.clipped[len(hs.clipped)-1]; !strings.Contains(c, "\x1b]52;c;aGk=\x07") && !strings.Contains(c, `\u001b]52;c;aGk=\u0007`) {
		t.Errorf("the copy is not the generated code:\n%q", c)
	}
}
