package v2native

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// codesOf returns "CODE path" of each finding, in order.
func codesOf(ds []convert.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, string(d.Code)+" "+d.Path)
	}
	return out
}

func TestV2Objects(t *testing.T) {
	cases := map[string]struct {
		reason    string
		opts      convert.Options
		in        string
		want      string
		wantCodes []string
	}{
		"EnvironmentConfigV1Alpha1": {
			reason: "A v1alpha1 EnvironmentConfig moves to v1beta1; its comments and data stay.",
			in: `# platform defaults
apiVersion: apiextensions.crossplane.io/v1alpha1 # old
kind: EnvironmentConfig
metadata:
  name: defaults
data:
  # the region
  region: eu-west-1
`,
			want: `# platform defaults
apiVersion: apiextensions.crossplane.io/v1beta1 # old
kind: EnvironmentConfig
metadata:
  name: defaults
data:
  # the region
  region: eu-west-1
`,
			wantCodes: []string{"C460 apiVersion"},
		},
		"EnvironmentConfigV1Beta1Unchanged": {
			reason: "A v1beta1 EnvironmentConfig is left as it is.",
			in:     "apiVersion: apiextensions.crossplane.io/v1beta1\nkind: EnvironmentConfig\nmetadata:\n  name: e\ndata:\n  a: b\n",
			want:   "apiVersion: apiextensions.crossplane.io/v1beta1\nkind: EnvironmentConfig\nmetadata:\n  name: e\ndata:\n  a: b\n",
		},
		"LegacyTargetUnchanged": {
			reason: "With --xr-scope legacy nothing but Compositions changes.",
			opts:   convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeLegacy},
			in:     "apiVersion: apiextensions.crossplane.io/v1alpha1\nkind: EnvironmentConfig\nmetadata:\n  name: e\n",
			want:   "apiVersion: apiextensions.crossplane.io/v1alpha1\nkind: EnvironmentConfig\nmetadata:\n  name: e\n",
		},
		"TargetV1Unchanged": {
			reason: "Target v1 leaves the objects alone.",
			opts:   convert.Options{Target: crossplane.V1},
			in:     "apiVersion: pkg.crossplane.io/v1alpha1\nkind: ControllerConfig\nmetadata:\n  name: c\nspec:\n  args: [--debug]\n",
			want:   "apiVersion: pkg.crossplane.io/v1alpha1\nkind: ControllerConfig\nmetadata:\n  name: c\nspec:\n  args: [--debug]\n",
		},
		"UsageOfClusterScopedObjects": {
			reason: "A legacy Usage of cluster-scoped objects becomes a ClusterUsage with the same spec.",
			in: `apiVersion: apiextensions.crossplane.io/v1alpha1
kind: Usage
metadata:
  name: protect-db
spec:
  # the database
  of:
    apiVersion: rds.aws.upbound.io/v1beta1
    kind: Instance
    resourceRef:
      name: db
  by:
    apiVersion: ec2.aws.upbound.io/v1beta1
    kind: Instance
    resourceSelector:
      matchLabels:
        app: web
  replayDeletion: true
`,
			want: `apiVersion: protection.crossplane.io/v1beta1
kind: ClusterUsage
metadata:
  name: protect-db
spec:
  # the database
  of:
    apiVersion: rds.aws.upbound.io/v1beta1
    kind: Instance
    resourceRef:
      name: db
  by:
    apiVersion: ec2.aws.upbound.io/v1beta1
    kind: Instance
    resourceSelector:
      matchLabels:
        app: web
  replayDeletion: true
`,
			wantCodes: []string{"C461 kind"},
		},
		"UsageOfNamespacedObjects": {
			reason: "A Usage of a namespaced managed resource (.m. group) becomes a namespaced protection Usage.",
			in: `apiVersion: apiextensions.crossplane.io/v1beta1
kind: Usage
metadata:
  name: protect-db
  namespace: team-a
spec:
  of:
    apiVersion: rds.aws.m.upbound.io/v1beta1
    kind: Instance
    resourceRef:
      name: db
  reason: production database
`,
			want: `apiVersion: protection.crossplane.io/v1beta1
kind: Usage
metadata:
  name: protect-db
  namespace: team-a
spec:
  of:
    apiVersion: rds.aws.m.upbound.io/v1beta1
    kind: Instance
    resourceRef:
      name: db
  reason: production database
`,
			wantCodes: []string{"C462 kind"},
		},
		"ControllerConfig": {
			reason: "A ControllerConfig becomes a DeploymentRuntimeConfig; each field goes to its place in the Deployment template with its comment, and a field without a place is dropped with C464.",
			in: `apiVersion: pkg.crossplane.io/v1alpha1
kind: ControllerConfig
metadata:
  name: debug-config
  labels:
    team: platform
spec:
  # two pods
  replicas: 2
  args:
  - --debug # verbose
  image: registry.example.com/provider-aws:v1.0.0
  podSecurityContext:
    runAsUser: 2000
  serviceAccountName: provider-aws
  metadata:
    annotations:
      eks.amazonaws.com/role-arn: arn:aws:iam::1:role/p
  resources:
    limits:
      memory: 1Gi
  nodeSelector:
    pool: system
  futureField: x
`,
			want: `apiVersion: pkg.crossplane.io/v1beta1
kind: DeploymentRuntimeConfig
metadata:
  name: debug-config
  labels:
    team: platform
spec:
  deploymentTemplate:
    metadata:
      labels:
        team: platform
    spec:
      # two pods
      replicas: 2
      selector: {}
      template:
        metadata:
          annotations:
            eks.amazonaws.com/role-arn: arn:aws:iam::1:role/p
        spec:
          securityContext:
            runAsUser: 2000
          serviceAccountName: provider-aws
          nodeSelector:
            pool: system
          containers:
          - name: package-runtime
            args:
            - --debug # verbose
            image: registry.example.com/provider-aws:v1.0.0
            resources:
              limits:
                memory: 1Gi
  serviceAccountTemplate:
    metadata:
      labels:
        team: platform
  serviceTemplate:
    metadata:
      labels:
        team: platform
`,
			wantCodes: []string{"C463 kind", "C464 spec.futureField"},
		},
		"ControllerConfigEmpty": {
			reason:    "A ControllerConfig without settings becomes an empty DeploymentRuntimeConfig.",
			in:        "apiVersion: pkg.crossplane.io/v1alpha1\nkind: ControllerConfig\nmetadata:\n  name: c\n",
			want:      "apiVersion: pkg.crossplane.io/v1beta1\nkind: DeploymentRuntimeConfig\nmetadata:\n  name: c\n",
			wantCodes: []string{"C463 kind"},
		},
		"ProviderControllerConfigRef": {
			reason: "A Provider's controllerConfigRef becomes a runtimeConfigRef; an unqualified package gets the registry.",
			in: `apiVersion: pkg.crossplane.io/v1
kind: Provider
metadata:
  name: provider-aws-s3
spec:
  package: xpkg.upbound.io/upbound/provider-aws-s3:v1.0.0
  # debug settings
  controllerConfigRef:
    name: debug-config
`,
			want: `apiVersion: pkg.crossplane.io/v1
kind: Provider
metadata:
  name: provider-aws-s3
spec:
  package: xpkg.upbound.io/upbound/provider-aws-s3:v1.0.0
  # debug settings
  runtimeConfigRef:
    apiVersion: pkg.crossplane.io/v1beta1
    kind: DeploymentRuntimeConfig
    name: debug-config
`,
			wantCodes: []string{"C465 spec.controllerConfigRef"},
		},
		"BothRefs": {
			reason:    "Beside a runtimeConfigRef, the controllerConfigRef is dropped with a warning.",
			in:        "apiVersion: pkg.crossplane.io/v1\nkind: Provider\nmetadata:\n  name: p\nspec:\n  package: xpkg.upbound.io/upbound/p:v1\n  controllerConfigRef:\n    name: a\n  runtimeConfigRef:\n    name: b\n",
			want:      "apiVersion: pkg.crossplane.io/v1\nkind: Provider\nmetadata:\n  name: p\nspec:\n  package: xpkg.upbound.io/upbound/p:v1\n  runtimeConfigRef:\n    name: b\n",
			wantCodes: []string{"C466 spec.controllerConfigRef"},
		},
		"FunctionV1Beta1Unqualified": {
			reason: "A v1beta1 Function moves to v1 and its unqualified package gets the registry.",
			in: `apiVersion: pkg.crossplane.io/v1beta1
kind: Function
metadata:
  name: function-patch-and-transform
spec:
  package: crossplane-contrib/function-patch-and-transform:v0.10.8 # pinned
`,
			want: `apiVersion: pkg.crossplane.io/v1
kind: Function
metadata:
  name: function-patch-and-transform
spec:
  package: xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform:v0.10.8 # pinned
`,
			wantCodes: []string{"C467 apiVersion", "C468 spec.package"},
		},
		"ConfigurationMetadata": {
			reason: "A Configuration's crossplane.yaml admits only Crossplane v2, and its function dependencies take the v2 releases.",
			in: `apiVersion: meta.pkg.crossplane.io/v1
kind: Configuration
metadata:
  name: platform
spec:
  crossplane:
    version: ">=v1.14.1-0" # any 1.x
  dependsOn:
  - provider: xpkg.upbound.io/upbound/provider-aws-s3
    version: ">=v1.0.0"
  - function: xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform
    version: ">=v0.2.1"
  - apiVersion: pkg.crossplane.io/v1
    kind: Function
    package: crossplane-contrib/function-environment-configs
    version: v0.6.0
`,
			want: `apiVersion: meta.pkg.crossplane.io/v1
kind: Configuration
metadata:
  name: platform
spec:
  crossplane:
    version: ">=v2.0.0" # any 1.x
  dependsOn:
  - provider: xpkg.upbound.io/upbound/provider-aws-s3
    version: ">=v1.0.0"
  - function: xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform
    version: ">=v0.10.8"
  - apiVersion: pkg.crossplane.io/v1
    kind: Function
    package: xpkg.crossplane.io/crossplane-contrib/function-environment-configs
    version: '>=v0.7.1, <v0.8.0'
`,
			wantCodes: []string{"C469 spec.crossplane.version", "C470 spec.dependsOn[1].version", "C468 spec.dependsOn[2].package", "C470 spec.dependsOn[2].version"},
		},
		"ConfigurationWithoutConstraint": {
			reason:    "A Configuration without a Crossplane constraint gets one, first in its spec.",
			in:        "apiVersion: meta.pkg.crossplane.io/v1\nkind: Configuration\nmetadata:\n  name: platform\nspec:\n  dependsOn: []\n",
			want:      "apiVersion: meta.pkg.crossplane.io/v1\nkind: Configuration\nmetadata:\n  name: platform\nspec:\n  crossplane:\n    version: '>=v2.0.0'\n  dependsOn: []\n",
			wantCodes: []string{"C469 spec.crossplane.version"},
		},
		"ConfigurationAlreadyV2": {
			reason: "A constraint that admits only v2 is kept.",
			in:     "apiVersion: meta.pkg.crossplane.io/v1\nkind: Configuration\nmetadata:\n  name: p\nspec:\n  crossplane:\n    version: \">=v2.1.0\"\n",
			want:   "apiVersion: meta.pkg.crossplane.io/v1\nkind: Configuration\nmetadata:\n  name: p\nspec:\n  crossplane:\n    version: \">=v2.1.0\"\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := tc.opts
			if o.Target == "" {
				o.Target = crossplane.V2
			}
			for range 2 { // Deterministic.
				res, err := Convert([]byte(tc.in), o)
				if err != nil {
					t.Fatalf("\n%s\nConvert(...): %v", tc.reason, err)
				}
				if diff := cmp.Diff(tc.want, string(res.Output)); diff != "" {
					t.Errorf("\n%s\nConvert(...): -want, +got:\n%s", tc.reason, diff)
				}
				if diff := cmp.Diff(tc.wantCodes, codesOf(res.Diagnostics)); diff != "" {
					t.Errorf("\n%s\nConvert(...) codes: -want, +got:\n%s", tc.reason, diff)
				}
			}
		})
	}
}

func TestV2ObjectsControllerConfigMessage(t *testing.T) {
	in := "apiVersion: pkg.crossplane.io/v1alpha1\nkind: ControllerConfig\nmetadata:\n  name: c\nspec:\n  podSecurityContext:\n    runAsUser: 1\n  image: x\n"
	res, err := Convert([]byte(in), convert.Options{Target: "v2"})
	if err != nil {
		t.Fatal(err)
	}
	want := `ControllerConfig replaced by a pkg.crossplane.io/v1beta1 DeploymentRuntimeConfig of the same name (Crossplane v2 has no ControllerConfig); moved: spec.podSecurityContext, spec.image; point the packages' spec.runtimeConfigRef at it`
	if len(res.Diagnostics) != 1 {
		t.Fatalf("Convert(...): want one finding, got %v", res.Diagnostics)
	}
	if diff := cmp.Diff(want, res.Diagnostics[0].Message); diff != "" {
		t.Errorf("Convert(...) C463 names the ControllerConfig's fields: -want, +got:\n%s", diff)
	}
}
