package convert

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// ReadProviderCRDs reads the CustomResourceDefinitions of the
// --provider-crds paths, for convert.Options.ProviderCRDs: each path is a
// file, or a directory whose .yaml, .yml and .json files are read (a
// provider's package/crds). A path without any CRD is invalid input.
func ReadProviderCRDs(paths []string) ([]map[string]any, error) {
	var out []map[string]any
	for _, p := range paths {
		files, err := crdFiles(p)
		if err != nil {
			return nil, errkind.InvalidInput(errors.Wrapf(err, "cannot read --provider-crds %q", p))
		}
		n := 0
		for _, f := range files {
			// A FIFO or device is refused, not waited on.
			b, err := manifest.ReadFile(f)
			if err != nil {
				return nil, errkind.InvalidInput(errors.Wrapf(err, "cannot read --provider-crds %q", f))
			}
			for _, d := range manifest.Split(b) {
				obj, err := d.Decode()
				if err != nil {
					return nil, errkind.InvalidInput(errors.Wrapf(err, "cannot read --provider-crds %q", f))
				}
				av, _ := obj["apiVersion"].(string)
				if obj["kind"] == "CustomResourceDefinition" && xp.Group(av) == "apiextensions.k8s.io" {
					out = append(out, obj)
					n++
				}
			}
		}
		if n == 0 {
			return nil, errkind.InvalidInputf("--provider-crds %q holds no CustomResourceDefinition", p)
		}
	}
	return out, nil
}

// crdFiles returns path, or the YAML and JSON files under the directory
// path, in lexical order.
func crdFiles(path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return []string{path}, nil
	}
	var out []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := strings.ToLower(filepath.Ext(p)); !d.IsDir() && (ext == ".yaml" || ext == ".yml" || ext == ".json") {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}
