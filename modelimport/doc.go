// Package modelimport reads the entity declarations an application already
// wrote for its DynamoDB library — OneTable schemas, ElectroDB entities,
// DynamoDB-Toolbox entities where their keys are derivable — and turns them
// into the patterns file's `entities:` section: each entity's key templates
// for the table and its indexes, the type of every parameter, and the item
// attribute that names the type.
//
// A JSON file is read as data. A JavaScript module is loaded only when the
// user names it on the command line, by the machine's `node` with the file as
// its one argument (no shell), a bare environment and a time limit; what it
// prints is read as JSON and nothing else is run. TypeScript is refused with
// a sentence (compile it to JS, or write the schema as JSON).
//
// What it writes is read back through entities.Parse before it is given:
// a key the section cannot hold is left out with the parser's sentence.
// It imports entities and textfmt, never a package that talks to DynamoDB
// or draws.
package modelimport
