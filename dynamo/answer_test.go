package dynamo

import (
	"bytes"
	"context"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A Location header reaches a sentence without a password or a control
// character: the header is the server's, as untrusted as its body.
func TestLocationText(t *testing.T) {
	for in, want := range map[string]string{
		"https://u:pw@example.com/x":           "https://u:xxxxx@example.com/x",
		"http://h/\x1b[2J":                     `"http://h/\x1b[2J"`,
		"http://h/" + strings.Repeat("a", 200): "http://h/" + strings.Repeat("a", 91) + "…",
	} {
		if got := locationText(in); got != want {
			t.Errorf("locationText(%q) = %s, want %s", in, got, want)
		}
	}
}

// benchPageBody is a Query answer of about 1 MB, where DynamoDB ends a page:
// items of about 300 bytes shaped like the UI benchmarks' (strings, numbers,
// a map and a list), with Count, ScannedCount, a LastEvaluatedKey and the
// consumed capacity asked for.
func benchPageBody() []byte {
	var items []string
	size := 0
	for i := 0; size < 1<<20; i++ {
		it := fmt.Sprintf(`{"PK":{"S":"BENCH#BIG"},"SK":{"S":"ORDER#%08d"},"name":{"S":"Order number %d for a customer"},`+
			`"status":{"S":"shipped"},"type":{"S":"order"},"total":{"N":"%d.%02d"},"qty":{"N":"%d"},`+
			`"createdAt":{"S":"2024-03-01T12:%02d:%02dZ"},"addr":{"M":{"city":{"S":"Seattle"},"zip":{"S":"98101"}}},`+
			`"tags":{"L":[{"S":"gift"},{"N":"1"},{"BOOL":true}]},"note":{"NULL":true}}`,
			i, i, i%1000, i%100, i%7, i%60, i%60)
		items = append(items, it)
		size += len(it)
	}
	return fmt.Appendf(nil, `{"ConsumedCapacity":{"CapacityUnits":128.5,"TableName":"bench"},"Count":%d,"Items":[%s],`+
		`"LastEvaluatedKey":{"PK":{"S":"BENCH#BIG"},"SK":{"S":"ORDER#%08d"}},"ScannedCount":%d}`,
		len(items), strings.Join(items, ","), len(items)-1, len(items))
}

// cannedAnswer is an HTTP client that answers every request with body, as
// DynamoDB would (checksum included), without a network in between: what is
// timed is the SDK's work on the answer, and the check's.
type cannedAnswer []byte

func (c cannedAnswer) Do(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	h := http.Header{"Content-Type": {"application/x-amz-json-1.0"}, "X-Amz-Crc32": {strconv.FormatUint(uint64(crc32.ChecksumIEEE(c)), 10)}}
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, ContentLength: int64(len(c)), Body: io.NopCloser(bytes.NewReader(c)), Request: r}, nil
}

// BenchmarkQueryDecode1MB is the price of the raw-body check on a 1 MB page:
// the SDK's Query call and decoder on a canned answer, without and with the
// check, and the check alone.
func BenchmarkQueryDecode1MB(b *testing.B) {
	body := benchPageBody()
	in := &dynamodb.QueryInput{TableName: aws.String("bench"), KeyConditionExpression: aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "BENCH#BIG"}},
		ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal}
	for _, checked := range []bool{false, true} {
		name := "without-check"
		if checked {
			name = "with-check"
		}
		b.Run(name, func(b *testing.B) {
			api := dynamodb.New(dynamodb.Options{
				Region: "us-east-1", BaseEndpoint: aws.String("http://127.0.0.1:1"), RetryMaxAttempts: 1, HTTPClient: cannedAnswer(body),
				Credentials: credentials.NewStaticCredentialsProvider("bench", "bench", ""),
			}, func(o *dynamodb.Options) {
				if checked {
					installAnswerCheck(o)
				}
			})
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				out, err := api.Query(context.Background(), in)
				if err != nil || int(out.Count) != len(out.Items) || out.LastEvaluatedKey == nil {
					b.Fatalf("the page did not decode (request %d of %d): %v", i+1, b.N, err)
				}
			}
		})
	}
	b.Run("check-alone", func(b *testing.B) {
		st := &answerCheck{op: "Query", params: in}
		h := http.Header{"X-Amz-Crc32": {strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10)}}
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			if bad := st.check(http.StatusOK, h, body); bad != nil {
				b.Fatal(bad)
			}
		}
	})
}
