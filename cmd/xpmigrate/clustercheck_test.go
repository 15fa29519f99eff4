package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// TestMigrateClusterCheckTarget: the live check of migrate --cluster renders
// the converted Compositions for the Crossplane line they were converted
// for (--target), not always for v1.
func TestMigrateClusterCheckTarget(t *testing.T) {
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	const kc = `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`
	if err := os.WriteFile(kubeconfig, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason string
		target crossplane.Target
	}{
		"V1": {reason: "the default line", target: crossplane.V1},
		"V2": {reason: "--target v2 renders the pipeline as Crossplane v2 does", target: crossplane.V2},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := &migrateOptions{}
			o.run.Target = tc.target
			o.cluster.kubeconfig.Path = kubeconfig
			co, err := o.clusterCheck(streams{Out: io.Discard, ErrOut: io.Discard})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.target, co.Live.Verify.Target); diff != "" {
				t.Errorf("%s\nclusterCheck(): Live.Verify.Target -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
