package verify

import (
	"bytes"
	"io/fs"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// FindXRD looks for the CompositeResourceDefinition of the Composition's
// XR kind where FindExamples looks, and returns the one FindExamples
// would, or nil. Only documents that mention CompositeResourceDefinition
// are decoded, so it costs a read of the files, not a parse of every YAML
// document beside the Composition: what a caller that has its samples
// (and needs the XRD only for claims or synthesis) should use.
func FindXRD(fsys fs.FS, dir string, legacy Document) (map[string]any, error) {
	lc, err := loadComposition(legacy)
	if err != nil {
		return nil, err
	}
	xrKind := jsonobj.String(lc.obj, "spec", "compositeTypeRef", "kind")
	mark := []byte("CompositeResourceDefinition")
	for _, f := range candidateFiles(fsys, dir) {
		b, err := fs.ReadFile(fsys, f)
		if err != nil || !bytes.Contains(b, mark) {
			continue
		}
		for _, d := range manifest.Split(b) {
			if !bytes.Contains(d.Raw, mark) {
				continue
			}
			o, err := d.Decode()
			if err != nil || o == nil {
				continue
			}
			if o["kind"] == "CompositeResourceDefinition" && jsonobj.String(o, "spec", "names", "kind") == xrKind {
				return o, nil
			}
		}
	}
	return nil, nil
}
