package batch

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert"
)

// findingCodes lists a result's findings as "file: code severity".
func findingCodes(res *Result, prefix string) []string {
	var out []string
	for _, f := range res.Findings {
		if strings.HasPrefix(f.Code, prefix) {
			out = append(out, f.File+": "+f.Code+" "+string(f.Severity))
		}
	}
	sort.Strings(out)
	return out
}

func TestWireFunctionsTxtar(t *testing.T) {
	real := func(o *Options, _, _ string) {
		o.Converter = NewConverter(convert.Options{})
		o.Verify = false
		o.WireFunctions = true
	}
	cases := map[string]txtarCase{
		"Configurations": {
			reason:  "Each Configuration gets a dependency on the functions its converted Compositions use, unless it has one (an unsupported constraint is reported), and pinned manifests go to its examples directory, named as Crossplane names the dependency.",
			archive: "functions-configuration.txtar",
			opts:    real,
			check: func(t *testing.T, _ string, res *Result, _ *hooks) {
				want := []string{"legacy/crossplane.yaml: M410 warning"}
				if diff := cmp.Diff(want, findingCodes(res, "M41")); diff != "" {
					t.Errorf("findings: -want, +got:\n%s", diff)
				}
			},
		},
		"NoConfiguration": {
			reason:  "Without a Configuration the manifests go beside the Compositions; an existing Function of a package at a release the target does not support is reported, its name used, and not duplicated.",
			archive: "functions-plain.txtar",
			opts:    real,
			check: func(t *testing.T, _ string, res *Result, _ *hooks) {
				want := []string{"cluster/functions.yaml: M409 warning"}
				if diff := cmp.Diff(want, findingCodes(res, "M409")); diff != "" {
					t.Errorf("findings: -want, +got:\n%s", diff)
				}
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			runTxtarCase(t, tc)
		})
	}
}

func TestWireFunctionsOptions(t *testing.T) {
	tree := map[string]string{
		"apis/bucket.yaml": "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: buckets\nspec:\n  compositeTypeRef:\n    apiVersion: example.org/v1\n    kind: XBucket\n  resources:\n  - name: bucket\n    base:\n      apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n",
	}
	cases := map[string]struct {
		reason    string
		opts      Options
		wantFiles []string
		wantErr   bool
		changed   bool
	}{
		"FunctionsOut": {
			reason:    "--functions-out puts the manifests where the user says.",
			opts:      Options{WireFunctions: true, FunctionsOut: "platform/functions.yaml"},
			wantFiles: []string{"apis/bucket.yaml", "platform/functions.yaml"},
		},
		"FunctionsNone": {
			reason:    "--functions-out none writes no manifests.",
			opts:      Options{WireFunctions: true, FunctionsOut: FunctionsNone},
			wantFiles: []string{"apis/bucket.yaml"},
		},
		"OutsideTree": {
			reason:    "A path outside the tree is refused before anything is written.",
			opts:      Options{WireFunctions: true, FunctionsOut: "../functions.yaml"},
			wantFiles: []string{"apis/bucket.yaml"},
			wantErr:   true,
		},
		"Off": {
			reason:    "Without WireFunctions nothing is added (the library's zero value).",
			opts:      Options{},
			wantFiles: []string{"apis/bucket.yaml"},
		},
		"CheckCountsTheNewFile": {
			reason:    "With --check the manifests file that would be written is a change, and nothing is written.",
			opts:      Options{WireFunctions: true, Write: WriteNone, Check: true},
			wantFiles: []string{"apis/bucket.yaml"},
			changed:   true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tree)
			o := tc.opts
			o.Root, o.Converter, o.Jobs = root, NewConverter(convert.Options{}), 2
			res, err := Run(t.Context(), o)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s\nRun(...): want error %v, got %v", tc.reason, tc.wantErr, err)
			}
			if diff := cmp.Diff(tc.wantFiles, sortedKeys(readTree(t, root))); diff != "" {
				t.Errorf("%s\nfiles after Run(...): -want, +got:\n%s", tc.reason, diff)
			}
			if tc.changed && (res == nil || !res.Changed()) {
				t.Errorf("%s\nRun(...): want a change reported", tc.reason)
			}
			if tc.changed {
				var got []string
				for _, f := range res.Files {
					if f.Status == FileConverted {
						got = append(got, f.Path)
					}
				}
				if diff := cmp.Diff([]string{"apis/bucket.yaml", "apis/functions.yaml"}, got); diff != "" {
					t.Errorf("%s\nfiles that would change: -want, +got:\n%s", tc.reason, diff)
				}
			}
		})
	}
}

// TestWireFunctionsWritableFirst checks that a crossplane.yaml that cannot
// be written fails the run before any Composition is written.
func TestWireFunctionsWritableFirst(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"crossplane.yaml":  "apiVersion: meta.pkg.crossplane.io/v1\nkind: Configuration\nmetadata:\n  name: p\n",
		"apis/bucket.yaml": "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: buckets\nspec:\n  compositeTypeRef:\n    apiVersion: example.org/v1\n    kind: XBucket\n  resources:\n  - name: bucket\n    base:\n      apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n",
	})
	if err := os.Chmod(filepath.Join(root, "crossplane.yaml"), 0o444); err != nil {
		t.Fatal(err)
	}
	before := readTree(t, root)
	_, err := Run(t.Context(), Options{Root: root, Converter: NewConverter(convert.Options{}), WireFunctions: true, Jobs: 2})
	var ie *InvalidOptionsError
	if !errors.As(err, &ie) {
		t.Fatalf("Run(...): want an InvalidOptionsError, got %v", err)
	}
	if diff := cmp.Diff(before, readTree(t, root)); diff != "" {
		t.Errorf("Run(...) with a read-only crossplane.yaml changed the tree: -want, +got:\n%s", diff)
	}
}
