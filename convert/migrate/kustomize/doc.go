// Package kustomize reads the patches of kustomizations and rewrites the
// JSON 6902 ones that point into a legacy Composition to where the same
// content is once the Composition is converted to mode Pipeline.
//
// It knows kustomize's files, not the migrated tree: Patches lists the
// patch entries of one kustomization (patchesStrategicMerge,
// patchesJson6902, patches), PipelinePointer maps one JSON pointer
// (/spec/resources/0/base/spec/x becomes
// /spec/pipeline/1/input/resources/0/base/spec/x with the
// patch-and-transform step at index 1), and JSONPatchEdits and
// ApplyTextEdits turn that into text edits of the path scalars, so that
// everything else in the file stays byte for byte. Which patches target
// which Compositions, the M401 findings and the rewriting of the files are
// the tree scan's (convert/migrate/tree) and the run's (convert/migrate).
//
//	ops := kustomize.JSONPatchEdits(text, 1, 0, "", "my-composition", 1)
//	var edits []kustomize.TextEdit
//	for _, op := range ops {
//		edits = append(edits, op.Edits...)
//	}
//	out, err := kustomize.ApplyTextEdits([]byte(text), edits)
package kustomize
