package migrate

import (
	"context"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// heldBackRepo is a repository whose one Composition has a breaking gap
// (a Required ToComposite patch whose source the example never has, D46):
// its conversion is held back. Its XRD and example are in other files.
var heldBackRepo = map[string]string{
	"apis/definition.yaml": `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata:
  name: xbuckets.example.org
spec:
  group: example.org
  names:
    kind: XBucket
    plural: xbuckets
  claimNames:
    kind: Bucket
    plural: buckets
  versions:
  - name: v1alpha1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              region:
                type: string
          status:
            type: object
            properties:
              arn:
                type: string
`,
	"apis/composition.yaml": `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xbuckets.example.org
spec:
  compositeTypeRef:
    apiVersion: example.org/v1alpha1
    kind: XBucket
  resources:
  - name: bucket
    base:
      apiVersion: s3.aws.upbound.io/v1beta1
      kind: Bucket
      spec:
        forProvider:
          region: us-east-1
    patches:
    - fromFieldPath: spec.region
      toFieldPath: spec.forProvider.region
    - type: ToCompositeFieldPath
      fromFieldPath: status.atProvider.arn
      toFieldPath: status.arn
      policy:
        fromFieldPath: Required
`,
	"examples/claim.yaml": `apiVersion: example.org/v1alpha1
kind: Bucket
metadata:
  name: my-bucket
  namespace: default
spec:
  region: eu-west-1
`,
}

// withQueue is heldBackRepo with a second XR type whose conversion
// verifies, and an example of it in the example file of the first.
func withQueue() map[string]string {
	out := map[string]string{}
	for k, v := range heldBackRepo {
		out[k] = v
	}
	out["apis/queue.yaml"] = strings.NewReplacer("xbuckets", "xqueues", "XBucket", "XQueue", "Bucket", "Queue", "buckets", "queues").Replace(heldBackRepo["apis/definition.yaml"]) +
		"---\n" + strings.NewReplacer("xbuckets", "xqueues", "XBucket", "XQueue").Replace(strings.Split(heldBackRepo["apis/composition.yaml"], "    - type: ToCompositeFieldPath")[0])
	out["examples/claim.yaml"] += "---\n" + strings.ReplaceAll(heldBackRepo["examples/claim.yaml"], "Bucket", "Queue")
	return out
}

// TestMigrateV2HeldBackOnEveryRun is issue 23 item 5a: a conversion held
// back by verification stays held back on a second run of the same
// command. The v2 XRD, the Compositions of its type and the twins of its
// examples are written together or not at all: were the XRD written alone,
// the rerun would find no sample of the legacy type and write the
// Composition unverified.
func TestMigrateV2HeldBackOnEveryRun(t *testing.T) {
	type run struct {
		Status  map[string]FileStatus
		Written []string
	}
	cases := map[string]struct {
		reason string
		repo   map[string]string
		force  bool
		want   []run
		// wantTwins is the twin file after the runs, "" for none.
		wantTwins string
	}{
		"HeldBackTwice": {
			reason: "Without --force, neither run writes anything: the XRD and the example's twin stay with the held-back Composition.",
			want: []run{
				{Status: map[string]FileStatus{"apis/composition.yaml": FileHeldBack, "apis/definition.yaml": FileHeldBack, "examples/claim.yaml": FileUnchanged}},
				{Status: map[string]FileStatus{"apis/composition.yaml": FileHeldBack, "apis/definition.yaml": FileHeldBack, "examples/claim.yaml": FileUnchanged}},
			},
		},
		"OtherTypeWritten": {
			reason: "A type whose conversion verifies is written, its twin too, beside the held-back one; the rerun changes nothing.",
			repo:   withQueue(),
			want: []run{
				{
					Status:  map[string]FileStatus{"apis/composition.yaml": FileHeldBack, "apis/definition.yaml": FileHeldBack, "apis/queue.yaml": FileConverted, "examples/claim.yaml": FileUnchanged, "examples/claim.v2.yaml": FileConverted},
					Written: []string{"apis/queue.yaml", "examples/claim.v2.yaml"},
				},
				{Status: map[string]FileStatus{"apis/composition.yaml": FileHeldBack, "apis/definition.yaml": FileHeldBack, "apis/queue.yaml": FileUnchanged, "examples/claim.v2.yaml": FileUnchanged, "examples/claim.yaml": FileUnchanged}},
			},
			wantTwins: "# v2 XR twins of the examples in claim.yaml, written by xpmigrate migrate --target v2.\n---\napiVersion: example.org/v1alpha1\nkind: Queue\nmetadata:\n  name: my-bucket\n  namespace: default\nspec:\n  region: eu-west-1\n",
		},
		"ForceWritesAllOnce": {
			reason: "With --force the whole type is written on the first run, and the second run changes nothing.",
			force:  true,
			want: []run{
				{
					Status:  map[string]FileStatus{"apis/composition.yaml": FileConverted, "apis/definition.yaml": FileConverted, "examples/claim.yaml": FileUnchanged, "examples/claim.v2.yaml": FileConverted},
					Written: []string{"apis/composition.yaml", "apis/definition.yaml", "examples/claim.v2.yaml"},
				},
				{Status: map[string]FileStatus{"apis/composition.yaml": FileUnchanged, "apis/definition.yaml": FileUnchanged, "examples/claim.v2.yaml": FileUnchanged, "examples/claim.yaml": FileUnchanged}},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "repo")
			repo := heldBackRepo
			if tc.repo != nil {
				repo = tc.repo
			}
			writeTree(t, root, repo)
			var got []run
			for i := range tc.want {
				res, err := Run(context.Background(), Options{
					Root: root, Target: crossplane.V2, Definitions: true, Force: tc.force,
					Converter: NewConverter(convert.Options{}), Verifier: NewVerifier(false), Verify: true, Jobs: 2,
				})
				if err != nil {
					t.Fatalf("run %d: Run(...): %v", i+1, err)
				}
				got = append(got, runOf(res))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nRun(...) twice: -want, +got:\n%s", tc.reason, diff)
			}
			tree := readTree(t, root)
			if tc.repo != nil {
				if diff := cmp.Diff(tc.wantTwins, tree["examples/claim.v2.yaml"]); diff != "" {
					t.Errorf("%s\nRun(...) twice: examples/claim.v2.yaml: -want, +got:\n%s", tc.reason, diff)
				}
			}
			if !tc.force {
				for _, f := range []string{"apis/composition.yaml", "apis/definition.yaml"} {
					if diff := cmp.Diff(repo[f], tree[f]); diff != "" {
						t.Errorf("%s\nRun(...) twice: %s: -want, +got:\n%s", tc.reason, f, diff)
					}
				}
			}
		})
	}
}

// runOf is what TestMigrateV2HeldBackOnEveryRun compares of a run.
func runOf(res *Result) struct {
	Status  map[string]FileStatus
	Written []string
} {
	out := struct {
		Status  map[string]FileStatus
		Written []string
	}{Status: map[string]FileStatus{}}
	for _, f := range res.Files {
		out.Status[f.Path] = f.Status
		if f.Written {
			out.Written = append(out.Written, f.Path)
		}
	}
	sort.Strings(out.Written)
	return out
}

// TestMigrateIdempotent is issue 23 item 9: a second run of migrate over
// what the first wrote changes nothing, for both targets. Under -short one
// repository of the corpus stands for it.
func TestMigrateIdempotent(t *testing.T) {
	cases := map[string]struct {
		reason      string
		target      crossplane.Target
		definitions bool
	}{
		"V1": {reason: "A v1 run converts every Composition it can; the rerun finds nothing legacy left to write.", target: crossplane.V1},
		"V2": {reason: "A v2-native run holds back whole types; the rerun finds the same evidence and writes nothing.", target: crossplane.V2, definitions: true},
	}
	src := testutil.Corpus(t)
	// Under -short, a repository that converts and one whose conversions
	// are held back (and were written on a second v2 run, issue 23).
	repos := []string{"."}
	if testing.Short() {
		repos = []string{"crossplane__cli", "upbound__configuration-vault"}
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "corpus")
			for _, r := range repos {
				copyTree(t, filepath.Join(src, r), filepath.Join(root, r))
			}
			o := Options{Root: root, Target: tc.target, Definitions: tc.definitions,
				Converter: NewConverter(convert.Options{}), Verifier: NewVerifier(false), Verify: true, Jobs: runtime.NumCPU()}
			first, err := Run(context.Background(), o)
			if err != nil {
				t.Fatalf("first Run(...): %v", err)
			}
			written := 0
			for _, f := range first.Files {
				if f.Written {
					written++
				}
			}
			if written == 0 {
				t.Fatalf("%s\nfirst Run(...) wrote nothing: the test proves nothing", tc.reason)
			}
			after := readTree(t, root)
			second, err := Run(context.Background(), o)
			if err != nil {
				t.Fatalf("second Run(...): %v", err)
			}
			var rewritten []string
			for _, f := range second.Files {
				if f.Written {
					rewritten = append(rewritten, f.Path+" ("+string(f.Status)+")")
				}
			}
			if diff := cmp.Diff([]string(nil), rewritten); diff != "" {
				t.Errorf("%s\nsecond Run(...): files written: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(after, readTree(t, root)); diff != "" {
				t.Errorf("%s\nsecond Run(...): tree: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
