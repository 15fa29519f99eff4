package main

import (
	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource/unstructured/composed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"k8s.io/apimachinery/pkg/runtime"
)

// The managed reconciler treats a legacy managed resource by its deletion
// policy and publishes a modern one's connection Secret in its namespace.
var (
	_ resource.LegacyManaged = &legacy{} //nolint:staticcheck // the cluster-scoped, v1-style managed resources the migration starts from are legacy by definition
	_ resource.ModernManaged = &modern{}
)

// legacy is a cluster-scoped managed resource of any kind, read through its
// unstructured content: spec.deletionPolicy, spec.providerConfigRef and a
// Secret reference with a namespace, as Crossplane v1 providers' kinds have.
// Embedding composed.Unstructured gives it the conditions, the connection
// Secret reference and the observed generation; crossplane-runtime's
// unstructured client unwraps it.
type legacy struct {
	composed.Unstructured
}

// modern is a namespaced managed resource of a v2 ".m." group: no deletion
// policy, a typed provider config reference and a Secret in its own
// namespace.
type modern struct {
	legacy
}

func (m *legacy) paved() *fieldpath.Paved { return fieldpath.Pave(m.Object) }

func (m *legacy) DeepCopyObject() runtime.Object {
	return &legacy{Unstructured: *m.DeepCopy()}
}

func (m *modern) DeepCopyObject() runtime.Object {
	return &modern{legacy: legacy{Unstructured: *m.DeepCopy()}}
}

func (m *legacy) GetManagementPolicies() xpv2.ManagementPolicies {
	var p xpv2.ManagementPolicies
	if err := m.paved().GetValueInto("spec.managementPolicies", &p); err != nil || p == nil {
		// A real provider's CRD defaults the field to ["*"]; the managed
		// reconciler takes an absent (empty) set for a paused resource.
		return xpv2.ManagementPolicies{xpv2.ManagementActionAll}
	}
	return p
}

func (m *legacy) SetManagementPolicies(p xpv2.ManagementPolicies) {
	_ = m.paved().SetValue("spec.managementPolicies", p)
}

func (m *legacy) GetDeletionPolicy() xpv2.DeletionPolicy {
	p, _ := m.paved().GetString("spec.deletionPolicy")
	if p == "" {
		return xpv2.DeletionDelete
	}
	return xpv2.DeletionPolicy(p)
}

func (m *legacy) SetDeletionPolicy(p xpv2.DeletionPolicy) {
	_ = m.paved().SetValue("spec.deletionPolicy", string(p))
}

func (m *legacy) GetProviderConfigReference() *xpv2.Reference {
	r := &xpv2.Reference{}
	if err := m.paved().GetValueInto("spec.providerConfigRef", r); err != nil {
		return nil
	}
	return r
}

func (m *legacy) SetProviderConfigReference(r *xpv2.Reference) {
	_ = m.paved().SetValue("spec.providerConfigRef", r)
}

func (m *modern) GetProviderConfigReference() *xpv2.ProviderConfigReference {
	r := &xpv2.ProviderConfigReference{}
	if err := m.paved().GetValueInto("spec.providerConfigRef", r); err != nil {
		return nil
	}
	return r
}

func (m *modern) SetProviderConfigReference(r *xpv2.ProviderConfigReference) {
	_ = m.paved().SetValue("spec.providerConfigRef", r)
}

func (m *modern) GetWriteConnectionSecretToReference() *xpv2.LocalSecretReference {
	r := &xpv2.LocalSecretReference{}
	if err := m.paved().GetValueInto("spec.writeConnectionSecretToRef", r); err != nil {
		return nil
	}
	return r
}

func (m *modern) SetWriteConnectionSecretToReference(r *xpv2.LocalSecretReference) {
	_ = m.paved().SetValue("spec.writeConnectionSecretToRef", r)
}

// forProvider is the managed resource's desired parameters.
func (m *legacy) forProvider() map[string]any {
	v, err := m.paved().GetValue("spec.forProvider")
	if err != nil {
		return nil
	}
	p, _ := v.(map[string]any)
	return p
}
