// Package dynamolocal is DynamoDB Local as a program the demo runs: where
// it is installed, and starting and stopping it (a process of its own on a
// free loopback port, in memory, with -sharedDb).
//
// It imports dynamo only, to ask the engine it started whether it answers;
// never ui, config or the command line. It sends no request but to the
// engine it started.
package dynamolocal
