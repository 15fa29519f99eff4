package plan

import (
	"context"
	"fmt"
	"sort"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	"github.com/xpmigrate/xpmigrate/render/engine"
	"github.com/xpmigrate/xpmigrate/render/pipeline"
)

// prove renders the new XR, unpaused, with comp and the twins as observed
// state (Crossplane v2's function composer, as the reconciler applies)
// and returns why a managed resource would be recreated or changed
// instead of adopted as it is:
//   - a rendered resource no twin has the composition resource name of
//     (it would be created);
//   - a twin no template renders (the XR would never own it);
//   - a rendered name, namespace or kind other than the twin's;
//   - a rendered external name other than the twin's;
//   - a rendered spec field whose value differs from the twin's (the
//     provider would change the external resource); management policies
//     are left out: step 4 sets them.
func (x *XR) prove(ctx context.Context, comp map[string]any) ([]string, error) {
	xr := jsonobj.DeepCopy(x.newXR)
	md, _ := xr["metadata"].(map[string]any)
	if ann, ok := md["annotations"].(map[string]any); ok {
		delete(ann, xp.AnnotationPaused)
		if len(ann) == 0 {
			delete(md, "annotations")
		}
	}
	observed := make([]map[string]any, 0, len(x.twins))
	for _, t := range x.twins {
		observed = append(observed, jsonobj.DeepCopy(t))
	}
	res, err := engine.Render(ctx, engine.Request{XR: xr, Composition: comp, Observed: observed},
		engine.Options{Target: crossplane.V2, Profile: pipeline.Reconciler})
	if err != nil {
		return []string{fmt.Sprintf("render proof: the v2 Composition %q cannot render %s: %v", x.V2Composition, x.New, err)}, nil
	}
	if res.Outcome == nil {
		return nil, errors.New("render proof: no outcome")
	}
	byName := map[string]map[string]any{}
	for _, t := range x.twins {
		byName[jsonobj.String(t, "metadata", "annotations", xp.AnnotationCompositionResourceName)] = t
	}
	var errs []string
	seen := map[string]bool{}
	x.rendered = nil
	for _, cr := range res.Outcome.Composed {
		if !cr.Rendered || cr.Desired == nil {
			continue
		}
		d := cr.Desired
		x.rendered = append(x.rendered, d)
		seen[cr.Name] = true
		t, ok := byName[cr.Name]
		if !ok {
			errs = append(errs, fmt.Sprintf("render proof: template %q renders %s %s, which no managed resource of %s matches by %s: it would be created, not adopted", cr.Name, jsonobj.AsString(d["apiVersion"]), jsonobj.AsString(d["kind"]), x.Legacy, xp.AnnotationCompositionResourceName))
			continue
		}
		errs = append(errs, compareTwin(cr.Name, d, t)...)
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !seen[n] {
			errs = append(errs, fmt.Sprintf("render proof: the v2 Composition renders no resource %q: the twin %s would never be owned by the new XR", n, refOf(byName[n])))
		}
	}
	return errs, nil
}

// compareTwin compares what the v2 render desires of resource name with
// its twin.
func compareTwin(name string, d, t map[string]any) []string {
	var errs []string
	tr, dr := refOf(t), refOf(d)
	if dr.APIVersion != tr.APIVersion || dr.Kind != tr.Kind {
		errs = append(errs, fmt.Sprintf("render proof: resource %q renders %s %s, its twin is %s %s: it would be recreated, not adopted", name, dr.APIVersion, dr.Kind, tr.APIVersion, tr.Kind))
	}
	if dr.Name != "" && dr.Name != tr.Name {
		errs = append(errs, fmt.Sprintf("render proof: resource %q renders the name %q, its twin is %q: it would be recreated, not adopted", name, dr.Name, tr.Name))
	}
	if dr.Namespace != "" && dr.Namespace != tr.Namespace {
		errs = append(errs, fmt.Sprintf("render proof: resource %q renders namespace %q, its twin is in %q", name, dr.Namespace, tr.Namespace))
	}
	dext := jsonobj.String(d, "metadata", "annotations", xp.AnnotationExternalName)
	text := jsonobj.String(t, "metadata", "annotations", xp.AnnotationExternalName)
	if dext != "" && dext != text {
		errs = append(errs, fmt.Sprintf("render proof: resource %q renders the external name %q, the live one is %q: a new external resource would be created", name, dext, text))
	}
	ds, _ := d["spec"].(map[string]any)
	ts, _ := t["spec"].(map[string]any)
	var diffs []string
	subset("spec", ds, ts, &diffs)
	for _, p := range diffs {
		errs = append(errs, fmt.Sprintf("render proof: resource %q: %s", name, p))
	}
	return errs
}

// subset records every leaf of want (the render) whose value got (the
// twin) does not have, but for spec.managementPolicies.
func subset(path string, want, got any, diffs *[]string) {
	if path == "spec.managementPolicies" {
		return
	}
	wm, ok := want.(map[string]any)
	if !ok {
		if !jsonobj.Equal(want, got) {
			*diffs = append(*diffs, fmt.Sprintf("%s renders %s, the live value is %s: the provider would change the external resource", path, show(want), show(got)))
		}
		return
	}
	gm, _ := got.(map[string]any)
	keys := make([]string, 0, len(wm))
	for k := range wm {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		subset(path+"."+k, wm[k], gm[k], diffs)
	}
}

func show(v any) string {
	if v == nil {
		return "nothing"
	}
	b, err := jsonobj.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
