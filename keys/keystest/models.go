// Package keystest is for tests only: it reads the key values of the
// published data models CI keeps beside the clone (../shared/real-models),
// so the tests of every package that names entity types (keys, the UI) hold
// themselves to the same real keys. The models are never copied into the
// repository. It imports nothing of dynascope.
package keystest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
)

// Dir is where CI keeps the published models, from the directory of a
// package one level below the repository's root (keys, ui).
const Dir = "../../shared/real-models"

// Files are the models under dir (Dir), by their path below it with
// forward slashes; none when dir is absent (the caller says why it skips).
func Files(dir string) (map[string]string, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, nil
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, p := range paths {
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return nil, err
		}
		out[filepath.ToSlash(rel)] = p
	}
	return out, nil
}

// Partitions reads just the key values of a published model, tolerant of
// every format the corpus holds (Workbench 1.0 to 3.0 with data in the
// table or its facets, a BatchWriteItem document, a plain JSON array), and
// returns the sort keys of each partition in DynamoDB's order, each once.
func Partitions(path string) (map[string][]string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	parts := map[string][]string{}
	add := func(row map[string]any, pkName, skName string) {
		pk, ok := text(row[pkName])
		sk, ok2 := text(row[skName])
		if ok && ok2 {
			parts[pk] = append(parts[pk], sk)
		}
	}
	switch d := doc.(type) {
	case []any: // a plain array of items
		for _, r := range d {
			if row, ok := r.(map[string]any); ok {
				add(row, "PK", "SK")
			}
		}
	case map[string]any:
		tables, ok := d["DataModel"].([]any)
		if !ok { // a BatchWriteItem document: table name -> put requests
			for _, reqs := range d {
				list, _ := reqs.([]any)
				for _, r := range list {
					req, _ := r.(map[string]any)
					put, _ := req["PutRequest"].(map[string]any)
					item, _ := put["Item"].(map[string]any)
					add(item, "PK", "SK")
				}
			}
			break
		}
		for _, tm := range tables {
			tm, _ := tm.(map[string]any)
			ka, _ := tm["KeyAttributes"].(map[string]any)
			pkAttr, _ := ka["PartitionKey"].(map[string]any)
			pkName, _ := pkAttr["AttributeName"].(string)
			skAttr, _ := ka["SortKey"].(map[string]any)
			skName, _ := skAttr["AttributeName"].(string)
			rows, _ := tm["TableData"].([]any)
			facets, _ := tm["TableFacets"].([]any)
			for _, f := range facets {
				fm, _ := f.(map[string]any)
				more, _ := fm["TableData"].([]any)
				rows = append(rows, more...)
			}
			for _, r := range rows {
				if row, ok := r.(map[string]any); ok {
					add(row, pkName, skName)
				}
			}
		}
	}
	for pk, sks := range parts {
		sort.Strings(sks) // DynamoDB's byte order
		// A model that holds an item in the table and again in a facet has
		// it once in DynamoDB.
		parts[pk] = slices.Compact(sks)
	}
	return parts, nil
}

// text is a key value as the model writes it: plain, or typed (S, N, B).
func text(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case map[string]any:
		for _, typ := range []string{"S", "N", "B"} {
			if s, ok := v[typ].(string); ok {
				return s, true
			}
		}
	}
	return "", false
}

// KeyShapes is where the CLI's key-shape fixtures are (JSON lines of PK
// and SK), from the directory of a package one level below the root.
const KeyShapes = "../cli/testdata/keyshapes/keyshapes.jsonl"

// Key is one item's key as a file of JSON lines holds it.
type Key struct{ PK, SK string }

// Keys reads a file of JSON lines, each an item with string PK and SK
// (KeyShapes), in the file's order.
func Keys(path string) ([]Key, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Key
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var k Key
		if err := json.Unmarshal(sc.Bytes(), &k); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		out = append(out, k)
	}
	return out, sc.Err()
}
