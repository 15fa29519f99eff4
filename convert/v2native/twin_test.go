package v2native

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert"
)

func TestXRTwin(t *testing.T) {
	db := TwinType{Group: "example.org", Kind: "XPostgreSQLInstance", Plural: "xpostgresqlinstances", Version: "v1alpha1"}
	cases := map[string]struct {
		reason    string
		typ       TwinType
		opts      convert.Options
		in        string
		want      string
		wantCodes []string
	}{
		"Claim": {
			reason: "A claim becomes an XR of the v2 type in its namespace; the machinery moves to spec.crossplane (compositionRef renamed to the v2 Composition) and comments stay.",
			typ:    db,
			in: `# a small database
apiVersion: example.org/v1alpha1
kind: PostgreSQLInstance
metadata:
  name: my-db
  namespace: team-a
spec:
  # the size
  parameters:
    storageGB: 20
  compositionRef:
    name: xpostgresqlinstances.aws.example.org # AWS
  compositionUpdatePolicy: Automatic
  compositeDeletePolicy: Foreground
  writeConnectionSecretToRef:
    name: db-conn
`,
			want: `# a small database
apiVersion: example.org/v1alpha1
kind: PostgreSQLInstance
metadata:
  name: my-db
  namespace: team-a
spec:
  # the size
  parameters:
    storageGB: 20
  crossplane:
    compositionRef:
      name: postgresqlinstances.aws.example.org # AWS
    compositionUpdatePolicy: Automatic
  writeConnectionSecretToRef:
    name: db-conn
`,
			wantCodes: []string{"C472 spec.writeConnectionSecretToRef", "C473 spec", "C471 kind"},
		},
		"LegacyXR": {
			reason: "A legacy XR goes to its claim's namespace; claim labels, claimRef and resourceRefs go, the namespace of its connection secret ref too, and a revision pin is dropped with a warning.",
			typ:    db,
			opts:   convert.Options{XRNaming: convert.XRNamingNewGroup, XRGroup: "v2.example.org"},
			in: `apiVersion: example.org/v1alpha1
kind: XPostgreSQLInstance
metadata:
  name: my-db-x7k2p
  labels:
    crossplane.io/claim-name: my-db
    crossplane.io/claim-namespace: team-a
    app: db
spec:
  parameters:
    storageGB: 20
  compositionSelector:
    matchLabels:
      provider: aws
  compositionRevisionRef:
    name: xpostgresqlinstances.aws.example.org-ab12c
  claimRef:
    apiVersion: example.org/v1alpha1
    kind: PostgreSQLInstance
    name: my-db
    namespace: team-a
  resourceRefs: []
  writeConnectionSecretToRef:
    name: db-conn
    namespace: crossplane-system
`,
			want: `apiVersion: v2.example.org/v1alpha1
kind: PostgreSQLInstance
metadata:
  name: my-db-x7k2p
  namespace: team-a
  labels:
    app: db
spec:
  parameters:
    storageGB: 20
  crossplane:
    compositionSelector:
      matchLabels:
        provider: aws
  writeConnectionSecretToRef:
    name: db-conn
`,
			wantCodes: []string{"C474 spec.compositionRevisionRef", "C472 spec.writeConnectionSecretToRef", "C473 spec", "C471 kind"},
		},
		"ClusterScope": {
			reason:    "With --xr-scope cluster the twin of a claim has no namespace.",
			typ:       db,
			opts:      convert.Options{XRScope: convert.XRScopeCluster},
			in:        "apiVersion: example.org/v1alpha1\nkind: PostgreSQLInstance\nmetadata:\n  name: my-db\n  namespace: team-a\nspec:\n  parameters: {}\n",
			want:      "apiVersion: example.org/v1alpha1\nkind: PostgreSQLInstance\nmetadata:\n  name: my-db\nspec:\n  parameters: {}\n",
			wantCodes: []string{"C473 metadata.namespace", "C471 kind"},
		},
		"ClusterScopeSecretRef": {
			reason:    "With --xr-scope cluster a claim's connection Secret reference gets the claim's namespace: the Cluster XRD declares name and namespace (C416).",
			typ:       db,
			opts:      convert.Options{XRScope: convert.XRScopeCluster},
			in:        "apiVersion: example.org/v1alpha1\nkind: PostgreSQLInstance\nmetadata:\n  name: my-db\n  namespace: team-a\nspec:\n  writeConnectionSecretToRef:\n    name: db-conn\n",
			want:      "apiVersion: example.org/v1alpha1\nkind: PostgreSQLInstance\nmetadata:\n  name: my-db\nspec:\n  writeConnectionSecretToRef:\n    name: db-conn\n    namespace: team-a\n",
			wantCodes: []string{"C473 metadata.namespace", "C472 spec.writeConnectionSecretToRef", "C471 kind"},
		},
		"ClusterScopeLegacySecretRef": {
			reason:    "With --xr-scope cluster a legacy XR's connection Secret reference keeps its namespace.",
			typ:       db,
			opts:      convert.Options{XRScope: convert.XRScopeCluster},
			in:        "apiVersion: example.org/v1alpha1\nkind: XPostgreSQLInstance\nmetadata:\n  name: my-db\nspec:\n  writeConnectionSecretToRef:\n    name: db-conn\n    namespace: crossplane-system\n",
			want:      "apiVersion: example.org/v1alpha1\nkind: PostgreSQLInstance\nmetadata:\n  name: my-db\nspec:\n  writeConnectionSecretToRef:\n    name: db-conn\n    namespace: crossplane-system\n",
			wantCodes: []string{"C472 spec.writeConnectionSecretToRef", "C471 kind"},
		},
		"NoMachinery": {
			reason:    "Without machinery fields the spec is copied as it is and has no spec.crossplane; a Composition name that the naming leaves unchanged gets -v2.",
			typ:       TwinType{Group: "example.org", Kind: "Bucket", Plural: "buckets"},
			in:        "apiVersion: example.org/v1\nkind: Bucket\nmetadata:\n  name: b\nspec:\n  region: eu\n  compositionRef:\n    name: bucket\n",
			want:      "apiVersion: example.org/v1\nkind: Bucket\nmetadata:\n  name: b\nspec:\n  region: eu\n  crossplane:\n    compositionRef:\n      name: bucket-v2\n",
			wantCodes: []string{"C471 kind"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, diags, err := XRTwin([]byte(tc.in), tc.typ, tc.opts)
			if err != nil {
				t.Fatalf("\n%s\nXRTwin(...): %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("\n%s\nXRTwin(...): -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantCodes, codesOf(diags)); diff != "" {
				t.Errorf("\n%s\nXRTwin(...) codes: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
