package migrate

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/render/verify/live"
)

// fakeFunctions lists the Functions of a cluster.
type fakeFunctions struct {
	fns []cluster.Function
	ok  bool
	err error
}

func (f *fakeFunctions) Functions(context.Context) ([]cluster.Function, bool, error) {
	return f.fns, f.ok, f.err
}

// executeTree writes a repository of one legacy Composition and its XR
// example, which converts and verifies equivalent.
func executeTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"apis/composition.yaml": `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: buckets
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XBucket
  resources:
  - name: bucket
    base:
      apiVersion: s3.aws.upbound.io/v1beta1
      kind: Bucket
    patches:
    - fromFieldPath: spec.region
      toFieldPath: spec.forProvider.region
`,
		"examples/xr.yaml": `apiVersion: example.org/v1
kind: XBucket
metadata:
  name: example
spec:
  region: eu-west-1
`,
	}
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestExecute: runMigrate's sequencing of the cluster check (issue 27,
// item 5) is the library's: the cluster's Functions are listed before
// the run, the live check runs only after a run that passed and before
// the outputs are written, whose error (a check that failed, reports
// that fail) comes after them.
func TestExecute(t *testing.T) {
	type out struct {
		// Events are what happened, in order.
		Events []string
		// Reports are the cluster Reports Write was given (nil: no
		// check).
		Reports []string
		Section bool
		Kind    string
		Err     string
		Log     string
	}
	cases := map[string]struct {
		reason          string
		check           bool
		requireVerified bool
		cluster         bool
		functions       *fakeFunctions
		openErr         error
		writeErr        error
		want            out
	}{
		"NoCluster": {
			reason: "Without --cluster the run's outputs are written, with no cluster check.",
			want:   out{Events: []string{"write"}, Kind: "ok"},
		},
		"ClusterChecked": {
			reason:    "With --cluster the Functions are listed before the run, the converted Composition is checked (its path <file>#<document>) and the progress finished before the outputs are written with the section. No XR runs it: unverified, which passes.",
			cluster:   true,
			functions: &fakeFunctions{ok: true, fns: []cluster.Function{{Name: "function-patch-and-transform", Package: convert.PTPackage + ":" + convert.PTVersion}}},
			want: out{
				Events:  []string{"functions", "open secrets=false", "done", "write"},
				Reports: []string{"apis/composition.yaml#1"}, Section: true, Kind: "ok",
			},
		},
		"ClusterReportFailsWithRequireVerified": {
			reason:          "With --require-verified a cluster Report without XRs (unverified) fails the run after the outputs are written: findings (exit 3).",
			cluster:         true,
			requireVerified: true,
			want: out{
				Events:  []string{"open secrets=false", "done", "write"},
				Reports: []string{"apis/composition.yaml#1"}, Section: true, Kind: "findings",
			},
		},
		"FailedRunSkipsTheCluster": {
			reason:  "A run that fails (--check: the Composition and the Function manifests would change) writes its outputs and is not checked against the cluster.",
			check:   true,
			cluster: true,
			want: out{
				Events: []string{"write"}, Kind: "findings", Err: "2 files would change",
			},
		},
		"ClusterCheckFails": {
			reason:  "A cluster that cannot be opened: the outputs are written without a cluster section, then the error.",
			cluster: true,
			openErr: errors.New("no route to host"),
			want: out{
				Events: []string{"open secrets=false", "done", "write"}, Kind: "error", Err: "no route to host",
			},
		},
		"FunctionsNotListed": {
			reason:    "Functions the cluster does not let us list are said on the log; the run and the check go on.",
			cluster:   true,
			functions: &fakeFunctions{ok: false},
			want: out{
				Events:  []string{"functions", "open secrets=false", "done", "write"},
				Reports: []string{"apis/composition.yaml#1"}, Section: true, Kind: "ok",
				Log: "migrate: cannot list the cluster's Functions (not served, or forbidden): functionRefs are checked against the tree's Functions only\n",
			},
		},
		"FunctionsListFails": {
			reason:    "A failing list of Functions stops before the run: nothing is written.",
			cluster:   true,
			functions: &fakeFunctions{err: errors.New("boom")},
			want: out{
				Events: []string{"functions"}, Kind: "error", Err: "cannot list the cluster's Functions: boom",
			},
		},
		"WriteFails": {
			reason:   "An output that cannot be written is the error, before the cluster's.",
			cluster:  true,
			openErr:  errors.New("no route to host"),
			writeErr: errors.New("disk full"),
			want: out{
				Events: []string{"open secrets=false", "done", "write"}, Kind: "error", Err: "disk full",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got out
			var log bytes.Buffer
			o := Options{
				Root: executeTree(t), Write: WriteNone, Check: tc.check, Verify: true, KeepSources: true,
				Converter: NewConverter(convert.Options{}), Verifier: NewVerifier(false),
				// The Function manifests the converted Composition needs.
				WireFunctions: true,
			}
			x := Execution{
				RequireVerified: tc.requireVerified,
				Write: func(_ *Result, cc *ClusterCheck) error {
					got.Events = append(got.Events, "write")
					if cc != nil {
						for _, r := range cc.Reports {
							got.Reports = append(got.Reports, r.Legacy)
						}
						got.Section = cc.Section != nil
					}
					return tc.writeErr
				},
			}
			if tc.cluster {
				x.Cluster = &ClusterOptions{
					Open: func(secrets bool) (live.Cluster, error) {
						got.Events = append(got.Events, "open secrets="+map[bool]string{true: "true", false: "false"}[secrets])
						if tc.openErr != nil {
							return nil, tc.openErr
						}
						return emptyCluster{}, nil
					},
					Done: func() { got.Events = append(got.Events, "done") },
					Log:  &log,
				}
				if tc.functions != nil {
					f := tc.functions
					x.Cluster.Functions = listFunctions{f: f, event: func() { got.Events = append(got.Events, "functions") }}
				}
			}
			err := Execute(context.Background(), o, x)
			got.Kind, got.Log = kind(err), log.String()
			if err != nil {
				got.Err = err.Error()
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nExecute(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// listFunctions records the listing of a fakeFunctions as an event.
type listFunctions struct {
	f     *fakeFunctions
	event func()
}

func (l listFunctions) Functions(ctx context.Context) ([]cluster.Function, bool, error) {
	l.event()
	return l.f.Functions(ctx)
}

// TestClusterFunctions: the cluster's Functions become the run's
// InstalledFunctions, in the cluster's order.
func TestClusterFunctions(t *testing.T) {
	cases := map[string]struct {
		reason string
		f      *fakeFunctions
		want   []InstalledFunction
	}{
		"Listed": {
			reason: "Each listed Function, name and package.",
			f:      &fakeFunctions{ok: true, fns: []cluster.Function{{Name: "b", Package: "p/b:v1"}, {Name: "a", Package: "p/a:v2"}}},
			want:   []InstalledFunction{{Name: "b", Package: "p/b:v1"}, {Name: "a", Package: "p/a:v2"}},
		},
		"NoneInstalled": {
			reason: "A cluster that runs no Function: an empty list, not nil (nil means not known).",
			f:      &fakeFunctions{ok: true},
			want:   []InstalledFunction{},
		},
		"NotListed": {
			reason: "Functions that cannot be listed: nil, the tree's alone are checked.",
			f:      &fakeFunctions{ok: false},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ClusterFunctions(context.Background(), &ClusterOptions{Functions: tc.f})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nClusterFunctions(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
