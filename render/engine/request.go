package engine

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/render/pipeline"
)

// Sources name the files a render reads, as `xpmigrate render` takes them.
// Only XR and Composition are required.
type Sources struct {
	// XR is a file whose only object is the XR (or a claim, with XRD),
	// or "file.yaml#N" for the file's Nth document, as verify names
	// samples (LoadDocument). Composition is a file whose first object
	// is the Composition.
	XR, Composition string
	// Functions, Observed, Extra and Credentials are files or directories
	// of Function objects, observed composed resources, other cluster
	// objects and Secrets for steps' credentials.
	Functions, Observed, Extra, Credentials string
	// XRD is a file whose first object is the CompositeResourceDefinition.
	XRD string
	// ContextFiles seed context keys from JSON files; ContextValues with
	// JSON values, winning over ContextFiles.
	ContextFiles, ContextValues map[string]string
}

// LoadRequest reads the request the sources name. Every error is invalid
// input (errkind).
func LoadRequest(s Sources) (Request, error) {
	req, err := loadRequest(s)
	return req, errkind.InvalidInput(err)
}

func loadRequest(s Sources) (Request, error) {
	var req Request
	var err error
	if req.XR, err = LoadDocument(s.XR, "composite resource"); err != nil {
		return req, err
	}
	if req.Composition, err = LoadOne(s.Composition, "composition"); err != nil {
		return req, err
	}
	for _, l := range []struct {
		path, what string
		to         *[]map[string]any
	}{
		{s.Functions, "functions", &req.Functions},
		{s.Observed, "observed composed resources", &req.Observed},
	} {
		if l.path == "" {
			continue
		}
		if *l.to, err = LoadAll(l.path, l.what); err != nil {
			return req, err
		}
	}
	if s.Extra != "" {
		if req.Extra, err = LoadExtra(s.Extra, nil); err != nil {
			return req, err
		}
	}
	if s.Credentials != "" {
		if req.Credentials, err = LoadAll(s.Credentials, "function credentials"); err != nil {
			return req, err
		}
	}
	if s.XRD != "" {
		if req.XRD, err = LoadOne(s.XRD, "XRD"); err != nil {
			return req, err
		}
	}
	values := map[string][]byte{}
	for k, path := range s.ContextFiles {
		b, err := manifest.ReadFile(path)
		if err != nil {
			return req, errkind.InvalidInput(errors.Wrapf(err, "cannot read context file for key %q", k))
		}
		values[k] = b
	}
	for k, v := range s.ContextValues {
		values[k] = []byte(v)
	}
	if len(values) > 0 {
		if req.Context, err = pipeline.ContextFromJSON(values); err != nil {
			return req, errkind.InvalidInput(err)
		}
	}
	return req, nil
}

// LoadOne reads the first object of a YAML file, as crossplane render
// does; what names it in errors.
func LoadOne(path, what string) (map[string]any, error) {
	docs, err := manifest.LoadFile(path)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot load %s", what)
	}
	if len(docs) == 0 {
		return nil, errkind.InvalidInputf("cannot load %s: %q holds no YAML document", what, path)
	}
	return docs[0].Object, nil
}

// LoadDocument reads one object: the only document of a file, or, for
// "file.yaml#N" (a file of that name not existing), the Nth document of
// file.yaml as verify and migrate number them (from 1, empty documents
// counted). A file of several documents without #N is invalid input that
// names them; what names the object in errors.
func LoadDocument(spec, what string) (map[string]any, error) {
	path, n := spec, 0
	if i := strings.LastIndexByte(spec, '#'); i >= 0 && !exists(spec) {
		v, err := strconv.Atoi(spec[i+1:])
		if err != nil || v < 1 {
			return nil, errkind.InvalidInputf("cannot load %s: %q: want file.yaml#N with N a document number from 1", what, spec)
		}
		path, n = spec[:i], v
	}
	docs, err := manifest.LoadFile(path)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot load %s", what)
	}
	if len(docs) == 0 {
		return nil, errkind.InvalidInputf("cannot load %s: %q holds no YAML document", what, path)
	}
	if n == 0 && len(docs) == 1 {
		return docs[0].Object, nil
	}
	names := make([]string, len(docs))
	for i, d := range docs {
		if n > 0 && d.Index+1 == n {
			return d.Object, nil
		}
		md, _ := d.Object["metadata"].(map[string]any)
		kind, _ := d.Object["kind"].(string)
		name, _ := md["name"].(string)
		names[i] = fmt.Sprintf("%s#%d (%s %s)", path, d.Index+1, kind, name)
	}
	if n > 0 {
		return nil, errkind.InvalidInputf("cannot load %s: %q has no document %d; its documents: %s", what, path, n, strings.Join(names, ", "))
	}
	return nil, errkind.InvalidInputf("cannot load %s: %q holds %d documents: name one, as %s#N: %s", what, path, len(docs), path, strings.Join(names, ", "))
}

// LoadAll reads every object of a file or directory; what names them in
// errors.
func LoadAll(path, what string) ([]map[string]any, error) {
	docs, err := manifest.LoadPath(path)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot load %s from %q", what, path)
	}
	return manifest.Objects(docs), nil
}

// LoadExtra reads the extra resources at path ("" reads none) and appends
// them to more (extra objects read elsewhere): one copy of an
// EnvironmentConfig given in several API versions, and a conflict naming
// both files.
func LoadExtra(path string, more []manifest.Document) ([]map[string]any, error) {
	var docs []manifest.Document
	if path != "" {
		var err error
		if docs, err = manifest.LoadPath(path); err != nil {
			return nil, errors.Wrapf(err, "cannot load extra resources from %q", path)
		}
	}
	objs, err := DistinctExtra(append(docs, more...))
	if err != nil {
		return nil, errors.Wrap(err, "cannot load extra resources")
	}
	return objs, nil
}

// exists reports whether a file of that name exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
