// Package explain says why a query finds nothing: it builds the key an
// application would build (from a declared entity and its parameters, or
// as typed), plans the reads of the keys nearest to it by sort order (one
// bounded Query each side, and only when its partition holds nothing its
// variants and the other indexes, one item each), runs them through a
// Querier, and says what differs (delimiter, case, padding, a missing
// segment, the index). The command line (`dynascope explain`) and the UI
// (an empty result's "why empty") both use it.
//
// It imports dynamo (the Query and the table's key schemas), entities,
// keys and itemcodec; never cli or ui, and no output formatting
// or flags: the command line and the UI word what it found.
package explain
