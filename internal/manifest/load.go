package manifest

import (
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
)

// LoadStream reads a YAML stream and decodes every non-empty document.
// Errors name the source, the document and its line. A stream larger than
// Limits.MaxFileSize, or a document nested deeper than Limits.MaxDepth, is
// invalid input.
func LoadStream(r io.Reader, source string) ([]Document, error) {
	b, err := ReadAll(r, source)
	if regularfile.IsTooLarge(err) {
		return nil, errkind.InvalidInput(err)
	}
	if err != nil {
		return nil, errors.Wrapf(err, "cannot read %s", source)
	}
	return loadBytes(b, source)
}

func loadBytes(b []byte, source string) ([]Document, error) {
	var out []Document
	for _, d := range Split(b) {
		d.Source = source
		o, err := d.Decode()
		if err != nil {
			return nil, errkind.InvalidInput(NewDocumentError(source, d, err))
		}
		if o == nil {
			continue
		}
		d.Object = o
		out = append(out, d)
	}
	return out, nil
}

// LoadFile reads one YAML file. A file that is not a regular file, or is
// larger than Limits.MaxFileSize, is invalid input, refused unread.
func LoadFile(path string) ([]Document, error) {
	b, err := ReadFile(path)
	if err != nil {
		return nil, errkind.InvalidInput(errors.Wrapf(err, "cannot open %q", path))
	}
	return loadBytes(b, path)
}

// LoadPath reads a file, or every .yaml and .yml file directly in a
// directory (not recursive), in name order, as crossplane render does. An
// empty directory is an error.
func LoadPath(path string) ([]Document, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, errkind.InvalidInput(errors.Wrapf(err, "cannot open %q", path))
	}
	if !fi.IsDir() {
		return LoadFile(path)
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, errkind.InvalidInput(errors.Wrapf(err, "cannot read directory %q", path))
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		if ext := filepath.Ext(e.Name()); ext == ".yaml" || ext == ".yml" {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil, errkind.InvalidInputf("no YAML files found in %q (.yaml or .yml)", path)
	}
	sort.Strings(names)
	var out []Document
	for _, n := range names {
		docs, err := LoadFile(filepath.Join(path, n))
		if err != nil {
			return nil, err
		}
		out = append(out, docs...)
	}
	return out, nil
}

// Objects returns the decoded objects of docs.
func Objects(docs []Document) []map[string]any {
	out := make([]map[string]any, 0, len(docs))
	for _, d := range docs {
		out = append(out, d.Object)
	}
	return out
}
