// Package demodata is the demo's data set: the table `dynascope demo` and
// `seed --demo` create, its items (the single-table example and the
// customers, orders and shipments around it), and the demo application's
// traffic of writes. It is data only, the same on every run: dynamo sends
// it (Seed, DemoTraffic) and the command line picks it; it imports dynamo
// for the types of an item and a table, and nothing of the command line or
// the UI.
package demodata
