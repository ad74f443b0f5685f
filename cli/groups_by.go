package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/keys"
	"dynascope/textfmt"
)

// groupsBy reads --by: "" for the sort key (sk, the default), else the
// attribute of attribute:NAME.
func groupsBy(by string) (string, error) {
	if by == "sk" {
		return "", nil
	}
	if name, ok := strings.CutPrefix(by, "attribute:"); ok && name != "" {
		return name, nil
	}
	return "", usageError{fmt.Sprintf("--by must be sk or attribute:NAME, not %q.", by)}
}

// byValue is --by, read by groupsBy into the attribute it names ("" for
// the sort key) as the line is read.
type byValue struct{ attr *string }

func (b byValue) String() string {
	if b.attr == nil || *b.attr == "" {
		return "sk"
	}
	return "attribute:" + *b.attr
}

func (b byValue) Type() string { return "string" }

func (b byValue) Set(s string) (err error) {
	*b.attr, err = groupsBy(s)
	return err
}

// byChoices are --by's completions: sk and each generic entity attribute.
func byChoices() []string {
	out := []string{"sk"}
	for _, a := range keys.GenericEntityAttributes {
		out = append(out, "attribute:"+a)
	}
	return out
}

// entityAttributeNote is the line that offers the first page's generic
// entity attribute as the other grouping; "" when it shows none.
func entityAttributeNote(attr string) string {
	if attr == "" {
		return ""
	}
	return fmt.Sprintf("note: every item of the first page has %s, with few values; --by attribute:%s groups by it (reads the whole partition)\n", textfmt.Sanitize(attr), textfmt.Sanitize(attr))
}

// runGroupsByAttribute groups the partition by attr's value from one whole
// read, its bound announced first as groups --count announces its own.
func runGroupsByAttribute(ctx context.Context, opts *groupsOptions) error {
	in := opts.In // the request, its bound added below
	client, _, err := opts.ConnectSettings(ctx)
	if err != nil {
		return err
	}
	announceWholeRead(ctx, client, opts.Err, &in, opts.MaxRCU, "--by attribute:"+textfmt.Sanitize(opts.ByAttribute)+" reads every item of the partition")
	g, err := client.GroupByAttribute(ctx, in, opts.ByAttribute)
	if err != nil && len(g.Groups) == 0 && !stoppedByBound(err) {
		return err
	}
	t, kerr := client.TableKeys(ctx, in.Table)
	if kerr != nil {
		return errors.Join(err, kerr)
	}
	ks, _ := t.Schema(in.Index)
	var b bytes.Buffer
	if opts.Output == "table" {
		writeAttrGroupsText(&b, opts.ByAttribute, g, err != nil)
	} else if jerr := writeAttrGroupsJSON(&b, in.Table, in.Index, ks, in.PK, opts.ByAttribute, g, err != nil); jerr != nil {
		return jerr
	}
	if _, werr := opts.Out.Write(b.Bytes()); werr != nil {
		return werr
	}
	return err
}

// attrGroupsObject is groups --by attribute:NAME's JSON: groups keyed by
// the attribute's value (null for the items without it).
type attrGroupsObject struct {
	Table            string            `json:"table"`
	Index            *string           `json:"index"`
	Partition        keyObject         `json:"partition"`
	Attribute        string            `json:"attribute"`
	Groups           []attrGroupObject `json:"groups"`
	Complete         bool              `json:"complete"`
	Requests         int               `json:"requests"`
	ConsumedCapacity capacityObject    `json:"consumedCapacity"`
}

type attrGroupObject struct {
	Value *string         `json:"value"`
	Count int             `json:"count"`
	First json.RawMessage `json:"first"`
	Last  json.RawMessage `json:"last"`
}

func writeAttrGroupsJSON(b *bytes.Buffer, table, index string, ks dynamo.KeySchema, pk, attr string, g dynamo.AttributeGrouping, stopped bool) error {
	pkv, _ := dynamo.KeyValue(ks.PK, "partition key", pk)
	o := attrGroupsObject{
		Table: table, Index: nullable(index), Attribute: attr,
		Partition: keyObject{{ks.PK.Name, itemcodec.MarshalPlainValue(pkv)}},
		Groups:    []attrGroupObject{}, Complete: !stopped,
		Requests: len(g.Requests), ConsumedCapacity: capacityOfRequests(g.Requests),
	}
	for _, ag := range g.Groups {
		gj := attrGroupObject{Count: ag.Count, First: jsonKey(g.KeyType, ag.First), Last: jsonKey(g.KeyType, ag.Last)}
		if ag.Present {
			gj.Value = &ag.Value
		}
		if ks.SK == nil { // no sort key to name
			gj.First, gj.Last = json.RawMessage("null"), json.RawMessage("null")
		}
		o.Groups = append(o.Groups, gj)
	}
	return writeIndentedJSON(b, o)
}

func writeAttrGroupsText(b *bytes.Buffer, attr string, g dynamo.AttributeGrouping, stopped bool) {
	if len(g.Groups) == 0 {
		b.WriteString("no items in this partition\n")
	} else {
		tw := newColumns(b)
		fmt.Fprintln(tw, strings.ToUpper(textfmt.Sanitize(attr))+"\tCOUNT\tFIRST\tLAST")
		for _, ag := range g.Groups {
			v := "(none)"
			if ag.Present {
				v = textfmt.Sanitize(ag.Value)
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", v, ag.Count, cell(ag.First, 40), cell(ag.Last, 40))
		}
		_ = tw.Flush()
	}
	if stopped {
		b.WriteString("\nincomplete: stopped before the end (why follows); the counts are of what was read\n")
	}
	fmt.Fprintf(b, "\n%s · %s\n", textfmt.Plural(len(g.Requests), "request", "requests"), rcuText(g.Requests))
}
