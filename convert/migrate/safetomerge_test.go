package migrate

import (
	"context"
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
)

// pipelineBucket is a mode Pipeline Composition (identityLegacy converted)
// whose patch-and-transform step names the Function FN.
const pipelineBucket = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: bucket
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XBucket
  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef:
      name: FN
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
      - name: bucket
        base:
          apiVersion: s3.example.org/v1
          kind: Bucket
          spec:
            forProvider: {}
        patches:
        - type: FromCompositeFieldPath
          fromFieldPath: spec.size
          toFieldPath: spec.forProvider.class
          transforms:
          - type: map
            map:
              small: STANDARD
              large: GLACIER
`

// ptManifest is a Function manifest of function-patch-and-transform named
// NAME at release TAG.
const ptManifest = `apiVersion: pkg.crossplane.io/v1
kind: Function
metadata:
  name: NAME
spec:
  package: xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform:TAG
`

// ecManifest is function-environment-configs at the release target v1
// supports.
const ecManifest = `apiVersion: pkg.crossplane.io/v1
kind: Function
metadata:
  name: function-environment-configs
spec:
  package: xpkg.crossplane.io/crossplane-contrib/function-environment-configs:v0.6.0
`

// configuration is a Configuration that depends on
// function-patch-and-transform with the constraint VERSION.
const configuration = `apiVersion: meta.pkg.crossplane.io/v1
kind: Configuration
metadata:
  name: platform
spec:
  dependsOn:
  - function: xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform
    version: "VERSION"
`

func fill(s string, kv ...string) string {
	return strings.NewReplacer(kv...).Replace(s)
}

// A mergeOutcome is what a test of the merge verdict looks at.
type mergeOutcome struct {
	// Verifications are "name: status" of the Compositions verified.
	Verifications []string
	// Findings are "file: code severity" of the Function checks.
	Findings []string
	Safe     string
	// Exit is what Err says: "ok", "findings" (exit 3) or "error".
	Exit string
}

func outcomeOf(res *Result, check, requireVerified bool) mergeOutcome {
	var o mergeOutcome
	for _, c := range res.Compositions {
		if c.Verification != nil {
			o.Verifications = append(o.Verifications, c.Name+": "+string(c.Verification.Status))
		}
	}
	for _, f := range res.Findings {
		if isFunctionCheck(f.Code) {
			o.Findings = append(o.Findings, f.File+": "+f.Code+" "+f.Severity)
		}
	}
	sort.Strings(o.Findings)
	o.Safe = res.Verdict().Safe
	var fe *errkind.FindingsError
	switch err := res.Err(nil, check, requireVerified); {
	case err == nil:
		o.Exit = "ok"
	case errors.As(err, &fe):
		o.Exit = "findings"
	default:
		o.Exit = "error"
	}
	return o
}

// TestItem5aUnverifiedChangeIsNotSafe is issue 24 item 5a: a mode Pipeline
// Composition the run rewrites (its native environment moved into a
// function-environment-configs step, C309–C311), or that the gate (--base)
// sees changed since it was already mode Pipeline (M412), is unverified:
// the headline says "not proven", never "yes", and --require-verified
// fails (exit 3).
func TestItem5aUnverifiedChangeIsNotSafe(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	withEnvironment := strings.Replace(fill(pipelineBucket, "FN", "function-patch-and-transform"), "  mode: Pipeline\n",
		"  mode: Pipeline\n  environment:\n    environmentConfigs:\n    - type: Reference\n      ref:\n        name: shared\n", 1)
	cases := map[string]struct {
		reason string
		// pr builds the tree to run on, returning the base revision ("" for
		// none).
		pr   func(t *testing.T, g *gitRepo) string
		want mergeOutcome
	}{
		"RewrittenByTheRun": {
			reason: "The run moves spec.environment into a step: nothing proves the rewrite.",
			pr: func(t *testing.T, g *gitRepo) string {
				g.write(t, "a/composition.yaml", withEnvironment)
				g.write(t, "a/functions.yaml", fill(ptManifest, "NAME", "function-patch-and-transform", "TAG", "v0.10.8")+"---\n"+ecManifest)
				g.write(t, "a/examples/xr.yaml", identityXR)
				return ""
			},
			want: mergeOutcome{Verifications: []string{"bucket: unverified"}, Safe: SafeNotProven, Exit: "findings"},
		},
		"ChangedSinceBase": {
			reason: "A Composition already mode Pipeline at the base and changed in the pull request is not verified as a migration: not proven.",
			pr: func(t *testing.T, g *gitRepo) string {
				g.write(t, "a/composition.yaml", fill(pipelineBucket, "FN", "function-patch-and-transform"))
				g.write(t, "a/functions.yaml", fill(ptManifest, "NAME", "function-patch-and-transform", "TAG", "v0.10.8"))
				g.write(t, "a/examples/xr.yaml", identityXR)
				base := g.commit(t, "pipeline")
				g.write(t, "a/composition.yaml", strings.Replace(fill(pipelineBucket, "FN", "function-patch-and-transform"), "GLACIER", "DEEP_ARCHIVE", 1))
				g.commit(t, "pull request")
				return base
			},
			want: mergeOutcome{Verifications: []string{"bucket: unverified"}, Safe: SafeNotProven, Exit: "findings"},
		},
		"UnchangedSinceBase": {
			reason: "Nothing changed: nothing to prove.",
			pr: func(t *testing.T, g *gitRepo) string {
				g.write(t, "a/composition.yaml", fill(pipelineBucket, "FN", "function-patch-and-transform"))
				g.write(t, "a/functions.yaml", fill(ptManifest, "NAME", "function-patch-and-transform", "TAG", "v0.10.8"))
				base := g.commit(t, "pipeline")
				g.write(t, "README.md", "docs\n")
				g.commit(t, "pull request")
				return base
			},
			want: mergeOutcome{Safe: SafeYes, Exit: "ok"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			g := newGitRepo(t)
			base := tc.pr(t, g)
			res, err := Run(context.Background(), Options{Root: g.dir, Base: base, Check: base != "", Write: WriteNone, Verify: true,
				Converter: NewConverter(convert.Options{}), Verifier: NewVerifier(false), Jobs: 1})
			if err != nil {
				t.Fatalf("Run(...): %v", err)
			}
			got := outcomeOf(res, false, true)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nRun(... --require-verified): -want, +got:\n%s\n%s", tc.reason, diff, Headline(res))
			}
		})
	}
}

// TestItem5bPinsCheckedOnEveryRun is issue 24 item 5b: the release of an
// installed function-patch-and-transform is checked on every run, also
// --check on a committed tree that converts nothing: an unsupported pin
// (v0.2.1) fails the gate (M409, M410; exit 3).
func TestItem5bPinsCheckedOnEveryRun(t *testing.T) {
	ptName := "crossplane-contrib-function-patch-and-transform"
	cases := map[string]struct {
		reason string
		tree   map[string]string
		want   mergeOutcome
	}{
		"ManifestTooOld": {
			reason: "A Function manifest pins v0.2.1: M409, not safe.",
			tree: map[string]string{
				"a/composition.yaml": fill(pipelineBucket, "FN", "function-patch-and-transform"),
				"a/functions.yaml":   fill(ptManifest, "NAME", "function-patch-and-transform", "TAG", "v0.2.1"),
			},
			want: mergeOutcome{Findings: []string{"a/functions.yaml: M409 warning"}, Safe: SafeNo, Exit: "findings"},
		},
		"DependencyTooOpen": {
			reason: "A Configuration's dependency admits v0.2.1: M410, not safe.",
			tree: map[string]string{
				"crossplane.yaml":       fill(configuration, "VERSION", ">=v0.2.1"),
				"apis/composition.yaml": fill(pipelineBucket, "FN", ptName),
			},
			want: mergeOutcome{Findings: []string{"crossplane.yaml: M410 warning"}, Safe: SafeNo, Exit: "findings"},
		},
		"Supported": {
			reason: "The verified release: safe.",
			tree: map[string]string{
				"crossplane.yaml":       fill(configuration, "VERSION", ">=v0.10.8, <v0.11.0"),
				"apis/composition.yaml": fill(pipelineBucket, "FN", ptName),
			},
			want: mergeOutcome{Safe: SafeYes, Exit: "ok"},
		},
		"Digest": {
			reason: "A digest hides the release: not proven, and --check alone passes.",
			tree: map[string]string{
				"a/composition.yaml": fill(pipelineBucket, "FN", "function-patch-and-transform"),
				"a/functions.yaml":   strings.Replace(fill(ptManifest, "NAME", "function-patch-and-transform"), ":TAG", "@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", 1),
			},
			want: mergeOutcome{Findings: []string{"a/functions.yaml: M409 info"}, Safe: SafeNotProven, Exit: "ok"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tc.tree)
			res, err := Run(context.Background(), Options{Root: root, Check: true, Write: WriteNone, Verify: true,
				Converter: NewConverter(convert.Options{}), Verifier: NewVerifier(false), Jobs: 1})
			if err != nil {
				t.Fatalf("Run(... --check): %v", err)
			}
			got := outcomeOf(res, true, false)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nRun(... --check): -want, +got:\n%s\n%s", tc.reason, diff, Headline(res))
			}
		})
	}
}

// TestItem5cFunctionRefNames is issue 24 item 5c: a functionRef must name
// a Function the tree (a Function manifest, a Configuration's dependency,
// installed under the name Crossplane gives it) or the cluster installs.
func TestItem5cFunctionRefNames(t *testing.T) {
	ptName := "crossplane-contrib-function-patch-and-transform"
	cases := map[string]struct {
		reason  string
		tree    map[string]string
		cluster []InstalledFunction
		want    mergeOutcome
	}{
		"DependencyUnderAnotherName": {
			reason: "The Configuration installs the package as crossplane-contrib-function-patch-and-transform; the hand conversion names function-patch-and-transform, which Crossplane cannot find.",
			tree: map[string]string{
				"crossplane.yaml":       fill(configuration, "VERSION", ">=v0.10.8, <v0.11.0"),
				"apis/composition.yaml": fill(pipelineBucket, "FN", "function-patch-and-transform"),
			},
			want: mergeOutcome{Findings: []string{"apis/composition.yaml: M414 warning"}, Safe: SafeNo, Exit: "findings"},
		},
		"ManifestUnderAnotherName": {
			reason: "A Function manifest installs it as pt.",
			tree: map[string]string{
				"a/composition.yaml": fill(pipelineBucket, "FN", "function-patch-and-transform"),
				"a/functions.yaml":   fill(ptManifest, "NAME", "pt", "TAG", "v0.10.8"),
			},
			want: mergeOutcome{Findings: []string{"a/composition.yaml: M414 warning"}, Safe: SafeNo, Exit: "findings"},
		},
		"DependencyName": {
			reason: "The name Crossplane gives the dependency: safe.",
			tree: map[string]string{
				"crossplane.yaml":       fill(configuration, "VERSION", ">=v0.10.8, <v0.11.0"),
				"apis/composition.yaml": fill(pipelineBucket, "FN", ptName),
			},
			want: mergeOutcome{Safe: SafeYes, Exit: "ok"},
		},
		"ClusterInstallsIt": {
			reason: "The tree installs nothing; the cluster runs it at a supported release: safe.",
			tree:   map[string]string{"a/composition.yaml": fill(pipelineBucket, "FN", "function-patch-and-transform")},
			cluster: []InstalledFunction{
				{Name: "function-patch-and-transform", Package: "xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform:v0.10.8"},
			},
			want: mergeOutcome{Safe: SafeYes, Exit: "ok"},
		},
		"ClusterInstallsItTooOld": {
			reason: "The cluster runs v0.2.1: M409.",
			tree:   map[string]string{"a/composition.yaml": fill(pipelineBucket, "FN", "function-patch-and-transform")},
			cluster: []InstalledFunction{
				{Name: "function-patch-and-transform", Package: "xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform:v0.2.1"},
			},
			want: mergeOutcome{Findings: []string{"a/composition.yaml: M409 warning"}, Safe: SafeNo, Exit: "findings"},
		},
		"ClusterLacksIt": {
			reason: "Neither the cluster nor the tree installs it: M414.",
			tree:   map[string]string{"a/composition.yaml": fill(pipelineBucket, "FN", "function-patch-and-transform")},
			cluster: []InstalledFunction{
				{Name: "function-auto-ready", Package: "xpkg.crossplane.io/crossplane-contrib/function-auto-ready:v0.5.0"},
			},
			want: mergeOutcome{Findings: []string{"a/composition.yaml: M414 warning"}, Safe: SafeNo, Exit: "findings"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tc.tree)
			res, err := Run(context.Background(), Options{Root: root, Check: true, Write: WriteNone, Verify: true, ClusterFunctions: tc.cluster,
				Converter: NewConverter(convert.Options{}), Verifier: NewVerifier(false), Jobs: 1})
			if err != nil {
				t.Fatalf("Run(... --check): %v", err)
			}
			got := outcomeOf(res, true, false)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nRun(... --check): -want, +got:\n%s\n%s", tc.reason, diff, Headline(res))
			}
		})
	}
}

// TestWireRewrittenComposition checks that the function-environment-configs
// step a run adds to a rewritten Pipeline Composition (C309–C311) is wired
// as a converted Composition's: a pinned manifest, so that the step names
// an installed Function.
func TestWireRewrittenComposition(t *testing.T) {
	root := t.TempDir()
	env := strings.Replace(fill(pipelineBucket, "FN", "function-patch-and-transform"), "  mode: Pipeline\n",
		"  mode: Pipeline\n  environment:\n    environmentConfigs:\n    - type: Reference\n      ref:\n        name: shared\n", 1)
	writeTree(t, root, map[string]string{
		"a/composition.yaml": env,
		"a/pt.yaml":          fill(ptManifest, "NAME", "function-patch-and-transform", "TAG", "v0.10.8"),
	})
	res, err := Run(context.Background(), Options{Root: root, Write: WriteNone, WireFunctions: true,
		Converter: NewConverter(convert.Options{}), Jobs: 1})
	if err != nil {
		t.Fatalf("Run(...): %v", err)
	}
	var got []string
	for _, f := range res.Files {
		got = append(got, f.Path+": "+string(f.Status))
	}
	want := []string{"a/composition.yaml: converted", "a/pt.yaml: unchanged", "a/functions.yaml: converted"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Run(...): files: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff([]string(nil), outcomeOf(res, false, false).Findings); diff != "" {
		t.Errorf("Run(...): Function findings: -want, +got:\n%s\n%s", diff, Headline(res))
	}
}
