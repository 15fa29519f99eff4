package convert

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/environment"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	"github.com/xpmigrate/xpmigrate/patchandtransform/function"
	"github.com/xpmigrate/xpmigrate/patchandtransform/native"
)

var baseErrPath = regexp.MustCompile(`^spec\.resources\[(\d+)\]\.base`)

// nativeValidation runs Crossplane's own Composition validation (schema
// and webhook, v1.17) on the input. Most of what it checks is checked
// above with a precise code, or by the output validation; what is left is
// the template bases (C110) and the composite type reference, which the
// output keeps as it is (C190).
func (c validatePass) nativeValidation() {
	if c.inJSON == nil {
		return
	}
	nc, err := native.DecodeJSON(c.inJSON) // A kubectl view: valid JSON.
	if err != nil {
		return // Field types: the output validation reports them.
	}
	nc.Default()
	spec := yamledit.Get(c.node, "spec")
	for _, fe := range nc.Validate() {
		switch {
		case baseErrPath.MatchString(fe.Field):
			tpl := baseErrPath.FindString(fe.Field)
			if c.reported(tpl) {
				continue
			}
			c.errorf("C110", nodeAt(spec, strings.TrimPrefix(fe.Field, "spec")), fe.Field, "invalid base: %s", fe.ErrorBody())
		case strings.HasPrefix(fe.Field, "spec.compositeTypeRef"):
			c.errorf("C190", nodeAt(spec, strings.TrimPrefix(fe.Field, "spec")), fe.Field, "the Composition is invalid and stays so after conversion: %s", fe.ErrorBody())
		}
	}
}

// reported reports whether an error was reported at path or below it.
func (c *composition) reported(path string) bool {
	for _, p := range c.errPaths {
		if p == path || strings.HasPrefix(p, path+".") || strings.HasPrefix(p, path+"[") {
			return true
		}
	}
	return false
}

// validateOutput checks the converted Composition (docs/semantics/conversion.md#output-validation):
// the pipeline, and every function input as the function itself reads it.
func (c validatePass) validateOutput(spec *yaml.Node) {
	if c.base == "" {
		// The whole document's kubectl view: the function inputs are
		// parts of it, and Encode checks the rendering against it.
		if j, err := c.doc.JSON(); err == nil {
			c.outJSON = j
		}
	}
	for _, k := range []string{"resources", "patchSets", "environment"} {
		if yamledit.Key(spec, k) != nil {
			c.errorf("C190", spec, "spec."+k, "spec.%s must be gone after conversion", k)
		}
	}
	if m, _ := yamledit.Str(yamledit.Get(spec, "mode")); m != "Pipeline" {
		c.errorf("C190", spec, "spec.mode", "mode must be Pipeline after conversion")
	}
	if c.r.o.Target == crossplane.V2 && yamledit.Key(spec, "publishConnectionDetailsWithStoreConfigRef") != nil {
		c.errorf("C191", spec, "spec.publishConnectionDetailsWithStoreConfigRef", "Crossplane v2 has no publishConnectionDetailsWithStoreConfigRef")
	}
	steps := yamledit.Resolve(yamledit.Get(spec, "pipeline"))
	if !yamledit.IsSeq(steps) || len(steps.Content) == 0 || len(steps.Content) > 99 {
		c.errorf("C190", steps, "spec.pipeline", "a pipeline needs 1 to 99 steps")
		return
	}
	names := map[string]bool{}
	for i, s := range steps.Content {
		p := idx("spec.pipeline", i)
		name, _ := yamledit.Str(yamledit.Get(s, "step"))
		if name == "" || names[name] {
			c.errorf("C190", s, p+".step", "step names must be set and unique, %q is not", name)
		}
		names[name] = true
		fn, _ := yamledit.Str(yamledit.Get(yamledit.Get(s, "functionRef"), "name"))
		if msgs := validation.IsDNS1123Subdomain(fn); len(msgs) > 0 {
			c.errorf("C106", s, p+".functionRef.name", "invalid function name %q: %s", fn, strings.Join(msgs, "; "))
		}
		in := yamledit.Get(s, "input")
		av, _ := yamledit.Str(yamledit.Get(in, "apiVersion"))
		kind, _ := yamledit.Str(yamledit.Get(in, "kind"))
		switch {
		case av == PTInputAPIVersion && kind == PTInputKind:
			c.validatePT(in, p+".input", c.stepInputJSON(i))
		case av == ECInputAPIVersion && kind == ECInputKind:
			c.validateEC(in, p+".input", c.stepInputJSON(i))
		}
	}
}

// validatePT decodes and validates a patch-and-transform input exactly as
// the function does, plus the run-time rule on match pattern types.
func (c validatePass) validatePT(in *yaml.Node, path string, j []byte) {
	if j == nil {
		var err error
		if j, err = yamledit.JSON(in); err != nil {
			c.errorf("C190", in, path, "cannot read the function input: %v", err)
			return
		}
	}
	r, err := function.DecodeJSON(j)
	if err != nil {
		c.errorf("C190", in, path, "function-patch-and-transform would not read its input: %v", err)
		return
	}
	if ferr := r.Validate(); ferr != nil && !(c.emptyResources && ferr.Type == field.ErrorTypeRequired && ferr.Field == "resources") {
		c.errorf("C190", nodeAt(in, ferr.Field), path+"."+ferr.Field, "function-patch-and-transform would reject its input: %s", ferr.ErrorBody())
		return
	}
	// at gives the path of the transforms; it is built only for a finding.
	check := func(typ function.PatchType, ts []function.Transform, at func() string) {
		if isCombine(string(typ)) {
			// The function never validates a Combine patch's transforms;
			// native Crossplane does, as for every patch type.
			if ferr := function.ValidateTransforms(ts); ferr != nil {
				f := strings.TrimPrefix(ferr.Field, "transforms")
				c.errorf("C190", in, at()+f, "native Crossplane rejects this transform of a %s patch (function-patch-and-transform would run it and fail): %s", typ, ferr.ErrorBody())
				return
			}
		}
		for i, t := range ts {
			if t.Match == nil {
				continue
			}
			for j, p := range t.Match.Patterns {
				if p.Type != "literal" && p.Type != "regexp" {
					c.errorf("C190", in, idx(idx(at(), i)+".match.patterns", j)+".type", "match pattern type %q fails at run time: want literal or regexp", p.Type)
				}
			}
		}
	}
	for i, ps := range r.PatchSets {
		for j, p := range ps.Patches {
			check(p.Type, p.Transforms, func() string { return idx(idx(path+".patchSets", i)+".patches", j) + ".transforms" })
		}
	}
	if r.Environment != nil {
		for j, p := range r.Environment.Patches {
			check(p.Type, p.Transforms, func() string { return idx(path+".environment.patches", j) + ".transforms" })
		}
	}
	for i, t := range r.Resources {
		for j, p := range t.Patches {
			check(p.Type, p.Transforms, func() string { return idx(idx(path+".resources", i)+".patches", j) + ".transforms" })
		}
	}
}

// validateEC decodes an environment-configs input as the function does, for
// the target's release, and applies the native source rules.
func (c validatePass) validateEC(in *yaml.Node, path string, j []byte) {
	if j == nil {
		var err error
		if j, err = yamledit.JSON(in); err != nil {
			c.errorf("C190", in, path, "cannot read the function input: %v", err)
			return
		}
	}
	fn := environment.Function{Version: environment.FunctionV07}
	if c.r.o.ecVersion() == ECVersionV1 {
		fn.Version = environment.FunctionV06
	}
	ec, err := fn.DecodeInput(j)
	if err != nil {
		c.errorf("C190", in, path, "function-environment-configs would not read its input: %v", err)
		return
	}
	sj, err := json.Marshal(ec.Spec)
	if err != nil {
		c.errorf("C190", in, path, "cannot encode the function input: %v", err)
		return
	}
	s, err := environment.DecodeSpec(sj)
	if err != nil {
		c.errorf("C190", in, path, "%v", err)
		return
	}
	s.Default()
	for _, fe := range append(s.ValidateSchema(), s.Validate()...) {
		c.errorf("C190", in, path+strings.TrimPrefix(fe.Field, "spec.environment"), "%s", fe.ErrorBody())
	}
}

// isCombine reports whether a patch type is one of the Combine types.
func isCombine(typ string) bool { return slices.Contains(combinePatchTypes, typ) }

// stepInputJSON returns the input of pipeline step i as kubectl reads it,
// cut from the document's view (yamledit.JSON is the same for a part of a
// tree as for the whole), or nil when there is no view to cut it from.
func (c validatePass) stepInputJSON(i int) []byte {
	if c.outView == nil {
		v, ok := manifest.NewJSONView(c.outJSON)
		if !ok {
			return nil
		}
		c.outView = v
	}
	v := c.outView
	doc, ok := v.Members(v.All())
	if !ok {
		return nil
	}
	spec, ok := v.Members(manifest.Get(doc, "spec"))
	if !ok {
		return nil
	}
	steps, ok := v.Items(manifest.Get(spec, "pipeline"))
	if !ok || i >= len(steps) {
		return nil
	}
	step, ok := v.Members(steps[i])
	if !ok {
		return nil
	}
	return v.Text(manifest.Get(step, "input"))
}

// checkRoundTrip reads the written document back as kubectl would, and
// checks that what the conversion does not rewrite is unchanged: apiVersion,
// kind, metadata (server fields aside), the composite type reference and
// the other top-level spec fields, and every template's base (C192).
func (c validatePass) checkRoundTrip(got []byte) {
	if c.inJSON == nil || c.lint {
		return
	}
	if got == nil {
		c.errorf("C192", c.node, "", "kubectl cannot read the converted document")
		return
	}
	if c.keptByText(c.inJSON, got) {
		return
	}
	var before, after map[string]any
	if err := json.Unmarshal(c.inJSON, &before); err != nil {
		return
	}
	if err := json.Unmarshal(got, &after); err != nil {
		c.errorf("C192", c.node, "", "cannot read the converted document back: %v", err)
		return
	}
	if c.base != "" {
		after = listItem(after, c.base)
		if after == nil {
			c.errorf("C192", c.node, "", "the converted List lost the Composition")
			return
		}
	}
	mismatch := func(what string) {
		c.errorf("C192", c.node, what, "changed by the conversion, which must not touch it")
	}
	for _, k := range []string{"apiVersion", "kind"} {
		if !reflect.DeepEqual(before[k], after[k]) {
			mismatch(k)
		}
	}
	bm, _ := before["metadata"].(map[string]any)
	am, _ := after["metadata"].(map[string]any)
	if !c.r.o.KeepServerFields && bm != nil {
		bm = stripServer(bm)
	}
	if len(c.intended) > 0 {
		bm, am = withoutIntended(bm), withoutIntended(am)
	}
	bs, _ := before["spec"].(map[string]any)
	if c.plan != nil {
		bm, bs = c.plan.Expected(bm, bs)
	}
	if !reflect.DeepEqual(bm, am) {
		mismatch("metadata")
	}
	as, _ := after["spec"].(map[string]any)
	for k, v := range bs {
		switch k {
		case "resources", "patchSets", "environment", "mode", "pipeline", "publishConnectionDetailsWithStoreConfigRef", "functions":
			continue
		}
		if !reflect.DeepEqual(v, as[k]) {
			mismatch("spec." + k)
		}
	}
	if bs["mode"] == "Pipeline" {
		return // The steps were there before; leftovers were removed.
	}
	res, _ := bs["resources"].([]any)
	var outRes []any
	if c.r.o.Phase1 {
		outRes, _ = as["resources"].([]any)
	} else if steps, _ := as["pipeline"].([]any); len(steps) > 0 {
		for _, s := range steps {
			sm, _ := s.(map[string]any)
			in, _ := sm["input"].(map[string]any)
			if in["apiVersion"] == PTInputAPIVersion {
				outRes, _ = in["resources"].([]any)
			}
		}
	}
	if len(res) != len(outRes) {
		mismatch("spec.resources")
		return
	}
	for i := range res {
		b, _ := res[i].(map[string]any)
		a, _ := outRes[i].(map[string]any)
		want := c.r.o.expectedBase(b["base"])
		if bb, ok := want.(map[string]any); ok && c.plan != nil {
			name, _ := a["name"].(string)
			want = c.plan.ExpectedBase(name, bb)
		}
		if !reflect.DeepEqual(want, a["base"]) {
			mismatch(idx("spec.resources", i) + ".base")
		}
	}
}

// withoutIntended returns metadata without IntendedChangesAnnotation,
// which the conversion writes when it fixes a quirk on request.
func withoutIntended(md map[string]any) map[string]any {
	an, _ := md["annotations"].(map[string]any)
	if _, ok := an[IntendedChangesAnnotation]; !ok {
		return md
	}
	out := map[string]any{}
	for k, v := range md {
		out[k] = v
	}
	a := map[string]any{}
	for k, v := range an {
		if k != IntendedChangesAnnotation {
			a[k] = v
		}
	}
	delete(out, "annotations")
	if len(a) > 0 {
		out["annotations"] = a
	}
	return out
}

func stripServer(md map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range md {
		switch {
		case xp.IsServerField(k):
			continue
		case k == "annotations":
			an, _ := v.(map[string]any)
			kept := map[string]any{}
			for ak, av := range an {
				if ak != xp.AnnotationLastApplied {
					kept[ak] = av
				}
			}
			if len(kept) == 0 && len(an) > 0 {
				continue
			}
			if an != nil {
				v = kept
			}
		}
		out[k] = v
	}
	return out
}

// listItem returns the List item at base ("items[3].").
func listItem(doc map[string]any, base string) map[string]any {
	var i int
	if _, err := fmt.Sscanf(base, "items[%d].", &i); err != nil {
		return nil
	}
	items, _ := doc["items"].([]any)
	if i < 0 || i >= len(items) {
		return nil
	}
	m, _ := items[i].(map[string]any)
	return m
}

// input validates the normalised input as native Crossplane does, and
// reports the first transform that can fail (C317).
func (c validatePass) input() {
	c.nativeValidation()
	if c.fallible != "" && !c.failed {
		c.infof("C317", c.fallNode, c.fallible, "a patch that fails (a transform that cannot convert, match or map its input) now fails the whole XR with a fatal result; natively only that resource was skipped")
	}
}
