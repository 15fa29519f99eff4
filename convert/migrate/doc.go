// Package migrate migrates a whole repository: it walks a tree, finds every
// legacy (`mode: Resources`) Composition in every YAML or JSON document,
// converts each file with the single-file converter, proves every conversion
// with the XR and claim examples it finds beside it, and writes the results
// atomically, file by file.
//
// A run has two passes. The scan reads every candidate file once, in
// parallel, and builds an index of the tree: Compositions, XRDs, XR and claim
// examples, EnvironmentConfigs, Function manifests, Configurations and
// kustomizations. The migration then handles one file at a time on each of
// Options.Jobs workers: it re-reads the file (a file that vanished or changed
// since the scan is reported and left alone), converts it, verifies every
// Composition it converted against the examples the index matched to it, and
// writes it. Results are reported in path order whatever the scheduling, so
// two runs over the same tree print the same thing.
//
// What is skipped, and never touched:
//
//   - files ignored by .gitignore (the root's and nested ones), excluded by
//     Options.Exclude, or not matched by Options.Include;
//   - files with Helm or Go-template syntax that is not valid YAML (a `{{`
//     in a block scalar is valid YAML, so function-go-templating input is
//     migrated as usual);
//   - ytt files (`#@` annotations), which are templates even when they parse;
//   - anything else that does not parse;
//   - kustomize patch files (they hold fragments, not Compositions);
//   - read-only files, symlinks that leave the tree, and symlink loops.
//
// Writes are atomic: the new content goes to a temporary file in the same
// directory, which is renamed over the old one, so every file is either old
// or new, never half-written, even when the context is cancelled mid-run:
// cancellation is checked between files, and a file already being written is
// finished.
//
// The parts that do not sequence the run are packages of their own:
// convert/migrate/tree walks, scans and indexes the tree,
// convert/migrate/functions knows what the converted Compositions need of
// their Functions (pins, manifests, dependencies, the Crossplane version),
// convert/migrate/kustomize reads kustomizations' patches and rewrites
// their pointers into converted Compositions, and convert/migrate/finding
// holds the Diagnostic they all report. This package runs them in order,
// converts, verifies and writes file by file, wires the Functions and
// rewrites the kustomize patches the run's conversions need, and sums up.
//
// The migrator talks to the single-file converter and to the equivalence
// check through two small interfaces, Converter and Verifier; NewConverter
// and NewVerifier (adapter.go, the only file that imports them) wire in the
// convert and render/verify packages, and tests use fakes. A minimal run:
//
//	res, err := migrate.Run(ctx, migrate.Options{
//		Root:      "repo",
//		Converter: migrate.NewConverter(convert.Options{}),
//		Verifier:  migrate.NewVerifier(false),
//		Verify:    true,
//	})
//	if err != nil {
//		return err
//	}
//	migrate.WriteSummary(os.Stderr, res)
//
// Besides the converter's diagnostics (docs/reference/diagnostics.md), a run reports
// v2-readiness findings over the files as they end up (M-codes, see
// Finding): kustomize patches into spec.resources, Compositions left in
// mode Resources, external secret stores, patches reading claim-only
// paths, XR writes outside status, and server fields in exported
// manifests.
//
// Run returns a Result that WriteSummary and the report writers of package
// convert/migrate/report (JSON, Markdown, HTML, and the CI formats) render;
// none of them reads the clock, the environment or an absolute path, so
// reports are byte-identical across runs.
package migrate
