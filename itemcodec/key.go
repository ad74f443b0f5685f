package itemcodec

import (
	"encoding/base64"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// KeyString returns a key value as the text a user would type for it: the
// string itself, the number's digits, or base64 for binary.
func KeyString(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(v.Value)
	}
	return ""
}

// TextAttrs are the item's string and number attributes as their text (a
// number's as written), as key templates read them.
func TextAttrs(it map[string]types.AttributeValue) map[string]string {
	out := map[string]string{}
	for k, v := range it {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			out[k] = v.Value
		case *types.AttributeValueMemberN:
			out[k] = v.Value
		}
	}
	return out
}
