package convert_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert"
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
			if diff := cmp.Diff(tc.want, convert.PackageName(tc.pkg)); diff != "" {
				t.Errorf("%s\nPackageName(%q): -want, +got:\n%s", tc.reason, tc.pkg, diff)
			}
		})
	}
}

// TestConfigurationDependencyName checks that convert names a function
// after a Configuration dependency by the rule migrate uses.
func TestConfigurationDependencyName(t *testing.T) {
	src := []byte(`apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: x
spec:
  compositeTypeRef: {apiVersion: db.acme.io/v1, kind: XPostgres}
  resources:
  - name: db
    base: {apiVersion: rds.aws.upbound.io/v1beta1, kind: Instance}
`)
	cfg := []byte(`apiVersion: meta.pkg.crossplane.io/v1
kind: Configuration
metadata:
  name: platform
spec:
  dependsOn:
  - function: localhost/org/function-patch-and-transform
    version: ">=v0.10.8"
`)
	res, err := convert.Convert(src, convert.Options{Configuration: cfg})
	if err != nil {
		t.Fatal(err)
	}
	want := "name: localhost-org-function-patch-and-transform"
	if !strings.Contains(string(res.Output), want) {
		t.Errorf("Convert with a localhost dependency: want functionRef %q in\n%s", want, res.Output)
	}
}
