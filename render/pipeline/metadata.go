package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// An ownerRef is a Kubernetes owner reference as the unstructured accessors
// read and write it: only these fields survive.
type ownerRef struct {
	APIVersion         string
	Kind               string
	Name               string
	UID                string
	Controller         *bool
	BlockOwnerDeletion *bool
}

func (r ownerRef) object() map[string]any {
	m := map[string]any{"apiVersion": r.APIVersion, "kind": r.Kind, "name": r.Name, "uid": r.UID}
	if r.Controller != nil {
		m["controller"] = *r.Controller
	}
	if r.BlockOwnerDeletion != nil {
		m["blockOwnerDeletion"] = *r.BlockOwnerDeletion
	}
	return m
}

// ownerRefs reads metadata.ownerReferences; anything unreadable reads as
// none.
func ownerRefs(obj map[string]any) []ownerRef {
	v, ok := jsonobj.Lookup(obj, "metadata", "ownerReferences")
	if !ok {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]ownerRef, 0, len(list))
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil
		}
		r := ownerRef{
			APIVersion: jsonobj.String(m, "apiVersion"),
			Kind:       jsonobj.String(m, "kind"),
			Name:       jsonobj.String(m, "name"),
			UID:        jsonobj.String(m, "uid"),
		}
		if b, ok := m["controller"].(bool); ok {
			r.Controller = &b
		}
		if b, ok := m["blockOwnerDeletion"].(bool); ok {
			r.BlockOwnerDeletion = &b
		}
		out = append(out, r)
	}
	return out
}

// controllerOf returns obj's controller reference, if it has one.
func controllerOf(obj map[string]any) *ownerRef {
	for _, r := range ownerRefs(obj) {
		if r.Controller != nil && *r.Controller {
			return &r
		}
	}
	return nil
}

// addControllerRef makes r obj's controller: it replaces any reference with
// the same UID, else is appended. A different controller is an error.
func addControllerRef(obj map[string]any, r ownerRef) error {
	if c := controllerOf(obj); c != nil && c.UID != r.UID {
		return errors.Errorf("%s is already controlled by %s %s (UID %s)", jsonobj.String(obj, "metadata", "name"), c.Kind, c.Name, c.UID)
	}
	refs := ownerRefs(obj)
	replaced := false
	for i := range refs {
		if refs[i].UID == r.UID {
			refs[i] = r
			replaced = true
			break
		}
	}
	if !replaced {
		refs = append(refs, r)
	}
	setNested(obj, objects(refs), "metadata", "ownerReferences")
	return nil
}

// xrInfo is what composed resource metadata is derived from.
type xrInfo struct {
	apiVersion string
	kind       string
	name       string
	namespace  string
	uid        string
	labels     map[string]string
	claimRef   map[string]any
}

func newXRInfo(xr map[string]any) xrInfo {
	return xrInfo{
		apiVersion: jsonobj.String(xr, "apiVersion"),
		kind:       jsonobj.String(xr, "kind"),
		name:       jsonobj.String(xr, "metadata", "name"),
		namespace:  jsonobj.String(xr, "metadata", "namespace"),
		uid:        jsonobj.String(xr, "metadata", "uid"),
		labels:     nestedStringMap(xr, "metadata", "labels"),
		claimRef:   jsonobj.Map(xr, "spec", "claimRef"),
	}
}

// namePrefix is the XR's crossplane.io/composite label, which the
// reconciler derives composed names from. An XR without it is treated as
// labelled with its own name.
func (x xrInfo) namePrefix() string {
	if p := x.labels[xp.LabelComposite]; p != "" {
		return p
	}
	return x.name
}

func (x xrInfo) controllerRef() ownerRef {
	t := true
	return ownerRef{APIVersion: x.apiVersion, Kind: x.kind, Name: x.name, UID: x.uid, Controller: &t, BlockOwnerDeletion: &t}
}

// renderMetadata sets the metadata Crossplane derives from the XR on a
// desired composed resource (docs/semantics/pipeline.md#from-desired-state-to-cluster-writes step 3 and docs/semantics/pipeline.md#crossplane-render). It
// updates cd's labels and annotations in place: cd must own them.
func renderMetadata(cd map[string]any, x xrInfo, name string, p Profile) error {
	annotations := map[string]string{xp.AnnotationCompositionResourceName: name}
	var labels map[string]string
	var generateName string

	switch p {
	case Reconciler:
		generateName = x.namePrefix() + "-"
		labels = map[string]string{
			xp.LabelComposite:      x.namePrefix(),
			xp.LabelClaimName:      x.labels[xp.LabelClaimName],
			xp.LabelClaimNamespace: x.labels[xp.LabelClaimNamespace],
		}
	default:
		generateName = x.name + "-"
		labels = map[string]string{xp.LabelComposite: x.name}
		if x.claimRef != nil {
			labels[xp.LabelClaimNamespace] = jsonobj.String(x.claimRef, "namespace")
			labels[xp.LabelClaimName] = jsonobj.String(x.claimRef, "name")
		}
	}

	setNestedString(cd, generateName, "metadata", "generateName")
	addStringMap(cd, annotations, "metadata", "annotations")
	addStringMap(cd, labels, "metadata", "labels")
	if err := addControllerRef(cd, x.controllerRef()); err != nil {
		return errors.Wrapf(err, "cannot set composite resource %q as controller ref of composed resource", x.name)
	}
	return nil
}

// generatedName is the name the reconciler profile gives an unnamed
// composed resource: generateName followed by twelve hex digits of
// sha256(XR uid + composition resource name), as Crossplane v2.3+ does, the
// prefix cut so the name fits in 63 characters. Crossplane v1.20 picks five
// random characters instead.
func generatedName(generateName, xrUID, name string) string {
	const maxLen, hashLen = 63, 12
	sum := sha256.Sum256([]byte(xrUID + name))
	if len(generateName) > maxLen-hashLen {
		generateName = generateName[:maxLen-hashLen]
	}
	return generateName + hex.EncodeToString(sum[:])[:hashLen]
}

// An objectRef is one entry of the XR's spec.resourceRefs.
type objectRef struct {
	apiVersion string
	kind       string
	namespace  string
	name       string
}

func (r objectRef) object() map[string]any {
	return xp.ReferenceObject(r.apiVersion, r.kind, r.namespace, r.name)
}

// resourceRefs orders references as the composer does: by apiVersion, kind
// and name run together.
func resourceRefs(refs []objectRef) []any {
	keys := make([]string, len(refs))
	for i, r := range refs {
		keys[i] = r.apiVersion + r.kind + r.name
	}
	sort.Stable(byKey{refs: refs, keys: keys})
	out := make([]any, 0, len(refs))
	for _, r := range refs {
		if r == (objectRef{}) {
			continue
		}
		out = append(out, r.object())
	}
	return out
}

// byKey sorts references by their precomputed keys.
type byKey struct {
	refs []objectRef
	keys []string
}

func (b byKey) Len() int           { return len(b.refs) }
func (b byKey) Less(i, j int) bool { return b.keys[i] < b.keys[j] }
func (b byKey) Swap(i, j int) {
	b.refs[i], b.refs[j] = b.refs[j], b.refs[i]
	b.keys[i], b.keys[j] = b.keys[j], b.keys[i]
}
