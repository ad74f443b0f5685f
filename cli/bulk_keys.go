package cli

// --keys: a bulk change of the items a file of keys names. Each line is
// one key as dynascope prints keys ({"PK":"CUST#7","SK":"ORDER#1"}) or as
// the AWS CLI writes them ({"PK":{"S":"CUST#7"},"SK":{"S":"ORDER#1"}}),
// typed by the table's key schema; "-" reads standard input. Each item is
// then read by GetItem, strongly consistent (its image is the write's
// condition), one request a key, its cost said first; a key no item has
// is listed, with nothing to change there.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// keyFiles opens --keys.
type keyFiles struct {
	Open  func(name string) (io.ReadCloser, error)
	Stdin func() io.Reader
}

// maxKeys is the most keys one --keys file may hold: each is a request,
// and a change of more is better split into runs a user can follow.
const maxKeys = 100000

// bulkKeysFlags checks --keys beside the other selectors.
func (o *writeOptions) bulkKeysFlags(sk, entity bool) error {
	others := append([]string{}, o.Bulk.chosen...)
	if sk {
		others = append(others, "--sk")
	}
	others = append(others, entityFlag(entity)...)
	switch {
	case len(others) > 0:
		return usageError{fmt.Sprintf("--keys names the items itself: leave out %s.", strings.Join(others, " and "))}
	case o.PK != "":
		return usageError{"--keys names the items by their whole keys: leave out --pk."}
	case o.Bulk.Keys == "":
		return usageError{"--keys takes a file of JSON keys, one a line, or - for standard input."}
	}
	return o.checkRate()
}

// readKeys reads the keys of a --keys file, typed by t's key schema; a key
// given twice counts once.
func readKeys(r io.Reader, name string, t dynamo.Table) ([]dynamo.Item, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var keys []dynamo.Item
	seen := map[string]bool{}
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		key, err := dynamo.StartKeyJSON(t, "", fmt.Sprintf("--keys %s line %d", name, n), text)
		if err != nil {
			return nil, usageError{strings.ReplaceAll(err.Error(), "a start key", "a key")}
		}
		if id := string(itemcodec.DynamoJSON(key)); !seen[id] {
			seen[id] = true
			keys = append(keys, key)
		}
		if len(keys) > maxKeys {
			return nil, usageError{fmt.Sprintf("--keys %s holds more than %d keys: split it into several changes.", name, maxKeys)}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &textfmt.UserError{Msg: fmt.Sprintf("--keys: reading %s failed: %v.", name, err), Err: err}
	}
	if len(keys) == 0 {
		return nil, usageError{fmt.Sprintf("--keys %s holds no key: give one JSON key a line.", name)}
	}
	return keys, nil
}

// openKeys opens the --keys file name and reads it.
func openKeys(name string, files keyFiles, t dynamo.Table) ([]dynamo.Item, string, error) {
	if name == "-" {
		keys, err := readKeys(files.Stdin(), "(standard input)", t)
		return keys, "standard input", err
	}
	f, err := files.Open(name)
	if err != nil {
		return nil, name, &textfmt.UserError{Msg: fmt.Sprintf("--keys %s: cannot read it (%v).", name, err), Err: err}
	}
	defer f.Close()
	keys, err := readKeys(f, name, t)
	return keys, name, err
}

// selectByKeys reads the item of every key, strongly consistent, one
// GetItem each, its cost said before the first.
func selectByKeys(ctx context.Context, client *dynamo.Client, t dynamo.Table, opts *writeOptions) (selection, error) {
	keys, name, err := openKeys(opts.Bulk.Keys, opts.Bulk.Files, t)
	if err != nil {
		return selection{}, err
	}
	if err := opts.Bulk.checkContinued(keys, name); err != nil {
		return selection{}, err
	}
	sel := selection{what: fmt.Sprintf("%s from %s", textfmt.Plural(len(keys), "key", "keys"), name)}
	fmt.Fprintf(opts.Bulk.Err, "the selection (%s) reads each item once, strongly consistent: %s, at least %s RCU (1 per 4 KB of each item); Ctrl-C stops it and sends nothing\n",
		textfmt.Sanitize(sel.what), textfmt.Plural(len(keys), "GetItem request", "GetItem requests"), jsonFloat(float64(len(keys))))
	if err := readImages(ctx, client, t, keys, &sel); err != nil {
		return sel, fmt.Errorf("%s: the selection stopped after %d of %d keys: nothing planned, nothing sent: %w", opts.Command, len(sel.read.Requests), len(keys), err)
	}
	sel.read.Count, sel.read.Scanned, sel.read.Stop = len(sel.items), len(sel.items), dynamo.StopComplete
	return sel, nil
}

// readImages reads the item of each key into sel, strongly consistent,
// one GetItem each: the items found, and the keys no item has (missing).
// A Ctrl-C is context.Canceled, which Main names as the signal.
func readImages(ctx context.Context, client *dynamo.Client, t dynamo.Table, keys []dynamo.Item, sel *selection) error {
	for _, key := range keys {
		_, pk := edit.ValueInput(key[t.PK.Name])
		sk := ""
		if t.SK != nil {
			_, sk = edit.ValueInput(key[t.SK.Name])
		}
		page, err := client.GetItem(ctx, dynamo.GetInput{Table: t.Name, PK: pk, SK: sk, Consistent: true})
		if err != nil {
			if errors.Is(ctx.Err(), context.Canceled) {
				err = context.Canceled
			}
			return err
		}
		sel.read.Requests = append(sel.read.Requests, page.Request)
		if len(page.Items) == 0 {
			sel.missing = append(sel.missing, key)
			continue
		}
		sel.items = append(sel.items, page.Items[0])
	}
	return nil
}
