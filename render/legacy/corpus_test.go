package legacy

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	kjson "k8s.io/apimachinery/pkg/util/json"
	kyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/xpmigrate/xpmigrate/environment"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
	"github.com/xpmigrate/xpmigrate/patchandtransform/native"
)

// TestComposeCorpus renders a first reconcile of real `mode: Resources`
// Compositions with their example XRs. It checks only that nothing is fatal
// and that every template either renders or has a Warning event saying why;
// golden files come later.
func TestComposeCorpus(t *testing.T) {
	type args struct {
		composition string // path in the corpus, optionally #<document index>
		example     string // a file holding the example XR
		xrPatch     string // a JSON merge patch (YAML) applied to the example XR
		configs     string // EnvironmentConfigs (YAML stream)
	}
	cases := map[string]struct {
		reason string
		args   args
		// fatal is the expected fatal error, for Compositions that cannot
		// survive a first reconcile.
		fatal string
	}{
		"AWSNetwork": {
			reason: "16 anonymous-style templates sharing PatchSets, with readiness checks and ToComposite patches.",
			args: args{
				composition: "upbound__configuration-aws-network/apis/basic/composition.yaml",
				example:     "upbound__configuration-aws-network/examples/network-xr.yaml",
			},
		},
		"AWSEKS": {
			reason: "19 templates, connection details, transforms.",
			args: args{
				composition: "upbound__configuration-aws-eks/apis/composition.yaml",
				example:     "upbound__configuration-aws-eks/examples/eks-xr.yaml",
			},
		},
		"IRSAWithEnvironment": {
			reason: "The v1.17 environment: a label selector, ToEnvironment and CombineFromEnvironment patches.",
			args: args{
				composition: "upbound__platform-ref-aws/package/cluster/irsa/composition.yaml",
				example:     "upbound__platform-ref-aws/examples/irsa-xr.yaml",
				xrPatch:     "{spec: {parameters: {clusterRef: {id: aws-spoke-01}}}}",
				configs: `
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata: {name: aws-spoke-01, labels: {clusterRef: aws-spoke-01}}
data: {oidcArn: "arn:aws:iam::123456789012:oidc-provider/oidc.eks.us-west-2.amazonaws.com/id/EXAMPLE", oidcHost: oidc.eks.us-west-2.amazonaws.com/id/EXAMPLE}
`,
			},
		},
		"VaultSecretsRequiredToComposite": {
			reason: "A Required ToComposite patch reading status is fatal on a first reconcile (Q-27).",
			args: args{
				composition: "upbound__configuration-vault/apis/vault/secrets/composition.yaml",
				example:     "upbound__configuration-vault/examples/secrets.yaml",
			},
			fatal: `cannot compose resources: cannot render ToComposite patches for composed resource "kv-v2-secret-mount": cannot apply the "ToCompositeFieldPath" patch at index 2: status: no such field`,
		},
		"GitOpsFlux": {
			reason: "Helm release and provider-kubernetes Objects.",
			args: args{
				composition: "upbound__configuration-gitops-flux/apis/composition.yaml",
				example:     "upbound__configuration-gitops-flux/examples/flux-xr.yaml",
			},
		},
		"GCPNetwork": {
			reason: "A GCP network.",
			args: args{
				composition: "upbound__platform-ref-gcp/package/cluster/network/composition.yaml",
				example:     "upbound__platform-ref-gcp/examples/network-xr.yaml",
			},
		},
		"IBMCloud": {
			reason: "Anonymous templates with connection details.",
			args: args{
				composition: "crossplane-contrib__provider-ibm-cloud/examples/composition/composition.yaml",
				example:     "crossplane-contrib__provider-ibm-cloud/examples/composition/composite.yaml",
			},
		},
		"IONOSLoadBalancer": {
			reason: "Seven templates chained through ToComposite patches.",
			args: args{
				composition: "ionos-cloud__crossplane-provider-ionoscloud/examples/nlb-composition/composition.yaml",
				example:     "ionos-cloud__crossplane-provider-ionoscloud/examples/nlb-composition/xr.yaml",
			},
		},
		"KubernetesInComposition": {
			reason: "provider-kubernetes Objects referencing each other.",
			args: args{
				composition: "crossplane-contrib__provider-kubernetes/examples/cluster/in-composition/composition.yaml",
				example:     "crossplane-contrib__provider-kubernetes/examples/cluster/in-composition/cluster.yaml",
			},
		},
		"DevOpsToolkitEKS": {
			reason: "42 templates, Helm and Kubernetes objects, combine patches.",
			args: args{
				composition: "vfarcic__devops-toolkit-crossplane/packages/k8s/eks.yaml",
				example:     "vfarcic__devops-toolkit-crossplane/examples/aws-eks-no-claim.yaml",
			},
		},
		"DevOpsToolkitBackendDB": {
			reason: "An application with a database, string transforms.",
			args: args{
				composition: "vfarcic__devops-toolkit-crossplane/packages/app/backend-db.yaml",
				example:     "vfarcic__devops-toolkit-crossplane/examples/app/backend-no-claim.yaml",
			},
		},
		"TerraformImporter": {
			reason: "provider-terraform Workspaces.",
			args: args{
				composition: "crossplane-contrib__provider-terraform/examples/cluster/importer/composition.yaml",
				example:     "crossplane-contrib__provider-terraform/examples/cluster/importer/xsubnet.yaml",
			},
		},
		"AzureNetwork": {
			reason: "Azure network with patch sets.",
			args: args{
				composition: "upbound__configuration-azure-network/apis/default/composition.yaml",
				example:     "upbound__configuration-azure-network/examples/network-xr.yaml",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := corpusComposition(t, tc.args.composition)
			xr := corpusXR(t, tc.args.example, c)
			if tc.args.xrPatch != "" {
				xr = jsonobj.MergePatch(xr, object(t, tc.args.xrPatch))
			}
			var configs *environment.Set
			if tc.args.configs != "" {
				cs, err := environment.Load([]byte(tc.args.configs))
				if err != nil {
					t.Fatalf("environment.Load(...): %v", err)
				}
				if configs, err = environment.NewSet(cs...); err != nil {
					t.Fatalf("environment.NewSet(...): %v", err)
				}
			}

			out, err := Compose(xr, c, nil, Options{EnvironmentConfigs: configs})
			if tc.fatal != "" {
				if diff := cmp.Diff(tc.fatal, errText(err)); diff != "" {
					t.Errorf("\n%s\nCompose(...): -want, +got:\n%s", tc.reason, diff)
				}
				return
			}
			if err != nil {
				t.Fatalf("\n%s\nCompose(...): fatal: %v", tc.reason, err)
			}
			if len(out.Composed) != len(c.Spec.Resources) {
				t.Fatalf("\n%s\nCompose(...): %d results for %d templates", tc.reason, len(out.Composed), len(c.Spec.Resources))
			}
			for i, r := range out.Composed {
				if r.Rendered {
					continue
				}
				name := templateName(c.Templates()[i], i)
				explained := false
				for _, e := range out.Events {
					if e.Type == "Warning" && strings.Contains(e.Message, `composed resource "`+name+`"`) {
						t.Logf("%s: %s", name, e.Message)
						explained = true
					}
				}
				if !explained {
					t.Errorf("\n%s\nCompose(...): template %q did not render and no Warning event says why", tc.reason, name)
				}
			}
		})
	}
}

// corpusComposition reads a Composition from the corpus, as the API server
// would store it.
func corpusComposition(t *testing.T, path string) *native.Composition {
	t.Helper()
	docs := corpusDocuments(t, path)
	c, err := native.Decode(docs[0])
	if err != nil {
		t.Fatalf("native.Decode(%q): %v", path, err)
	}
	c.Default()
	return c
}

// corpusXR returns the first object in the example file whose type is the
// Composition's composite type, with a synthetic uid.
func corpusXR(t *testing.T, path string, c *native.Composition) map[string]any {
	t.Helper()
	for _, d := range corpusDocuments(t, path) {
		j, err := kyaml.ToJSON(d)
		if err != nil {
			t.Fatalf("cannot read %q: %v", path, err)
		}
		o := map[string]any{}
		if err := kjson.Unmarshal(j, &o); err != nil {
			t.Fatalf("cannot read %q: %v", path, err)
		}
		if o["apiVersion"] != c.Spec.CompositeTypeRef.APIVersion || o["kind"] != c.Spec.CompositeTypeRef.Kind {
			continue
		}
		md, _ := o["metadata"].(map[string]any)
		if md == nil {
			md = map[string]any{}
			o["metadata"] = md
		}
		md["uid"] = "00000000-0000-4000-8000-000000000001"
		return o
	}
	t.Fatalf("%q has no %s %s", path, c.Spec.CompositeTypeRef.APIVersion, c.Spec.CompositeTypeRef.Kind)
	return nil
}

// corpusDocuments splits a corpus file into its YAML documents.
func corpusDocuments(t *testing.T, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testutil.Corpus(t), filepath.FromSlash(path)))
	if err != nil {
		t.Skipf("corpus file not available: %v", err)
	}
	r := kyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(b)))
	var out [][]byte
	for {
		d, err := r.Read()
		if err != nil {
			break
		}
		if len(bytes.TrimSpace(d)) > 0 {
			out = append(out, d)
		}
	}
	return out
}
