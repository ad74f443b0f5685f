package edit

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A bad number is named once: "not a number" is not said twice, while a
// limit that was broken is still named.
func TestCheckValueNamesABadNumberOnce(t *testing.T) {
	for _, c := range []struct {
		av   types.AttributeValue
		want string
	}{
		{&types.AttributeValueMemberN{Value: "abc"}, `qty: "abc" is not a DynamoDB number`},
		{&types.AttributeValueMemberNS{Value: []string{"1", "x"}}, `qty: "x" is not a DynamoDB number`},
		{&types.AttributeValueMemberN{Value: "1e200"}, `qty: "1e200" is not a DynamoDB number (magnitude larger than 1E+126)`},
	} {
		err := CheckValue("qty", c.av)
		if err == nil || err.Error() != c.want {
			t.Errorf("%v: got %v, want %s", c.av, err, c.want)
		}
	}
}
