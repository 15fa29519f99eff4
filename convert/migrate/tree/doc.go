// Package tree is the migrator's view of a repository before anything is
// converted: the walk that lists its files, the scan that reads and
// classifies each candidate once, and the index of what the files hold.
//
// Walk lists a tree in lexical path order, honouring .gitignore files and
// the include and exclude globs, following symlinked directories that stay
// inside the tree, and reporting the paths it will not read (symlink loops
// and escapes, FIFOs and devices) as skipped entries. ScanFile reads one
// candidate file: it refuses what is too large, templated (Helm, ytt) or
// unparseable, with a Reason, and otherwise keeps a slim DocInfo of every
// document (a Composition keeps only what the index needs) with the
// v2-readiness findings that one document shows (M403–M406). BuildIndex
// then relates the files: Compositions, XRDs, XR and claim examples,
// EnvironmentConfigs, Function manifests, Configurations (package scopes)
// and kustomizations, whose patches into spec.resources of a Composition
// get finding M401 (convert/migrate/kustomize reads the patches).
//
// It converts and writes nothing: the run (convert/migrate) walks, scans
// every file in parallel, builds the index, and then asks it, per
// Composition, for the XRD (Index.XRDFor), the samples (Index.SamplesFor)
// and the EnvironmentConfigs (Index.EnvConfigsFor) of its verification.
//
//	w, err := tree.Walk(ctx, root, nil, nil, "")
//	if err != nil {
//		return err
//	}
//	var files []*tree.Scanned
//	for _, e := range w.Entries {
//		if e.Kind == tree.EntryCandidate {
//			files = append(files, tree.ScanFile(e))
//		}
//	}
//	ix := tree.BuildIndex(files)
package tree
