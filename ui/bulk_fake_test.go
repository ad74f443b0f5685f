package ui

import (
	"context"
	"errors"

	"dynascope/dynamo"
	"dynascope/partiql"
)

// The fake store reads no whole tables: Scan and PartiQL are tested against
// DynamoDB Local (bulk_integration_test.go).
var errNoBulk = errors.New("the fake store does not scan")

func (f *fakeStore) Scan(ctx context.Context, in dynamo.ScanInput) (dynamo.ScanResult, error) {
	return dynamo.ScanResult{}, errNoBulk
}

func (f *fakeStore) PlanPartiQL(ctx context.Context, stmt string) (partiql.Plan, error) {
	return partiql.Plan{}, errNoBulk
}

func (f *fakeStore) RunPartiQL(ctx context.Context, in dynamo.PartiQLInput) (dynamo.PartiQLResult, error) {
	return dynamo.PartiQLResult{}, errNoBulk
}
