// Package e2e is xpmigrate's end-to-end tier: testscript files
// (testdata/script/*.txtar, in the style of cmd/go's testdata/script and
// cli/cli's acceptance tests) that run the xpmigrate binary built from this
// checkout as a user, a CI runner or a git hook would: the getting-started
// walkthrough in bash, the GitHub Action's steps, the pre-commit hook, the
// release linker flags, completion scripts parsed by their shells, and
// Ctrl-C while a command waits on a FIFO.
//
// The tier is behind the build tag e2e and is run by `make e2e` (and by
// `make test`, after the unit tier):
//
//	go test -tags e2e ./e2e/
//
// `go test ./...` without the tag runs the unit tier only. The scripts get
// the binary on PATH, the checkout as $REPO, a git identity without user
// configuration, the Go environment (for the scripts that build), and the
// commands of e2e_test.go (cptree, replace, stdout2env, mdblocks,
// filesmatch, mkfifo, interrupt, hook, action, ldflags).
//
// Tests that need more than this machine gives every developer (a live
// kube-apiserver, say) go in a suite of their own, testdata/<suite>, run
// by a TestE2E<Suite> function under a further build tag (e2e && <tag>)
// with runSuite, and a make target that passes both tags; `make e2e`
// stays runnable anywhere.
package e2e
