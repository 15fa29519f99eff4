package v2map

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/pkg/errors"
)

// Annotation holds a Mapping, as JSON, on a Composition converted for
// Crossplane v2-native XRs.
const Annotation = "xpmigrate.io/v2-mapping"

// Kinds of Op.
const (
	// OpSet sets Path to Value.
	OpSet = "set"
	// OpDelete deletes Path (nothing happens when it is absent).
	OpDelete = "delete"
	// OpMove moves the value at Path to To (nothing happens when Path is
	// absent; To is overwritten).
	OpMove = "move"
	// OpManagementPolicies replaces spec.deletionPolicy: Orphan with
	// spec.managementPolicies without Delete (OrphanPolicies); any other
	// deletionPolicy is deleted (namespaced managed resources have none,
	// and Delete is their default). A Value, when set, maps deletionPolicy
	// values to the management policies written instead (what a patch
	// rewritten by C450 writes through its map transform: Delete to
	// ["*"]); a value it does not map is handled as without one.
	OpManagementPolicies = "managementPolicies"
	// OpUnwrap replaces the object with the object at Path (a wrapper's
	// payload, such as provider-kubernetes' spec.forProvider.manifest),
	// keeping of the wrapper's metadata the name, generateName,
	// namespace, ownerReferences, labels and annotations the payload
	// does not set (nothing happens when Path is not an object).
	OpUnwrap = "unwrap"
	// OpPrune deletes Path when it is an empty object (nothing happens
	// otherwise): what only a removed patch filled in is not rendered.
	OpPrune = "prune"
)

// OrphanPolicies are the management policies of a managed resource that
// must never delete its external resource: everything but Delete.
var OrphanPolicies = []string{"Observe", "Create", "Update", "LateInitialize"}

// An Op is one declared edit of an object. Paths are dotted field paths
// with bracketed keys where a key has a dot (metadata.labels[a.b/c]).
type Op struct {
	// Code is the C-code of the transformation that made the edit.
	Code  string `json:"code"`
	Op    string `json:"op"`
	Path  string `json:"path"`
	To    string `json:"to,omitempty"`
	Value any    `json:"value,omitempty"`
}

// A Type is an API type: apiVersion and kind.
type Type struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

// A Resource is the edits made to one template, named by its
// composition resource name.
type Resource struct {
	Name string `json:"name"`
	Ops  []Op   `json:"ops,omitempty"`
}

// A Mapping is every edit that turns a v1 Composition's output into what
// its v2-native twin renders.
type Mapping struct {
	// From is the legacy XR type, To the v2 one; Scope is the v2 XRD's
	// scope (Namespaced or Cluster).
	From  Type   `json:"from"`
	To    Type   `json:"to"`
	Scope string `json:"scope"`

	// XR are the edits that turn a legacy XR (or a claim's XR) into its v2
	// twin: machinery fields moved under spec.crossplane, and so on.
	XR []Op `json:"xr,omitempty"`

	// Resources are the edits made to each template, in template order.
	Resources []Resource `json:"resources,omitempty"`
}

// Resource returns the edits of the template named name.
func (m *Mapping) Resource(name string) []Op {
	for _, r := range m.Resources {
		if r.Name == name {
			return r.Ops
		}
	}
	return nil
}

// Codes returns the sorted, distinct C-codes of every edit.
func (m *Mapping) Codes() []string {
	var out []string
	add := func(ops []Op) {
		for _, o := range ops {
			if !slices.Contains(out, o.Code) {
				out = append(out, o.Code)
			}
		}
	}
	add(m.XR)
	for _, r := range m.Resources {
		add(r.Ops)
	}
	slices.Sort(out)
	return out
}

// Encode returns the mapping as the annotation's value.
func (m *Mapping) Encode() (string, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return "", errors.Wrap(err, "cannot encode the v2 mapping")
	}
	return string(b), nil
}

// Decode reads a mapping from the annotation's value.
func Decode(s string) (*Mapping, error) {
	m := &Mapping{}
	d := json.NewDecoder(strings.NewReader(s))
	d.DisallowUnknownFields()
	if err := d.Decode(m); err != nil {
		return nil, errors.Wrapf(err, "cannot decode the %s annotation", Annotation)
	}
	return m, nil
}

// FromAnnotations returns the mapping of an object's annotations, or nil
// when it has none.
func FromAnnotations(annotations map[string]string) (*Mapping, error) {
	s, ok := annotations[Annotation]
	if !ok {
		return nil, nil
	}
	return Decode(s)
}
