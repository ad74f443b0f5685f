// Package request is a request as the UI words it: what it asked (Input,
// which the request log keeps for each request), its options and its
// title in DynamoDB's words (Options, Describe, Text), its code as the aws
// CLI, boto3 and Go would send it (Code), and what an access pattern sends
// on the table open (ForPattern). The root's query line and request log
// and the overlays (the code view, the patterns) share it. It computes and
// sends nothing.
//
// It imports codegen, dynamo (its request types and builders), patterns
// and textfmt; never the root ui package nor ui/overlay, which both import
// it.
package request
