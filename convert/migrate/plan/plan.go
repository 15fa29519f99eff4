package plan

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/pkg/errors"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/v2native"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/v2map"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// A Ref names one object.
type Ref struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
}

func (r Ref) String() string {
	g, _ := xp.SplitAPIVersion(r.APIVersion)
	s := r.Kind
	if g != "" {
		s += "." + g
	}
	if r.Namespace != "" {
		return s + " " + r.Namespace + "/" + r.Name
	}
	return s + " " + r.Name
}

func refOf(o map[string]any) Ref {
	md, _ := o["metadata"].(map[string]any)
	return Ref{APIVersion: jsonobj.AsString(o["apiVersion"]), Kind: jsonobj.AsString(o["kind"]), Namespace: jsonobj.AsString(md["namespace"]), Name: jsonobj.AsString(md["name"])}
}

// A Resource is one managed resource that moves: the legacy one, its
// namespaced twin and the external name both must carry.
type Resource struct {
	// Name is its crossplane.io/composition-resource-name.
	Name         string `json:"name"`
	Old          Ref    `json:"old"`
	Twin         Ref    `json:"twin"`
	ExternalName string `json:"externalName"`
	// InitialPolicies are the twin's management policies until the new XR
	// owns it (never Delete); IntendedPolicies those of step 4 (the
	// mapped template's, ["*"] by default).
	InitialPolicies  []string `json:"initialPolicies"`
	IntendedPolicies []string `json:"intendedPolicies"`
}

// A Step is one step of a move: kubectl commands over manifests.
type Step struct {
	Number  int      `json:"number"`
	Title   string   `json:"title"`
	Actions []Action `json:"actions"`
	// Proves says what the step's precondition check (--check-step)
	// establishes before the step runs.
	Proves string `json:"proves"`

	// objects are the manifests of each file.
	objects map[string][]map[string]any
}

// An XR is the move of one claim or legacy XR.
type XR struct {
	// Dir is <namespace>/<name> of the new XR (_cluster/<name> for a
	// cluster-scoped one, _unplanned/<name> of the legacy XR when there is
	// no new XR), relative to the plan directory, with _<kind>.<group>
	// after the name where several XRs share a namespace and name.
	Dir   string `json:"dir"`
	Claim *Ref   `json:"claim,omitempty"`
	// Legacy is the legacy XR, New the v2 XR that replaces it.
	Legacy        Ref        `json:"legacy"`
	New           Ref        `json:"new"`
	Composition   string     `json:"composition"`
	V2Composition string     `json:"v2Composition"`
	Resources     []Resource `json:"resources"`
	// Steps are empty when Errors are not.
	Steps []Step `json:"steps,omitempty"`
	// Errors are why the move cannot adopt every managed resource (the
	// render proof): a plan with errors fails (exit 3).
	Errors []string `json:"errors,omitempty"`
	// Notes are what the user should know but does not stop the move.
	Notes []string `json:"notes,omitempty"`

	newXR    map[string]any
	twins    []map[string]any
	rendered []map[string]any
}

// A Plan is the move of every claim and legacy XR found.
type Plan struct {
	// FieldManager prefixes the server-side apply field manager of each
	// step (FieldManager + "-step<N>").
	FieldManager string `json:"fieldManager"`
	XRs          []*XR  `json:"xrs"`
}

// Failed reports whether any XR's move has errors.
func (p *Plan) Failed() bool {
	for _, x := range p.XRs {
		if len(x.Errors) > 0 {
			return true
		}
	}
	return false
}

// FieldManager is the default field manager prefix of the plan's steps.
const FieldManager = "xpmigrate-plan"

// Definitions are the v2-native definitions the XRs move onto.
type Definitions struct {
	// Compositions carry the v2 mapping annotation (convert --target v2).
	Compositions []map[string]any
	// XRDs are the v2 XRDs.
	XRDs []map[string]any
	// Refused are, by legacy XR type ("group, Kind=kind"), the
	// errors for which Convert refused a Composition of that type: why no
	// v2 Composition maps it.
	Refused map[string][]string
}

// DefinitionsOf picks the v2 definitions out of objs: Compositions with a
// v2 mapping and apiextensions.crossplane.io/v2 XRDs.
func DefinitionsOf(objs []map[string]any) Definitions {
	var d Definitions
	for _, o := range objs {
		switch {
		case o["apiVersion"] == xp.CompositionAPIVersion && o["kind"] == "Composition" && mappingOf(o) != nil:
			d.Compositions = append(d.Compositions, o)
		case o["apiVersion"] == xp.GroupAPIExtensions+"/v2" && o["kind"] == "CompositeResourceDefinition" && !legacyXRD(o):
			d.XRDs = append(d.XRDs, o)
		}
	}
	return d
}

func mappingOf(comp map[string]any) *v2map.Mapping {
	md, _ := comp["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	s, ok := ann[v2map.Annotation].(string)
	if !ok {
		return nil
	}
	m, err := v2map.Decode(s)
	if err != nil {
		return nil
	}
	return m
}

// Convert converts the legacy platform's XRDs and Compositions for
// Crossplane v2 (convert --target v2 with o) and returns the definitions.
func Convert(l *Legacy, o convert.Options) (Definitions, error) {
	var b strings.Builder
	for _, obj := range slices.Concat(l.XRDs, l.Compositions) {
		y, err := yaml.Marshal(clean(obj))
		if err != nil {
			return Definitions{}, errors.Wrap(err, "cannot encode a legacy definition")
		}
		b.WriteString("---\n")
		b.Write(y)
	}
	res, err := v2native.Convert([]byte(b.String()), o)
	if err != nil {
		return Definitions{}, errors.Wrap(err, "cannot convert the legacy definitions for Crossplane v2")
	}
	var objs []map[string]any
	for _, doc := range strings.Split(string(res.Output), "\n---\n") {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			return Definitions{}, errors.Wrap(err, "cannot read the converted definitions")
		}
		objs = append(objs, obj)
	}
	d := DefinitionsOf(objs)
	d.Refused = refusedTypes(l.Compositions, res.Diagnostics)
	return d, nil
}

// refusedTypes returns the converter's errors by the legacy XR type of
// the Composition they refuse.
func refusedTypes(comps []map[string]any, ds []convert.Diagnostic) map[string][]string {
	out := map[string][]string{}
	for _, d := range ds {
		if d.Severity != convert.SeverityError || d.Composition == "" {
			continue
		}
		for _, c := range comps {
			if jsonobj.String(c, "metadata", "name") != d.Composition {
				continue
			}
			g, _ := xp.SplitAPIVersion(jsonobj.String(c, "spec", "compositeTypeRef", "apiVersion"))
			t := g + ", Kind=" + jsonobj.String(c, "spec", "compositeTypeRef", "kind")
			out[t] = append(out[t], fmt.Sprintf("Composition %s: %s %s: %s", d.Composition, d.Code, d.Path, d.Message))
		}
	}
	return out
}

// Options tune Build.
type Options struct {
	// Convert names the v2 XR types (XRNaming, XRGroup) when several v2
	// Compositions serve one legacy type.
	Convert convert.Options
	// FieldManager; FieldManager when empty.
	FieldManager string
	// Schemas validate every object the steps apply; PlanSchemas of the
	// provider CRDs of Convert and the definitions when nil.
	Schemas *Schemas
	// ProviderConfigKind is the kind a twin's providerConfigRef gets when
	// the live reference has none and the mapping sets none
	// (--provider-config-kind given); empty: the default of the twin's
	// CRD, else ClusterProviderConfig.
	ProviderConfigKind string
}

// Build plans the move of every composite of l onto d, with its render
// proof. Errors of one XR's move are recorded in it (XR.Errors), not
// returned, and such an XR has no steps. Build refuses (invalid input) an
// XR whose plan directory cannot be made from its names (see dirOf).
func Build(ctx context.Context, l *Legacy, d Definitions, o Options) (*Plan, error) {
	if o.FieldManager == "" {
		o.FieldManager = FieldManager
	}
	if o.Schemas == nil {
		s, err := PlanSchemas(nil, o.Convert.ProviderCRDs, d)
		if err != nil {
			return nil, err
		}
		o.Schemas = s
	}
	p := &Plan{FieldManager: o.FieldManager}
	for _, c := range l.Composites {
		x := &XR{Legacy: refOf(c.XR)}
		x.Composition = jsonobj.String(c.XR, "spec", "compositionRef", "name")
		if c.Claim != nil {
			r := refOf(c.Claim)
			x.Claim = &r
		}
		if err := x.build(ctx, l, d, c, o); err != nil {
			x.Errors = append(x.Errors, err.Error())
		}
		p.XRs = append(p.XRs, x)
	}
	if err := place(p.XRs); err != nil {
		return nil, err
	}
	for i, x := range p.XRs {
		// An XR whose move has errors gets no step: nothing to apply.
		if len(x.Errors) > 0 {
			continue
		}
		x.steps(l.Composites[i], o.FieldManager)
		// Nor does one whose steps would be refused.
		errs, err := x.validateSteps(ctx, o.Schemas, l.Composites[i], x.definitions(d))
		if err != nil {
			return nil, err
		}
		if len(errs) > 0 {
			x.Errors = append(x.Errors, errs...)
			x.Steps = nil
		}
	}
	sort.Slice(p.XRs, func(i, j int) bool { return p.XRs[i].Dir < p.XRs[j].Dir })
	return p, nil
}

func (x *XR) build(ctx context.Context, l *Legacy, d Definitions, c Composite, o Options) error {
	g, _ := xp.SplitAPIVersion(x.Legacy.APIVersion)
	xrd := xrdOf(l.XRDs, g, x.Legacy.Kind)
	if xrd == nil {
		return errors.Errorf("no v1 CompositeResourceDefinition defines %s", x.Legacy)
	}
	comp, m, err := pickComposition(d, c.XR, xrd, o.Convert)
	if err != nil {
		return err
	}
	x.V2Composition = jsonobj.String(comp, "metadata", "name")
	newXR, err := twinXR(c, xrd, comp, m, o.Convert)
	if err != nil {
		return err
	}
	x.New = refOf(newXR)
	if x.Claim != nil {
		cg, _ := xp.SplitAPIVersion(x.Claim.APIVersion)
		if ng, _ := xp.SplitAPIVersion(x.New.APIVersion); cg == ng && x.Claim.Kind == x.New.Kind {
			return errors.Errorf("the v2 XR type %s %s is the claim's type: both cannot exist at once, and the claim exists until step 4; convert with --xr-naming new-group", x.New.APIVersion, x.New.Kind)
		}
	}
	if m.Scope != "Cluster" && x.New.Namespace == "" {
		return errors.Errorf("%s has no claim: a namespaced %s needs a namespace (convert with --xr-scope cluster, or create a claim-less XR's twin by hand)", x.Legacy, x.New.Kind)
	}
	var refs []any
	for _, cd := range c.Composed {
		r, twin, err := twinMR(cd, m, x.New.Namespace)
		if err != nil {
			x.Errors = append(x.Errors, err.Error())
			continue
		}
		if err := o.Schemas.providerConfigKind(ctx, twin, o.ProviderConfigKind); err != nil {
			return err
		}
		x.Resources = append(x.Resources, r)
		x.twins = append(x.twins, twin)
		ref := map[string]any{"apiVersion": r.Twin.APIVersion, "kind": r.Twin.Kind, "name": r.Twin.Name}
		if m.Scope == "Cluster" {
			ref["namespace"] = r.Twin.Namespace
		}
		refs = append(refs, ref)
	}
	cp, _ := jsonobj.Value(newXR, "spec", "crossplane").(map[string]any)
	if cp == nil {
		cp = map[string]any{}
		spec, _ := newXR["spec"].(map[string]any)
		if spec == nil {
			spec = map[string]any{}
			newXR["spec"] = spec
		}
		spec["crossplane"] = cp
	}
	cp["resourceRefs"] = refs
	x.newXR = newXR
	errs, err := x.prove(ctx, comp)
	if err != nil {
		return err
	}
	x.Errors = append(x.Errors, errs...)
	return nil
}

// definitions are the v2 XRD and Composition x's move needs.
func (x *XR) definitions(d Definitions) []map[string]any {
	var out []map[string]any
	g, _ := xp.SplitAPIVersion(x.New.APIVersion)
	for _, xrd := range d.XRDs {
		if jsonobj.String(xrd, "spec", "group") == g && jsonobj.String(xrd, "spec", "names", "kind") == x.New.Kind {
			out = append(out, xrd)
		}
	}
	for _, comp := range d.Compositions {
		if jsonobj.String(comp, "metadata", "name") == x.V2Composition {
			out = append(out, comp)
		}
	}
	return out
}

// pickComposition returns the v2 Composition the XR moves to: the one
// whose mapping comes from the XR's type, or among several the one the
// twin naming rule gives for the XR's legacy Composition.
func pickComposition(d Definitions, xr, xrd map[string]any, o convert.Options) (map[string]any, *v2map.Mapping, error) {
	g, _ := xp.SplitAPIVersion(jsonobj.AsString(xr["apiVersion"]))
	kind := jsonobj.AsString(xr["kind"])
	var cands []map[string]any
	for _, comp := range d.Compositions {
		m := mappingOf(comp)
		if mg, _ := xp.SplitAPIVersion(m.From.APIVersion); mg == g && m.From.Kind == kind {
			cands = append(cands, comp)
		}
	}
	switch len(cands) {
	case 0:
		if why := d.Refused[g+", Kind="+kind]; len(why) > 0 {
			return nil, nil, errors.Errorf("no v2 Composition maps %s %s: the conversion refused its Composition (%s)", jsonobj.AsString(xr["apiVersion"]), kind, strings.Join(why, "; "))
		}
		return nil, nil, errors.Errorf("no v2 Composition maps %s %s: convert its Composition with --target v2 (or give the output with --v2)", jsonobj.AsString(xr["apiVersion"]), kind)
	case 1:
		return cands[0], mappingOf(cands[0]), nil
	}
	want := v2CompositionName(xr, xrd, o)
	var names []string
	for _, comp := range cands {
		n := jsonobj.String(comp, "metadata", "name")
		if n == want {
			return comp, mappingOf(comp), nil
		}
		names = append(names, n)
	}
	return nil, nil, errors.Errorf("%d v2 Compositions map %s (%s) and none is %q, the twin of its Composition %q: give the --xr-naming and --xr-group they were converted with",
		len(cands), kind, strings.Join(names, ", "), want, jsonobj.String(xr, "spec", "compositionRef", "name"))
}

// v2CompositionName is the v2 Composition name the converter gives the
// Composition xr runs (through v2native.XRTwin's compositionRef rename).
func v2CompositionName(xr, xrd map[string]any, o convert.Options) string {
	doc := map[string]any{"apiVersion": xr["apiVersion"], "kind": xr["kind"], "metadata": map[string]any{"name": "x"},
		"spec": map[string]any{"compositionRef": map[string]any{"name": jsonobj.Value(xr, "spec", "compositionRef", "name")}}}
	y, _ := yaml.Marshal(doc)
	out, _, err := v2native.XRTwin(y, twinType(xrd), twinOptions(o))
	if err != nil {
		return ""
	}
	var t map[string]any
	if yaml.Unmarshal(out, &t) != nil {
		return ""
	}
	return jsonobj.String(t, "spec", "crossplane", "compositionRef", "name")
}

func twinOptions(o convert.Options) convert.Options {
	o.Target = "v2"
	if o.XRScope == "" || o.XRScope == convert.XRScopeLegacy {
		o.XRScope = convert.XRScopeAuto
	}
	return o
}

func twinType(xrd map[string]any) v2native.TwinType {
	t := v2native.TwinType{Group: jsonobj.String(xrd, "spec", "group"), Kind: jsonobj.String(xrd, "spec", "names", "kind"), Plural: jsonobj.String(xrd, "spec", "names", "plural")}
	vs, _ := jsonobj.Value(xrd, "spec", "versions").([]any)
	for _, v := range vs {
		vm, _ := v.(map[string]any)
		if vm["referenceable"] == true {
			t.Version = jsonobj.AsString(vm["name"])
		}
	}
	return t
}

// twinXR writes the new XR: the claim's (or the legacy XR's) twin, of the
// mapping's v2 type, running comp, paused.
func twinXR(c Composite, xrd, comp map[string]any, m *v2map.Mapping, o convert.Options) (map[string]any, error) {
	src := c.XR
	if c.Claim != nil {
		src = c.Claim
	}
	src = clean(src)
	y, err := yaml.Marshal(src)
	if err != nil {
		return nil, errors.Wrap(err, "cannot encode the legacy XR")
	}
	out, _, err := v2native.XRTwin(y, twinType(xrd), twinOptions(o))
	if err != nil {
		return nil, errors.Wrapf(err, "cannot write the v2 twin of %s", refOf(src))
	}
	var t map[string]any
	if err := yaml.Unmarshal(out, &t); err != nil {
		return nil, errors.Wrap(err, "cannot read the v2 twin")
	}
	t["apiVersion"], t["kind"] = m.To.APIVersion, m.To.Kind
	md, _ := t["metadata"].(map[string]any)
	if m.Scope == "Cluster" {
		delete(md, "namespace")
	}
	setAnnotation(t, xp.AnnotationPaused, "true")
	spec, _ := t["spec"].(map[string]any)
	if spec == nil {
		spec = map[string]any{}
		t["spec"] = spec
	}
	cp, _ := spec["crossplane"].(map[string]any)
	if cp == nil {
		cp = map[string]any{}
		spec["crossplane"] = cp
	}
	cp["compositionRef"] = map[string]any{"name": jsonobj.String(comp, "metadata", "name")}
	return t, nil
}

// twinMR writes the namespaced twin of one composed resource: the live
// object, cleaned of what the API server and controllers own, mapped
// through its template's ops, in namespace, with its external name and
// management policies without Delete.
func twinMR(cd Composed, m *v2map.Mapping, namespace string) (Resource, map[string]any, error) {
	old := Ref{APIVersion: cd.APIVersion, Kind: cd.Kind, Name: cd.Name}
	if cd.Object == nil {
		return Resource{}, nil, errors.Errorf("%s cannot be read: it cannot be adopted", old)
	}
	name := jsonobj.String(cd.Object, "metadata", "annotations", xp.AnnotationCompositionResourceName)
	if name == "" {
		return Resource{}, nil, errors.Errorf("%s has no %s annotation: no template of the v2 Composition can adopt it", old, xp.AnnotationCompositionResourceName)
	}
	ext := jsonobj.String(cd.Object, "metadata", "annotations", xp.AnnotationExternalName)
	if ext == "" {
		return Resource{}, nil, errors.Errorf("%s (%s) has no %s annotation: its twin would create a new external resource", old, name, xp.AnnotationExternalName)
	}
	if !slices.ContainsFunc(m.Resources, func(r v2map.Resource) bool { return r.Name == name }) {
		return Resource{}, nil, errors.Errorf("%s (%s): the v2 Composition has no template %q: it would be recreated, not adopted", old, name, name)
	}
	twin := clean(cd.Object)
	md, _ := twin["metadata"].(map[string]any)
	delete(md, "ownerReferences")
	if labels, ok := md["labels"].(map[string]any); ok {
		for k := range labels {
			if strings.HasPrefix(k, xp.LabelClaimPrefix) || k == xp.LabelComposite {
				delete(labels, k)
			}
		}
		if len(labels) == 0 {
			delete(md, "labels")
		}
	}
	if ann, ok := md["annotations"].(map[string]any); ok {
		delete(ann, xp.AnnotationPaused)
	}
	spec, _ := twin["spec"].(map[string]any)
	orphan := spec != nil && spec["deletionPolicy"] == "Orphan"
	if _, err := v2map.Apply(twin, m.Resource(name)); err != nil {
		return Resource{}, nil, errors.Wrapf(err, "cannot map %s (%s)", old, name)
	}
	spec, _ = twin["spec"].(map[string]any)
	if spec == nil {
		spec = map[string]any{}
		twin["spec"] = spec
	}
	// Namespaced managed resources have no deletionPolicy: a live one
	// always has one (the CRD defaults it), which the template may not set.
	// Nor do they publish to External Secret Stores or write their
	// connection Secret outside their namespace: a live one may carry what
	// a patch (not a template the mapping saw) wrote.
	delete(spec, "deletionPolicy")
	delete(spec, "publishConnectionDetailsTo")
	if ref, ok := spec["writeConnectionSecretToRef"].(map[string]any); ok {
		delete(ref, "namespace")
	}
	// The live object's own policies, mapped; the default ("*") with an
	// Orphan deletion policy is the mapping's OrphanPolicies (C442).
	intended := strs(spec["managementPolicies"])
	if len(intended) == 0 || slices.Equal(intended, []string{"*"}) {
		intended = []string{"*"}
		if orphan {
			intended = slices.Clone(v2map.OrphanPolicies)
		}
	}
	initial := withoutDelete(intended)
	spec["managementPolicies"] = toAny(initial)
	if namespace != "" {
		md["namespace"] = namespace
	}
	r := Resource{Name: name, Old: old, Twin: refOf(twin), ExternalName: ext, InitialPolicies: initial, IntendedPolicies: intended}
	return r, twin, nil
}

// withoutDelete returns policies without Delete ("*" spelled out).
func withoutDelete(p []string) []string {
	if slices.Contains(p, "*") {
		return slices.Clone(v2map.OrphanPolicies)
	}
	return slices.DeleteFunc(slices.Clone(p), func(s string) bool { return s == "Delete" })
}

// serverFields are metadata the API server or a controller owns.
var serverFields = []string{"uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "managedFields", "selfLink", "finalizers", "generateName"}

// clean returns a deep copy of o without status, server metadata and
// kubectl's last-applied annotation.
func clean(o map[string]any) map[string]any {
	c := jsonobj.DeepCopy(o)
	delete(c, "status")
	md, _ := c["metadata"].(map[string]any)
	for _, f := range serverFields {
		delete(md, f)
	}
	if ann, ok := md["annotations"].(map[string]any); ok {
		delete(ann, "kubectl.kubernetes.io/last-applied-configuration")
		if len(ann) == 0 {
			delete(md, "annotations")
		}
	}
	return c
}

func setAnnotation(o map[string]any, k, v string) {
	md, _ := o["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		o["metadata"] = md
	}
	ann, _ := md["annotations"].(map[string]any)
	if ann == nil {
		ann = map[string]any{}
		md["annotations"] = ann
	}
	ann[k] = v
}

func strs(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, e := range l {
		out = append(out, fmt.Sprint(e))
	}
	return out
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, e := range s {
		out[i] = e
	}
	return out
}

// FromType is the legacy type (group|kind) a v2 Composition's mapping
// comes from, empty without a mapping.
func FromType(comp map[string]any) string {
	m := mappingOf(comp)
	if m == nil {
		return ""
	}
	g, _ := xp.SplitAPIVersion(m.From.APIVersion)
	return g + "|" + m.From.Kind
}
