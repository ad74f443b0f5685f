package cli

// The AWS CLI's paging flags on query and scan, with the AWS CLI's
// meanings: --page-size is each request's Limit (dynascope's --limit),
// --max-items the items returned in all, --starting-token the NextToken
// a read stopped by --max-items printed (the AWS CLI's or dynascope's:
// dynamo.Position reads and writes botocore's format). A read given any
// of them goes on by a NextToken, so its go-on line and its document
// carry one.

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dynascope/codegen"
	"dynascope/dynamo"
	"dynascope/textfmt"
)

// awsPaging is the values of the AWS CLI's paging flags.
type awsPaging struct {
	MaxItems int    // items returned in all; 0 for no bound
	Token    string // --starting-token as given; "" for none
	// Given: one of the three flags was given, so the read goes on by a
	// NextToken rather than by --start-key or --resume.
	Given bool
	// GoOn is --go-on: the program the go-on line runs, dynascope or aws.
	GoOn string
}

// awsPagingFlags declares --max-items, --page-size (into limit, which
// --limit also sets) and --starting-token.
func awsPagingFlags(fs *pflag.FlagSet, p *awsPaging, limit *int32) {
	fs.IntVar(&p.MaxItems, "max-items", 0, "the AWS CLI's --max-items: return at most `N` items in all, over as many pages as it takes; a page it cuts goes on by the NextToken printed")
	fs.Var(&limitValue{p: limit, name: "page-size"}, "page-size", "the AWS CLI's --page-size: the same as --limit, `N` items evaluated per request")
	fs.StringVar(&p.Token, "starting-token", "", "go on from the `TOKEN` a read stopped by --max-items printed (the AWS CLI's NextToken or dynascope's)")
}

// goOnFlag declares --go-on: the go-on line of a read stopped short as
// dynascope's command or as the AWS CLI's that reads the same rest.
func goOnFlag(cmd *cobra.Command, p *awsPaging) {
	enumFlag(cmd, &p.GoOn, "go-on", "dynascope", "the `PROGRAM` of the go-on line of a read stopped short, dynascope or the AWS CLI's aws dynamodb … --starting-token", "dynascope", "aws")
}

// awsGoOnLine is the AWS CLI command of a go-on line, "" when it cannot
// be printed as it runs (a byte a terminal must not be sent).
func awsGoOnLine(cmd string, err error) string {
	if err != nil || textfmt.Sanitize(cmd) != cmd {
		return ""
	}
	return cmd
}

// codeTarget is where the client sends its requests, for an AWS CLI
// command that sends them there too.
func codeTarget(c *dynamo.Client) codegen.CodeTarget {
	return codegen.CodeTarget{Region: c.Region(), Endpoint: c.Endpoint(), Profile: c.Profile()}
}

// checkAWSPaging checks the flags as the line is read: a token that is no
// NextToken whatever the table is refused here, with no request.
func checkAWSPaging(cmd *cobra.Command, p *awsPaging, other string) error {
	fs := cmd.Flags()
	if fs.Changed("limit") && fs.Changed("page-size") {
		return usageError{"give --limit or --page-size (the AWS CLI's name for it), not both."}
	}
	if fs.Changed("max-items") && p.MaxItems < 1 {
		return usageError{fmt.Sprintf("--max-items takes a whole number of items from 1, not %d.", p.MaxItems)}
	}
	if fs.Changed("starting-token") {
		if fs.Changed(other) {
			return usageError{fmt.Sprintf("give --starting-token or --%s, not both: each says where the read goes on.", other)}
		}
		if err := dynamo.CheckToken("--starting-token", p.Token); err != nil {
			return usageError{err.Error()}
		}
	}
	p.Given = fs.Changed("max-items") || fs.Changed("page-size") || fs.Changed("starting-token")
	return nil
}

// maxItemsText says, for stderr, that a read stopped at --max-items.
func maxItemsText(n int) string {
	return fmt.Sprintf("stopped at --max-items %d with more to read; the NextToken printed goes on from there (in dynascope or the AWS CLI)", n)
}

// lastKeyOf is the key of item by the key attributes names (an index's
// and the table's): where a read that stopped after item goes on, as a
// LastEvaluatedKey. nil when the item lacks one of them.
func lastKeyOf(item dynamo.Item, names []string) dynamo.Item {
	if item == nil || len(names) == 0 {
		return nil
	}
	key := dynamo.Item{}
	for _, n := range names {
		v, ok := item[n]
		if !ok {
			return nil
		}
		key[n] = v
	}
	return key
}

// nextToken is a NextToken as the document and a go-on line carry it;
// base64 needs no sanitising, and Sanitize proves it.
func nextToken(pos dynamo.Position) string { return textfmt.Sanitize(pos.Token()) }
