package verify

import (
	"encoding/base64"
	"slices"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/redact"
	"github.com/xpmigrate/xpmigrate/internal/v2map"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	"github.com/xpmigrate/xpmigrate/patchandtransform/function"
	"github.com/xpmigrate/xpmigrate/render"
	"github.com/xpmigrate/xpmigrate/render/pipeline"
	"github.com/xpmigrate/xpmigrate/render/verify/gaps"
)

// Verifying a v2-native Composition (one converted with --target v2 that
// declares its xpmigrate.io/v2-mapping, internal/v2map): the legacy side
// renders the sample as before (claim → legacy XR); the v2 side renders the
// sample's v2 XR twin with Crossplane v2's composer semantics for modern
// XRs (render/pipeline, dialect V2). Before the two are compared, every
// reconcile of the legacy side is mapped: each composed resource through
// its template's declared edits (v2map.Apply), then through the composer
// rules below, and the XR through the mapping's XR edits and the twin's
// identity. Every field the mapping changed is reported as a difference
// of class mapped under the code of the edit or rule that changed it;
// whatever differs after the mapping is classified as verify always does.
//
// verify's own composer rules (codes C480–C485, in the converter's
// diagnostics registry):
const (
	// CodeNamespace: a namespaced XR's composed resources are in its
	// namespace (Crossplane v2 forces it).
	CodeNamespace = "C480"
	// CodeClaimLabels: a v2 XR has no claim, so its composed resources
	// carry no crossplane.io/claim-name and claim-namespace labels.
	CodeClaimLabels = "C481"
	// CodeComposite: composed resources name the v2 XR: controller
	// reference, crossplane.io/composite label, generateName prefix.
	CodeComposite = "C482"
	// CodeXRConnection: the XR's connection details are in the
	// connection Secret function-patch-and-transform ≥ v0.10 composes,
	// not in an XR connection Secret.
	CodeXRConnection = "C483"
	// CodeResourceRefs: the XR's resource references are under
	// spec.crossplane.resourceRefs and name the v2 composed resources.
	CodeResourceRefs = "C484"
	// CodeXRTwin: the XR is the claim's v2 twin: the v2 type, the claim's
	// name and namespace, no claim reference.
	CodeXRTwin = "C485"
)

// mappingCodeTitles names verify's composer rules for reports.
var mappingCodeTitles = map[string]string{
	CodeNamespace:    "composed resources in the XR's namespace",
	CodeClaimLabels:  "no claim labels on composed resources",
	CodeComposite:    "composed resources owned by the v2 XR",
	CodeXRConnection: "XR connection details in function-patch-and-transform's composed connection Secret",
	CodeResourceRefs: "resource references under spec.crossplane.resourceRefs",
	CodeXRTwin:       "the v2 XR twin of the claim or legacy XR",
}

// MappingCodes are verify's own composer rules, in code order, with
// their titles, for the generated reference.
func MappingCodes() [][2]string {
	codes := make([]string, 0, len(mappingCodeTitles))
	for c := range mappingCodeTitles {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	out := make([][2]string, len(codes))
	for i, c := range codes {
		out[i] = [2]string{c, mappingCodeTitles[c]}
	}
	return out
}

// A twin is one sample's v2 XR and what mapping the legacy side needs.
type twin struct {
	m *v2map.Mapping

	// xr is the v2 XR the v2 side renders.
	xr map[string]any

	// legacyName is the legacy XR's name (its crossplane.io/composite
	// label), name and namespace the twin's.
	legacyName, legacyPrefix string
	name, namespace          string

	// dropConnectionRef is true when verify, not the sample, set the
	// legacy XR's spec.writeConnectionSecretToRef (prepareXR), or the
	// sample is a claim (its XR's reference is not the claim's).
	dropConnectionRef bool

	// connRef is a claim sample's spec.writeConnectionSecretToRef as its
	// v2 twin keeps it (convert's C472): the v2 XRD declares it (C416).
	connRef map[string]any

	// names names the legacy Composition's anonymous templates as the
	// converted Composition (and its mapping) names them.
	names func(int) string

	// writesLabel records the claim labels ("<resource>|<label>") the v2
	// Composition's templates patch themselves: Crossplane v2 adds none,
	// but those it renders.
	writesLabel map[string]bool

	// ptInput is the input of the Composition's last
	// function-patch-and-transform step, which names the connection Secret
	// it composes for the v2 XR (with the XR's own reference first).
	ptInput *function.Resources
}

// mapped records which code changed which path of one object.
type mapped struct {
	path string
	code string
}

// newTwin builds the v2 twin of the prepared legacy XR xr of sample (a
// claim's XR, or a legacy XR): the mapping's type, the claim's name and
// namespace (a legacy XR without a claim keeps its name and, for a
// namespaced twin, goes to namespace "default"), no claim reference or
// labels, the claim's connection Secret reference, the mapping's XR
// edits, and spec.crossplane.
func (v *verifier) newTwin(xr, sample map[string]any) (*twin, []string, error) {
	m := v.mapping
	_, hadRef := jsonobj.Lookup(sample, "spec", "writeConnectionSecretToRef")
	claim := isClaimOf(sample, v.o.XRD)
	t := &twin{m: m, legacyName: jsonobj.String(xr, "metadata", "name"), dropConnectionRef: !hadRef || claim, names: v.names}
	if ref, ok := jsonobj.Value(sample, "spec", "writeConnectionSecretToRef").(map[string]any); ok && claim {
		t.connRef = jsonobj.DeepCopy(ref)
		if m.Scope == "Cluster" {
			if _, ok := t.connRef["namespace"]; !ok && jsonobj.String(sample, "metadata", "namespace") != "" {
				t.connRef["namespace"] = jsonobj.String(sample, "metadata", "namespace")
			}
		} else {
			delete(t.connRef, "namespace")
		}
	}
	t.legacyPrefix = jsonobj.String(xr, "metadata", "labels", xp.LabelComposite)
	if t.legacyPrefix == "" {
		t.legacyPrefix = t.legacyName
	}
	var assumptions []string
	t.name = t.legacyName
	if n := jsonobj.String(xr, "spec", "claimRef", "name"); n != "" {
		t.name = n
	}
	if m.Scope != "Cluster" {
		t.namespace = jsonobj.String(xr, "spec", "claimRef", "namespace")
		if t.namespace == "" {
			t.namespace = "default"
			assumptions = append(assumptions, "a legacy XR sample without a claim: its namespaced v2 twin is rendered in namespace default")
		}
	}
	in, err := ptConnectionInput(v.converted.obj)
	if err != nil {
		return nil, nil, err
	}
	t.ptInput = in
	t.writesLabel = claimLabelWrites(v.converted.obj, v.names)
	out, _, err := t.mapXR(xr, nil)
	if err != nil {
		return nil, nil, err
	}
	t.xr = out
	return t, assumptions, nil
}

// CodeNestedXR is the converter's edit of a template that composes a
// legacy XR whose XRD --target v2 converts: it composes the v2 XR.
const CodeNestedXR = "C458"

// clusterScoped is the v2 side's scope of a composed type: a nested XR's
// v2 type the mapping declares (CodeNestedXR) has the mapping's scope, as
// its XRD was converted with the same options; any other is as scoped
// says (nil: pipeline.KnownClusterScoped, which takes a group of a
// provider's domain for a managed resource's).
func (t *twin) clusterScoped(scoped func(apiVersion, kind string) bool) func(apiVersion, kind string) bool {
	nested := map[[2]string]bool{}
	for _, r := range t.m.Resources {
		var av, kind string
		for _, o := range r.Ops {
			if o.Code != CodeNestedXR || o.Op != v2map.OpSet {
				continue
			}
			s, _ := o.Value.(string)
			switch o.Path {
			case "apiVersion":
				av = s
			case "kind":
				kind = s
			}
		}
		if av != "" && kind != "" {
			nested[[2]string{av, kind}] = true
		}
	}
	if len(nested) == 0 {
		return scoped
	}
	if scoped == nil {
		scoped = pipeline.KnownClusterScoped
	}
	cluster := t.m.Scope == "Cluster"
	return func(apiVersion, kind string) bool {
		if nested[[2]string{apiVersion, kind}] {
			return cluster
		}
		return scoped(apiVersion, kind)
	}
}

// claimLabelWrites returns the claim labels ("<resource>|<label>") the
// patches of a Composition's function-patch-and-transform templates (their
// patch sets' included) write. names names anonymous templates.
func claimLabelWrites(comp map[string]any, names func(int) string) map[string]bool {
	out := map[string]bool{}
	for _, st := range jsonobj.AsList(jsonobj.Value(comp, "spec", "pipeline")) {
		sm, _ := st.(map[string]any)
		in, _ := sm["input"].(map[string]any)
		if jsonobj.String(in, "kind") != "Resources" {
			continue
		}
		sets := map[string][]any{}
		for _, ps := range jsonobj.AsList(in["patchSets"]) {
			pm, _ := ps.(map[string]any)
			sets[jsonobj.String(pm, "name")] = jsonobj.AsList(pm["patches"])
		}
		for i, r := range jsonobj.AsList(in["resources"]) {
			rm, _ := r.(map[string]any)
			name := jsonobj.String(rm, "name")
			if name == "" && names != nil {
				name = names(i)
			}
			var patches []any
			for _, p := range jsonobj.AsList(rm["patches"]) {
				pm, _ := p.(map[string]any)
				if jsonobj.String(pm, "type") == "PatchSet" {
					patches = append(patches, sets[jsonobj.String(pm, "patchSetName")]...)
					continue
				}
				patches = append(patches, p)
			}
			for _, p := range patches {
				pm, _ := p.(map[string]any)
				to, err := fieldpath.Parse(jsonobj.String(pm, "toFieldPath"))
				if err != nil || len(to) != 3 || to[0].Field != "metadata" || to[1].Field != "labels" {
					continue
				}
				if k := to[2].Field; k == xp.LabelClaimName || k == xp.LabelClaimNamespace {
					out[name+"|"+k] = true
				}
			}
		}
	}
	return out
}

// ptConnectionInput decodes the input of the Composition's last
// function-patch-and-transform step (the last to compose the connection
// Secret), or an empty one.
func ptConnectionInput(comp map[string]any) (*function.Resources, error) {
	var last map[string]any
	for _, s := range jsonobj.AsList(jsonobj.Value(comp, "spec", "pipeline")) {
		sm, _ := s.(map[string]any)
		in, _ := sm["input"].(map[string]any)
		if jsonobj.String(in, "kind") == "Resources" && strings.HasPrefix(jsonobj.String(in, "apiVersion"), "pt.fn.crossplane.io/") {
			last = in
		}
	}
	if last == nil {
		return &function.Resources{}, nil
	}
	in, err := function.Decode(last)
	if err != nil {
		return nil, errors.Wrap(err, "cannot decode the function-patch-and-transform input")
	}
	return in, nil
}

// mapXR maps a legacy XR (the prepared sample, or a reconcile's effective
// XR) to its v2 twin, and returns which paths each code changed. refs maps
// a legacy resource reference (apiVersion/kind/name) to the v2 one.
func (t *twin) mapXR(xr map[string]any, refs map[string]map[string]any) (map[string]any, []mapped, error) {
	out := jsonobj.DeepCopy(xr)
	var rec []mapped
	set := func(code, path string, val any, keys ...string) {
		if cur, ok := jsonobj.Lookup(out, keys...); ok && jsonobj.Equal(cur, val) {
			return
		}
		setAt(out, val, keys...)
		rec = append(rec, mapped{path: path, code: code})
	}
	del := func(code, path string, keys ...string) {
		if _, ok := jsonobj.Lookup(out, keys...); ok {
			deleteAt(out, keys...)
			rec = append(rec, mapped{path: path, code: code})
		}
	}
	set(CodeXRTwin, "apiVersion", t.m.To.APIVersion, "apiVersion")
	set(CodeXRTwin, "kind", t.m.To.Kind, "kind")
	set(CodeXRTwin, "metadata.name", t.name, "metadata", "name")
	if t.namespace != "" {
		set(CodeXRTwin, "metadata.namespace", t.namespace, "metadata", "namespace")
	} else {
		del(CodeXRTwin, "metadata.namespace", "metadata", "namespace")
	}
	set(CodeXRTwin, "metadata.labels[crossplane.io/composite]", t.name, "metadata", "labels", xp.LabelComposite)
	del(CodeXRTwin, "metadata.labels[crossplane.io/claim-name]", "metadata", "labels", xp.LabelClaimName)
	del(CodeXRTwin, "metadata.labels[crossplane.io/claim-namespace]", "metadata", "labels", xp.LabelClaimNamespace)
	del(CodeXRTwin, "spec.claimRef", "spec", "claimRef")
	if t.dropConnectionRef {
		del(CodeXRConnection, "spec.writeConnectionSecretToRef", "spec", "writeConnectionSecretToRef")
	}
	if t.connRef != nil {
		set(CodeXRTwin, "spec.writeConnectionSecretToRef", jsonobj.DeepCopy(t.connRef), "spec", "writeConnectionSecretToRef")
	}
	if err := applyOps(out, t.m.XR, &rec); err != nil {
		return nil, nil, errors.Wrap(err, "cannot map the XR through the v2 mapping")
	}
	if _, ok := jsonobj.Lookup(out, "spec", "crossplane"); !ok {
		setAt(out, map[string]any{}, "spec", "crossplane")
	}
	if legacy, ok := jsonobj.Lookup(out, "spec", "resourceRefs"); ok {
		deleteAt(out, "spec", "resourceRefs")
		rec = append(rec, mapped{path: "spec.resourceRefs", code: CodeResourceRefs})
		setAt(out, legacy, "spec", "crossplane", "resourceRefs")
	}
	if refs != nil {
		if list, ok := jsonobj.Lookup(out, "spec", "crossplane", "resourceRefs"); ok {
			var next []any
			for _, r := range jsonobj.AsList(list) {
				rm, _ := r.(map[string]any)
				if n, ok := refs[v2RefKey(jsonobj.String(rm, "apiVersion"), jsonobj.String(rm, "kind"), jsonobj.String(rm, "name"))]; ok {
					next = append(next, n)
					continue
				}
				next = append(next, r)
			}
			for _, k := range jsonobj.SortedKeys(refs) {
				if strings.HasPrefix(k, "+") {
					next = append(next, refs[k])
				}
			}
			set(CodeResourceRefs, "spec.crossplane.resourceRefs", next, "spec", "crossplane", "resourceRefs")
		}
	}
	return out, rec, nil
}

func v2RefKey(apiVersion, kind, name string) string { return apiVersion + "|" + kind + "|" + name }

// applyOps applies declared edits one at a time, recording the paths each
// one changed under its code.
func applyOps(obj map[string]any, ops []v2map.Op, rec *[]mapped) error {
	for _, o := range ops {
		codes, err := v2map.Apply(obj, []v2map.Op{o})
		if err != nil {
			return err
		}
		if len(codes) == 0 {
			continue
		}
		*rec = append(*rec, mapped{path: o.Path, code: o.Code})
		switch o.Op {
		case v2map.OpMove:
			*rec = append(*rec, mapped{path: o.To, code: o.Code})
		case v2map.OpManagementPolicies:
			*rec = append(*rec, mapped{path: "spec.managementPolicies", code: o.Code})
		}
	}
	return nil
}

// mapComposed maps one composed resource the legacy side rendered (or
// observed) named name through its template's declared edits and the
// composer rules.
func (t *twin) mapComposed(obj map[string]any, name string) (map[string]any, []mapped, error) {
	if obj == nil {
		return nil, nil, nil
	}
	out := jsonobj.DeepCopy(obj)
	var rec []mapped
	if err := applyOps(out, t.m.Resource(name), &rec); err != nil {
		return nil, nil, errors.Wrapf(err, "cannot map composed resource %q through the v2 mapping", name)
	}
	if t.namespace != "" && jsonobj.String(out, "metadata", "namespace") != t.namespace {
		setAt(out, t.namespace, "metadata", "namespace")
		rec = append(rec, mapped{path: "metadata.namespace", code: CodeNamespace})
	}
	for _, k := range []string{xp.LabelClaimName, xp.LabelClaimNamespace} {
		if t.writesLabel[name+"|"+k] {
			continue // The v2 Composition writes it itself (C426, C427).
		}
		if _, ok := jsonobj.Lookup(out, "metadata", "labels", k); ok {
			deleteAt(out, "metadata", "labels", k)
			rec = append(rec, mapped{path: "metadata.labels[" + k + "]", code: CodeClaimLabels})
		}
	}
	if jsonobj.String(out, "metadata", "labels", xp.LabelComposite) == t.legacyPrefix && t.legacyPrefix != t.name {
		setAt(out, t.name, "metadata", "labels", xp.LabelComposite)
		rec = append(rec, mapped{path: "metadata.labels[crossplane.io/composite]", code: CodeComposite})
	}
	if gn := jsonobj.String(out, "metadata", "generateName"); gn == t.legacyPrefix+"-" && t.legacyPrefix != t.name {
		setAt(out, t.name+"-", "metadata", "generateName")
		rec = append(rec, mapped{path: "metadata.generateName", code: CodeComposite})
		// The name generated from either prefix keeps only its first 58
		// characters: a long claim name cuts the legacy one before its
		// suffix, and the v2 one too.
		if n, ok := v2map.Regenerate(jsonobj.String(out, "metadata", "name"), gn, t.name+"-"); ok {
			setAt(out, n, "metadata", "name")
			rec = append(rec, mapped{path: "metadata.name", code: CodeComposite})
		}
	}
	owners := jsonobj.AsList(jsonobj.Value(out, "metadata", "ownerReferences"))
	for i, o := range owners {
		om, _ := o.(map[string]any)
		if c, _ := om["controller"].(bool); !c || jsonobj.String(om, "name") != t.legacyName || jsonobj.String(om, "kind") != t.m.From.Kind {
			continue
		}
		nm := jsonobj.DeepCopy(om)
		nm["apiVersion"], nm["kind"], nm["name"] = t.m.To.APIVersion, t.m.To.Kind, t.name
		if !jsonobj.Equal(om, nm) {
			owners[i] = nm
			rec = append(rec, mapped{path: "metadata.ownerReferences", code: CodeComposite})
		}
	}
	t.renameXR(out, nil, &rec)
	// Crossplane v1 always sets generateName; v2 only on a resource the
	// Composition names neither way (docs/semantics/pipeline.md#crossplane-v2: only when
	// the function gave it no name of either kind).
	if gn, n := jsonobj.String(out, "metadata", "generateName"), jsonobj.String(out, "metadata", "name"); gn == t.name+"-" && n != "" && !generatedName(n, gn) {
		deleteAt(out, "metadata", "generateName")
		rec = append(rec, mapped{path: "metadata.generateName", code: CodeComposite})
	}
	return out, rec, nil
}

// renameXR replaces, in the string values of a composed resource v (at
// path p), the legacy XR's name that Crossplane generated from its claim's
// (`<claim>-<suffix>`, the prefix cut to 58 characters) with the twin's,
// the claim's own: what the Composition derives from the XR's name
// follows it (C485).
func (t *twin) renameXR(v any, p Path, rec *[]mapped) any {
	if t.legacyName == t.name || !strings.HasPrefix(t.legacyName, v2map.GeneratePrefix(t.name+"-")) {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = t.renameXR(e, p.Child(k), rec)
		}
	case []any:
		for i, e := range x {
			x[i] = t.renameXR(e, p.Index(i), rec)
		}
	case string:
		if strings.Contains(x, t.legacyName) {
			*rec = append(*rec, mapped{path: p.String(), code: CodeXRTwin})
			return strings.ReplaceAll(x, t.legacyName, t.name)
		}
	}
	return v
}

// A mappedSide is a legacy reconcile mapped to what the v2 side should
// render, and what the mapping changed: per composed resource, and on the
// XR.
type mappedSide struct {
	side     Side
	composed map[string][]mapped
	xr       []mapped
	before   Side
}

// mapSide maps one reconcile of the legacy side.
func (t *twin) mapSide(s Side) (mappedSide, error) {
	ms := mappedSide{side: s, before: s, composed: map[string][]mapped{}}
	if s.Outcome == nil {
		return ms, nil
	}
	out := *s.Outcome
	out.Composed = make([]render.ComposedResource, len(s.Outcome.Composed))
	refs := map[string]map[string]any{}
	for i, cd := range s.Outcome.Composed {
		name := cd.Name
		if t.names != nil {
			name = gaps.ResourceName(cd, t.names)
		}
		d, rec, err := t.mapComposed(cd.Desired, name)
		if err != nil {
			return ms, err
		}
		a, _, err := t.mapComposed(cd.Applied, name)
		if err != nil {
			return ms, err
		}
		cd.Desired, cd.Applied = d, a
		out.Composed[i] = cd
		ms.composed[name] = rec
		if old := s.Outcome.Composed[i].Applied; old != nil && a != nil {
			refs[v2RefKey(jsonobj.String(old, "apiVersion"), jsonobj.String(old, "kind"), jsonobj.String(old, "metadata", "name"))] =
				xp.ReferenceObject(jsonobj.String(a, "apiVersion"), jsonobj.String(a, "kind"), jsonobj.String(a, "metadata", "namespace"), jsonobj.String(a, "metadata", "name"))
		}
	}
	if len(out.ConnectionDetails) > 0 {
		secret, name, err := t.connectionSecret(out.ConnectionDetails)
		if err != nil {
			return ms, err
		}
		out.Composed = append(out.Composed, render.ComposedResource{Name: name, Index: -1, Desired: secret, Applied: secret, Rendered: true, Synced: true, Ready: true})
		ms.composed[name] = []mapped{{path: "", code: CodeXRConnection}}
		refs["+"+name] = xp.ReferenceObject("v1", "Secret", jsonobj.String(secret, "metadata", "namespace"), jsonobj.String(secret, "metadata", "name"))
		out.ConnectionDetails = nil
	}
	if out.EffectiveXR != nil {
		xr, rec, err := t.mapXR(out.EffectiveXR, refs)
		if err != nil {
			return ms, err
		}
		out.EffectiveXR = xr
		ms.xr = rec
	}
	ms.side = Side{Outcome: &out, Err: s.Err}
	return ms, nil
}

// connectionSecret is the Secret function-patch-and-transform ≥ v0.10
// composes for a v2 XR's connection details, as the v2 side renders it:
// named as the function names it (function.ConnectionSecretName: the
// XR's spec.writeConnectionSecretToRef, else the input's
// writeConnectionSecretToRef, else `<xr>-connection`, then the input's
// patches), composed as `<xr>-connection-secret` with Crossplane v2's
// composed metadata.
func (t *twin) connectionSecret(details map[string][]byte) (map[string]any, string, error) {
	name, ns, err := function.ConnectionSecretName(jsonobj.DeepCopy(t.xr), t.ptInput)
	if err != nil {
		return nil, "", errors.Wrap(err, "cannot name the mapped connection Secret")
	}
	data := map[string]any{}
	for _, k := range jsonobj.SortedKeys(details) {
		data[k] = encodeSecretValue(details[k])
	}
	md := map[string]any{"name": name}
	if ns != "" {
		md["namespace"] = ns
	}
	s := map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": md, "data": data, "type": xp.SecretTypeConnection}
	rn := t.name + "-connection-secret"
	if err := pipeline.ModernComposedMetadata(s, nil, t.xr, rn); err != nil {
		return nil, "", errors.Wrap(err, "cannot compose the mapped connection Secret")
	}
	return s, rn, nil
}

// mappedDifferences reports what the mapping changed in the last
// reconcile, for the resources and XR fields where the mapped legacy side
// and the v2 side agree (a field that still differs is reported by
// Classify as an ordinary difference): legacy value before the mapping,
// v2 value, under the code that changed it.
func mappedDifferences(ms mappedSide, v2 Side, residual []Difference, names func(int) string) []Difference {
	var out []Difference
	if ms.before.Outcome == nil || v2.Outcome == nil {
		return nil
	}
	residualAt := func(aspect Aspect, resource string, p Path) bool {
		for _, d := range residual {
			if d.Transient {
				continue
			}
			if d.Aspect == AspectPresence && d.Resource == resource && resource != "" {
				return true
			}
			if d.Aspect == aspect && d.Resource == resource && (d.Path.String() == p.String() || within(d.Path.String(), p.String()) || within(p.String(), d.Path.String())) {
				return true
			}
		}
		return false
	}
	add := func(aspect Aspect, resource string, rec []mapped, before, after map[string]any) {
		diffLeaves(nil, before, after, func(p Path, a, b *Value) {
			code := codeFor(rec, p)
			if code == "" || residualAt(aspect, resource, p) {
				return
			}
			d := Difference{Aspect: aspect, Resource: resource, Path: p, Legacy: a, Pipeline: b}
			if aspect == AspectResource {
				// Secret values show as digests; rules read them raw.
				d.Legacy, d.Pipeline = redactedAt(before, p, a), redactedAt(after, p, b)
			}
			d.SetRaw(a, b)
			d.Gap = mappedGap(code, d.Path)
			out = append(out, d)
		})
	}
	v2cds := map[string]map[string]any{}
	for _, cd := range v2.Outcome.Composed {
		v2cds[gaps.ResourceName(cd, names)] = cd.Desired
	}
	for _, cd := range ms.before.Outcome.Composed {
		name := gaps.ResourceName(cd, names)
		after, ok := v2cds[name]
		if !ok {
			continue
		}
		add(AspectResource, name, ms.composed[name], cd.Desired, after)
	}
	for _, cd := range ms.side.Outcome.Composed {
		if rec := ms.composed[gaps.ResourceName(cd, names)]; len(rec) == 1 && rec[0].code == CodeXRConnection && rec[0].path == "" {
			if _, ok := v2cds[cd.Name]; ok && !residualAt(AspectPresence, cd.Name, nil) {
				d := Difference{Aspect: AspectPresence, Resource: cd.Name, Pipeline: present(redact.Object(v2cds[cd.Name]))}
				d.SetRaw(nil, present(v2cds[cd.Name]))
				d.Gap = mappedGap(CodeXRConnection, nil)
				d.Gap.Detail = "the legacy XR's connection details (" + strings.Join(jsonobj.SortedKeys(ms.before.Outcome.ConnectionDetails), ", ") + ") are in this composed Secret"
				out = append(out, d)
			}
		}
	}
	add(AspectXR, "", ms.xr, ms.before.Outcome.EffectiveXR, v2.Outcome.EffectiveXR)
	return out
}

// codeFor returns the code of the last recorded change at or around p.
func codeFor(rec []mapped, p Path) string {
	ps := p.String()
	code := ""
	for _, r := range rec {
		if r.path == "" {
			continue
		}
		if ps == r.path || within(ps, r.path) || within(r.path, ps) {
			code = r.code
		}
	}
	return code
}

// within reports whether path p is under prefix q.
func within(p, q string) bool {
	return strings.HasPrefix(p, q) && len(p) > len(q) && (p[len(q)] == '.' || p[len(q)] == '[')
}

func mappedGap(code string, p Path) *Gap {
	title := mappingCodeTitles[code]
	if title == "" {
		title = "declared v2 edit"
	}
	return &Gap{
		Code:   code,
		Title:  title,
		Detail: "the legacy render, mapped through " + code + ", is what the v2 Composition renders at " + orWhole(p.String()),
		Fix:    "nothing: this is the declared v2 transformation",
		Class:  ClassMapped,
	}
}

func orWhole(s string) string {
	if s == "" {
		return "the whole object"
	}
	return s
}

// setAt sets keys to v, making the objects on the way.
func setAt(o map[string]any, v any, keys ...string) {
	cur := o
	for _, k := range keys[:len(keys)-1] {
		next, ok := cur[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[k] = next
		}
		cur = next
	}
	cur[keys[len(keys)-1]] = v
}

// deleteAt deletes keys if they are there.
func deleteAt(o map[string]any, keys ...string) {
	parent := o
	if len(keys) > 1 {
		v, _ := jsonobj.Lookup(o, keys[:len(keys)-1]...)
		parent, _ = v.(map[string]any)
	}
	if parent != nil {
		delete(parent, keys[len(keys)-1])
	}
}

// encodeSecretValue is a Secret data value as the v2 side's composed
// Secret holds it: base64 text.
func encodeSecretValue(b []byte) any {
	return base64.StdEncoding.EncodeToString(b)
}

// mapObserved maps the observed composed resources for the v2 side, each
// by its composition resource name.
func (t *twin) mapObserved(observed []map[string]any) ([]map[string]any, error) {
	if observed == nil {
		return nil, nil
	}
	out := make([]map[string]any, len(observed))
	for i, o := range observed {
		m, _, err := t.mapComposed(o, jsonobj.String(o, "metadata", "annotations", xp.AnnotationCompositionResourceName))
		if err != nil {
			return nil, err
		}
		out[i] = m
	}
	return out, nil
}

// stringMap reads an object of strings (annotations); other values are
// skipped.
func stringMap(v any) map[string]string {
	out := map[string]string{}
	for k, e := range jsonobj.AsMap(v) {
		if s, ok := e.(string); ok {
			out[k] = s
		}
	}
	return out
}

// isClaimOf reports whether o is a claim of the XRD.
func isClaimOf(o, xrd map[string]any) bool {
	return xrd != nil && isClaim(o, xrd)
}

// connectionLag explains a transient difference in the presence of the
// composed connection Secret: function-patch-and-transform composes it
// from the connection details of observed resources, a reconcile after
// legacy published them (D26).
func connectionLag(diffs []Difference, ms mappedSide) {
	for i := range diffs {
		d := &diffs[i]
		if d.Gap != nil || !d.Transient || d.Aspect != AspectPresence || !isConnectionSecret(ms, d.Resource) {
			continue
		}
		c, _ := gaps.LookupGapCode("D26")
		d.Gap = &Gap{Code: c.Code, Title: c.Title, Class: ClassBenign, Diagnostics: []string{CodeXRConnection},
			Detail: "the composed connection Secret holds the connection details, which the pipeline publishes once the resource is observed",
			Fix:    "nothing: the next reconcile catches up"}
	}
}

func isConnectionSecret(ms mappedSide, name string) bool {
	rec := ms.composed[name]
	return len(rec) == 1 && rec[0].code == CodeXRConnection && rec[0].path == ""
}

// diffLeaves is diffValues, but an object only one side has is reported
// field by field, so that each field is attributed to the edit that made
// it.
func diffLeaves(path Path, a, b any, report func(Path, *Value, *Value)) {
	diffValues(path, a, b, func(p Path, x, y *Value) {
		switch {
		case x == nil && y != nil:
			onlyOneSide(p, y.V, func(q Path, v any) { report(q, nil, present(v)) })
		case y == nil && x != nil:
			onlyOneSide(p, x.V, func(q Path, v any) { report(q, present(v), nil) })
		default:
			report(p, x, y)
		}
	})
}

// onlyOneSide reports every leaf of v, a value only one side has.
func onlyOneSide(p Path, v any, report func(Path, any)) {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		report(p, v)
		return
	}
	for _, k := range jsonobj.SortedKeys(m) {
		onlyOneSide(p.Child(k), m[k], report)
	}
}
