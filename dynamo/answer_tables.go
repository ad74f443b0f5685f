package dynamo

// The names in a DynamoDB answer about tables, checked against the
// request: a DescribeTable answer describes the table asked for, and
// ListTables lists each table once, by a name DynamoDB allows. A cache or
// mock in between that answers every table with one description made
// `tables` print one name for every table, and the X-ray list another
// table's indexes.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// tableNameRE is what DynamoDB allows a table name to be: 3 to 255 of
// letters, digits, '_', '-' and '.'.
var tableNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{3,255}$`)

// describedNameProblem says what is wrong with the TableName (and ARN) of
// a DescribeTable answer to the request for asked, or "". The request may
// name the table by its ARN, whose last part is then the name.
func describedNameProblem(asked, name, arn string) string {
	want := asked
	if strings.HasPrefix(asked, "arn:") {
		if i := strings.LastIndex(asked, "table/"); i >= 0 {
			want = asked[i+len("table/"):]
		}
		if arn != "" && arn == asked {
			return ""
		}
	}
	if name == want {
		return ""
	}
	return fmt.Sprintf("the description of table %s, not of %s", quoteName(name), quoteName(want))
}

// tableNamesProblem says what is wrong with one page of ListTables' names,
// given the names of the pages before (seen, which it adds to), or "".
func tableNamesProblem(seen map[string]bool, names []string) string {
	for _, n := range names {
		switch {
		case n == "":
			return "an empty table name"
		case !tableNameRE.MatchString(n):
			return fmt.Sprintf("the table name %s, which DynamoDB does not allow", quoteName(n))
		case seen[n]:
			return fmt.Sprintf("the table name %s twice", quoteName(n))
		}
		seen[n] = true
	}
	return ""
}

// quoteName quotes a name from an answer for a sentence, cut past 80
// characters (a table's name may have 255), and
// with what a terminal must not receive escaped.
func quoteName(n string) string {
	if r := []rune(n); len(r) > 2*sentenceKeyRunes {
		return strconv.Quote(string(r[:2*sentenceKeyRunes])) + "…"
	}
	return strconv.Quote(n)
}
