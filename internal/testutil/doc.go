// Package testutil holds what the module's tests share, and nothing that
// production code may import (TestLayers places it with the helpers; only
// _test.go files import it):
//
//   - Golden compares output with a golden file, CRLF-normalised as
//     helm's internal/test does, and rewrites the file under -update
//     (the one -update flag of every test binary that imports this
//     package);
//   - RepoRoot finds the module root from the test's directory;
//   - BuildXpmigrate gives the e2e tests the xpmigrate binary: the
//     Makefile's one build through $XPMIGRATE_BIN (refused when stale),
//     else a build of its own;
//   - Corpus and LookupCorpus locate the shared corpus of real-world
//     Compositions: $XPMIGRATE_CORPUS, or ../shared/corpus beside the
//     repository;
//   - the Things* fixtures are the one-bucket XThing Composition (legacy
//     and converted), its XR and its XRD that tests of several packages
//     use.
package testutil
