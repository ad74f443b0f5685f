package request

import (
	"dynascope/dynamo"
	"dynascope/patterns"
)

// ForPattern is what a pattern sends on table t with the given
// parameters: its request, or why there is none.
func ForPattern(p patterns.Pattern, t dynamo.Table, params map[string]string) (patterns.Resolved, error) {
	if err := p.Validate(t); err != nil {
		return patterns.Resolved{}, err
	}
	r, err := p.Resolve(t, params)
	if err != nil {
		return r, err
	}
	if r.Get != nil {
		_, err = dynamo.BuildGetItem(t, *r.Get)
		return r, err
	}
	ks, err := t.Schema(r.Query.Index)
	if err == nil {
		_, err = dynamo.BuildQuery(ks, *r.Query)
	}
	return r, err
}

// PatternOp names the request a pattern sends on t, as far as it can tell.
func PatternOp(p patterns.Pattern, t dynamo.Table) string {
	if r, err := p.Resolve(t, p.Example); err == nil {
		return r.Operation()
	}
	return "Query"
}

// Text is a request in DynamoDB's words, for a preview or a title:
// GetItem PK = "CUST#42" AND SK = "PROFILE", or the Query with its options.
func Text(r patterns.Resolved, t dynamo.Table) string {
	if r.Get != nil {
		b, err := dynamo.BuildGetItem(t, *r.Get)
		if err != nil {
			return err.Error()
		}
		s := "GetItem " + b.KeyCondition
		if r.Get.Consistent {
			s += " · strongly consistent"
		}
		return s
	}
	if r.Query == nil {
		return ""
	}
	ks, err := t.Schema(r.Query.Index)
	if err != nil {
		return err.Error()
	}
	b, err := dynamo.BuildQuery(ks, *r.Query)
	if err != nil {
		return err.Error()
	}
	_, short := Options(*r.Query)
	s := "Query " + b.KeyCondition + " · " + short
	if r.Query.Filter != "" {
		s += " · filter " + r.Query.Filter // the parameters in place, each one value
	}
	return s
}
