package pipeline

import (
	"fmt"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// Crossplane v2 composes for a modern XR (one of an
// apiextensions.crossplane.io/v2 XRD, which has spec.crossplane) with
// different composed resource metadata than for a legacy XR
// (docs/semantics/pipeline.md#crossplane-v2, crossplane/crossplane v2 RenderComposedResourceMetadata):
//
//   - generateName is set only when the function set neither name nor
//     generateName, and an observed resource keeps its observed
//     generateName;
//   - a namespaced XR's composed resources are forced into its namespace
//     (a NamespaceOverridden Warning names a resource a function asked to
//     put in another one), and a cluster-scoped kind without a namespace
//     is refused;
//   - the claim labels are added only when the XR has both (a modern XR
//     has no claim);
//   - the XR's resource references live in spec.crossplane.resourceRefs;
//   - the desired XR's connection details are dropped: modern XRs have no
//     connection Secret of their own (function-patch-and-transform v0.10+
//     composes one as a composed resource instead).
//
// Legacy XRs keep Crossplane v1.20's rules under both dialects.

// modern reports whether the composer treats xr as a Crossplane v2 modern
// XR: dialect V2 and an XR with spec.crossplane, the test
// function-patch-and-transform v0.10 makes too.
func modern(o Options, xr map[string]any) bool {
	if o.Dialect != crossplane.V2 {
		return false
	}
	_, ok := jsonobj.Lookup(xr, "spec", "crossplane")
	return ok
}

// A ClusterScopedError is a cluster-scoped composed resource of a
// namespaced XR, which Crossplane v2 cannot compose.
type ClusterScopedError struct {
	// Name is the composition resource name; APIVersion and Kind its
	// type, ResourceName its metadata.name (often empty).
	Name, APIVersion, Kind, ResourceName string

	// Namespace is the XR's namespace.
	Namespace string
}

// Error is Crossplane v2's text (composition_functions.go,
// errFmtNamespacedXRClusterResource).
func (e *ClusterScopedError) Error() string {
	return fmt.Sprintf("cannot apply cluster scoped composed resource %q (a %s named %s) for a namespaced composite resource.", e.Name, e.Kind, e.ResourceName)
}

// clusterScopedKinds are the Kubernetes built-in kinds that are
// cluster-scoped, by group ("" for the core group) and kind.
var clusterScopedKinds = map[string]bool{
	"/Namespace": true, "/Node": true, "/PersistentVolume": true, "/ComponentStatus": true,
	"rbac.authorization.k8s.io/ClusterRole": true, "rbac.authorization.k8s.io/ClusterRoleBinding": true,
	"storage.k8s.io/StorageClass": true, "storage.k8s.io/CSIDriver": true, "storage.k8s.io/CSINode": true,
	"storage.k8s.io/VolumeAttachment":                               true,
	"apiextensions.k8s.io/CustomResourceDefinition":                 true,
	"admissionregistration.k8s.io/MutatingWebhookConfiguration":     true,
	"admissionregistration.k8s.io/ValidatingWebhookConfiguration":   true,
	"admissionregistration.k8s.io/ValidatingAdmissionPolicy":        true,
	"admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding": true,
	"apiregistration.k8s.io/APIService":                             true,
	"scheduling.k8s.io/PriorityClass":                               true,
	"node.k8s.io/RuntimeClass":                                      true,
	"networking.k8s.io/IngressClass":                                true,
	"certificates.k8s.io/CertificateSigningRequest":                 true,
	"flowcontrol.apiserver.k8s.io/FlowSchema":                       true,
	"flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration":       true,
	"apiextensions.crossplane.io/CompositeResourceDefinition":       true,
	"apiextensions.crossplane.io/Composition":                       true,
	"apiextensions.crossplane.io/CompositionRevision":               true,
	"apiextensions.crossplane.io/EnvironmentConfig":                 true,
	"apiextensions.crossplane.io/ManagedResourceDefinition":         true,
	"apiextensions.crossplane.io/ManagedResourceActivationPolicy":   true,
	"protection.crossplane.io/ClusterUsage":                         true,
	"pkg.crossplane.io/Provider":                                    true,
	"pkg.crossplane.io/Function":                                    true,
	"pkg.crossplane.io/Configuration":                               true,
	"pkg.crossplane.io/DeploymentRuntimeConfig":                     true,
}

// KnownClusterScoped is the scope rule Options.ClusterScoped defaults to,
// for when no CRD says: the Kubernetes and Crossplane built-in kinds that
// are cluster-scoped, any kind named Cluster… (ClusterProviderConfig,
// ClusterIssuer…), and Crossplane v1 managed resources: every kind of a
// provider group under upbound.io or crossplane.io that has no `.m.`
// segment (provider-upjet-*, provider-kubernetes, provider-helm; v1
// managed resources are all cluster-scoped, their namespaced twins live in
// the `.m.` groups). Any other kind is taken to be namespaced.
func KnownClusterScoped(apiVersion, kind string) bool {
	group := ""
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		group = apiVersion[:i]
	}
	if clusterScopedKinds[group+"/"+kind] {
		return true
	}
	if strings.HasPrefix(kind, "Cluster") && len(kind) > len("Cluster") {
		return true
	}
	if group == "" || strings.HasSuffix(group, ".k8s.io") || strings.Contains("."+group+".", ".m.") {
		return false
	}
	for _, d := range []string{".upbound.io", ".crossplane.io"} {
		if strings.HasSuffix(group, d) && !strings.HasSuffix(group, "apiextensions.crossplane.io") &&
			!strings.HasSuffix(group, "pkg.crossplane.io") && !strings.HasSuffix(group, "protection.crossplane.io") &&
			!strings.HasSuffix(group, "fn.crossplane.io") {
			return true
		}
	}
	return false
}

// clusterScoped reports whether a composed resource's type is
// cluster-scoped, by Options.ClusterScoped or KnownClusterScoped.
func (o Options) clusterScoped(apiVersion, kind string) bool {
	if o.ClusterScoped != nil {
		return o.ClusterScoped(apiVersion, kind)
	}
	return KnownClusterScoped(apiVersion, kind)
}

// renderModernMetadata sets the metadata Crossplane v2 derives from a
// modern XR on a desired composed resource (crossplane/crossplane v2
// FunctionComposer.Compose and RenderComposedResourceMetadata). observed is
// the observed resource of the same name, or nil; the caller has already
// given cd its observed name and namespace. It returns the namespace a
// function asked for when it was overridden, else "".
func renderModernMetadata(cd, observed map[string]any, x xrInfo, name string) (string, error) {
	// An existing resource keeps the generateName it was created with
	// (none, if it had none).
	if observed != nil {
		setNestedString(cd, jsonobj.String(observed, "metadata", "generateName"), "metadata", "generateName")
	}
	if jsonobj.String(cd, "metadata", "name") == "" && jsonobj.String(cd, "metadata", "generateName") == "" {
		setNestedString(cd, x.namePrefix()+"-", "metadata", "generateName")
	}
	overridden := ""
	if x.namespace != "" {
		if ns := jsonobj.String(cd, "metadata", "namespace"); ns != "" && ns != x.namespace {
			overridden = ns
		}
		setNestedString(cd, x.namespace, "metadata", "namespace")
	}
	labels := map[string]string{xp.LabelComposite: x.namePrefix()}
	if cn, cns := x.labels[xp.LabelClaimName], x.labels[xp.LabelClaimNamespace]; cn != "" && cns != "" {
		labels[xp.LabelClaimName], labels[xp.LabelClaimNamespace] = cn, cns
	}
	addStringMap(cd, map[string]string{xp.AnnotationCompositionResourceName: name}, "metadata", "annotations")
	addStringMap(cd, labels, "metadata", "labels")
	if err := addControllerRef(cd, x.controllerRef()); err != nil {
		return overridden, errors.Wrapf(err, "cannot set composite resource %q as controller ref of composed resource", x.name)
	}
	return overridden, nil
}

// ModernComposedMetadata sets on cd the metadata Crossplane v2 derives
// from the modern XR xr for the composed resource named name (see
// renderModernMetadata), as Compose does in dialect V2. observed is the
// observed resource of that name, or nil. Verification uses it for
// resources it adds to a mapped legacy render.
func ModernComposedMetadata(cd, observed, xr map[string]any, name string) error {
	_, err := renderModernMetadata(cd, observed, newXRInfo(xr), name)
	return err
}
