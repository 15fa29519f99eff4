package functions

import (
	"testing"

	mmsemver "github.com/Masterminds/semver"
	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert/migrate/finding"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// TestConstraintAdmits pins the constraint grammar Crossplane v1.20's
// package manager reads spec.dependsOn[].version with (Masterminds/semver
// v1.5.0): which versions each form admits, and which forms it refuses.
func TestConstraintAdmits(t *testing.T) {
	cases := map[string]struct {
		reason     string
		constraint string
		// invalid: Crossplane cannot read the constraint (the dependency
		// never resolves).
		invalid bool
		admit   []string
		refuse  []string
	}{
		"AtLeast": {
			reason:     "A lower bound admits every release above it.",
			constraint: ">=v0.10.0",
			admit:      []string{"v0.10.0", "v0.11.0", "v1.0.0"},
			refuse:     []string{"v0.9.9", "v0.2.1", "v0.11.0-rc.1"},
		},
		"RangeWithComma": {
			reason:     "Comparisons joined by a comma must all hold.",
			constraint: ">=1.0, <2.0",
			admit:      []string{"v1.0.0", "v1.99.0"},
			refuse:     []string{"v2.0.0", "v0.10.8"},
		},
		"RangeWithSpaceIsInvalid": {
			reason:     "v1.5.0 joins comparisons by commas only: Crossplane refuses a space-joined range.",
			constraint: ">= v0.6.0 < v0.7.0",
			invalid:    true,
		},
		"HyphenRange": {
			reason:     "1.2 - 1.4 is >= 1.2, <= 1.4: inclusive, and 1.4 is v1.4.0.",
			constraint: "1.2 - 1.4",
			admit:      []string{"v1.2.0", "v1.3.7", "v1.4.0"},
			refuse:     []string{"v1.1.9", "v1.4.1", "v1.5.0"},
		},
		"TildeArrow": {
			reason:     "~> is ~: the minor release line.",
			constraint: "~>0.10",
			admit:      []string{"v0.10.0", "v0.10.8"},
			refuse:     []string{"v0.11.0", "v0.9.0"},
		},
		"TildePatch": {
			reason:     "~ from a patch release keeps its minor line.",
			constraint: "~v0.10.2",
			admit:      []string{"v0.10.2", "v0.10.8"},
			refuse:     []string{"v0.11.0", "v0.10.1"},
		},
		"CaretKeepsTheMajorOnly": {
			reason:     "In v1.5.0 ^ keeps only the major line, below v1 too: ^0.10 admits v0.11.0.",
			constraint: "^0.10",
			admit:      []string{"v0.10.0", "v0.10.8", "v0.11.0", "v0.99.0"},
			refuse:     []string{"v0.9.0", "v1.0.0"},
		},
		"Wildcard": {
			reason:     "x stands for the whole line.",
			constraint: "v0.6.x",
			admit:      []string{"v0.6.0", "v0.6.5"},
			refuse:     []string{"v0.7.0", "v0.5.0"},
		},
		"Exact": {
			reason:     "A bare version is that version.",
			constraint: "v0.10.8",
			admit:      []string{"v0.10.8"},
			refuse:     []string{"v0.10.9", "v0.10.7"},
		},
		"Or": {
			reason:     "|| separates alternatives.",
			constraint: "<v0.3.0 || >=v0.10.0",
			admit:      []string{"v0.2.1", "v0.10.0"},
			refuse:     []string{"v0.5.0"},
		},
		"OrOfRanges": {
			reason:     "Each alternative is a comma-joined range.",
			constraint: ">=v0.6.0, <v0.7.0 || >=v0.10.0, <v0.11.0",
			admit:      []string{"v0.6.1", "v0.10.8"},
			refuse:     []string{"v0.7.0", "v0.11.0"},
		},
		"PreReleaseNotAdmittedByARelease": {
			reason:     "A comparison without a pre-release admits no pre-release.",
			constraint: ">=v0.10.0, <v0.11.0",
			admit:      []string{"v0.10.8"},
			refuse:     []string{"v0.10.9-rc.1", "v0.11.0-rc.1"},
		},
		"PreReleaseAdmittedByAPreRelease": {
			reason:     "With a pre-release in every comparison, pre-releases are compared in order.",
			constraint: ">=v0.10.0-rc.1, <v0.11.0-0",
			admit:      []string{"v0.10.0-rc.1", "v0.10.0", "v0.10.9-rc.1"},
			refuse:     []string{"v0.10.0-alpha", "v0.11.0"},
		},
		"Garbage": {
			reason:     "A word is no constraint.",
			constraint: "latest",
			invalid:    true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := parseConstraint(tc.constraint)
			if (err != nil) != tc.invalid {
				t.Fatalf("%s\nparseConstraint(%q): error %v, want invalid %t", tc.reason, tc.constraint, err, tc.invalid)
			}
			if err != nil {
				return
			}
			var got []string
			for _, s := range append(append([]string(nil), tc.admit...), tc.refuse...) {
				if c.Check(mmsemver.MustParse(s)) {
					got = append(got, s)
				}
			}
			if diff := cmp.Diff(tc.admit, got); diff != "" {
				t.Errorf("%s\n%q admits: -want, +got:\n%s", tc.reason, tc.constraint, diff)
			}
		})
	}
}

// TestDependsOnConstraintForms checks a Configuration's dependency on
// function-patch-and-transform (target v1: v0.10.x) in each form
// Crossplane accepts: a constraint that can only install v0.10.x gets no
// M410, whatever its spelling; one that can install something else, or
// that Crossplane cannot read, gets a warning.
func TestDependsOnConstraintForms(t *testing.T) {
	cases := map[string]struct {
		reason     string
		constraint string
		want       string // "" or the M410 severity
	}{
		"TildeArrow":       {reason: "~>0.10 is v0.10.x.", constraint: "~>0.10"},
		"TildeArrowPatch":  {reason: "~>0.10.8 is v0.10.8 up to v0.11.0.", constraint: "~>0.10.8"},
		"HyphenRange":      {reason: "A hyphen range inside v0.10.x.", constraint: "v0.10.0 - v0.10.99"},
		"Wildcard":         {reason: "The v0.10 line by wildcard.", constraint: "0.10.x"},
		"Exact":            {reason: "The verified release.", constraint: "v0.10.8"},
		"CommaRange":       {reason: "The range migrate writes.", constraint: ">=v0.10.8, <v0.11.0"},
		"OrInLine":         {reason: "Two releases of the line.", constraint: "v0.10.7 || v0.10.8"},
		"PreReleaseBounds": {reason: "Pre-release bounds that admit no pre-release.", constraint: ">=v0.10.0, <v0.11.0-0"},
		"AtLeastIsOpen":    {reason: ">=v0.10.0 admits v0.11.0.", constraint: ">=v0.10.0", want: finding.SeverityWarning},
		"CaretIsOpen":      {reason: "^0.10 admits v0.11.0 in v1.5.0.", constraint: "^0.10", want: finding.SeverityWarning},
		"OrOutside":        {reason: "An alternative outside the line.", constraint: "v0.10.8 || v0.11.0", want: finding.SeverityWarning},
		"AdmitsPreRelease": {reason: "Pre-release comparisons admit release candidates nobody verified.", constraint: ">=v0.10.0-rc.1, <v0.11.0-0", want: finding.SeverityWarning},
		"SpaceJoined":      {reason: "Crossplane cannot read a space-joined range.", constraint: ">=v0.10.0 <v0.11.0", want: finding.SeverityWarning},
		"OtherLine":        {reason: "A range of another line admits no v0.10.x.", constraint: "1.2 - 1.4", want: finding.SeverityWarning},
		"Digest":           {reason: "A digest hides the release.", constraint: "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", want: finding.SeverityInfo},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			pt, _ := Pins(crossplane.V1)
			got := ""
			if fd := pt.CheckDependency("spec.dependsOn[0].version", pt.Pkg, tc.constraint, crossplane.V1); fd != nil {
				got = fd.Severity
				if fd.Code != "M410" {
					t.Errorf("%s\ncheckDependency(%q): code %s, want M410", tc.reason, tc.constraint, fd.Code)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\ncheckDependency(%q): -want, +got:\n%s", tc.reason, tc.constraint, diff)
			}
		})
	}
}
