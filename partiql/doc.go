// Package partiql reads a PartiQL SELECT before it is sent: it splits the
// statement into tokens, refuses anything that is not one SELECT, and
// finds its plan, a Query of one partition (of one item, when WHERE fixes
// the table's whole primary key) or a Scan of the whole table or index, as
// DynamoDB will run it. It sends nothing and knows no client:
// dynamo, which sends the statement, imports it, and it imports none of
// dynascope's packages but textfmt (the one-sentence error).
package partiql
