package itemcodec

// The layout of a DynamoDB export to S3, copied down: a directory holding
// manifest-summary.json, manifest-files.json (one line per data file) and
// data/*.json.gz.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"dynascope/textfmt"
)

// InputFiles are the files a --file argument names, and what an export's
// manifest says about them.
type InputFiles struct {
	Paths []string
	// Table is the exported table's name from manifest-summary.json's
	// tableArn; "" without one.
	Table string
	// Items is the item count the manifest lists, -1 without a manifest.
	Items int64
	// Shown is how messages name the one file of Paths when it is a copy
	// of a stream (SpoolInput); "" names Paths as they are.
	Shown string
}

// ResolveInput turns --file's argument into the files to read: the file
// itself; for a directory its export manifest's data files, else every
// .json and .json.gz file under it; for manifest-files.json the files it
// lists.
func ResolveInput(p string) (InputFiles, error) {
	in := InputFiles{Items: -1}
	st, err := os.Stat(p)
	if err != nil {
		return in, &textfmt.UserError{Msg: fmt.Sprintf("cannot read %s: %v.", p, err), Err: err}
	}
	if st.IsDir() {
		if m := filepath.Join(p, "manifest-files.json"); fileExists(m) {
			return readManifest(m)
		}
		err := filepath.WalkDir(p, func(f string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if !d.IsDir() && !strings.HasPrefix(name, "manifest-") && (strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".json.gz")) {
				in.Paths = append(in.Paths, f)
			}
			return nil
		})
		if err != nil {
			return in, &textfmt.UserError{Msg: fmt.Sprintf("cannot read %s: %v.", p, err), Err: err}
		}
		if len(in.Paths) == 0 {
			return in, &textfmt.UserError{Msg: fmt.Sprintf("directory %s holds no .json or .json.gz files.", p)}
		}
		slices.Sort(in.Paths)
		return in, nil
	}
	if filepath.Base(p) == "manifest-files.json" {
		return readManifest(p)
	}
	in.Paths = []string{p}
	return in, nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// readManifest reads manifest-files.json: a line per data file, naming its
// S3 key and item count. The key is resolved beside the manifest (its data/
// directory), where a download of the export puts the file.
func readManifest(m string) (InputFiles, error) {
	in := InputFiles{Items: 0}
	dir := filepath.Dir(m)
	f, err := os.Open(m)
	if err != nil {
		return in, &textfmt.UserError{Msg: fmt.Sprintf("cannot read %s: %v.", m, err), Err: err}
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var e struct {
			ItemCount     *int64 `json:"itemCount"`
			DataFileS3Key string `json:"dataFileS3Key"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil || e.DataFileS3Key == "" {
			return in, &textfmt.UserError{Msg: fmt.Sprintf("%s line %d: not a manifest entry (want {\"itemCount\": N, \"dataFileS3Key\": \"...\"}).", m, n)}
		}
		base := path.Base(e.DataFileS3Key)
		p := filepath.Join(dir, "data", base)
		if !fileExists(p) {
			if alt := filepath.Join(dir, base); fileExists(alt) {
				p = alt
			} else {
				return in, &textfmt.UserError{Msg: fmt.Sprintf("%s line %d lists %s, which is not in %s; download the export's data/ directory beside the manifest.", m, n, base, filepath.Join(dir, "data"))}
			}
		}
		in.Paths = append(in.Paths, p)
		if e.ItemCount != nil {
			in.Items += *e.ItemCount
		}
	}
	if err := sc.Err(); err != nil {
		return in, &textfmt.UserError{Msg: fmt.Sprintf("cannot read %s: %v.", m, err), Err: err}
	}
	if len(in.Paths) == 0 {
		return in, &textfmt.UserError{Msg: fmt.Sprintf("%s lists no data files.", m)}
	}
	// The summary names the table: arn:aws:dynamodb:REGION:ACCOUNT:table/NAME.
	if b, err := os.ReadFile(filepath.Join(dir, "manifest-summary.json")); err == nil {
		var s struct {
			TableArn string `json:"tableArn"`
		}
		if json.Unmarshal(b, &s) == nil {
			if i := strings.LastIndex(s.TableArn, ":table/"); i >= 0 {
				in.Table = s.TableArn[i+len(":table/"):]
			}
		}
	}
	return in, nil
}
