package request

import (
	"fmt"

	"dynascope/codegen"
	"dynascope/dynamo"
)

// Code is a request's code in one language.
func Code(lang codegen.CodeLang, in Input, to codegen.CodeTarget) (string, error) {
	switch {
	case in.G != nil:
		return codegen.GetItemCode(lang, in.Table, *in.G, to)
	case in.Q != nil:
		return codegen.QueryCode(lang, in.KS, *in.Q, to)
	case in.Scan != nil:
		return codegen.ScanCode(lang, in.Table, *in.Scan, to)
	case in.Stmt != "":
		return codegen.PartiQLCode(lang, in.Stmt, false, to)
	}
	return "", fmt.Errorf("no code for this request")
}

// Describe is a request in DynamoDB's words, for the code view's title.
func Describe(in Input) string {
	switch {
	case in.Scan != nil:
		s := "Scan " + in.Scan.Table
		if in.Scan.Filter != "" {
			s += " filter " + in.Scan.Filter
		}
		return s
	case in.Stmt != "":
		return "PartiQL " + in.Stmt
	case in.G != nil:
		b, err := dynamo.BuildGetItem(in.Table, *in.G)
		if err != nil {
			return err.Error()
		}
		return "GetItem " + b.KeyCondition
	case in.Q != nil:
		b, err := dynamo.BuildQuery(in.KS, *in.Q)
		if err != nil {
			return err.Error()
		}
		s := "Query " + b.KeyCondition
		if _, short := Options(*in.Q); short != "" {
			s += " · " + short
		}
		if in.Q.CountOnly {
			s += " · Select=COUNT"
		}
		if in.Q.StartKey != nil {
			s += " · from its ExclusiveStartKey"
		}
		return s
	}
	return ""
}
