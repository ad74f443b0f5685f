package cli

// --models FILE: the entities read from the application's own models
// (package modelimport) in place of the patterns file's entities:, for one
// run, on every command that reads entities.

import (
	"context"

	"github.com/spf13/cobra"

	"dynascope/modelimport"
	"dynascope/patterns"
)

// modelsFlag declares --models into file.
func modelsFlag(cmd *cobra.Command, file *string) {
	cmd.Flags().StringVar(file, "models", "", "take the entities from the application's models `FILE` (OneTable, ElectroDB, DynamoDB-Toolbox) instead of the patterns file's entities:; a JS module is run by node (see 'dynascope entities import --help')")
	cmd.MarkFlagFilename("models", "json", "js", "mjs", "cjs")
}

// loadPatterns loads the patterns file; with models, the entities are the
// ones modelimport reads from that file, in place of the file's own.
func loadPatterns(ctx context.Context, file, models string) (*patterns.PatternSet, error) {
	if models == "" {
		return patterns.LoadPatterns(file)
	}
	res, err := modelimport.Import(ctx, models)
	if err != nil {
		return nil, err
	}
	return patterns.LoadWithEntities(file, res.Section(), models)
}
