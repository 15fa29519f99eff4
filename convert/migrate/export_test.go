package migrate

import "testing"

// RunArchive runs the migrator over the tree of a testdata/txtar archive
// with the fake converter and verifier, without comparing the run with the
// archive's goldens, for the report tests of package migrate_test (which
// import convert/migrate/report). opts, if set, adjusts the options.
func RunArchive(t *testing.T, archive string, opts func(o *Options)) *Result {
	t.Helper()
	tc := txtarCase{archive: archive, noGolden: true}
	if opts != nil {
		tc.opts = func(o *Options, _, _ string) { opts(o) }
	}
	res, _ := runTxtarCase(t, tc)
	return res
}
