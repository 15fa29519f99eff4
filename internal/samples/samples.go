// Package samples tells sample composite resources (XRs) and claims from
// documents of the same kind that are not samples: the fixtures of test
// frameworks, which state what a test expects rather than what a user
// applies, and objects that cannot be an XR at all. `verify` (finding
// examples beside a Composition) and `migrate` (indexing a repository) use
// the same rules:
//
//   - kuttl's *-assert.yaml and *-errors.yaml files;
//   - every file in a directory that holds a kuttl TestStep or TestAssert
//     (kuttl.dev), or a chainsaw Test (chainsaw.kyverno.io);
//   - any object without metadata.name.
//
// Observe every document of the tree first, then ask Reason:
//
//	f := samples.NewFilter(nil)
//	for _, d := range docs {
//		f.Observe(d.File, d.Object)
//	}
//	if why := f.Reason(file, obj); why != "" {
//		// not a sample
//	}
//
// Find is the one sample finder both share: given a Composition (its
// file, name, labels, XR type and its XRD's claim type) and the documents
// of a tree, it returns the XRs and claims of its type that select it,
// nearest first.
package samples

import (
	"fmt"
	"path"
	"strings"
)

// A Filter holds what it observed of a tree: which directories are test
// directories.
type Filter struct {
	// display names a file in reasons; nil shows it as given.
	display func(file string) string
	// dirs holds, by directory, the marker that makes its files fixtures.
	dirs map[string]marker
}

type marker struct {
	what string // "beside a kuttl TestStep", ...
	file string
}

// NewFilter returns a Filter whose reasons name files with display (nil
// shows them as given). Files are slash-separated paths.
func NewFilter(display func(file string) string) *Filter {
	return &Filter{display: display, dirs: map[string]marker{}}
}

// Observe records one document of file: a kuttl TestStep or TestAssert, or
// a chainsaw Test, makes every file of its directory a fixture.
func (f *Filter) Observe(file string, obj map[string]any) {
	k, _ := obj["kind"].(string)
	av, _ := obj["apiVersion"].(string)
	group, _, _ := strings.Cut(av, "/")
	var what string
	switch {
	case group == "kuttl.dev" && (k == "TestStep" || k == "TestAssert"):
		what = "beside a kuttl " + k
	case group == "chainsaw.kyverno.io" && k == "Test":
		what = "in a chainsaw Test directory"
	default:
		return
	}
	dir := path.Dir(file)
	if _, ok := f.dirs[dir]; !ok {
		f.dirs[dir] = marker{what: what, file: file}
	}
}

// Reason returns why a document of file, of a sample's kind, is not a
// sample, or "" when it may be one.
func (f *Filter) Reason(file string, obj map[string]any) string {
	base := strings.TrimSuffix(strings.TrimSuffix(path.Base(file), ".yaml"), ".yml")
	switch {
	case base == "assert" || strings.HasSuffix(base, "-assert"):
		return "a kuttl assert file (*-assert.yaml): a test's expected state, not a sample"
	case base == "errors" || strings.HasSuffix(base, "-errors"):
		return "a kuttl errors file (*-errors.yaml): a test's forbidden state, not a sample"
	}
	if m, ok := f.dirs[path.Dir(file)]; ok {
		shown := m.file
		if f.display != nil {
			shown = f.display(m.file)
		}
		return fmt.Sprintf("%s (%s): a test fixture, not a sample", m.what, shown)
	}
	return NotASample(obj)
}

// NotASample returns why an object of a sample's kind can never be a
// sample, wherever it is found, or "": it has no metadata.name.
func NotASample(obj map[string]any) string {
	md, _ := obj["metadata"].(map[string]any)
	if n, _ := md["name"].(string); n == "" {
		return "no metadata.name: cannot be an XR or a claim"
	}
	return ""
}
