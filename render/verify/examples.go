package verify

import (
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/samples"
)

// Examples are the objects found beside a Composition.
type Examples struct {
	// Samples are the XRs and claims of the Composition's kinds.
	Samples []Sample

	// Skipped are the documents of those kinds that are not samples
	// (test-framework fixtures, objects without a name), and why, in file
	// order.
	Skipped []SkippedSample

	// XRD is the CompositeResourceDefinition of the Composition's XR
	// kind, when one was found.
	XRD map[string]any
}

// A SkippedSample is a file, or one document of a file, of a sample's kind
// that is not a sample.
type SkippedSample struct {
	// Path names the file as sample names do, with "#<document>" when
	// only that document is skipped.
	Path string

	// Reason says why it is not a sample.
	Reason string
}

// FindExamples looks beside a Composition for examples of its composite
// resource: in the Composition's directory, and in the examples/ and
// example/ directories (searched recursively) of that directory, its parent
// and its grandparent, as repositories usually keep them. It keeps the
// documents whose kind is the Composition's XR kind (and apiVersion its
// compositeTypeRef.apiVersion), or the claim kind of the XRD, which it also
// looks for: the given xrd, else a CompositeResourceDefinition for the XR
// kind in the same places. Documents of those kinds that are not samples
// (test-framework fixtures, objects without a name: see internal/samples)
// are listed in Skipped instead.
//
// dir is the slash-separated directory of the Composition in fsys. Sample
// names are paths relative to dir with the document number
// ("../examples/xr.yaml#1"). Unreadable files and documents are skipped.
func FindExamples(fsys fs.FS, dir string, legacy Document, xrd map[string]any) (*Examples, error) {
	lc, err := loadComposition(legacy)
	if err != nil {
		return nil, err
	}
	xrKind := jsonobj.String(lc.obj, "spec", "compositeTypeRef", "kind")
	xrAPIVersion := jsonobj.String(lc.obj, "spec", "compositeTypeRef", "apiVersion")

	files := candidateFiles(fsys, dir)
	type doc struct {
		file string
		d    manifest.Document
	}
	var docs []doc
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			continue
		}
		for _, d := range manifest.Split(b) {
			o, err := d.Decode()
			if err != nil || o == nil {
				continue
			}
			d.Object = o
			docs = append(docs, doc{file: f, d: d})
		}
	}
	filter := samples.NewFilter(func(f string) string { return relPath(dir, f) })
	for _, d := range docs {
		filter.Observe(d.file, d.d.Object)
	}
	out := &Examples{XRD: xrd}
	if out.XRD == nil {
		for _, d := range docs {
			if d.d.Object["kind"] == "CompositeResourceDefinition" && jsonobj.String(d.d.Object, "spec", "names", "kind") == xrKind {
				out.XRD = d.d.Object
				break
			}
		}
	}
	claimKind := jsonobj.String(out.XRD, "spec", "claimNames", "kind")
	group := jsonobj.String(out.XRD, "spec", "group")
	for _, d := range docs {
		k, _ := d.d.Object["kind"].(string)
		av, _ := d.d.Object["apiVersion"].(string)
		isXR := k == xrKind && av == xrAPIVersion
		isClaim := claimKind != "" && k == claimKind && strings.HasPrefix(av, group+"/")
		if !isXR && !isClaim {
			continue
		}
		rel := relPath(dir, d.file)
		if reason := filter.Reason(d.file, d.d.Object); reason != "" {
			// A fixture file is reported once; an unnamed object by its
			// document.
			skip := SkippedSample{Path: rel, Reason: reason}
			if reason == samples.NotASample(d.d.Object) {
				skip.Path = rel + "#" + strconv.Itoa(d.d.Index+1)
			}
			if n := len(out.Skipped); n == 0 || out.Skipped[n-1] != skip {
				out.Skipped = append(out.Skipped, skip)
			}
			continue
		}
		out.Samples = append(out.Samples, Sample{
			Name:   rel + "#" + strconv.Itoa(d.d.Index+1),
			Source: rel,
			Line:   d.d.Line,
			XR:     d.d.Object,
		})
	}
	return out, nil
}

// candidateFiles lists the YAML files FindExamples reads, sorted, once
// each.
func candidateFiles(fsys fs.FS, dir string) []string {
	seen := map[string]bool{}
	var out []string
	addFile := func(p string) {
		if ext := path.Ext(p); (ext == ".yaml" || ext == ".yml") && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	if entries, err := fs.ReadDir(fsys, dir); err == nil {
		for _, e := range entries {
			if !e.IsDir() {
				addFile(path.Join(dir, e.Name()))
			}
		}
	}
	for base, i := dir, 0; i < 3; base, i = path.Dir(base), i+1 {
		for _, sub := range []string{"examples", "example"} {
			root := path.Join(base, sub)
			_ = fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil //nolint:nilerr // Missing directories are the normal case.
				}
				if !d.IsDir() {
					addFile(p)
				}
				return nil
			})
		}
		if base == "." || base == "/" || base == "" {
			break
		}
	}
	sort.Strings(out)
	return out
}

// relPath returns target relative to dir, both slash-separated paths in
// one file system.
func relPath(dir, target string) string {
	ds := splitPath(dir)
	ts := splitPath(target)
	i := 0
	for i < len(ds) && i < len(ts) && ds[i] == ts[i] {
		i++
	}
	parts := make([]string, 0, len(ds)-i+len(ts)-i)
	for j := i; j < len(ds); j++ {
		parts = append(parts, "..")
	}
	parts = append(parts, ts[i:]...)
	return strings.Join(parts, "/")
}

func splitPath(p string) []string {
	p = path.Clean(p)
	if p == "." {
		return nil
	}
	return strings.Split(p, "/")
}
