package docgen_test

import (
	"fmt"
	"testing/fstest"

	"github.com/xpmigrate/xpmigrate/internal/docgen"
)

// The reference of a one-command tool, checked against an empty directory.
func ExampleReference() {
	diags, err := docgen.Diagnostics([]docgen.Diagnostic{
		{Code: "C101", Severity: "error", Summary: "unsupported Composition apiVersion", Meaning: "Only v1 Compositions are converted.", Fix: "Write it as v1."},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	files := docgen.Reference(docgen.Command{
		Path:    "xpmigrate version",
		Short:   "Print the xpmigrate version and commit",
		Usage:   "xpmigrate version [flags]",
		Example: "  xpmigrate version",
	}, diags)
	changes, _ := docgen.Diff(fstest.MapFS{}, files)
	for _, c := range changes {
		fmt.Println(c.Kind, c.Name)
	}
	// Output:
	// missing README.md
	// missing diagnostics.md
	// missing xpmigrate_version.md
}
