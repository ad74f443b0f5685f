package cli

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// 37.2 on the command line: a refused update says what the same command
// sends now — your --set put on the item as it is now, the new condition —
// and marks the attribute both writers changed; run again, it writes.
func TestRefusedUpdateSaysWhatTheSameCommandSendsNow(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	sdk := dynamotest.SDK(t)
	table := dynamotest.Table(t, sdk, dynamotest.PKSK())
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	sk := "ORDER#2025-01-09#A1"
	o := dynamotest.OtherWriter{SDK: sdk, Table: table, Key: dynamo.Item{"PK": sv("CUST#42"), "SK": sv(sk)}}
	if err := o.Put(dynamo.Item{"PK": sv("CUST#42"), "SK": sv(sk), "total": nv("20"), "note": sv("gift")}); err != nil {
		t.Fatal(err)
	}
	sw := p.BeforeNextWrite(t, func() error { return o.Set("total", nv("30")) })
	args := []string{"update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#42", "--sk", sk, "--allow-writes", "--set", "total=N:25", "--set", "status=S:SHIPPED"}
	out, _, err := cli(t, args...)
	if !sw.Ran() || err == nil {
		t.Fatalf("not refused: %v\n%s", err, out)
	}
	for _, want := range []string{
		"the same command reads the item afresh and would now send:\n",
		`  + status: S "SHIPPED"` + "\n",
		"  ! total: theirs N 30, yours N 25\n",
		"  condition: ",
		"units: unknown, the refusal reported none; AWS charges a refused write as a write: 1 WCU",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "0 WCU") {
		t.Errorf("a refused write called free:\n%s", out)
	}
	if out, _, err := cli(t, args...); err != nil {
		t.Fatalf("the same command again: %v\n%s", err, out)
	}
	got := o.Get(t)
	if total, _ := got["total"].(*types.AttributeValueMemberN); total == nil || total.Value != "25" || got["status"] == nil || got["note"] == nil {
		t.Errorf("after the second run: %v", got)
	}
}
