package legacy

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/pkg/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/internal/xp"
	"github.com/xpmigrate/xpmigrate/patchandtransform/native"
)

// A reference is one entry of spec.resourceRefs.
type reference struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name,omitempty"`
}

func (r reference) key() objectKey { return keyOf(r.APIVersion, r.Kind, r.Namespace, r.Name) }

// resourceRefs reads the XR's spec.resourceRefs as crossplane-runtime does,
// keeping whatever decoded.
func resourceRefs(xr map[string]any) []reference {
	out := []reference{}
	spec, ok := xr["spec"].(map[string]any)
	if !ok {
		// Absent, null or not an object: GetValue finds nothing.
		return out
	}
	v, ok := spec["resourceRefs"]
	if !ok {
		return out
	}
	if refs, ok := plainReferences(v); ok {
		return refs
	}
	b, err := json.Marshal(v)
	if err != nil {
		return out
	}
	_ = json.Unmarshal(b, &out)
	return out
}

// plainReferences reads the common form of spec.resourceRefs, a list of
// objects of UTF-8 strings under the reference's keys only, as the JSON
// round trip would. Anything else reports false.
func plainReferences(v any) ([]reference, bool) {
	l, ok := v.([]any)
	if !ok || l == nil {
		return nil, false
	}
	out := make([]reference, len(l))
	for i, e := range l {
		m, ok := e.(map[string]any)
		if !ok || m == nil {
			return nil, false
		}
		for k, f := range m {
			s, ok := f.(string)
			if !ok || !utf8.ValidString(s) {
				return nil, false
			}
			switch k {
			case "apiVersion":
				out[i].APIVersion = s
			case "kind":
				out[i].Kind = s
			case "namespace":
				out[i].Namespace = s
			case "name":
				out[i].Name = s
			default:
				return nil, false
			}
		}
	}
	return out, true
}

// find returns the index in the cluster of the first object k names, or -1.
func (c *composer) find(k objectKey) int {
	if c.index == nil {
		c.reindex()
	}
	for _, i := range c.index[k.unnamespaced()] {
		if k.matches(clusterKey(c.cluster[i])) {
			return i
		}
	}
	return -1
}

// reindex rebuilds the lookup index of the cluster, which maps an object's
// key without namespace to its positions, in cluster order.
func (c *composer) reindex() {
	c.index = make(map[objectKey][]int, len(c.cluster))
	for i, o := range c.cluster {
		k := clusterKey(o).unnamespaced()
		c.index[k] = append(c.index[k], i)
	}
}

// addToCluster appends o to the cluster and indexes it.
func (c *composer) addToCluster(o map[string]any) {
	c.cluster = append(c.cluster, o)
	if c.index != nil {
		k := clusterKey(o).unnamespaced()
		c.index[k] = append(c.index[k], len(c.cluster)-1)
	}
}

// replaceInCluster replaces the object at position at.
func (c *composer) replaceInCluster(at int, o map[string]any) {
	old, cur := clusterKey(c.cluster[at]), clusterKey(o)
	c.cluster[at] = o
	if old != cur {
		c.index = nil
	}
}

// removeFromCluster deletes the object at position at.
func (c *composer) removeFromCluster(at int) {
	c.cluster = append(c.cluster[:at], c.cluster[at+1:]...)
	c.index = nil
}

func clusterKey(o map[string]any) objectKey {
	u := &unstructured.Unstructured{Object: o}
	return keyOf(u.GetAPIVersion(), u.GetKind(), u.GetNamespace(), u.GetName())
}

// get returns the object in the cluster that k names, or nil.
func (c *composer) get(k objectKey) map[string]any {
	if i := c.find(k); i >= 0 {
		return c.cluster[i]
	}
	return nil
}

// associate pairs each template with the reference of the object it
// composes, if any (docs/semantics/legacy.md#associating-templates-with-resources). With any anonymous template the i-th
// reference goes to the i-th template. With named templates each
// referenced object is looked up and its composition-resource-name
// annotation names its template; objects whose template is gone are
// garbage collected; an object without the annotation makes all templates
// fall back to the order of the references.
func (c *composer) associate(ts []native.Template) ([]reference, error) {
	refs := resourceRefs(c.xr.UnstructuredContent())
	byOrder := func() []reference {
		out := make([]reference, len(ts))
		copy(out, refs)
		return out
	}

	index := make(map[string]int, len(ts))
	for i, t := range ts {
		if t.Name == "" {
			return byOrder(), nil
		}
		index[t.Name] = i
	}

	out := make([]reference, len(ts))
	for _, ref := range refs {
		if ref.Name == "" {
			continue
		}
		at := c.find(ref.key())
		if at < 0 {
			// Gone: the template gets a new object.
			continue
		}
		u := &unstructured.Unstructured{Object: c.cluster[at]}
		name := u.GetAnnotations()[xp.AnnotationCompositionResourceName]
		if name == "" {
			return byOrder(), nil
		}
		if i, ok := index[name]; ok {
			out[i] = ref
			continue
		}
		if ctrl := metav1.GetControllerOf(u); ctrl != nil && ctrl.UID != (&unstructured.Unstructured{Object: c.xr.UnstructuredContent()}).GetUID() {
			return nil, errors.Errorf("refusing to delete composed resource %q that is controlled by %s %q", name, ctrl.Kind, ctrl.Name)
		}
		// v1.20 first strips the composite and claim labels, then deletes;
		// v1.17 deletes. Either way the object is gone.
		c.deleted = append(c.deleted, u.GetName())
		c.removeFromCluster(at)
	}
	return out, nil
}
