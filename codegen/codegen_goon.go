package codegen

// The AWS CLI command that goes on where a dynascope read stopped: the
// same request, paged by the AWS CLI itself from a NextToken (--starting-
// token), with the read's --page-size and --max-items, on one line so
// that it pastes as the go-on line of dynascope's own.

import (
	"strings"

	"dynascope/dynamo"
)

// AWSGoOn is where the AWS CLI goes on and how it pages: the NextToken,
// and the read's --max-items and --page-size (0 for none).
type AWSGoOn struct {
	Token    string
	MaxItems int
	PageSize int32
}

// QueryGoOnCLI is the one-line AWS CLI command that reads the rest of
// query q from g.Token.
func QueryGoOnCLI(ks dynamo.KeySchema, q dynamo.QueryInput, g AWSGoOn, to CodeTarget) (string, error) {
	q.StartKey, q.Limit = nil, 0
	r, err := queryRequest(ks, q)
	if err != nil {
		return "", err
	}
	r.goOn = &g
	return oneLine(r.cli(to)), nil
}

// ScanGoOnCLI is the one-line AWS CLI command that reads the rest of a
// Scan of one segment from g.Token.
func ScanGoOnCLI(t dynamo.Table, in dynamo.ScanInput, g AWSGoOn, to CodeTarget) (string, error) {
	in.Limit = 0
	_, shape, err := dynamo.BuildScan(t, in, 0)
	if err != nil {
		return "", err
	}
	r := cgRequest{table: in.Table, index: in.Index, scan: true, consistent: in.Consistent, shape: shape, goOn: &g}
	return oneLine(r.cli(to)), nil
}

func oneLine(cmd string) string {
	return strings.ReplaceAll(strings.TrimSuffix(cmd, "\n"), " \\\n  ", " ")
}
