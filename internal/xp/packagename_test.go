package xp_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/xp"
)

func TestPackageName(t *testing.T) {
	cases := map[string]struct {
		reason string
		pkg    string
		want   string
	}{
		"RegistryWithDot": {
			reason: "A first segment with a dot is a registry host and is dropped.",
			pkg:    "xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform:v0.10.8",
			want:   "crossplane-contrib-function-patch-and-transform",
		},
		"RegistryWithPort": {
			reason: "A first segment with a colon (a port) is a registry host.",
			pkg:    "localhost:5000/org/function-x",
			want:   "org-function-x",
		},
		"LocalhostIsNoRegistry": {
			reason: "go-containerregistry, which Crossplane parses package references with, takes a first segment for a registry only when it has a '.' or a ':': plain localhost is part of the repository.",
			pkg:    "localhost/org/function-x",
			want:   "localhost-org-function-x",
		},
		"Digest": {
			reason: "A digest is not part of the name.",
			pkg:    "crossplane-contrib/function-environment-configs@sha256:abc",
			want:   "crossplane-contrib-function-environment-configs",
		},
		"UpperCaseDropped": {
			reason: "Characters outside a-z, 0-9, '.', '/', ':' and '-' are dropped, as Crossplane's ToDNSLabel does.",
			pkg:    "registry.example.com:5000/Team/Function_PT",
			want:   "eam-unction",
		},
		"CutAt63": {
			reason: "A DNS label has at most 63 characters.",
			pkg:    "index.docker.io/a/" + strings.Repeat("x", 80),
			want:   ("a-" + strings.Repeat("x", 80))[:63],
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, xp.PackageName(tc.pkg)); diff != "" {
				t.Errorf("%s\nPackageName(%q): -want, +got:\n%s", tc.reason, tc.pkg, diff)
			}
		})
	}
}
