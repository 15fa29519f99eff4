package functions

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert/migrate/finding"
	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

func TestFunctionPinChecks(t *testing.T) {
	type want struct {
		code, severity string
	}
	cases := map[string]struct {
		reason   string
		target   crossplane.Target
		ec       bool
		manifest string // a Function's spec.package, or
		version  string // a dependency's version constraint
		want     want
	}{
		"PTVerifiedRelease": {
			reason:   "The release verify emulates is supported.",
			target:   "v1",
			manifest: "xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform:v0.10.8",
		},
		"PTSameLine": {
			reason:   "v0.10.0–v0.10.8 behave the same for legacy XRs.",
			target:   "v1",
			manifest: "xpkg.upbound.io/crossplane-contrib/function-patch-and-transform:v0.10.0",
		},
		"PTTooOld": {
			reason:   "v0.2.1 runs patches differently (phases, readiness): not supported.",
			target:   "v1",
			manifest: "xpkg.upbound.io/crossplane-contrib/function-patch-and-transform:v0.2.1",
			want:     want{"M409", "warning"},
		},
		"PTNextLineOnV1": {
			reason:   "A line nobody examined is not supported on v1.",
			target:   "v1",
			manifest: "xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform:v0.11.0",
			want:     want{"M409", "warning"},
		},
		"PTNextLineOnV2": {
			reason:   "On v2 any release from v0.10.0 is.",
			target:   "v2",
			manifest: "xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform:v0.11.0",
		},
		"PTDigest": {
			reason:   "A digest hides the release: reported as info.",
			target:   "v1",
			manifest: "xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform@sha256:0123",
			want:     want{"M409", "info"},
		},
		"ECv07OnV1": {
			reason:   "EC v0.7+ gets no EnvironmentConfigs on Crossplane 1.x (D43).",
			target:   "v1",
			ec:       true,
			manifest: "xpkg.crossplane.io/crossplane-contrib/function-environment-configs:v0.7.1",
			want:     want{"M409", "warning"},
		},
		"ECv06OnV2": {
			reason:   "EC v0.6 speaks only the v1 protocol.",
			target:   "v2",
			ec:       true,
			manifest: "xpkg.crossplane.io/crossplane-contrib/function-environment-configs:v0.6.0",
			want:     want{"M409", "warning"},
		},
		"DependencyBounded": {
			reason:  "A constraint within v0.10.x that admits the pin is supported on v1.",
			target:  "v1",
			version: ">=v0.10.8, <v0.11.0",
		},
		"DependencyUnbounded": {
			reason:  "An open constraint lets Crossplane 1.x install an unexamined release.",
			target:  "v1",
			version: ">=v0.10.8",
			want:    want{"M410", "warning"},
		},
		"DependencyUnboundedV2": {
			reason:  "On v2 an open constraint from v0.10 is fine.",
			target:  "v2",
			version: ">=v0.10.8",
		},
		"DependencyTooLow": {
			reason:  "A constraint that admits v0.2.1 is not supported.",
			target:  "v2",
			version: ">=v0.2.1",
			want:    want{"M410", "warning"},
		},
		"DependencyExactInLine": {
			reason:  "An exact release of the supported line is supported, even if not the one verified.",
			target:  "v1",
			version: "v0.10.2",
		},
		"DependencyAdmitsNothing": {
			reason:  "A constraint no release satisfies installs nothing.",
			target:  "v1",
			version: ">v0.10.8, <v0.10.8",
			want:    want{"M410", "warning"},
		},
		"DependencyEmpty": {
			reason:  "No version bounds nothing.",
			target:  "v1",
			version: "",
			want:    want{"M410", "warning"},
		},
		"DependencyECTilde": {
			reason:  "~v0.6.0 stays in v0.6.x.",
			target:  "v1",
			ec:      true,
			version: "~v0.6.0",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			pt, ec := Pins(tc.target)
			p := pt
			if tc.ec {
				p = ec
			}
			var fd *finding.Diagnostic
			if tc.manifest != "" {
				fd = p.CheckManifest("fn", tc.manifest, tc.target)
			} else {
				fd = p.CheckDependency("spec.dependsOn[0].version", p.Pkg, tc.version, tc.target)
			}
			var got want
			if fd != nil {
				got = want{fd.Code, fd.Severity}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\ncheck: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestAddDependencyNodes(t *testing.T) {
	pt, ec := Pins("v1")
	cases := map[string]struct {
		reason string
		in     string
		want   string
	}{
		"NoDependsOn": {
			reason: "A Configuration without dependencies gets spec.dependsOn.",
			in:     "apiVersion: meta.pkg.crossplane.io/v1\nkind: Configuration\nmetadata:\n  name: p # the package\nspec:\n  crossplane:\n    version: \">=v1.18.0\"\n",
			want:   "apiVersion: meta.pkg.crossplane.io/v1\nkind: Configuration\nmetadata:\n  name: p # the package\nspec:\n  crossplane:\n    version: \">=v1.18.0\"\n  dependsOn:\n  - function: xpkg.crossplane.io/crossplane-contrib/function-environment-configs\n    version: \">=v0.6.0, <v0.7.0\"\n  - function: xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform\n    version: \">=v0.10.8, <v0.11.0\"\n",
		},
		"NoSpec": {
			reason: "A Configuration without spec gets one.",
			in:     "apiVersion: meta.pkg.crossplane.io/v1\nkind: Configuration\nmetadata:\n  name: p\n",
			want:   "apiVersion: meta.pkg.crossplane.io/v1\nkind: Configuration\nmetadata:\n  name: p\nspec:\n  dependsOn:\n  - function: xpkg.crossplane.io/crossplane-contrib/function-environment-configs\n    version: \">=v0.6.0, <v0.7.0\"\n  - function: xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform\n    version: \">=v0.10.8, <v0.11.0\"\n",
		},
		"PackageForm": {
			reason: "A list that names packages with apiVersion, kind and package gets entries in that form; the flow entry and the comment stay.",
			in:     "apiVersion: meta.pkg.crossplane.io/v1\nkind: Configuration\nmetadata:\n  name: p\nspec:\n  dependsOn:\n  # providers\n  - {apiVersion: pkg.crossplane.io/v1, kind: Provider, package: xpkg.upbound.io/upbound/provider-aws-s3, version: \">=v1.0.0\"}\n",
			want:   "apiVersion: meta.pkg.crossplane.io/v1\nkind: Configuration\nmetadata:\n  name: p\nspec:\n  dependsOn:\n  # providers\n  - {apiVersion: pkg.crossplane.io/v1, kind: Provider, package: xpkg.upbound.io/upbound/provider-aws-s3, version: \">=v1.0.0\"}\n  - apiVersion: pkg.crossplane.io/v1\n    kind: Function\n    package: xpkg.crossplane.io/crossplane-contrib/function-environment-configs\n    version: \">=v0.6.0, <v0.7.0\"\n  - apiVersion: pkg.crossplane.io/v1\n    kind: Function\n    package: xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform\n    version: \">=v0.10.8, <v0.11.0\"\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d, err := yamledit.Parse([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			AddDependencies(d.Top(), []Want{{Pin: ec}, {Pin: pt}})
			got, err := d.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("%s\naddDependencyNodes(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
