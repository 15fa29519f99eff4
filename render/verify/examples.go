package verify

import (
	"bytes"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/samples"
	"github.com/xpmigrate/xpmigrate/internal/xp"
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

// FindExamples looks for examples of a Composition's composite resource
// in the tree it belongs to, as `migrate` does when it is run on that
// tree: it finds the tree's root (treeRoot: the nearest directory above
// the Composition holding .git, else one holding a Configuration's
// crossplane.yaml), reads every YAML and JSON file under it (treeFiles:
// .gitignore honoured, .git skipped), and asks the sample finder migrate
// shares (internal/samples.Find) for the documents of the Composition's
// XR type (compositeTypeRef apiVersion and kind) or of its XRD's claim
// type that select it (compositionRef, compositionSelector), nearest the
// Composition first. Files beside the Composition and in the examples/
// and example/ directories of its directory, its parent and its
// grandparent are read too, so a Composition outside any tree still finds
// the examples kept with it. The XRD is the given xrd, else the nearest
// CompositeResourceDefinition of the XR's group and kind in those files.
// Documents of a sample's type that are not samples (test-framework
// fixtures, objects without a name: see internal/samples) are listed in
// Skipped instead.
//
// dir is the slash-separated directory of the Composition in fsys. Sample
// names are paths relative to dir with the document number
// ("../examples/xr.yaml#1"), and an item's in a List ("#1.2").
// Unreadable files and documents are skipped.
func FindExamples(fsys fs.FS, dir string, legacy Document, xrd map[string]any) (*Examples, error) {
	lc, err := loadComposition(legacy)
	if err != nil {
		return nil, err
	}
	// One read of each file: only files that mention a CompositeResourceDefinition,
	// the group of the XR and claim types, or a test framework's group are
	// decoded.
	group := xp.Group(jsonobj.String(lc.obj, "spec", "compositeTypeRef", "apiVersion"))
	marks := [][]byte{[]byte(xrdMark), []byte(group + "/"), []byte("kuttl.dev"), []byte("chainsaw.kyverno.io")}
	if g := jsonobj.String(xrd, "spec", "group"); g != "" && g != group {
		marks = append(marks, []byte(g+"/"))
	}
	var docs, xrds []samples.Doc
	filter := samples.NewFilter(func(f string) string { return relPath(dir, f) })
	for _, f := range candidateFiles(fsys, dir) {
		b, err := fs.ReadFile(fsys, f)
		if err != nil || !containsAny(b, marks) {
			continue
		}
		for _, d := range manifest.Split(b) {
			o, err := d.Decode()
			if err != nil || o == nil {
				continue
			}
			filter.Observe(f, o)
			doc := samples.Doc{File: f, Index: d.Index, Item: -1, Line: d.Line, Object: o}
			if o["kind"] == xrdMark {
				xrds = append(xrds, doc)
			}
			docs = append(docs, doc)
			if o["apiVersion"] != "v1" || o["kind"] != "List" {
				continue
			}
			items, _ := o["items"].([]any)
			for i, it := range items {
				if m, ok := it.(map[string]any); ok {
					docs = append(docs, samples.Doc{File: f, Index: d.Index, Item: i, Line: d.Line, Object: m})
				}
			}
		}
	}
	out := &Examples{XRD: xrd}
	if out.XRD == nil {
		out.XRD = nearestXRD(xrds, dir, lc)
	}
	c := sampleComposition(dir, lc, out.XRD)
	found, skipped := samples.Find(c, docs, filter, 0)
	for _, sk := range skipped {
		// A fixture file is reported once; an unnamed object by its
		// document.
		rel := relPath(dir, sk.Doc.File)
		skip := SkippedSample{Path: rel, Reason: sk.Reason}
		if sk.Reason == samples.NotASample(sk.Doc.Object) {
			skip.Path = rel + sk.Doc.Suffix()
		}
		if n := len(out.Skipped); n == 0 || out.Skipped[n-1] != skip {
			out.Skipped = append(out.Skipped, skip)
		}
	}
	for _, d := range found {
		rel := relPath(dir, d.File)
		out.Samples = append(out.Samples, Sample{
			Name:   rel + d.Suffix(),
			Source: rel,
			Line:   d.Line,
			XR:     d.Object,
		})
	}
	return out, nil
}

// sampleComposition is the Composition as the sample finder knows it: in
// dir, with its name, labels and type, and the claim type of xrd.
func sampleComposition(dir string, lc *composition, xrd map[string]any) samples.Composition {
	c := samples.Composition{
		File:       path.Join(dir, "composition"),
		Name:       jsonobj.String(lc.obj, "metadata", "name"),
		APIVersion: jsonobj.String(lc.obj, "spec", "compositeTypeRef", "apiVersion"),
		Kind:       jsonobj.String(lc.obj, "spec", "compositeTypeRef", "kind"),
	}
	if labels, _ := jsonobj.Value(lc.obj, "metadata", "labels").(map[string]any); len(labels) > 0 {
		c.Labels = map[string]string{}
		for k, v := range labels {
			if s, ok := v.(string); ok {
				c.Labels[k] = s
			}
		}
	}
	if k := jsonobj.String(xrd, "spec", "claimNames", "kind"); k != "" {
		c.ClaimGroup, c.ClaimKind = jsonobj.String(xrd, "spec", "group"), k
	}
	return c
}

// xrdMark is the kind of a CompositeResourceDefinition: files and
// documents that do not mention it hold none.
const xrdMark = "CompositeResourceDefinition"

// nearestXRD returns the CompositeResourceDefinition of the Composition's
// XR type (group and kind) among docs nearest dir, of those as near the
// first, or nil: the XRD migrate pairs with the Composition.
func nearestXRD(docs []samples.Doc, dir string, lc *composition) map[string]any {
	xrKind := jsonobj.String(lc.obj, "spec", "compositeTypeRef", "kind")
	group := xp.Group(jsonobj.String(lc.obj, "spec", "compositeTypeRef", "apiVersion"))
	var best map[string]any
	bestScore := -1
	for _, d := range docs {
		o := d.Object
		if o["kind"] != xrdMark || jsonobj.String(o, "spec", "names", "kind") != xrKind || jsonobj.String(o, "spec", "group") != group {
			continue
		}
		if sc := samples.SharedDirs(path.Join(dir, "composition"), d.File); sc > bestScore {
			best, bestScore = o, sc
		}
	}
	return best
}

func containsAny(b []byte, marks [][]byte) bool {
	for _, m := range marks {
		if len(m) > 0 && bytes.Contains(b, m) {
			return true
		}
	}
	return false
}

// candidateFiles lists the files FindExamples reads, sorted, once each:
// the YAML and JSON files of the tree dir is in (treeRoot, treeFiles),
// and those beside dir and in the examples/ and example/ directories of
// dir, its parent and its grandparent.
func candidateFiles(fsys fs.FS, dir string) []string {
	seen := map[string]bool{}
	var out []string
	addFile := func(p string) {
		if isManifestName(p) && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	if root, ok := treeRoot(fsys, dir); ok {
		for _, f := range treeFiles(fsys, root) {
			addFile(f)
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

// isManifestName reports whether a file may hold manifests, as migrate
// reads them: YAML or JSON.
func isManifestName(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
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
