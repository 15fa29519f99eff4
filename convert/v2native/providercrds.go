package v2native

import (
	"slices"
	"strings"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// A providerType is what a provider's CustomResourceDefinition says about
// one kind: its scope, the versions it serves and the one it stores.
type providerType struct {
	group, kind, scope string
	served             []string
	storage            string
}

// providerTypeOf returns the type group/kind among the
// CustomResourceDefinitions crds (decoded JSON), and whether there is one.
func providerTypeOf(crds []map[string]any, group, kind string) (providerType, bool) {
	for _, crd := range crds {
		if crd["kind"] != "CustomResourceDefinition" || xp.Group(jsonobj.AsString(crd["apiVersion"])) != "apiextensions.k8s.io" {
			continue
		}
		spec, _ := crd["spec"].(map[string]any)
		names, _ := spec["names"].(map[string]any)
		if jsonobj.AsString(spec["group"]) != group || jsonobj.AsString(names["kind"]) != kind {
			continue
		}
		t := providerType{group: group, kind: kind, scope: jsonobj.AsString(spec["scope"])}
		if t.scope == "" {
			t.scope = scopeNamespaced // The API server's default.
		}
		vs, _ := spec["versions"].([]any)
		for _, v := range vs {
			vm, _ := v.(map[string]any)
			name := jsonobj.AsString(vm["name"])
			if served, _ := vm["served"].(bool); served && name != "" {
				t.served = append(t.served, name)
			}
			if storage, _ := vm["storage"].(bool); storage {
				t.storage = name
			}
		}
		return t, true
	}
	return providerType{}, false
}

// version is the version a template of this type is written with: old
// when the type serves it, else the stored version (the one the API
// server converts every other to), else the first served one.
func (t providerType) version(old string) string {
	switch {
	case slices.Contains(t.served, old):
		return old
	case t.storage != "" && slices.Contains(t.served, t.storage):
		return t.storage
	case len(t.served) > 0:
		return t.served[0]
	}
	return old
}

// A providerFamily is an entry of the built-in table of provider
// families, which decides a template's scope when no CRD of its kind was
// given: the API groups <service>.<label>.<domain> (and <label>.<domain>)
// of one provider, and the release from which it serves a namespaced twin
// of every cluster-scoped managed resource, in the group with an `m`
// label before the domain (s3.aws.upbound.io → s3.aws.m.upbound.io).
// twins is "" for a provider that serves none in any release: its managed
// resources stay cluster-scoped.
type providerFamily struct {
	domain, label string
	provider      string
	twins         string // the first release with namespaced twins; "" for none
}

// v2Release stands for a provider's first release for Crossplane v2 where
// the table's sources do not name its version.
const v2Release = "its first release for Crossplane v2"

// providerFamilies is the built-in table. Its sources (read in 2025):
//
//   - Upjet providers (provider-upjet-aws, -azure, -azuread, -gcp): the
//     v2.0.0 release notes of provider-upjet-aws ("Support for Crossplane
//     v2 namespace-scoped Managed Resources alongside existing
//     cluster-scoped MRs"), crossplane-contrib/provider-upjet-aws#1831 and
//     provider-upjet-gcp#809 ("crossplane v2: Generate namespace-scoped
//     MRs"), and the .m.upbound.io CRDs in each repository's package/crds
//     (e.g. azure.m.upbound.io_resourcegroups.yaml,
//     groups.azuread.m.upbound.io_groups.yaml).
//   - provider-terraform (tf.upbound.io): crossplane-contrib/provider-terraform#198,
//     "New APIs are under tf.m.upbound.io".
//   - provider-kubernetes: crossplane-contrib/provider-kubernetes#380
//     (kubernetes.m.crossplane.io, merged 2025-08) and its
//     package/crds/kubernetes.m.crossplane.io_objects.yaml.
//   - provider-helm: helm.m.crossplane.io Releases on Crossplane 2.0
//     (crossplane-contrib/provider-helm#297, #300).
//   - provider-http and provider-sql: their package/crds hold
//     http.m.crossplane.io and {postgresql,mysql,mssql}.sql.m.crossplane.io
//     CRDs.
//   - The classic providers of *.aws.crossplane.io, *.azure.crossplane.io
//     and *.gcp.crossplane.io: no release with namespaced kinds
//     (crossplane-contrib/provider-aws#2269, "Add namespaced variants for
//     managed resources", closed without them; crossplane/docs#966 notes
//     the non-upjet provider-aws is not on v2). The Terrajet providers
//     (*.jet.crossplane.io) were deprecated in 2022 (crossplane/terrajet#308).
//
// The release is what the messages name (v2.0.0 for the Upjet providers,
// per provider-upjet-aws's release notes; the others' versions are not
// stated by the sources, so the messages do not name one); a provider whose twins the table
// states is converted by the group rule with the version kept (C445)
// unless --provider-crds gives the twin's CRD.
var providerFamilies = []providerFamily{
	{domain: "upbound.io", label: "aws", provider: "provider-upjet-aws (provider-aws-*)", twins: "v2.0.0"},
	{domain: "upbound.io", label: "azure", provider: "provider-upjet-azure (provider-azure-*)", twins: "v2.0.0"},
	{domain: "upbound.io", label: "azuread", provider: "provider-upjet-azuread", twins: "v2.0.0"},
	{domain: "upbound.io", label: "gcp", provider: "provider-upjet-gcp (provider-gcp-*)", twins: "v2.0.0"},
	{domain: "upbound.io", label: "tf", provider: "provider-terraform", twins: v2Release},
	{domain: "crossplane.io", label: "kubernetes", provider: "provider-kubernetes", twins: v2Release},
	{domain: "crossplane.io", label: "helm", provider: "provider-helm", twins: v2Release},
	{domain: "crossplane.io", label: "http", provider: "provider-http", twins: v2Release},
	{domain: "crossplane.io", label: "sql", provider: "provider-sql", twins: v2Release},
	{domain: "crossplane.io", label: "aws", provider: "the classic provider-aws"},
	{domain: "crossplane.io", label: "azure", provider: "the classic provider-azure"},
	{domain: "crossplane.io", label: "gcp", provider: "the classic provider-gcp"},
	{domain: "crossplane.io", label: "jet", provider: "a Terrajet provider (provider-jet-*)"},
}

// familyOf returns the built-in table's entry for group, by the label
// before its domain, and whether there is one.
func familyOf(group string) (providerFamily, bool) {
	for _, f := range providerFamilies {
		rest, ok := strings.CutSuffix(group, "."+f.domain)
		if !ok {
			continue
		}
		labels := strings.Split(rest, ".")
		if labels[len(labels)-1] == f.label {
			return f, true
		}
	}
	return providerFamily{}, false
}

// why says what the table states about the family, for the messages.
func (f providerFamily) why() string {
	if f.twins == "" {
		return "the built-in table of provider families: " + f.provider + " has no namespaced managed resources in any release"
	}
	return "the built-in table of provider families: " + f.provider + " serves namespaced twins from " + f.twins
}

// twinGroup returns the group of the namespaced twins of group's managed
// resources by the built-in table's rule, and whether the table says the
// provider has them.
func twinGroup(group string) (string, bool) {
	f, ok := familyOf(group)
	if !ok || f.twins == "" {
		return "", false
	}
	rest, _ := strings.CutSuffix(group, "."+f.domain)
	return rest + ".m." + f.domain, true
}

// isNamespacedGroup reports whether group is already a namespaced
// providers' group (has an `m` label).
func isNamespacedGroup(group string) bool {
	return slices.Contains(strings.Split(group, "."), "m")
}

// clusterScopedKinds are the kinds known to be cluster-scoped, by group,
// for when no CRD says: Kubernetes' own, Crossplane's, and every
// provider's v1 ProviderConfig.
var clusterScopedKinds = map[string][]string{
	"":                             {"Namespace", "Node", "PersistentVolume"},
	"rbac.authorization.k8s.io":    {"ClusterRole", "ClusterRoleBinding"},
	"apiextensions.k8s.io":         {"CustomResourceDefinition"},
	"apiregistration.k8s.io":       {"APIService"},
	"storage.k8s.io":               {"StorageClass", "CSIDriver", "CSINode", "VolumeAttachment"},
	"scheduling.k8s.io":            {"PriorityClass"},
	"node.k8s.io":                  {"RuntimeClass"},
	"networking.k8s.io":            {"IngressClass"},
	"certificates.k8s.io":          {"CertificateSigningRequest"},
	"admissionregistration.k8s.io": {"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"},
	"apiextensions.crossplane.io":  {"CompositeResourceDefinition", "Composition", "CompositionRevision", "EnvironmentConfig"},
	"pkg.crossplane.io":            {"Provider", "ProviderRevision", "Configuration", "ConfigurationRevision", "Function", "FunctionRevision", "DeploymentRuntimeConfig", "ControllerConfig", "Lock", "ImageConfig"},
	"protection.crossplane.io":     {"ClusterUsage"},
}

// clusterScoped reports whether group/kind is cluster-scoped, and why
// (which source decided): the provider CRDs, a known cluster-scoped kind,
// or the built-in table of provider families for a provider without
// namespaced managed resources.
func clusterScoped(o convert.Options, group, kind string) (bool, string) {
	if t, ok := providerTypeOf(o.ProviderCRDs, group, kind); ok {
		return t.scope == scopeCluster, "its CRD in " + crdSource(o) + " is scope " + t.scope
	}
	if slices.Contains(clusterScopedKinds[group], kind) {
		return true, "it is a cluster-scoped kind"
	}
	if !isNamespacedGroup(group) && isProviderConfigKind(kind) {
		return true, "provider configurations of Crossplane v1 providers are cluster-scoped"
	}
	if f, ok := familyOf(group); ok && f.twins == "" && !isNamespacedGroup(group) {
		return true, f.why()
	}
	return false, ""
}

// hasCRD reports whether Options.ProviderCRDs has the CRD of group/kind.
func hasCRD(o convert.Options, group, kind string) bool {
	_, ok := providerTypeOf(o.ProviderCRDs, group, kind)
	return ok
}

// crdSource names where Options.ProviderCRDs come from, for the messages.
func crdSource(o convert.Options) string {
	if o.ProviderCRDsSource != "" {
		return o.ProviderCRDsSource
	}
	return "--provider-crds"
}

// isProviderConfigKind reports whether kind is a provider's configuration
// (or its usage), which has no namespaced twin of the same kind.
func isProviderConfigKind(kind string) bool {
	return kind == convert.KindProviderConfig || kind == convert.KindClusterProviderConfig || kind == "ProviderConfigUsage"
}
