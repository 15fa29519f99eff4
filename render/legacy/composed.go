package legacy

import (
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/pkg/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/xpmigrate/xpmigrate/environment"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
	"github.com/xpmigrate/xpmigrate/patchandtransform/native"
	"github.com/xpmigrate/xpmigrate/render"
)

// The Usage kind, whose live owner references survive an apply.
const (
	usageAPIVersion = xp.GroupAPIExtensions + "/v1beta1"
	usageKind       = "Usage"
)

// composedState is one template's progress through the reconcile.
type composedState struct {
	index    int
	template native.Template
	patches  []pt.Patch // PatchSets expanded
	name     string     // how messages name the template

	desired  *fieldpath.Paved
	ref      reference
	rendered bool

	// body is what the apply sent (create body or merge patch); applied
	// is the object after the apply. Both nil until applied.
	body, applied map[string]any

	synced, ready bool
}

// result is the composed resource's part of the outcome. It is called once,
// when the reconcile ends.
func (cs *composedState) result() render.ComposedResource {
	r := render.ComposedResource{
		Name:     cs.template.Name,
		Index:    cs.index,
		Rendered: cs.rendered,
		Synced:   cs.synced,
		Ready:    cs.ready,
	}
	if !cs.rendered {
		return r
	}
	// The reconcile is over: the outcome takes the objects, which
	// nothing else holds (apply made body and applied copies of their
	// own).
	r.Desired = cs.body
	if r.Desired == nil {
		// Rendered, but the reconcile stopped before applying it.
		r.Desired = cs.desired.UnstructuredContent()
	}
	r.Applied = cs.applied
	return r
}

// warn records a Warning event of the composer.
func (c *composer) warn(err error) {
	c.events = append(c.events, render.Event{Type: render.EventWarning, Reason: reasonCompose, Message: err.Error()})
}

// compose is the PTComposer: everything from PatchSet expansion to the XR's
// merge patch (docs/semantics/legacy.md#one-reconcile, up to #persisting-the-xr). It returns the XR's connection details.
func (c *composer) compose() (map[string][]byte, error) {
	prep := c.shared.prepared()
	if prep.expandErr != nil {
		return nil, errors.Wrap(prep.expandErr, "cannot inline Composition patch sets")
	}
	ts := prep.list

	refs, err := c.associate(ts)
	if err != nil {
		return nil, errors.Wrap(err, "cannot associate composed resources with Composition resource templates")
	}

	if c.env != nil && c.comp.Spec.Environment != nil {
		if err := environment.ApplyEnvironmentPatches(c.comp.EnvironmentPatches(), c.xr, c.env); err != nil {
			return nil, err
		}
	}

	for i, t := range ts {
		cs, err := c.render(i, t, prep.patches[i], prep.bases[i], prep.baseErrs[i], refs[i])
		if err != nil {
			return nil, err
		}
		c.composed = append(c.composed, cs)
	}

	// Persist the references before applying anything, so generated names
	// survive (docs/semantics/legacy.md#persisting-references). A namespaced object's reference keeps its
	// namespace: Crossplane v1.20.11 writes it, measured on the real engine
	// (Q-6 in docs/semantics/legacy.md#quirks).
	list := make([]any, 0, len(c.composed))
	for _, cs := range c.composed {
		list = append(list, cs.ref.object())
	}
	setResourceRefs(c.xr, list)
	c.update()

	for _, cs := range c.composed {
		if !cs.rendered {
			continue
		}
		if err := c.apply(cs); err != nil {
			return nil, &ApplyError{Resource: applyName(cs.template, cs.index), Err: err}
		}
	}

	conn := map[string][]byte{}
	for _, cs := range c.composed {
		if !cs.rendered {
			continue
		}
		if err := c.observe(cs, conn); err != nil {
			return nil, err
		}
	}

	if err := c.persist(); err != nil {
		return nil, &ApplyError{Err: err}
	}
	return conn, nil
}

// setResourceRefs sets spec.resourceRefs to list, which holds references
// objects, as SetValue would: SetValue stores a JSON round trip's copy, which
// for objects of UTF-8 strings is the list itself. An XR whose spec is not
// an object is left to SetValue (which fails, as it is ignored upstream).
func setResourceRefs(xr *fieldpath.Paved, list []any) {
	o := xr.UnstructuredContent()
	spec, found := o["spec"]
	m, isObject := spec.(map[string]any)
	if !plainStrings(list) || (found && (!isObject || m == nil)) || o == nil {
		_ = xr.SetValue("spec.resourceRefs", list)
		return
	}
	if !found {
		m = map[string]any{}
		o["spec"] = m
	}
	m["resourceRefs"] = list
}

// plainStrings reports whether list holds only objects of UTF-8 strings.
func plainStrings(list []any) bool {
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok || m == nil {
			return false
		}
		for _, v := range m {
			if s, ok := v.(string); !ok || !utf8.ValidString(s) {
				return false
			}
		}
	}
	return true
}

// object is the reference as spec.resourceRefs keeps it: apiVersion, kind,
// name and, for a namespaced object, namespace.
func (r reference) object() map[string]any {
	return xp.ReferenceObject(r.APIVersion, r.Kind, r.Namespace, r.Name)
}

// render renders template i into a new desired object (docs/semantics/legacy.md#rendering-a-template): base
// is its decoded base (a copy is rendered), or baseErr why it could not be
// decoded. Only a broken base is fatal; any other failure is a Warning event
// and leaves the template unrendered.
func (c *composer) render(i int, t native.Template, patches []pt.Patch, base map[string]any, baseErr error, ref reference) (*composedState, error) {
	cs := &composedState{index: i, template: t, patches: patches, name: templateName(t, i), rendered: true}

	if baseErr != nil {
		return nil, errors.Wrapf(errors.Wrap(baseErr, "cannot unmarshal JSON data"), "cannot parse base template of composed resource %q", cs.name)
	}
	u := &unstructured.Unstructured{Object: jsonobj.DeepCopy(base)}
	// The base replaces the object; only the reference's name and
	// namespace survive.
	u.SetName(ref.Name)
	u.SetNamespace(ref.Namespace)
	if old := schema.FromAPIVersionAndKind(ref.APIVersion, ref.Kind); !old.Empty() && u.GetKind() != old.Kind {
		return nil, errors.Wrapf(&KindChangeError{From: old, To: u.GroupVersionKind()},
			"cannot parse base template of composed resource %q", cs.name)
	}
	cs.desired = fieldpath.Pave(u.Object)

	if err := c.renderFromPatches(cs); err != nil {
		text := "cannot render FromComposite patches for composed resource %q"
		if c.target == TargetV117 {
			text = "cannot render FromComposite or environment patches for composed resource %q"
		}
		c.warn(errors.Wrapf(err, text, cs.name))
		cs.rendered = false
	}

	// Patches re-encode the object, so wrap its current content.
	u = &unstructured.Unstructured{Object: cs.desired.UnstructuredContent()}
	if err := c.renderMetadata(u, t.Name); err != nil {
		c.warn(errors.Wrapf(err, "cannot render metadata for composed resource %q", cs.name))
		cs.rendered = false
	}
	if err := c.generateName(u, cs.name); err != nil {
		c.warn(errors.Wrapf(err, "cannot generate a name for composed resource %q", cs.name))
		cs.rendered = false
	}

	// The reference is recorded even if the template did not render.
	cs.ref = reference{APIVersion: u.GetAPIVersion(), Kind: u.GetKind(), Namespace: u.GetNamespace(), Name: u.GetName()}
	return cs, nil
}

// renderFromPatches runs the From phase: XR → desired patches, and with an
// environment the four environment patch types, interleaved in order.
func (c *composer) renderFromPatches(cs *composedState) error {
	for j, p := range cs.patches {
		var err error
		if slices.Contains(fromCompositePatchTypes, p.Type) {
			err = pt.Apply(pt.Native, p, c.xr, cs.desired)
		}
		if err == nil && c.env != nil {
			_, err = environment.ApplyTemplatePatch(p, c.env, cs.desired)
		}
		if err != nil {
			return errors.Wrapf(err, "cannot apply the %q patch at index %d", p.Type, j)
		}
	}
	return nil
}

// renderMetadata sets what Crossplane sets on every composed resource:
// generateName, the template name annotation, the composite and claim
// labels, and the XR as controller.
func (c *composer) renderMetadata(u *unstructured.Unstructured, template string) error {
	xr := &unstructured.Unstructured{Object: c.xr.UnstructuredContent()}
	if renderPlainMetadata(u.Object, xr, template) {
		return nil
	}
	return renderMetadata(u, xr, template)
}

// renderPlainMetadata is renderMetadata for the common object: metadata
// absent or an object, labels and annotations absent or objects of
// strings, no owner references, and an XR with the composite label. It
// writes what the Unstructured setters would write, and reports false,
// having changed nothing, for any other object.
func renderPlainMetadata(o map[string]any, xr *unstructured.Unstructured, template string) bool {
	xl := xr.GetLabels()
	if xl[xp.LabelComposite] == "" {
		return false
	}
	md, found := o["metadata"].(map[string]any)
	if _, present := o["metadata"]; present && (!found || md == nil) {
		return false
	}
	if _, ok := md["ownerReferences"]; ok {
		return false
	}
	labels, ok := plainStringMap(md, "labels")
	if !ok {
		return false
	}
	var annotations map[string]any
	if template != "" {
		if annotations, ok = plainStringMap(md, "annotations"); !ok {
			return false
		}
	}
	if md == nil {
		md = map[string]any{}
		o["metadata"] = md
	}
	md["generateName"] = xl[xp.LabelComposite] + "-"
	if template != "" {
		annotations[xp.AnnotationCompositionResourceName] = template
		md["annotations"] = annotations
	}
	labels[xp.LabelComposite] = xl[xp.LabelComposite]
	labels[xp.LabelClaimName] = xl[xp.LabelClaimName]
	labels[xp.LabelClaimNamespace] = xl[xp.LabelClaimNamespace]
	md["labels"] = labels
	md["ownerReferences"] = []any{map[string]any{
		"apiVersion":         xr.GetAPIVersion(),
		"kind":               xr.GetKind(),
		"name":               xr.GetName(),
		"uid":                string(xr.GetUID()),
		"controller":         true,
		"blockOwnerDeletion": true,
	}}
	return true
}

// plainStringMap returns a copy of md[key] when it is absent (an empty
// map) or an object of strings.
func plainStringMap(md map[string]any, key string) (map[string]any, bool) {
	v, ok := md[key]
	if !ok {
		return map[string]any{}, true
	}
	m, ok := v.(map[string]any)
	if !ok || m == nil {
		return nil, false
	}
	out := make(map[string]any, len(m)+3)
	for k, e := range m {
		if _, ok := e.(string); !ok {
			return nil, false
		}
		out[k] = e
	}
	return out, true
}

// renderMetadata is the composer's renderMetadata for any object, through
// the Unstructured accessors.
func renderMetadata(u, xr *unstructured.Unstructured, template string) error {
	xl := xr.GetLabels()
	if xl[xp.LabelComposite] == "" {
		return errors.Errorf("cannot find top-level composite resource name label %q in composite resource metadata", xp.LabelComposite)
	}
	u.SetGenerateName(xl[xp.LabelComposite] + "-")

	if template != "" {
		a := u.GetAnnotations()
		if a == nil {
			a = map[string]string{}
		}
		a[xp.AnnotationCompositionResourceName] = template
		u.SetAnnotations(a)
	}

	// Claim labels are stamped even when empty.
	l := u.GetLabels()
	if l == nil {
		l = map[string]string{}
	}
	l[xp.LabelComposite] = xl[xp.LabelComposite]
	l[xp.LabelClaimName] = xl[xp.LabelClaimName]
	l[xp.LabelClaimNamespace] = xl[xp.LabelClaimNamespace]
	u.SetLabels(l)

	yes := true
	owner := metav1.OwnerReference{
		APIVersion:         xr.GetAPIVersion(),
		Kind:               xr.GetKind(),
		Name:               xr.GetName(),
		UID:                xr.GetUID(),
		Controller:         &yes,
		BlockOwnerDeletion: &yes,
	}
	if ctrl := metav1.GetControllerOf(u); ctrl != nil && ctrl.UID != owner.UID {
		return errors.Wrap(errors.Errorf("%s is already controlled by %s %s (UID %s)", u.GetName(), ctrl.Kind, ctrl.Name, ctrl.UID), "cannot set controller reference")
	}
	refs := u.GetOwnerReferences()
	for i := range refs {
		if refs[i].UID == owner.UID {
			refs[i] = owner
			u.SetOwnerReferences(refs)
			return nil
		}
	}
	u.SetOwnerReferences(append(refs, owner))
	return nil
}

// xrUID is the XR's uid.
func (c *composer) xrUID() types.UID {
	return (&unstructured.Unstructured{Object: c.xr.UnstructuredContent()}).GetUID()
}

// apply applies one rendered object (docs/semantics/legacy.md#applying-composed-resources, docs/semantics/legacy.md#the-offline-cluster): a new object is
// created as desired, without status; an existing one must be controlled by
// the XR, gets the apply-time merge, and then the desired object, without
// status, merged onto it as a JSON merge patch. It keeps its status.
func (c *composer) apply(cs *composedState) error {
	desired := cs.desired.UnstructuredContent()
	u := &unstructured.Unstructured{Object: desired}
	at := c.find(keyOf(u.GetAPIVersion(), u.GetKind(), u.GetNamespace(), u.GetName()))
	if at < 0 {
		// The desired object is the body: rendering it is over, and it
		// shares nothing (patches write copies). The object created is a
		// copy; the cluster and the outcome share it, as no object in the
		// cluster is ever changed in place (a later apply replaces it).
		cs.body = desired
		created := jsonobj.WithoutStatus(desired)
		c.addToCluster(created)
		cs.applied = created
		return nil
	}

	live := c.cluster[at]
	lu := &unstructured.Unstructured{Object: live}
	if ctrl := metav1.GetControllerOf(lu); ctrl != nil && ctrl.UID != c.xrUID() {
		return &NotControlledError{UID: string(c.xrUID())}
	}
	if lu.GetAPIVersion() == usageAPIVersion && lu.GetKind() == usageKind && len(lu.GetOwnerReferences()) > 0 {
		u.SetOwnerReferences(lu.GetOwnerReferences())
	}
	for _, p := range cs.patches {
		if !slices.Contains(fromCompositePatchTypes, p.Type) || p.Policy == nil || p.ToFieldPath == nil {
			continue
		}
		if err := mergeReplace(*p.ToFieldPath, live, cs.desired, p.Policy.MergeOptions); err != nil {
			return err
		}
	}

	body := cs.desired.UnstructuredContent()
	cs.body = body
	// The live object may be an earlier template's outcome: patch a copy.
	// MergePatch copies what it takes from the patch.
	patched := jsonobj.MergePatch(jsonobj.DeepCopy(live), withoutStatus(body))
	c.replaceInCluster(at, patched)
	cs.applied = patched
	return nil
}

// withoutStatus returns o without its status, sharing o's values: for
// reading only.
func withoutStatus(o map[string]any) map[string]any {
	if _, ok := o["status"]; !ok {
		return o
	}
	out := maps.Clone(o)
	delete(out, "status")
	return out
}

// mergeReplace is the apply-time merge (docs/semantics/legacy.md#apply-time-merge item 2): if desired has a
// non-null value at path, it is replaced by the live value at path merged
// with it.
func mergeReplace(path string, live map[string]any, desired *fieldpath.Paved, mo *pt.MergeOptions) error {
	// Parsed once for the reads; a path that does not parse fails the
	// first read, as before.
	segs, perr := fieldpath.Parse(path)
	val, err := getValue(desired, path, segs, perr)
	if fieldpath.IsNotFound(err) || (err == nil && val == nil) {
		return nil
	}
	if err != nil {
		if perr != nil {
			return &pt.PathError{Path: path, Err: err}
		}
		return err
	}
	merged := fieldpath.Pave(copyAlong(live, segs, perr))
	if err := merged.MergeValue(path, val, mo); err != nil {
		return err
	}
	val, err = getValue(merged, path, segs, perr)
	if fieldpath.IsNotFound(err) || (err == nil && val == nil) {
		return nil
	}
	if err != nil {
		return err
	}
	// MergeValue without options is SetValue.
	return desired.SetValue(path, val)
}

// getValue is p.GetValue(path), where segs (or perr) is what parsing path
// gave: a value found by following segs is the value GetValue finds;
// anything else is left to GetValue, for its error.
func getValue(p *fieldpath.Paved, path string, segs fieldpath.Segments, perr error) (any, error) {
	if perr == nil && len(segs) > 0 {
		var it any = p.UnstructuredContent()
		found := true
		for _, s := range segs {
			switch s.Type {
			case fieldpath.SegmentField:
				m, ok := it.(map[string]any)
				if ok {
					it, ok = m[s.Field]
				}
				found = ok
			case fieldpath.SegmentIndex:
				a, ok := it.([]any)
				if ok && s.Index < uint(len(a)) {
					it = a[s.Index]
				} else {
					found = false
				}
			default:
				found = false
			}
			if !found {
				break
			}
		}
		if found {
			return it, nil
		}
	}
	return p.GetValue(path)
}

// copyAlong returns a copy of o that shares nothing a merge at the path
// segs (which perr failed to parse, if set) can change: the objects and lists on the path are copied one level deep, the
// value at its end deeply; the rest is shared. MergeValue reads and writes
// only along its path, and a write creates what it does not find.
func copyAlong(o map[string]any, segs fieldpath.Segments, perr error) map[string]any {
	if perr != nil {
		return jsonobj.DeepCopy(o)
	}
	out := maps.Clone(o)
	var parent any = out
	for i, s := range segs {
		last := i == len(segs)-1
		step := func(v any) any {
			if last {
				return jsonobj.DeepCopyValue(v)
			}
			switch t := v.(type) {
			case map[string]any:
				return maps.Clone(t)
			case []any:
				return slices.Clone(t)
			}
			return v
		}
		switch s.Type {
		case fieldpath.SegmentField:
			m, ok := parent.(map[string]any)
			if !ok {
				return out
			}
			v, ok := m[s.Field]
			if !ok {
				return out
			}
			parent = step(v)
			m[s.Field] = parent
		case fieldpath.SegmentIndex:
			a, ok := parent.([]any)
			if !ok || s.Index >= uint(len(a)) {
				return out
			}
			parent = step(a[s.Index])
			a[s.Index] = parent
		}
	}
	return out
}

// observe reads one applied object back (docs/semantics/legacy.md#observing): ToComposite patches
// into the XR, connection details, readiness. Every error is fatal.
func (c *composer) observe(cs *composedState, conn map[string][]byte) error {
	// Patches read their source and write copies to their target, and
	// nothing else here writes: the applied object is read in place.
	applied := fieldpath.Pave(cs.applied)
	for j, p := range cs.patches {
		if !slices.Contains(toCompositePatchTypes, p.Type) {
			continue
		}
		if err := pt.Apply(pt.Native, p, applied, c.xr); err != nil {
			return &ToCompositeError{Resource: cs.name, Err: errors.Wrapf(err, "cannot apply the %q patch at index %d", p.Type, j)}
		}
	}

	var secret map[string][]byte
	if ref := writeConnectionSecretToRef(cs.applied); ref != nil {
		secret = c.opts.ConnectionSecrets[ref.key()]
	}
	extracted, err := pt.ExtractConnectionDetails(pt.Native, applied, secret, cs.template.ConnectionDetails)
	if err != nil {
		return errors.Wrapf(err, "cannot extract composite resource connection details from composed resource %q", cs.name)
	}
	maps.Copy(conn, extracted)

	ready, err := pt.IsReady(pt.Native, applied, cs.template.ReadinessChecks)
	if err != nil {
		return errors.Wrapf(err, "cannot check whether composed resource %q is ready", cs.name)
	}
	cs.synced, cs.ready = true, ready
	return nil
}

// persist merge-patches the XR (docs/semantics/legacy.md#persisting-the-xr): spec and metadata, with the
// apply-time merge of every ToComposite patch that has a policy and an
// explicit toFieldPath. Status is not persisted here.
func (c *composer) persist() error {
	// The merges change the desired XR, not the in-memory one: copy it
	// when there is one.
	var desired *fieldpath.Paved
	for _, cs := range c.composed {
		for _, p := range cs.patches {
			if !slices.Contains(toCompositePatchTypes, p.Type) || p.Policy == nil || p.ToFieldPath == nil {
				continue
			}
			if desired == nil {
				desired = fieldpath.Pave(jsonobj.DeepCopy(c.xr.UnstructuredContent()))
			}
			if err := mergeReplace(*p.ToFieldPath, c.stored, desired, p.Policy.MergeOptions); err != nil {
				return err
			}
		}
	}
	if desired == nil {
		desired = c.xr
	}
	// The stored XR is the composer's own (update and updateStatus store
	// copies), and MergePatch copies what it takes from the patch.
	c.stored = jsonobj.MergePatch(c.stored, withoutStatus(desired.UnstructuredContent()))
	return nil
}
