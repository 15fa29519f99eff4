package plan

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
	"github.com/xpmigrate/xpmigrate/internal/v2map"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// Load reads a plan directory's plan.json and the manifests its steps
// apply.
func Load(dir string) (*Plan, error) {
	b, err := regularfile.ReadFile(filepath.Join(dir, "plan.json"))
	if err != nil {
		return nil, errors.Wrap(err, "cannot read the plan")
	}
	p := &Plan{}
	if err := json.Unmarshal(b, p); err != nil {
		return nil, errors.Wrap(err, "cannot decode plan.json")
	}
	for _, x := range p.XRs {
		for i := range x.Steps {
			s := &x.Steps[i]
			s.objects = map[string][]map[string]any{}
			for _, a := range s.Actions {
				if a.Verb != VerbApply {
					continue
				}
				if !filepath.IsLocal(a.File) {
					return nil, errors.Errorf("plan.json: step %d of %s applies %q, which is not in the plan directory", s.Number, x.Dir, a.File)
				}
				docs, err := manifest.LoadFile(filepath.Join(dir, filepath.FromSlash(a.File)))
				if err != nil {
					return nil, errors.Wrapf(err, "cannot read step %d of %s", s.Number, x.Dir)
				}
				s.objects[a.File] = manifest.Objects(docs)
			}
		}
	}
	return p, nil
}

// Check returns why the objects do not allow step n of x's move (nothing
// when they do). It only reads.
func Check(ctx context.Context, objs Objects, x *XR, n int) ([]string, error) {
	if n < StepProtect || n > StepDone {
		return nil, errors.Errorf("no step %d: steps are %d to %d (%d checks that the move is complete)", n, StepProtect, StepRelease, StepDone)
	}
	if len(x.Errors) > 0 {
		return []string{fmt.Sprintf("the plan of %s has errors: it cannot be moved as planned", x.Dir)}, nil
	}
	c := &checker{ctx: ctx, objs: objs}
	switch n {
	case StepProtect:
		c.oldExist(x)
	case StepAdopt:
		c.oldSafe(x)
		c.definitions(x)
		c.twins(x, false)
		c.unchanged(x)
	case StepResume:
		c.oldSafe(x)
		if xr := c.get(x.New, "the new XR"); xr != nil && !paused(xr) {
			c.failf("the new XR %s is not paused", x.New)
		}
		c.twins(x, true)
	case StepRetire:
		c.oldSafe(x)
		c.adopted(x)
	case StepRelease:
		c.oldDeleting(x)
		c.adopted(x)
	case StepDone:
		for _, r := range x.oldRefs() {
			if o, _ := c.lookup(r); o != nil {
				c.failf("%s still exists", r)
			}
		}
		c.adopted(x)
		for _, r := range x.Resources {
			if t, _ := c.lookup(r.Twin); t != nil && !slices.Equal(strs(jsonobj.Value(t, "spec", "managementPolicies")), r.IntendedPolicies) {
				c.failf("%s has management policies %v, not the intended %v", r.Twin, strs(jsonobj.Value(t, "spec", "managementPolicies")), r.IntendedPolicies)
			}
		}
	}
	c.validate(x, n)
	return c.reasons, c.err
}

type checker struct {
	ctx     context.Context
	objs    Objects
	reasons []string
	err     error
}

// validate re-validates the objects step n applies, each merged over the
// live object, against the CRDs the cluster serves now (get only), so
// that an allowed step is one the API server accepts. A kind whose CRD
// cannot be read blocks the step on a cluster; an export is checked
// against the CRDs it holds.
func (c *checker) validate(x *XR, n int) {
	src, ok := c.objs.(CRDSource)
	if !ok || n > len(x.Steps) || c.err != nil {
		return
	}
	_, strict := c.objs.(Cluster)
	if p, ok := c.objs.(*Cluster); ok && p != nil {
		strict = true
	}
	s := NewSchemas(src)
	st := x.Steps[n-1]
	for _, a := range st.Actions {
		if a.Verb != VerbApply {
			continue
		}
		for _, obj := range st.objects[a.File] {
			r := refOf(obj)
			live, state := c.lookup(r)
			if c.err != nil || state == cluster.Unserved {
				continue // The step's other checks say that the kind is not served.
			}
			errs, known, why, err := s.Validate(c.ctx, obj, live)
			if err != nil {
				c.err = err
				return
			}
			if !known && strict {
				c.failf("%s: %s cannot be validated against its CustomResourceDefinition: %s", a.File, r, why)
			}
			for _, e := range errs {
				c.failf("%s: %s would be refused: %s", a.File, r, e)
			}
		}
	}
}

func (c *checker) failf(format string, args ...any) {
	c.reasons = append(c.reasons, fmt.Sprintf(format, args...))
}

// lookup reads r; a failed read is the checker's error.
func (c *checker) lookup(r Ref) (map[string]any, cluster.State) {
	if c.err != nil {
		return nil, ""
	}
	o, st, err := c.objs.Get(c.ctx, r.APIVersion, r.Kind, r.Namespace, r.Name)
	if err != nil {
		c.err = err
	}
	return o, st
}

// get reads r and records a reason when it cannot.
func (c *checker) get(r Ref, what string) map[string]any {
	o, st := c.lookup(r)
	if o == nil && c.err == nil {
		switch st {
		case cluster.Unserved:
			c.failf("%s %s: its kind is not served (apply definitions.yaml and the provider first)", what, r)
		case cluster.Forbidden:
			c.failf("%s %s cannot be read: permission denied", what, r)
		default:
			c.failf("%s %s does not exist", what, r)
		}
	}
	return o
}

func (x *XR) oldRefs() []Ref {
	var refs []Ref
	for _, r := range x.Resources {
		refs = append(refs, r.Old)
	}
	refs = append(refs, x.Legacy)
	if x.Claim != nil {
		refs = append(refs, *x.Claim)
	}
	return refs
}

func (c *checker) oldExist(x *XR) {
	if x.Claim != nil {
		c.get(*x.Claim, "the claim")
	}
	c.get(x.Legacy, "the legacy XR")
	for _, r := range x.Resources {
		o := c.get(r.Old, "the managed resource")
		if o == nil {
			continue
		}
		if ext := jsonobj.Annotation(o, xp.AnnotationExternalName); ext != r.ExternalName {
			c.failf("%s has the external name %q, the plan copies %q: plan again", r.Old, ext, r.ExternalName)
		}
		if n := jsonobj.Annotation(o, xp.AnnotationCompositionResourceName); n != r.Name {
			c.failf("%s is the composed resource %q, the plan has %q: plan again", r.Old, n, r.Name)
		}
	}
}

// oldSafe: the old side is paused and every old managed resource is
// orphaned.
func (c *checker) oldSafe(x *XR) {
	if x.Claim != nil {
		if o := c.get(*x.Claim, "the claim"); o != nil && !paused(o) {
			c.failf("the claim %s is not paused (step %d)", *x.Claim, StepProtect)
		}
	}
	if o := c.get(x.Legacy, "the legacy XR"); o != nil && !paused(o) {
		c.failf("the legacy XR %s is not paused (step %d)", x.Legacy, StepProtect)
	}
	for _, r := range x.Resources {
		o := c.get(r.Old, "the managed resource")
		if o == nil {
			continue
		}
		if !paused(o) {
			c.failf("%s is not paused (step %d)", r.Old, StepProtect)
		}
		if !orphaned(o) {
			c.failf("%s would delete its external resource: deletionPolicy %v, managementPolicies %v (step %d)", r.Old, jsonobj.Value(o, "spec", "deletionPolicy"), strs(jsonobj.Value(o, "spec", "managementPolicies")), StepProtect)
		}
		if ext := jsonobj.Annotation(o, xp.AnnotationExternalName); ext != r.ExternalName {
			c.failf("%s has the external name %q, the plan copies %q", r.Old, ext, r.ExternalName)
		}
	}
}

func (c *checker) oldDeleting(x *XR) {
	for _, r := range x.oldRefs() {
		o, _ := c.lookup(r)
		if o == nil {
			continue
		}
		if jsonobj.Value(o, "metadata", "deletionTimestamp") == nil {
			c.failf("%s is not being deleted (step %d)", r, StepRetire)
		}
	}
	for _, r := range x.Resources {
		if o, _ := c.lookup(r.Old); o != nil && !orphaned(o) {
			c.failf("%s would delete its external resource: deletionPolicy %v", r.Old, jsonobj.Value(o, "spec", "deletionPolicy"))
		}
	}
}

func (c *checker) definitions(x *XR) {
	c.get(Ref{APIVersion: xp.CompositionAPIVersion, Kind: "Composition", Name: x.V2Composition}, "the v2 Composition")
	if _, st := c.lookup(x.New); st == cluster.Unserved {
		c.failf("the new XR's kind %s %s is not served: apply definitions.yaml (the v2 XRD) first", x.New.APIVersion, x.New.Kind)
	}
}

// unchanged: every twin step 2 applies has the parameters
// (spec.forProvider and spec.initProvider) of the live managed resource it
// replaces, mapped as the plan maps it. A twin that differs (its manifest
// edited, or the managed resource changed since the plan) would make the
// provider change the external resource as soon as it observes the twin.
func (c *checker) unchanged(x *XR) {
	if len(x.Steps) < StepAdopt {
		return
	}
	comp, _ := c.lookup(Ref{APIVersion: xp.CompositionAPIVersion, Kind: "Composition", Name: x.V2Composition})
	m := mappingOf(comp)
	st := x.Steps[StepAdopt-1]
	for _, a := range st.Actions {
		if a.Verb != VerbApply {
			continue
		}
		for _, obj := range st.objects[a.File] {
			i := slices.IndexFunc(x.Resources, func(r Resource) bool { return r.Twin == refOf(obj) })
			if i < 0 {
				continue
			}
			r := x.Resources[i]
			old, _ := c.lookup(r.Old)
			if old == nil {
				continue // oldSafe says so.
			}
			want := clean(old)
			if m != nil {
				if _, err := v2map.Apply(want, m.Resource(r.Name)); err != nil {
					c.failf("%s: cannot map %s as the v2 Composition %s does: %v", a.File, r.Old, x.V2Composition, err)
					continue
				}
			}
			for _, f := range []string{"forProvider", "initProvider"} {
				changed("spec."+f, jsonobj.Value(want, "spec", f), jsonobj.Value(obj, "spec", f), func(path string, live, twin any) {
					c.failf("%s: %s sets %s %s, the live %s has %s: the provider would change the external resource", a.File, r.Twin, path, show(twin), r.Old, show(live))
				})
			}
		}
	}
}

// changed calls report for every leaf under path whose value in twin is
// not the one in live, either way.
func changed(path string, live, twin any, report func(path string, live, twin any)) {
	lm, lok := live.(map[string]any)
	tm, tok := twin.(map[string]any)
	if !lok || !tok {
		if !jsonobj.Equal(live, twin) {
			report(path, live, twin)
		}
		return
	}
	keys := make([]string, 0, len(lm)+len(tm))
	for k := range lm {
		keys = append(keys, k)
	}
	for k := range tm {
		if _, ok := lm[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		changed(path+"."+k, lm[k], tm[k], report)
	}
}

// twins: every twin exists (must) or may not yet, with the old external
// name, no Delete policy and no other controller.
func (c *checker) twins(x *XR, must bool) {
	var newUID string
	if xr, _ := c.lookup(x.New); xr != nil {
		newUID = jsonobj.String(xr, "metadata", "uid")
	}
	for _, r := range x.Resources {
		t, st := c.lookup(r.Twin)
		if t == nil {
			if st == cluster.Unserved {
				c.failf("%s: its kind is not served (install the provider's namespaced managed resources)", r.Twin)
			} else if must && c.err == nil {
				c.failf("%s does not exist (step %d)", r.Twin, StepAdopt)
			}
			continue
		}
		if ext := jsonobj.Annotation(t, xp.AnnotationExternalName); ext != r.ExternalName {
			c.failf("%s has the external name %q, not the old one %q", r.Twin, ext, r.ExternalName)
		}
		if p := strs(jsonobj.Value(t, "spec", "managementPolicies")); len(p) == 0 || slices.Contains(p, "*") || slices.Contains(p, "Delete") {
			c.failf("%s may delete its external resource: management policies %v", r.Twin, p)
		}
		if uid := controller(t); uid != "" && uid != newUID {
			c.failf("%s is controlled by another object (uid %s)", r.Twin, uid)
		}
	}
}

// adopted: the new XR is unpaused, Ready and controls every twin.
func (c *checker) adopted(x *XR) {
	xr := c.get(x.New, "the new XR")
	if xr == nil {
		return
	}
	if paused(xr) {
		c.failf("the new XR %s is paused (step %d)", x.New, StepResume)
	}
	if !ready(xr) {
		c.failf("the new XR %s is not Ready", x.New)
	}
	uid := jsonobj.String(xr, "metadata", "uid")
	refs, _ := jsonobj.Value(xr, "spec", "crossplane", "resourceRefs").([]any)
	for _, r := range x.Resources {
		t := c.get(r.Twin, "the managed resource")
		if t == nil {
			continue
		}
		if controller(t) != uid || uid == "" {
			c.failf("%s is not controlled by the new XR %s", r.Twin, x.New)
		}
		if ext := jsonobj.Annotation(t, xp.AnnotationExternalName); ext != r.ExternalName {
			c.failf("%s has the external name %q, not the old one %q", r.Twin, ext, r.ExternalName)
		}
		if !slices.ContainsFunc(refs, func(v any) bool {
			m, _ := v.(map[string]any)
			return jsonobj.AsString(m["name"]) == r.Twin.Name && jsonobj.AsString(m["kind"]) == r.Twin.Kind
		}) {
			c.failf("the new XR's spec.crossplane.resourceRefs does not name %s", r.Twin)
		}
	}
}

func paused(o map[string]any) bool { return jsonobj.Annotation(o, xp.AnnotationPaused) == "true" }

// orphaned: deleting the managed resource leaves its external resource
// (crossplane-runtime: management policies other than the default decide,
// else the deletion policy).
func orphaned(o map[string]any) bool {
	p := strs(jsonobj.Value(o, "spec", "managementPolicies"))
	if len(p) > 0 && !slices.Equal(p, []string{"*"}) {
		return !slices.Contains(p, "Delete") && !slices.Contains(p, "*")
	}
	return jsonobj.Value(o, "spec", "deletionPolicy") == "Orphan"
}

func ready(o map[string]any) bool {
	conds, _ := jsonobj.Value(o, "status", "conditions").([]any)
	for _, cv := range conds {
		m, _ := cv.(map[string]any)
		if m["type"] == "Ready" && m["status"] == "True" {
			return true
		}
	}
	return false
}

// controller is the uid of o's controller owner, if any.
func controller(o map[string]any) string {
	refs, _ := jsonobj.Value(o, "metadata", "ownerReferences").([]any)
	for _, r := range refs {
		m, _ := r.(map[string]any)
		if m["controller"] == true {
			return jsonobj.AsString(m["uid"])
		}
	}
	return ""
}
