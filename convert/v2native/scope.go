package v2native

import (
	"fmt"
	"strconv"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// clusterScopedGroups are the kinds that are cluster-scoped, by group ("" the core
// group); "*" stands for every kind of the group. Managed resources are
// not listed (a provider's "Cluster" kinds are managed resources): v1 MRs
// are cluster-scoped, but --target v2 composes their namespaced twins; nor
// is the v1 Usage, whose protection.crossplane.io twin is namespaced.
var clusterScopedGroups = map[string][]string{
	"":                             {"Namespace", "Node", "PersistentVolume", "ComponentStatus"},
	"rbac.authorization.k8s.io":    {"ClusterRole", "ClusterRoleBinding"},
	"apiextensions.k8s.io":         {"*"},
	"apiregistration.k8s.io":       {"*"},
	"admissionregistration.k8s.io": {"*"},
	"storage.k8s.io":               {"StorageClass", "CSIDriver", "CSINode", "VolumeAttachment"},
	"scheduling.k8s.io":            {"*"},
	"node.k8s.io":                  {"*"},
	"networking.k8s.io":            {"IngressClass"},
	"certificates.k8s.io":          {"*"},
	"pkg.crossplane.io":            {"*"},
	"protection.crossplane.io":     {"ClusterUsage"},
	xp.GroupAPIExtensions:          {"Composition", "CompositionRevision", "CompositeResourceDefinition", "EnvironmentConfig"},
	"cert-manager.io":              {"ClusterIssuer"},
	"external-secrets.io":          {"ClusterSecretStore", "ClusterExternalSecret"},
	"kyverno.io":                   {"ClusterPolicy"},
}

// ClusterScopedKind reports whether a template of apiVersion and kind
// composes a cluster-scoped object.
func ClusterScopedKind(apiVersion, kind string) bool {
	for _, k := range clusterScopedGroups[xp.Group(apiVersion)] {
		if k == "*" || k == kind {
			return true
		}
	}
	return false
}

// ClusterHints returns why Composition c, when it is one of the XR type group and kind, needs cluster-scoped XRs: a template composes a cluster-scoped kind
// (ClusterScopedKind), sets metadata.namespace, or patches
// metadata.namespace from anything but the claim's namespace. Deliberately
// simple: only the templates' base and patches (patch sets included) are
// read.
func ClusterHints(c map[string]any, group, kind string) []string {
	if xp.Group(jsonobj.String(c, "spec", "compositeTypeRef", "apiVersion")) != group || jsonobj.String(c, "spec", "compositeTypeRef", "kind") != kind {
		return nil
	}
	name := jsonobj.String(c, "metadata", "name")
	spec, _ := c["spec"].(map[string]any)
	type list struct {
		path      string
		resources []any
		sets      []any
	}
	res, _ := spec["resources"].([]any)
	sets, _ := spec["patchSets"].([]any)
	lists := []list{{"spec.resources", res, sets}}
	steps, _ := spec["pipeline"].([]any)
	for i, st := range steps {
		in, _ := st.(map[string]any)["input"].(map[string]any)
		res, _ := in["resources"].([]any)
		sets, _ := in["patchSets"].([]any)
		lists = append(lists, list{idx("spec.pipeline", i) + ".input.resources", res, sets})
	}
	var out []string
	for _, l := range lists {
		sets := map[string][]any{}
		for _, s := range l.sets {
			sm := jsonobj.AsMap(s)
			sets[jsonobj.String(sm, "name")] = jsonobj.List(sm, "patches")
		}
		for i, r := range l.resources {
			t := jsonobj.AsMap(r)
			at := fmt.Sprintf("Composition %q, template %s", name, idx(l.path, i))
			if tn := jsonobj.String(t, "name"); tn != "" {
				at = fmt.Sprintf("Composition %q, template %q", name, tn)
			}
			av, k := jsonobj.String(t, "base", "apiVersion"), jsonobj.String(t, "base", "kind")
			if ClusterScopedKind(av, k) {
				out = append(out, fmt.Sprintf("%s composes the cluster-scoped kind %s (%s)", at, k, av))
			}
			if ns := jsonobj.String(t, "base", "metadata", "namespace"); ns != "" {
				out = append(out, fmt.Sprintf("%s sets metadata.namespace %q", at, ns))
			}
			if namespacePatched(jsonobj.List(t, "patches"), sets) {
				out = append(out, at+" patches metadata.namespace from a value other than the claim's namespace")
			}
		}
	}
	return out
}

// namespacePatched reports whether patches (and the patch sets they use)
// write metadata.namespace of the composed resource from anything but
// spec.claimRef.namespace.
func namespacePatched(patches []any, sets map[string][]any) bool {
	for _, e := range patches {
		p := jsonobj.AsMap(e)
		typ, from, to := jsonobj.String(p, "type"), jsonobj.String(p, "fromFieldPath"), jsonobj.String(p, "toFieldPath")
		switch typ {
		case "PatchSet":
			if s, ok := sets[jsonobj.String(p, "patchSetName")]; ok && namespacePatched(s, nil) {
				return true
			}
		case "", "FromCompositeFieldPath", "FromEnvironmentFieldPath":
			if to == "" {
				to = from
			}
			if to == "metadata.namespace" && (typ == "FromEnvironmentFieldPath" || from != "spec.claimRef.namespace") {
				return true
			}
		case "CombineFromComposite", "CombineFromEnvironment":
			if to == "metadata.namespace" {
				return true
			}
		}
	}
	return false
}

func idx(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }
