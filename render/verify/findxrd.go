package verify

import (
	"bytes"
	"io/fs"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/samples"
)

// FindXRD looks for the CompositeResourceDefinition of the Composition's
// XR type where FindExamples looks, and returns the one FindExamples
// would, or nil. Only documents that mention CompositeResourceDefinition
// are decoded, so it costs a read of the files, not a parse of every YAML
// document of the tree: what a caller that has its samples (and needs the
// XRD only for claims or synthesis) should use.
func FindXRD(fsys fs.FS, dir string, legacy Document) (map[string]any, error) {
	lc, err := loadComposition(legacy)
	if err != nil {
		return nil, err
	}
	mark := []byte(xrdMark)
	var xrds []samples.Doc
	for _, f := range candidateFiles(fsys, dir) {
		b, err := fs.ReadFile(fsys, f)
		if err != nil || !bytes.Contains(b, mark) {
			continue
		}
		for _, d := range manifest.Split(b) {
			if !bytes.Contains(d.Raw, mark) {
				continue
			}
			if o, err := d.Decode(); err == nil && o != nil {
				xrds = append(xrds, samples.Doc{File: f, Index: d.Index, Item: -1, Object: o})
			}
		}
	}
	return nearestXRD(xrds, dir, lc), nil
}
