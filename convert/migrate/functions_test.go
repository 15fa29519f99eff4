package migrate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// findingCodes lists a result's findings as "file: code severity".
func findingCodes(res *Result, prefix string) []string {
	var out []string
	for _, f := range res.Findings {
		if strings.HasPrefix(f.Code, prefix) {
			out = append(out, f.File+": "+f.Code+" "+f.Severity)
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
				want := []string{"legacy/crossplane.yaml: M410 warning", "legacy/crossplane.yaml: M413 info"}
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
		"IntoACompositionFile": {
			reason:    "Manifests are not appended to a file the run converts.",
			opts:      Options{WireFunctions: true, FunctionsOut: "apis/bucket.yaml"},
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

// TestWireFunctionsOut checks that with Options.Out the wiring goes to the
// copy and the tree stays as it was.
func TestWireFunctionsOut(t *testing.T) {
	root := t.TempDir()
	tree := map[string]string{
		"crossplane.yaml":  "apiVersion: meta.pkg.crossplane.io/v1\nkind: Configuration\nmetadata:\n  name: p\n",
		"apis/bucket.yaml": "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: buckets\nspec:\n  compositeTypeRef:\n    apiVersion: example.org/v1\n    kind: XBucket\n  resources:\n  - name: bucket\n    base:\n      apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n",
	}
	writeTree(t, root, tree)
	out := filepath.Join(t.TempDir(), "out")
	if _, err := Run(t.Context(), Options{Root: root, Converter: NewConverter(convert.Options{}), WireFunctions: true, Write: WriteOut, Out: out, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tree, readTree(t, root)); diff != "" {
		t.Errorf("Run(...) with Out changed the tree: -want, +got:\n%s", diff)
	}
	got := readTree(t, out)
	if diff := cmp.Diff([]string{"apis/bucket.yaml", "crossplane.yaml", "examples/functions.yaml"}, sortedKeys(got)); diff != "" {
		t.Errorf("files under Out: -want, +got:\n%s", diff)
	}
	want := "apiVersion: meta.pkg.crossplane.io/v1\nkind: Configuration\nmetadata:\n  name: p\nspec:\n  crossplane:\n    version: \">=v1.17.0-0\"\n  dependsOn:\n  - function: xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform\n    version: \">=v0.10.8, <v0.11.0\"\n"
	if diff := cmp.Diff(want, got["crossplane.yaml"]); diff != "" {
		t.Errorf("crossplane.yaml under Out: -want, +got:\n%s", diff)
	}
	if !strings.Contains(got["apis/bucket.yaml"], "name: crossplane-contrib-function-patch-and-transform") {
		t.Errorf("the converted Composition does not use the name Crossplane gives the dependency:\n%s", got["apis/bucket.yaml"])
	}
}

func TestRewriteKustomizeTxtar(t *testing.T) {
	tc := txtarCase{
		reason:  "JSON 6902 operations on content conversion copies as it is are rewritten to the converted place; the others keep M401.",
		archive: "kustomize-rewrite.txtar",
		opts: func(o *Options, _, _ string) {
			o.Converter = NewConverter(convert.Options{})
			o.Verify = false
		},
		check: func(t *testing.T, _ string, res *Result, _ *hooks) {
			want := []string{
				// Its two steps' Functions: the tree installs neither.
				"base/composition.yaml: M414 info",
				"base/composition.yaml: M414 info",
				"overlays/prod/any.yaml: M401 warning",
				"overlays/prod/kustomization.yaml: M401 warning",
				"overlays/prod/kustomization.yaml: M411 info",
				"overlays/prod/kustomization.yaml: M411 info",
				"overlays/prod/kustomization.yaml: M411 info",
				"overlays/prod/kustomization.yaml: M411 info",
			}
			if diff := cmp.Diff(want, findingCodes(res, "M4")); diff != "" {
				t.Errorf("findings: -want, +got:\n%s", diff)
			}
		},
	}
	runTxtarCase(t, tc)
}

// TestWireFunctionsSharedFile checks that one --functions-out file for
// scopes that name a function differently holds one Function of it and
// says which Compositions use another name.
func TestWireFunctionsSharedFile(t *testing.T) {
	comp := "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: %s\nspec:\n  compositeTypeRef:\n    apiVersion: example.org/v1\n    kind: X%s\n  resources:\n  - name: r\n    base:\n      apiVersion: v1\n      kind: ConfigMap\n"
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"pkg/crossplane.yaml": "apiVersion: meta.pkg.crossplane.io/v1\nkind: Configuration\nmetadata:\n  name: p\n",
		"pkg/a.yaml":          fmt.Sprintf(comp, "a", "A"),
		"plain/b.yaml":        fmt.Sprintf(comp, "b", "B"),
	})
	res, err := Run(t.Context(), Options{Root: root, Converter: NewConverter(convert.Options{}), WireFunctions: true, FunctionsOut: "fns.yaml", Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := readTree(t, root)["fns.yaml"]
	if n := strings.Count(got, "kind: Function"); n != 1 {
		t.Errorf("fns.yaml: want one Function, got %d:\n%s", n, got)
	}
	if diff := cmp.Diff([]string{"fns.yaml: M407 info"}, findingCodes(res, "M407")); diff != "" {
		t.Errorf("findings: -want, +got:\n%s", diff)
	}
}

// twinConverter converts with the fake and writes twins with the real
// converter.
type twinConverter struct {
	*fakeConverter
	Twinner
}

func TestTwinsTxtar(t *testing.T) {
	cases := map[string]txtarCase{
		"InPlace": {
			reason:  "Claims and legacy XRs get twins beside them; an existing file of the twin's name with other content is kept and reported.",
			archive: "twins.txtar",
			opts: func(o *Options, _, _ string) {
				o.Target = crossplane.V2
				o.Converter = twinConverter{&fakeConverter{}, NewConverter(convert.Options{}).(Twinner)}
			},
			check: func(t *testing.T, root string, res *Result, _ *hooks) {
				want := []string{
					"examples/claim.yaml: C471 info",
					"examples/claim.yaml: C472 warning",
					"examples/taken.yaml: C471 info",
					"examples/taken.yaml: C475 warning",
					"examples/xr.yaml: C471 info",
					"examples/xr.yaml: C473 info",
				}
				var got []string
				for _, f := range res.Files {
					for _, d := range f.Diagnostics {
						if strings.HasPrefix(d.Code, "C47") {
							got = append(got, f.Path+": "+d.Code+" "+d.Severity)
						}
					}
				}
				sort.Strings(got)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("findings: -want, +got:\n%s", diff)
				}
				// A second run finds its own twins in place: nothing
				// changes, and they are no examples of their own.
				before := readTree(t, root)
				again, err := Run(context.Background(), Options{Root: root, Target: crossplane.V2, Jobs: 1,
					Converter: twinConverter{&fakeConverter{}, NewConverter(convert.Options{}).(Twinner)}})
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range again.Files {
					for _, d := range f.Diagnostics {
						if d.Code == "C475" && f.Path != "examples/taken.yaml" {
							t.Errorf("second run: %s: %s", f.Path, d.Message)
						}
					}
				}
				if diff := cmp.Diff(before, readTree(t, root)); diff != "" {
					t.Errorf("second run changed the tree: -want, +got:\n%s", diff)
				}
			},
		},
		"Out": {
			reason:  "With --out the twins are written to the output directory beside the copies of their examples; the tree is untouched.",
			archive: "twins-out.txtar",
			opts: func(o *Options, _, tmp string) {
				o.Target = crossplane.V2
				o.Write, o.Out = WriteOut, filepath.Join(tmp, "out")
				o.Converter = twinConverter{&fakeConverter{}, NewConverter(convert.Options{}).(Twinner)}
			},
		},
		"TwinFails": {
			reason:   "An example whose twin cannot be written is reported (C476) and the run goes on; the other files get their twins.",
			archive:  "twins.txtar",
			noGolden: true,
			opts: func(o *Options, _, _ string) {
				o.Target = crossplane.V2
				o.Converter = twinConverter{&fakeConverter{}, failingTwinner{NewConverter(convert.Options{}).(Twinner), "  name: my-db\n  namespace: team-a\nspec"}}
			},
			check: func(t *testing.T, root string, res *Result, _ *hooks) {
				var got []string
				for _, f := range res.Files {
					for _, d := range f.Diagnostics {
						if d.Code == "C476" {
							got = append(got, f.Path)
						}
					}
				}
				if diff := cmp.Diff([]string{"examples/claim.yaml"}, got); diff != "" {
					t.Errorf("C476: -want, +got:\n%s", diff)
				}
				if _, err := os.Stat(filepath.Join(root, "examples/claim.v2.yaml")); err == nil {
					t.Errorf("examples/claim.v2.yaml written without a twin")
				}
				if _, err := os.Stat(filepath.Join(root, "examples/xr.v2.yaml")); err != nil {
					t.Errorf("examples/xr.v2.yaml: %v", err)
				}
			},
		},
		"LegacyScope": {
			reason:   "With --xr-scope legacy no twin is written.",
			archive:  "twins.txtar",
			noGolden: true,
			opts: func(o *Options, _, _ string) {
				o.Target = crossplane.V2
				o.Converter = twinConverter{&fakeConverter{}, NewConverter(convert.Options{XRScope: convert.XRScopeLegacy}).(Twinner)}
			},
			check: func(t *testing.T, root string, res *Result, _ *hooks) {
				for _, f := range []string{"examples/claim.v2.yaml", "examples/xr.v2.yaml"} {
					if _, err := os.Stat(filepath.Join(root, f)); err == nil {
						t.Errorf("%s written with --xr-scope legacy", f)
					}
				}
			},
		},
		"TargetV1": {
			reason:   "Target v1 writes no twin.",
			archive:  "twins.txtar",
			noGolden: true,
			opts: func(o *Options, _, _ string) {
				o.Converter = twinConverter{&fakeConverter{}, NewConverter(convert.Options{}).(Twinner)}
			},
			check: func(t *testing.T, root string, res *Result, _ *hooks) {
				if _, err := os.Stat(filepath.Join(root, "examples/claim.v2.yaml")); err == nil {
					t.Errorf("twin written for target v1")
				}
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			// runTxtarCase skips check without goldens: run it here.
			var root string
			tc.setup = func(_ *testing.T, r string, _ *hooks) { root = r }
			res, _ := runTxtarCase(t, tc)
			if tc.noGolden {
				tc.check(t, root, res, nil)
			}
		})
	}
}

// v2ObjectsConverter converts files with Compositions with the fake (the
// Composition's v2 output is not this test's) and every other file with
// the real converter.
type v2ObjectsConverter struct {
	fake *fakeConverter
	real Converter
}

func (c v2ObjectsConverter) Convert(ctx context.Context, req ConvertRequest) (*ConvertResponse, error) {
	if strings.Contains(string(req.Data), "kind: Composition\n") {
		return c.fake.Convert(ctx, req)
	}
	return c.real.Convert(ctx, req)
}

func (c v2ObjectsConverter) Twins(target crossplane.Target) bool {
	return c.real.(Twinner).Twins(target)
}

func (c v2ObjectsConverter) Twin(ctx context.Context, req TwinRequest) (*TwinResponse, error) {
	return c.real.(Twinner).Twin(ctx, req)
}

func TestV2ObjectsTxtar(t *testing.T) {
	cases := map[string]txtarCase{
		"Rewritten": {
			reason:  "The objects around the Compositions are rewritten for v2 in their files, and the Configuration gets the v2 constraint with its wiring.",
			archive: "v2-objects.txtar",
			opts: func(o *Options, _, _ string) {
				o.Target = crossplane.V2
				o.Verify = false
				o.WireFunctions = true
				o.Converter = v2ObjectsConverter{&fakeConverter{}, NewConverter(convert.Options{})}
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			runTxtarCase(t, tc)
		})
	}
}

// failingTwinner fails for the documents that contain fail.
type failingTwinner struct {
	Twinner
	fail string
}

func (f failingTwinner) Twin(ctx context.Context, req TwinRequest) (*TwinResponse, error) {
	if strings.Contains(string(req.Doc), f.fail) {
		return nil, errors.New("cannot read the example")
	}
	return f.Twinner.Twin(ctx, req)
}

// TestWireRaisesCrossplaneConstraint (issue 25 item 7): with --target v1
// the Configuration that gets the functions' dependencies gets a Crossplane
// constraint that admits no release below the one the converted Pipeline
// Compositions need, edited in place (comments and order kept), and the
// change is reported (M413).
func TestWireRaisesCrossplaneConstraint(t *testing.T) {
	const comp = "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: buckets\nspec:\n  compositeTypeRef:\n    apiVersion: example.org/v1\n    kind: XBucket\n  resources:\n  - name: bucket\n    base:\n      apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n"
	const head = "apiVersion: meta.pkg.crossplane.io/v1\nkind: Configuration\nmetadata:\n  name: p\nspec:\n"
	const deps = "  dependsOn:\n  - function: xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform\n    version: \">=v0.10.8, <v0.11.0\"\n"
	cases := map[string]struct {
		reason string
		spec   string
		want   string
		code   bool // M413 reported
	}{
		"OldLowerBound": {
			reason: "The usual >=v1.4.0-0 is raised, its comment kept.",
			spec:   "  crossplane:\n    version: \">=v1.4.0-0\" # the control plane\n",
			want:   "  crossplane:\n    version: \">=v1.17.0-0\" # the control plane\n" + deps,
			code:   true,
		},
		"UpperBoundKept": {
			reason: "A constraint that stops before v2 keeps stopping there.",
			spec:   "  crossplane:\n    version: \"^1.14\"\n",
			want:   "  crossplane:\n    version: \">=v1.17.0-0, <v2.0.0-0\"\n" + deps,
			code:   true,
		},
		"AlreadyHighEnough": {
			reason: "A constraint that admits nothing below v1.17 is left alone.",
			spec:   "  crossplane:\n    version: \">=v1.18.0\"\n",
			want:   "  crossplane:\n    version: \">=v1.18.0\"\n" + deps,
		},
		"None": {
			reason: "A Configuration without a constraint gets one, first in spec.",
			spec:   "  dependsOn:\n  - function: xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform\n    version: \">=v0.10.8, <v0.11.0\"\n",
			want:   "  crossplane:\n    version: \">=v1.17.0-0\"\n  dependsOn:\n  - function: xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform\n    version: \">=v0.10.8, <v0.11.0\"\n",
			code:   true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, map[string]string{"crossplane.yaml": head + tc.spec, "apis/bucket.yaml": comp})
			res, err := Run(t.Context(), Options{Root: root, Converter: NewConverter(convert.Options{}), WireFunctions: true, Write: WriteInPlace, Jobs: 1})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(head+tc.want, readTree(t, root)["crossplane.yaml"]); diff != "" {
				t.Errorf("%s\ncrossplane.yaml: -want, +got:\n%s", tc.reason, diff)
			}
			got := false
			for _, f := range res.Files {
				for _, d := range f.Diagnostics {
					if d.Code == "M413" && f.Path == "crossplane.yaml" {
						got = true
					}
				}
			}
			if got != tc.code {
				t.Errorf("%s\nRun(...): M413 reported %t, want %t", tc.reason, got, tc.code)
			}
		})
	}
}
