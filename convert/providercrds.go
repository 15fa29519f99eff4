package convert

import (
	"slices"
	"strings"

	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// Kinds of provider configuration a namespaced managed resource refers to
// (Options.ProviderConfigKind).
const (
	KindClusterProviderConfig = "ClusterProviderConfig"
	KindProviderConfig        = "ProviderConfig"
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
		if crd["kind"] != "CustomResourceDefinition" || xp.Group(str(crd["apiVersion"])) != "apiextensions.k8s.io" {
			continue
		}
		spec, _ := crd["spec"].(map[string]any)
		names, _ := spec["names"].(map[string]any)
		if str(spec["group"]) != group || str(names["kind"]) != kind {
			continue
		}
		t := providerType{group: group, kind: kind, scope: str(spec["scope"])}
		if t.scope == "" {
			t.scope = scopeNamespaced // The API server's default.
		}
		vs, _ := spec["versions"].([]any)
		for _, v := range vs {
			vm, _ := v.(map[string]any)
			name := str(vm["name"])
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

// namespacedProviders are the providers known to serve a namespaced twin
// of every cluster-scoped managed resource, by the label before their
// domain: the twin's group inserts `m` before the domain
// (s3.aws.upbound.io → s3.aws.m.upbound.io, kubernetes.crossplane.io →
// kubernetes.m.crossplane.io). Upbound's official providers (AWS, Azure,
// Azure AD, GCP; provider-terraform's tf.upbound.io) and the
// crossplane-contrib providers kubernetes, helm, http and sql do. The
// community providers of *.aws.crossplane.io, *.gcp.crossplane.io and
// *.azure.crossplane.io do not: their managed resources stay
// cluster-scoped.
var namespacedProviders = map[string][]string{
	"upbound.io":    {"aws", "azure", "azuread", "gcp", "tf"},
	"crossplane.io": {"kubernetes", "helm", "http", "sql"},
}

// twinGroup returns the group of the namespaced twins of group's managed
// resources by the known providers' rule, and whether the rule applies.
func twinGroup(group string) (string, bool) {
	for domain, providers := range namespacedProviders {
		rest, ok := strings.CutSuffix(group, "."+domain)
		if !ok {
			continue
		}
		labels := strings.Split(rest, ".")
		if slices.Contains(providers, labels[len(labels)-1]) {
			return rest + ".m." + domain, true
		}
	}
	return "", false
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

// clusterScoped reports whether group/kind is cluster-scoped, and why:
// per the provider CRDs, or a known cluster-scoped kind.
func (o Options) clusterScoped(group, kind string) (bool, string) {
	if t, ok := providerTypeOf(o.ProviderCRDs, group, kind); ok {
		return t.scope == scopeCluster, "its CRD in --provider-crds is scope " + t.scope
	}
	if slices.Contains(clusterScopedKinds[group], kind) {
		return true, "it is a cluster-scoped kind"
	}
	if !isNamespacedGroup(group) && (kind == KindProviderConfig || kind == KindClusterProviderConfig || kind == "ProviderConfigUsage") {
		return true, "provider configurations of Crossplane v1 providers are cluster-scoped"
	}
	return false, ""
}
